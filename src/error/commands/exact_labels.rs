//! What can go wrong reading exact answers back as labels (`crate::commands::exact_labels`).

use std::path::PathBuf;
use thiserror::Error;

/// A labels error.
#[derive(Debug, Error)]
pub enum ExactLabelsError {
    /// A row that cannot be a label.
    #[error("{}:{line}: {what}", path.display())]
    Bad {
        /// The CSV.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// What is wrong.
        what: String,
    },
    /// A directory given as labels that no `finale prove` made.
    #[error("{}: a directory of labels must be a finale prove work folder, and it holds no prove.txt", .0.display())]
    NotProof(PathBuf),
    /// A `finale prove` folder given as labels whose rows do not yet prove the value.
    #[error("{}: the proof's rows bound the value to {lower}..{upper}, not one score with a move (run finale prove on it until it is proven)", dir.display())]
    Unproven {
        /// The work folder.
        dir: PathBuf,
        /// The proven lower bound.
        lower: i32,
        /// The proven upper bound.
        upper: i32,
    },
    /// Two rows of one position with other exact scores: one of them is wrong.
    #[error("{}:{line}: position {key} scored {score:+} here and {before:+} before", path.display())]
    Disagree {
        /// The CSV of the second row.
        path: PathBuf,
        /// Its line.
        line: u64,
        /// The position's key.
        key: String,
        /// Its score there.
        score: i32,
        /// The score read first.
        before: i32,
    },
}
