//! Settings of a calibration run: the levels, the table, the workers, the CSV created or
//! resumed, the labels standing in for exact solves, and when to stop.

use crate::search::{Level, SearchOptions};
use std::path::PathBuf;

/// Settings of a calibration run.
#[derive(Clone, Debug)]
pub struct CalibrateOptions {
    /// Selectivity levels to measure (the exact solve is always made).
    pub levels: Vec<Level>,
    /// Table size of each worker, MB.
    pub hash_mb: usize,
    /// Search switches (the selectivity is set per solve).
    pub search: SearchOptions,
    /// Positions solved at once, one thread and one table each (node counts repeat).
    pub workers: usize,
    /// The CSV of rows, created or resumed.
    pub csv: PathBuf,
    /// Once set (SIGINT, SIGTERM), no position is started and the solves in progress give
    /// up without a row; [`run_calibrate`](super::run_calibrate) returns
    /// [`CalibrateError::Stopped`](crate::error::CalibrateError::Stopped), every row
    /// written before kept for the same command to resume from.
    pub interrupt: crate::interrupt::Interrupt,
    /// A progress bar on stderr, when it is a terminal.
    pub progress: bool,
    /// Suite or batch CSVs whose exact answers stand in for the exact solves of their
    /// positions (`finale batch` labels made once, perhaps on other machines). They name
    /// one best move each (no ties), so a probable move that differs from it is checked
    /// by one exact null-window search of the position after it.
    pub labels: Vec<PathBuf>,
    /// Labels of proven `finale prove` folders (read by `finale::prove::proof_label`),
    /// after the CSVs', each beside its folder.
    pub proofs: Vec<(PathBuf, crate::commands::exact_labels::Label)>,
}
