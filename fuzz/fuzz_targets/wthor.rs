//! WTHOR files: `WthorFile::parse` and its games on arbitrary bytes, each game replayed;
//! the same bytes as a players (`.JOU`) and a tournaments (`.TRN`) file.
//!
//! Never a panic. A refused header says why, truly (too short, more bytes than its games,
//! a names file, a board size, a P3). An accepted one gives exactly the whole records as
//! games, then one truncated game standing for all the header counts and the file lacks.
//! A game's moves are squares; its replay is what `parse_moves` makes of the same moves
//! as text (the same last position, or the same move refused), and every position it
//! lists has a move for its side and one empty square fewer than the one before.

#![no_main]

use finale::board::parse_moves;
use finale::games::names::{PLAYER_BYTES, TOURNAMENT_BYTES, parse};
use finale::games::{Damage, Game, HeaderError, WthorFile, replay};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    check_file(data);
    for width in [PLAYER_BYTES, TOURNAMENT_BYTES] {
        check_names(data, width);
    }
});

fn check_file(data: &[u8]) {
    let file = match WthorFile::parse(data.to_vec()) {
        Ok(file) => file,
        Err(e) => return check_refusal(data, &e),
    };
    let h = file.header;
    assert!(data.len() >= 16 && (1..=60).contains(&h.depth));
    assert!(data[12] == 0 || data[12] == 8);
    let whole = (data.len() - 16) / 68;
    let (mut games, mut items) = (0u64, 0usize);
    for item in file.games() {
        items += 1;
        match item {
            Ok(game) => {
                assert_eq!(game.number, items);
                games += 1;
                check_game(&game);
            }
            Err(d) => {
                games += d.damage.games();
                assert!(!d.damage.to_string().contains('\n'));
                if let Damage::Truncated { bytes, .. } = d.damage {
                    assert_eq!((d.number, bytes), (whole + 1, (data.len() - 16) % 68));
                } else {
                    assert_eq!(d.number, items);
                }
            }
        }
    }
    assert_eq!(games, u64::from(h.games), "every game the header counts");
    assert!(items == whole || items == whole + 1);
}

fn check_refusal(data: &[u8], e: &HeaderError) {
    assert!(!e.to_string().contains('\n'));
    let n1 = |d: &[u8]| u64::from(u32::from_le_bytes([d[4], d[5], d[6], d[7]]));
    match *e {
        HeaderError::Short { len } => assert!(len < 16 && len == data.len() as u64),
        HeaderError::Size { expected, found, .. } => {
            assert_eq!(expected, 16 + 68 * n1(data));
            assert!(found > expected);
        }
        HeaderError::NameFile { records } => {
            assert_eq!((n1(data), u16::from_le_bytes([data[8], data[9]])), (0, records));
        }
        HeaderError::BoardSize { size } => assert!(size == data[12] && size != 0 && size != 8),
        HeaderError::Depth { depth } => assert!(depth == data[14] && !(1..=60).contains(&depth)),
    }
}

/// A game's replay against `parse_moves` of its moves as text.
fn check_game(game: &Game) {
    assert!(game.moves.len() <= 60);
    let text: String = game.moves.iter().map(|m| m.to_string()).collect();
    let by_text = parse_moves(&text);
    match replay(&game.moves) {
        Ok(played) => {
            assert_eq!(by_text, Ok(played.last), "{text}");
            let mut previous = 61;
            for p in &played.positions {
                assert_ne!(p.board.moves(), 0);
                let empties = p.board.empty_count();
                assert_eq!(empties + 1, previous, "{text}");
                previous = empties;
            }
            assert!(played.positions.len() >= game.moves.len());
        }
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

fn check_names(data: &[u8], width: usize) {
    match parse(data, width, Path::new("fuzz")) {
        Ok(names) => {
            assert_eq!(16 + width * names.len(), data.len());
            for n in &names {
                assert!(n.chars().count() <= width);
                assert!(!n.chars().any(char::is_control), "{n:?}");
            }
        }
        Err(e) => assert!(e.to_string().starts_with("fuzz: ") && !e.to_string().contains('\n')),
    }
}
