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
    /// The run was stopped (by SIGINT or SIGTERM) before its weights were made.
    #[error("train stopped by {0} before the weights were made: nothing written to --out")]
    Stopped(&'static str),
    /// `--exact-max-empties` beyond what exact solves can label: the value given, and the
    /// most allowed.
    #[error(
        "--exact-max-empties {0}: must be at most {1} (exact solves of more empties take minutes to hours each)"
    )]
    ExactMaxEmpties(u32, u32),
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
        "train-mpc: empties {lo}-{hi} with {per_empties} positions each: need 1 <= A <= B <= 40 and at least 2"
    )]
    MpcRange {
        /// Fewest empties.
        lo: u32,
        /// Most empties.
        hi: u32,
        /// Positions per empties count.
        per_empties: usize,
    },
    /// An output the weights could not be saved to, found before any work.
    #[error("--out {}: {why}", path.display())]
    Unwritable {
        /// The output as given.
        path: PathBuf,
        /// Why not.
        why: String,
    },
}
