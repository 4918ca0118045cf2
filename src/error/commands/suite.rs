//! What can go wrong in a suite and its variants (`crate::commands::{suite, variant,
//! switches}`), as a type library callers can match.

use std::path::PathBuf;
use thiserror::Error;

/// A suite or variant error.
#[derive(Debug, Error)]
pub enum SuiteError {
    /// `run_suite` got no file.
    #[error("suite: no file given")]
    NoFile,
    /// A `--variant` that does not parse, or asks for what cannot be had (e.g. weights
    /// that do not load).
    #[error("--variant '{text}': {why}")]
    Variant {
        /// The variant as given.
        text: String,
        /// What is wrong, as the CLI would say it.
        why: String,
    },
    /// A `--binary` that is not a file.
    #[error("--binary {}: no such file", .0.display())]
    NoBinary(PathBuf),
    /// A `--binary` that does not answer `--version` as a finale does.
    #[error("--binary {}: not a finale binary ({why})", binary.display())]
    NotFinale {
        /// The binary as given.
        binary: PathBuf,
        /// What it did instead.
        why: String,
    },
    /// An `--engine NAME:PATH` that names no adapter or no usable executable.
    #[error("--engine '{spec}': {why}")]
    Engine {
        /// The option's value as given.
        spec: String,
        /// What is wrong.
        why: String,
    },
    /// Another binary that failed (its first line of stderr).
    #[error("{}: {message}", binary.display())]
    BinaryFailed {
        /// The binary.
        binary: PathBuf,
        /// What it said.
        message: String,
    },
    /// Another binary whose CSV this one cannot read.
    #[error("{}: {what}", binary.display())]
    BinaryCsv {
        /// The binary.
        binary: PathBuf,
        /// What is wrong with its CSV.
        what: String,
    },
}
