//! A game as a file gives it, before it is replayed: its moves and, from a WTHOR file, the
//! record's numbers (tournament, players, scores).

use super::error::Damage;
use crate::board::Square;

/// One game read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// 1-based number within its file: the record (WTHOR) or the line (text).
    pub number: usize,
    /// The record's numbers; `None` for a line of moves.
    pub record: Option<Record>,
    /// The moves from the start position, passes not written.
    pub moves: Vec<Square>,
}

/// What a WTHOR game record gives besides its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// Tournament number (a record of `WTHOR.TRN`).
    pub tournament: u16,
    /// Black player's number (a record of `WTHOR.JOU`).
    pub black: u16,
    /// White player's number.
    pub white: u16,
    /// Black's discs at the end of the game, empty squares going to the winner.
    pub real: u8,
    /// Black's discs under perfect play from the position with the file's P3 empties.
    pub theoretical: u8,
}

impl Record {
    /// The theoretical score as black's disc difference: `2 t - 64`.
    pub fn theoretical_for_black(&self) -> i32 {
        2 * i32::from(self.theoretical) - 64
    }

    /// The real score as black's disc difference.
    pub fn real_for_black(&self) -> i32 {
        2 * i32::from(self.real) - 64
    }
}

/// A game that cannot be used, with what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damaged {
    /// 1-based number within its file, as [`Game::number`].
    pub number: usize,
    /// The record's numbers where they could be read (not of a truncated record), so
    /// that filters by player and tournament apply to damaged games too.
    pub record: Option<Record>,
    /// What is wrong.
    pub damage: Damage,
}
