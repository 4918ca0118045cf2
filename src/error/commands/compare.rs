//! What can go wrong reading suite and batch CSVs back to compare or report them
//! (`crate::commands::{compare, report, run_csv}`), as a type library callers can match.

use std::path::PathBuf;
use thiserror::Error;

/// A compare, report or CSV-reading error.
#[derive(Debug, Error)]
pub enum CompareError {
    /// A CSV without a column the reader needs.
    #[error("{}:1: no '{column}' column: not a finale suite or batch CSV", path.display())]
    MissingColumn {
        /// The CSV.
        path: PathBuf,
        /// The column.
        column: String,
    },
    /// A CSV whose header names a column twice.
    #[error("{}:1: two '{column}' columns", path.display())]
    DuplicateColumn {
        /// The CSV.
        path: PathBuf,
        /// The column.
        column: String,
    },
    /// A row that is not a whole row of the file (other than a torn last row, which is
    /// dropped): another number of fields than the header, or text that is not UTF-8.
    #[error("{}:{line}: malformed row ({what})", path.display())]
    Malformed {
        /// The CSV.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// What is wrong, e.g. `2 fields, the header has 5`.
        what: String,
    },
    /// A value that does not parse.
    #[error("{}:{line}: bad {column}{expected}", path.display())]
    BadValue {
        /// The CSV.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// The column.
        column: String,
        /// What was expected, e.g. ` (expected seconds from 0 to 1e9)`.
        expected: String,
    },
    /// Two runs without a position in common.
    #[error("compare: no position is in both {0} and {1}")]
    NothingInCommon(String, String),
    /// Two runs of the same positions, in other modes.
    #[error(
        "compare: {a} and {b} hold the same positions in other modes ({modes_a} in {a}, \
         {modes_b} in {b}); compare runs of one mode"
    )]
    ModesDiffer {
        /// Run A's label.
        a: String,
        /// Run B's label.
        b: String,
        /// Run A's modes of the positions both hold.
        modes_a: String,
        /// Run B's modes of them.
        modes_b: String,
    },
    /// A CSV without a solved row: only its header, or only timeout and error rows.
    #[error("{}: no solved rows (only timeouts or errors, or none at all)", .0.display())]
    NoSolvedRows(PathBuf),
    /// A CSV of several variants given beside another CSV.
    #[error("{}: holds {variants} variants; compare it alone to compare them", path.display())]
    SeveralVariants {
        /// The CSV.
        path: PathBuf,
        /// Variants found.
        variants: usize,
    },
    /// One CSV alone that holds a single variant.
    #[error("{}: compare of one file needs two or more variants, found {variants}", path.display())]
    NotTwoVariants {
        /// The CSV.
        path: PathBuf,
        /// Variants found.
        variants: usize,
    },
    /// Neither two CSVs nor one.
    #[error("compare: give two CSVs (A B), or one CSV with two or more variants")]
    FileCount,
    /// Nothing solved to draw.
    #[error("report: no solved positions in the CSVs")]
    NothingToReport,
    /// The plot could not be drawn.
    #[error("{}: cannot draw: {why}", path.display())]
    Draw {
        /// The SVG.
        path: PathBuf,
        /// The plotting library's reason.
        why: String,
    },
}
