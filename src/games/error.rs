//! What can be wrong with a file of games: a WTHOR header that is not one ([`HeaderError`],
//! the whole file refused), a players or tournaments file ([`NamesError`]), or one game
//! ([`Damage`]: the game is skipped and counted, or refused with `--strict`). Every message
//! is one line.

use crate::board::Square;
use std::path::PathBuf;
use thiserror::Error;

/// A WTHOR game file's header that does not describe the file.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum HeaderError {
    /// Fewer bytes than a header.
    #[error("{len} bytes: shorter than the 16-byte WTHOR header")]
    Short {
        /// The file's length.
        len: u64,
    },
    /// More bytes than the header's games take (a file shorter than them is truncated:
    /// its last games are damaged, not the header).
    #[error(
        "not a WTHOR game file: its header counts {games} games ({expected} bytes with the header) but the file has {found} bytes"
    )]
    Size {
        /// N1, the games the header counts.
        games: u32,
        /// 16 + 68 x N1.
        expected: u64,
        /// The file's length.
        found: u64,
    },
    /// A players or tournaments file given as games.
    #[error(
        "not a WTHOR game file: its header counts no game but {records} name records (a WTHOR.JOU or WTHOR.TRN file?)"
    )]
    NameFile {
        /// N2, the records the header counts.
        records: u16,
    },
    /// Byte 12 is not an 8x8 board.
    #[error("board size {size} (header byte 12): only 8x8 games (0 or 8) can be read")]
    BoardSize {
        /// The byte.
        size: u8,
    },
    /// Byte 14, P3, is not a depth a theoretical score can have been computed at.
    #[error("P3 {depth} (header byte 14): the theoretical score's depth must be 1 to 60 empties")]
    Depth {
        /// The byte.
        depth: u8,
    },
}

/// A WTHOR players (`.JOU`) or tournaments (`.TRN`) file that cannot be read.
#[derive(Debug, Error)]
pub enum NamesError {
    /// The file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// Its length is not what its header counts.
    #[error(
        "{}: {found} bytes, but its header counts {records} names of {width} bytes ({expected} bytes with the header)",
        path.display()
    )]
    Size {
        /// The file.
        path: PathBuf,
        /// N2, the names the header counts.
        records: u16,
        /// Bytes a name.
        width: usize,
        /// 16 + width x N2.
        expected: u64,
        /// The file's length.
        found: u64,
    },
}

/// What is wrong with one game. `index` is the 1-based number of the move in the game.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum Damage {
    /// A WTHOR move byte that is neither 0 nor 10 x row + column with both 1..8.
    #[error("move {index}: byte {byte} is not a square (expected 11..88, row and column 1..8)")]
    ByteOutOfRange {
        /// The move.
        index: usize,
        /// The byte.
        byte: u8,
    },
    /// A WTHOR move byte after the 0 that ends the moves.
    #[error("move {index}: byte {byte} after the 0 that ends the moves")]
    AfterEndMarker {
        /// The move.
        index: usize,
        /// The byte.
        byte: u8,
    },
    /// Text in a line of moves that is not a square.
    #[error("move {index} ('{found}'): not a square (expected a1..h8)")]
    NotASquare {
        /// The move.
        index: usize,
        /// The text found.
        found: String,
    },
    /// A move the side to move cannot play (nor, passing, the other side).
    #[error("move {index} ({mv}): illegal for {side}")]
    Illegal {
        /// The move.
        index: usize,
        /// The square.
        mv: Square,
        /// `black` or `white`: who was to move.
        side: &'static str,
    },
    /// A move after neither side could move.
    #[error("move {index} ({mv}): the game is already over")]
    AfterGameOver {
        /// The move.
        index: usize,
        /// The square.
        mv: Square,
    },
    /// A WTHOR score byte above 64 discs.
    #[error("{which} score {value} is more than 64 discs")]
    ScoreRange {
        /// `real` (byte 6) or `theoretical` (byte 7).
        which: &'static str,
        /// The byte.
        value: u8,
    },
    /// A WTHOR file that ends within or before the game records its header counts.
    #[error(
        "truncated record: the file ends {bytes} bytes into this record of 68, before move {index} ({missing} of the header's games missing)"
    )]
    Truncated {
        /// The first move missing (1 when the record ends before its moves).
        index: usize,
        /// The bytes of this record the file holds.
        bytes: usize,
        /// The games the header counts that the file lacks, this one included.
        missing: u64,
    },
}

impl Damage {
    /// The kind, as the summary counts skipped games by.
    pub fn kind(&self) -> &'static str {
        match self {
            Damage::ByteOutOfRange { .. } => "move byte out of range",
            Damage::AfterEndMarker { .. } => "move after the end marker",
            Damage::NotASquare { .. } => "not a square",
            Damage::Illegal { .. } => "illegal move",
            Damage::AfterGameOver { .. } => "move after the game ended",
            Damage::ScoreRange { .. } => "score out of range",
            Damage::Truncated { .. } => "truncated record",
        }
    }

    /// The games it stands for: every game a truncated file lacks, else one.
    pub fn games(&self) -> u64 {
        match self {
            Damage::Truncated { missing, .. } => *missing,
            _ => 1,
        }
    }
}
