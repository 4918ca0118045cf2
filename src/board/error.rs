//! What can be wrong with positions given as text: an OBF line, a move sequence, a file of
//! positions. Every message is one line naming what is wrong and where.

use std::path::PathBuf;
use thiserror::Error;

/// What is wrong with one OBF line; the caller adds the file and line number.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ObfError {
    /// The board field does not hold 64 squares.
    #[error("board has {found} squares, expected 64")]
    BoardLength {
        /// Squares found before the first space.
        found: usize,
    },
    /// A board character outside `XxOo-.*`.
    #[error("column {column}: invalid square character '{ch}' (expected X, O, -, x, o, *, .)")]
    BadSquare {
        /// 1-based column in the line.
        column: usize,
        /// The character found.
        ch: char,
    },
    /// A byte that is not UTF-8 text in the board.
    #[error("column {column}: not text (a byte that is not UTF-8; is this an OBF file?)")]
    NotText {
        /// 1-based column in the line.
        column: usize,
    },
    /// A line longer than any OBF line.
    #[error("line longer than {max} bytes (an OBF line is under 1 kB; is this an OBF file?)")]
    LineTooLong {
        /// The limit.
        max: usize,
    },
    /// Nothing after the board.
    #[error("column {column}: missing side to move (expected X or O)")]
    MissingSide {
        /// 1-based column where the side was expected.
        column: usize,
    },
    /// The side field is not `X` or `O`.
    #[error("column {column}: invalid side to move '{found}' (expected X or O)")]
    BadSide {
        /// 1-based column of the field.
        column: usize,
        /// The text found.
        found: String,
    },
    /// Text after the side that is not a `;`-separated list.
    #[error("column {column}: unexpected text '{found}' after the side to move (expected ';')")]
    Trailing {
        /// 1-based column of the text.
        column: usize,
        /// The text found.
        found: String,
    },
    /// A `MOVE:SCORE` pair that does not parse.
    #[error("column {column}: invalid move:score pair '{found}' (expected e.g. G8:+18)")]
    BadPair {
        /// 1-based column of the pair.
        column: usize,
        /// The text found.
        found: String,
    },
    /// A listed move that is not legal in the position.
    #[error("column {column}: move {mv} is not legal in this position")]
    IllegalListedMove {
        /// 1-based column of the pair.
        column: usize,
        /// The move as written.
        mv: String,
    },
    /// A listed score outside -64..=64.
    #[error("column {column}: score {score} is outside -64..64")]
    ScoreRange {
        /// 1-based column of the pair.
        column: usize,
        /// The score found.
        score: i64,
    },
    /// A score alone beside another value: a second score, or `MOVE:SCORE` pairs.
    #[error(
        "column {column}: a score alone must be the line's only value (no second score, no MOVE:SCORE pairs)"
    )]
    ExtraScore {
        /// 1-based column of the field.
        column: usize,
    },
    /// A window field that is not `window A,B` with -64 <= A < B <= 64.
    #[error(
        "column {column}: invalid window '{found}' (expected e.g. window -3,3: two scores, the first below the second, within -64..64)"
    )]
    BadWindow {
        /// 1-based column of the field.
        column: usize,
        /// The text found.
        found: String,
    },
    /// A second window field.
    #[error("column {column}: a line gives at most one window")]
    ExtraWindow {
        /// 1-based column of the second field.
        column: usize,
    },
    /// The same move listed twice.
    #[error("column {column}: move {mv} is listed twice")]
    DuplicateMove {
        /// 1-based column of the second listing.
        column: usize,
        /// The move as written.
        mv: String,
    },
}

/// What is wrong with a move sequence such as `f5d6c3`.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum MovesError {
    /// Text that is not a square name.
    #[error("move {index} ('{found}'): not a square (expected a1..h8)")]
    NotASquare {
        /// 1-based move number.
        index: usize,
        /// The text found.
        found: String,
    },
    /// A square the side to move cannot play.
    #[error("move {index} ({mv}): illegal for {side} in this position")]
    Illegal {
        /// 1-based move number.
        index: usize,
        /// The move.
        mv: String,
        /// `black` or `white`.
        side: &'static str,
    },
    /// A move after the game has ended.
    #[error("move {index} ({mv}): the game is already over")]
    GameOver {
        /// 1-based move number.
        index: usize,
        /// The move.
        mv: String,
    },
}

/// Positions that cannot be read.
#[derive(Debug, Error)]
pub enum ReadError {
    /// A file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// An OBF line is malformed.
    #[error("{origin}:{line}: {error}")]
    Obf {
        /// File name, or `argument` for a position given on the command line.
        origin: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        error: ObfError,
    },
    /// Text or a file that holds no position.
    #[error("{0}: {1}")]
    Empty(String, &'static str),
}

/// Why `FINALE_KERNELS` cannot be followed.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum KernelsError {
    /// Not a kernel set's name.
    #[error("FINALE_KERNELS={0:?}: not a kernel set (portable, avx2 or avx512)")]
    Unknown(String),
    /// This CPU lacks the set's features.
    #[error("FINALE_KERNELS={0}: this CPU lacks the features of that kernel set (it has: {1})")]
    Unsupported(&'static str, &'static str),
}
