//! Why a solver could not start (the machine refused its threads or its tables' memory),
//! why a window is none, and why a saved table cannot be loaded.

use thiserror::Error;

/// A solver that could not be made (see [`super::Solver::try_new`]). Both come from the
/// system's limits (`ulimit -v`, a cgroup's memory, the process's thread limit), not from
/// the position, so the message names the option to lower.
#[derive(Debug, Error)]
pub enum StartError {
    /// The thread pool could not be started.
    #[error("cannot start {threads} search threads ({why}); ask for fewer with --threads")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// The system's reason.
        why: String,
    },
    /// The shared transposition table could not be mapped.
    #[error(
        "cannot allocate the {mb} MB transposition table ({source}); ask for less with --hash-mb"
    )]
    Table {
        /// Its size in MB.
        mb: usize,
        /// The system's reason.
        source: std::io::Error,
    },
    /// A search thread's own small table could not be mapped.
    #[error(
        "cannot allocate the {kb} kB table of each of {threads} search threads ({source}); \
         ask for fewer with --threads"
    )]
    LocalTable {
        /// Its size in kB.
        kb: usize,
        /// Threads that need one.
        threads: usize,
        /// The system's reason.
        source: std::io::Error,
    },
}

/// A `--window A,B` that asks nothing a game can answer.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum WindowError {
    /// Not two integers separated by a comma.
    #[error("window '{0}': expected A,B (two integers, alpha below beta, e.g. -1,1)")]
    Syntax(String),
    /// Alpha not below beta.
    #[error("window {alpha},{beta} is empty: alpha must be below beta")]
    Empty {
        /// Its alpha.
        alpha: i32,
        /// Its beta.
        beta: i32,
    },
    /// An edge past the scores a game can end with.
    #[error("window {alpha},{beta} reaches outside -64..64, the scores a game can end with")]
    OutOfRange {
        /// Its alpha.
        alpha: i32,
        /// Its beta.
        beta: i32,
    },
}

/// Why a table file cannot be loaded.
#[derive(Debug, Error)]
pub enum TableFileError {
    /// Reading it failed.
    #[error("cannot read it: {0}")]
    Io(#[from] std::io::Error),
    /// It does not begin as a table file of this version.
    #[error("not a finale table file (version 1)")]
    NotATable,
    /// It ends before its checksum.
    #[error("it ends early (truncated)")]
    Truncated,
    /// It was saved by a table of another size.
    #[error("it holds a table of {saved} MB, this solve's is {here} MB; use the same --hash-mb")]
    Size {
        /// Its size, in MB.
        saved: usize,
        /// This table's, in MB.
        here: usize,
    },
    /// It was saved solving another position.
    #[error("it was saved solving another position")]
    OtherRoot,
    /// Its checksum does not match its contents.
    #[error("its checksum does not match (damaged)")]
    Damaged,
}
