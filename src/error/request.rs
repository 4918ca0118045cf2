//! Requests that cannot be served as asked (a depth or range out of bounds, a process
//! that cannot take signals), as a type library callers can match.

use thiserror::Error;

/// A request finale cannot serve.
#[derive(Debug, Error)]
pub enum RequestError {
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
