//! Error types. Every message is one line naming what is wrong and where.

use std::path::PathBuf;
use thiserror::Error;

mod batch;
mod commands;
mod prove;
mod results;
mod train;

pub use crate::board::error::{MovesError, ObfError, ReadError};
pub use batch::BatchError;
pub use commands::{
    CalibrateError, CompareError, ExactLabelsError, GamesError, RequestError, SuiteError,
};
pub use prove::ProveError;
pub use results::ResultsError;
pub use train::TrainError;

/// Any error finale reports.
#[derive(Debug, Error)]
pub enum Error {
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// Positions that cannot be read (a missing file, a malformed OBF line).
    #[error(transparent)]
    Read(#[from] ReadError),
    /// A move sequence is malformed or illegal.
    #[error("--moves: {0}")]
    Moves(#[from] MovesError),
    /// A CSV could not be written.
    #[error("{}: {source}", path.display())]
    Csv {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: csv::Error,
    },
    /// A file could not be created or written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// Standard output could not be written (e.g. the reader of a pipe went away).
    #[error("writing to standard output: {0}")]
    Output(#[source] std::io::Error),
    /// A calibration error.
    #[error(transparent)]
    Calibrate(#[from] CalibrateError),
    /// A training error.
    #[error(transparent)]
    Train(#[from] TrainError),
    /// Exact answers that cannot be read back as labels.
    #[error(transparent)]
    Labels(#[from] ExactLabelsError),
    /// A suite or variant error.
    #[error(transparent)]
    Suite(#[from] SuiteError),
    /// A compare, report or CSV-reading error.
    #[error(transparent)]
    Compare(#[from] CompareError),
    /// A batch, merge or shard error.
    #[error(transparent)]
    Batch(#[from] BatchError),
    /// A proof error.
    #[error(transparent)]
    Prove(#[from] ProveError),
    /// A long command stopped by SIGINT or SIGTERM, having kept what it says.
    #[error(transparent)]
    Stopped(#[from] crate::interrupt::Stopped),
    /// A command's files refused before any work: an output over an input, a device or a
    /// pipe; an input that cannot be read whole.
    #[error(transparent)]
    Guard(#[from] crate::durable::GuardError),
    /// A `games` error: a WTHOR header, a damaged game under --strict, names.
    #[error(transparent)]
    Games(#[from] GamesError),
    /// A results error (the suite CSV's default name).
    #[error(transparent)]
    Results(#[from] ResultsError),
    /// Evaluation weights that cannot be used.
    #[error(transparent)]
    Eval(#[from] crate::eval::EvalError),
    /// The built-in weights cannot be used (decoded once per process, so shared).
    #[error(transparent)]
    ShippedEval(&'static crate::eval::EvalError),
    /// A request that cannot be served as asked.
    #[error(transparent)]
    Request(#[from] RequestError),
    /// The system refused a solver's threads or tables.
    #[error(transparent)]
    Start(#[from] crate::search::StartError),
}

/// Result with finale's error.
pub type Result<T> = std::result::Result<T, Error>;
