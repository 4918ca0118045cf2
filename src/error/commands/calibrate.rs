//! What can go wrong in `finale calibrate` (`crate::commands::calibrate`), as a type
//! library callers can match.

use std::path::PathBuf;
use thiserror::Error;

/// A calibration error.
#[derive(Debug, Error)]
pub enum CalibrateError {
    /// Stopped by SIGINT or SIGTERM; the rows written are kept.
    #[error(
        "calibrate stopped by {cause}: {finished} of {total} positions finished, their rows \
         kept in {}; run the same command to resume",
        path.display()
    )]
    Stopped {
        /// The signal.
        cause: &'static str,
        /// Positions with every row written.
        finished: usize,
        /// Positions in all.
        total: usize,
        /// The CSV.
        path: PathBuf,
    },
    /// The workers' tables together do not fit.
    #[error("--threads {workers} x --hash-mb {hash_mb}: {why}")]
    Tables {
        /// Positions solved at once.
        workers: usize,
        /// Table size of each.
        hash_mb: usize,
        /// Why they do not fit.
        why: String,
    },
    /// A selectivity level that makes no promise to measure (the narrow search).
    #[error("calibrate: no selectivity level {0}")]
    NoLevel(crate::search::Level),
    /// A calibration CSV that cannot be resumed.
    #[error("{}:{line}: {what}", path.display())]
    BadCsv {
        /// The CSV.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// What is wrong.
        what: String,
    },
    /// Another calibrate holds the CSV's lock.
    #[error(
        "{}: another finale calibrate is writing this file (it holds its lock); not writing \
         it too",
        .0.display()
    )]
    Locked(PathBuf),
    /// A calibration CSV refused before anything was changed in it.
    #[error("{0} (left untouched)")]
    LeftUntouched(Box<CalibrateError>),
}
