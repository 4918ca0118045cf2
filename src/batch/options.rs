//! How to run a batch: inputs, output, mode, threads, tables, shard, time limit and the
//! interrupt that stops it.

use super::shard::Shard;
use crate::interrupt::Interrupt;
use crate::search::{Mode, SearchOptions};
use std::path::PathBuf;
use std::time::Duration;

/// How to run a batch.
#[derive(Clone, Debug)]
pub struct BatchOptions {
    /// OBF input files.
    pub inputs: Vec<PathBuf>,
    /// The output CSV (appended to).
    pub out: PathBuf,
    /// What to solve for.
    pub mode: Mode,
    /// Instead of solving, label each position by a search this many moves deep with the
    /// evaluation at its leaves ([`crate::search::evaluated_value`]): training labels,
    /// written as rows of mode `depthD` whose score is the value rounded to discs.
    pub label_depth: Option<u32>,
    /// Table size per worker thread, in MB.
    pub hash_mb: usize,
    /// Positions solved at once (one thread each).
    pub threads: usize,
    /// Give up on a position after this long.
    pub time_limit: Option<Duration>,
    /// The part of the input this run solves.
    pub shard: Shard,
    /// Record malformed input lines as `error` rows instead of stopping.
    pub skip_bad: bool,
    /// Search switches.
    pub search: SearchOptions,
    /// Draw a progress bar on stderr (only when it is a terminal).
    pub progress: bool,
    /// Sync the output to disk at least this often (zero: after every row).
    pub fsync_every: Duration,
    /// Stops the run when set (by SIGINT or SIGTERM in the CLI): no new position is
    /// started, the solves in progress give up and write no row (a rerun solves them),
    /// and the rows written stay a valid output to resume from. A failed write sets it
    /// too, to stop every worker (the run then returns that error): give each run its own.
    pub interrupt: Interrupt,
}

impl BatchOptions {
    /// What the output's `mode` column calls this run's rows: `exact`, `wld`, `all`, or
    /// `depthD` for labels.
    pub fn row_mode(&self) -> String {
        match self.label_depth {
            Some(depth) => label_mode(depth),
            None => self.mode.name().to_string(),
        }
    }
}

/// The deepest label search (`--label-depth`): a search without a table grows fast.
pub const MAX_LABEL_DEPTH: u32 = 12;

/// The `mode` column of labels searched `depth` moves deep: `depth8`.
pub fn label_mode(depth: u32) -> String {
    format!("depth{depth}")
}
