//! What can go wrong with the files of `crate::results` (the suite CSV), as a type library
//! callers can match.

use std::path::PathBuf;
use thiserror::Error;

/// A results error.
#[derive(Debug, Error)]
pub enum ResultsError {
    /// Every default CSV name a suite could take in `dir` is taken.
    #[error("{}: {base}.csv to {base}-{last}.csv all exist; give --csv PATH", dir.display())]
    NamesTaken {
        /// The directory of the CSVs.
        dir: PathBuf,
        /// The name without suffix, e.g. `2026-11-22-fforum-40-59`.
        base: String,
        /// The last suffix tried.
        last: u32,
    },
}
