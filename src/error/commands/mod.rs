//! The errors of the commands (`crate::commands`): one file per command that raises its
//! own, named as the command's module is, and here the requests that several commands
//! refuse alike (a depth or range out of bounds, a process that cannot take signals).

mod calibrate;
mod compare;
mod exact_labels;
mod games;
mod suite;

pub use calibrate::CalibrateError;
pub use compare::CompareError;
pub use exact_labels::ExactLabelsError;
pub use games::GamesError;
pub use suite::SuiteError;

use thiserror::Error;

/// A request finale cannot serve.
#[derive(Debug, Error)]
pub enum RequestError {
    /// `prove --mode all`: a proof proves one value or bound, not every move's.
    #[error("prove: --mode all is not a proof (prove the exact value, wld, or a --window)")]
    ProveAll,
    /// `perft` deeper than it is allowed to run.
    #[error("perft depth {depth} is out of range (0..={max})")]
    PerftDepth {
        /// The depth asked for.
        depth: u32,
        /// The deepest allowed.
        max: u32,
    },
    /// `generate --empties A-B` with A = 0, A > B or B > 60.
    #[error("empties {min}-{max}: expected A-B with 1 <= A <= B <= 60 (a full board has no move)")]
    Empties {
        /// A.
        min: u32,
        /// B.
        max: u32,
    },
    /// The SIGINT/SIGTERM handlers could not be installed.
    #[error("cannot install the SIGINT/SIGTERM handlers ({0})")]
    Signals(#[source] std::io::Error),
}
