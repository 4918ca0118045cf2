//! How to run a suite: what to solve for, with which table, switches and threads, the
//! variants to alternate, where the CSV goes, and when to stop.

use crate::commands::variant::Variant;
use crate::interrupt::Interrupt;
use crate::results::csv_out::CsvTarget;
use crate::search::{Mode, SearchOptions};
use std::time::Duration;

/// How to run a suite.
#[derive(Clone, Debug)]
pub struct SuiteOptions {
    /// What to solve for.
    pub mode: Mode,
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Search switches.
    pub search: SearchOptions,
    /// Search threads per solve as asked for (the flag, or every core); a variant without
    /// its own `--threads` is given these ([`Variant::threads`]).
    pub threads: usize,
    /// Run every thread even beyond the cores.
    pub oversubscribe: bool,
    /// Where the CSV goes.
    pub csv: CsvTarget,
    /// Times each position is solved (by each variant).
    pub repeat: u32,
    /// Variants to alternate; empty means this binary with `search`.
    pub variants: Vec<Variant>,
    /// Show a progress bar on stderr (positions done, the current one and its last pass,
    /// ETA) when stderr is a terminal.
    pub progress: bool,
    /// Another engine (`--engine`) running longer than this on a position is killed, and
    /// its row says `timeout`; finale's own solves are not limited.
    pub time_limit: Option<Duration>,
    /// Stops the run when set (by SIGINT or SIGTERM in the CLI): the position being
    /// solved gives up, and the run ends with the rows it finished and the position's last
    /// pass as a probable answer ([`Summary::stopped`](super::Summary::stopped)).
    pub interrupt: Interrupt,
}
