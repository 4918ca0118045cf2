//! What can go wrong in training (`crate::train`, `finale train` and `train-mpc`), as a
//! type library callers can match.

use std::path::PathBuf;
use thiserror::Error;

/// A training error.
#[derive(Debug, Error)]
pub enum TrainError {
    /// Labels by searches shallower than one phase.
    #[error(
        "--label-depth {0}: must be at least 4 (one phase), so that searches evaluate only fitted phases"
    )]
    LabelDepth(u32),
    /// A regularisation that is negative or not a number.
    #[error("--l2 {0}: must be a number at least 0")]
    L2(f32),
    /// No games.
    #[error("--games 0: nothing to train on")]
    NoGames,
    /// No generation.
    #[error("--generations 0: at least one generation is trained")]
    NoGenerations,
    /// The thread pool could not be started.
    #[error("cannot start {threads} threads: {why}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// The pool's reason.
        why: String,
    },
    /// A train-mpc range that cannot be measured.
    #[error(
        "train-mpc: empties {lo}-{hi} with {per_empties} positions each: need A <= B <= 40 and at least 2"
    )]
    MpcRange {
        /// Fewest empties.
        lo: u32,
        /// Most empties.
        hi: u32,
        /// Positions per empties count.
        per_empties: usize,
    },
    /// An output that exists, without --force.
    #[error("{}: already exists (use --force to replace it)", .0.display())]
    Exists(PathBuf),
}
