//! Lines of moves: `games::text::games` on arbitrary bytes (read as the `games` command
//! reads them), each game replayed.
//!
//! Never a panic. Each game is a line that is not blank or a comment, numbered by its line,
//! in order; its moves are the squares its non-blank characters spell, two by two, and a
//! damaged line names the first pair that is not a square. A replay agrees with
//! `parse_moves` of the same line: the same last position, or the same move refused.

#![no_main]

use finale::board::{Square, parse_moves};
use finale::games::text::{games, is_game};
use finale::games::{Damage, replay};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let lines: Vec<&str> = text.lines().collect();
    let mut last = 0;
    let mut count = 0;
    for item in games(&text) {
        count += 1;
        let number = match &item {
            Ok(g) => g.number,
            Err(d) => d.number,
        };
        assert!(number > last && number <= lines.len());
        last = number;
        let line = lines[number - 1];
        assert!(is_game(line));
        let chars: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
        let pairs: Vec<String> = chars.chunks(2).map(|p| p.iter().collect()).collect();
        match item {
            Ok(game) => {
                assert_eq!(game.moves.len(), pairs.len());
                for (m, p) in game.moves.iter().zip(&pairs) {
                    assert_eq!(Some(*m), Square::parse(p));
                }
                check_replay(line, &game.moves);
            }
            Err(d) => match d.damage {
                Damage::NotASquare { index, found } => {
                    assert_eq!(pairs[index - 1], found);
                    assert!(Square::parse(&found).is_none());
                    assert!(pairs[..index - 1].iter().all(|p| Square::parse(p).is_some()));
                }
                other => panic!("line {number}: {other:?}"),
            },
        }
    }
    assert_eq!(count, lines.iter().filter(|l| is_game(l)).count());
});

fn check_replay(line: &str, moves: &[Square]) {
    let by_text = parse_moves(line);
    match replay(moves) {
        Ok(played) => assert_eq!(by_text, Ok(played.last), "{line:?}"),
        Err(damage) => {
            let index = match damage {
                Damage::Illegal { index, .. } | Damage::AfterGameOver { index, .. } => index,
                other => panic!("replay found {other:?}"),
            };
            let refused = by_text.expect_err("parse_moves refuses it too").to_string();
            assert!(refused.starts_with(&format!("move {index} ")), "{refused} vs {damage}");
        }
    }
}
