//! Lines of moves, the common text format of game archives: one game a line, each move a
//! square (`f5d6c3...`, letters in either case, blanks allowed between moves), passes not
//! written. Blank lines and lines starting with `%` or `#` are not games.

use super::error::Damage;
use super::game::{Damaged, Game};
use crate::board::Square;

/// The squares of one line of moves; the first text that is not a square is damage.
pub fn parse_line(line: &str) -> Result<Vec<Square>, Damage> {
    let chars: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
    chars
        .chunks(2)
        .enumerate()
        .map(|(k, pair)| {
            let found: String = pair.iter().collect();
            Square::parse(&found).ok_or(Damage::NotASquare {
                index: k + 1,
                found,
            })
        })
        .collect()
}

/// Whether a line holds a game: not blank, not a `%` or `#` comment.
pub fn is_game(line: &str) -> bool {
    let t = line.trim_start();
    !t.is_empty() && !t.starts_with('%') && !t.starts_with('#')
}

/// Every game of `text`, numbered by its 1-based line.
pub fn games(text: &str) -> impl Iterator<Item = Result<Game, Damaged>> + '_ {
    text.lines()
        .enumerate()
        .filter(|(_, line)| is_game(line))
        .map(|(i, line)| {
            let number = i + 1;
            match parse_line(line) {
                Ok(moves) => Ok(Game {
                    number,
                    record: None,
                    moves,
                }),
                Err(damage) => Err(Damaged {
                    number,
                    record: None,
                    damage,
                }),
            }
        })
}
