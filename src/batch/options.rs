//! How to run a batch: inputs, output, mode, threads, tables, shard, time and node limits and the
//! interrupt that stops it.

use super::shard::Shard;
use crate::interrupt::Interrupt;
use crate::results::CsvRow;
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
    /// Threads in all: positions solved at once, times `position_threads`.
    pub threads: usize,
    /// Threads that search each position together, sharing its table (at least 1, at
    /// most `threads`): the batch solves `threads / position_threads` positions at once.
    /// At one, node counts repeat exactly; at more, they vary from run to run.
    pub position_threads: usize,
    /// Give up on a position after this long.
    pub time_limit: Option<Duration>,
    /// Give up on a position after about this many nodes ([`crate::search::Solver::set_node_budget`]).
    pub node_limit: Option<u64>,
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
    /// Save each position's table this often while it is solved, in
    /// [`BatchOptions::tables_dir`], so that a run stopped or killed mid-position goes on
    /// from it when resumed (`None`: never). The file goes once the position's row is
    /// written.
    pub save_tables: Option<Duration>,
    /// Stops the run when set (by SIGINT or SIGTERM in the CLI): no new position is
    /// started, the solves in progress give up and write no row (a rerun solves them),
    /// and the rows written stay a valid output to resume from. A failed write sets it
    /// too, to stop every worker (the run then returns that error): give each run its own.
    pub interrupt: Interrupt,
}

impl BatchOptions {
    /// Where positions' tables are saved (`--save-tables`): the output's path with
    /// `.tables` added.
    pub fn tables_dir(&self) -> PathBuf {
        let mut dir = self.out.clone().into_os_string();
        dir.push(".tables");
        PathBuf::from(dir)
    }

    /// The saved table of the row `task` (a position's key, or its key mixed with the
    /// window it is solved in, so that two windows of one position never share a file).
    pub fn table_path(&self, task: u64) -> PathBuf {
        self.tables_dir()
            .join(format!("{}.table", crate::board::key::key_hex(task)))
    }

    /// What the output's `mode` column calls this run's rows: `exact`, `wld`, `all`, or
    /// `depthD` for labels.
    pub fn row_mode(&self) -> String {
        match self.label_depth {
            Some(depth) => label_mode(depth),
            None => self.mode.name().to_string(),
        }
    }

    /// What this run writes in the columns that must agree down one output.
    pub fn row_settings(&self) -> RowSettings {
        RowSettings {
            mode: self.row_mode(),
            variant: self.row_variant(),
            selectivity: match self.label_depth {
                Some(_) => None,
                None => Some(self.search.selectivity.percent()),
            },
        }
    }

    /// What the output's `variant` column calls this run's weights: `eval 7ec978cc` (by
    /// checksum), or `fastest-first` when the search orders without them. Labels depend on
    /// them; solves' node counts do.
    pub fn row_variant(&self) -> String {
        match &self.search.eval.0 {
            Some(e) => crate::results::csv_row::weights_variant(e.checksum()),
            None => "fastest-first".into(),
        }
    }
}

/// What a run writes in the columns that must agree down one output: a file holds rows of
/// one mode (`exact`, `wld`, `all`, `window`, or one label depth `depthD`), one set of
/// weights and one selectivity, so that resuming with other settings never mixes rows.
/// Windows are the exception: a solve's lines may each give their own (`window` rows in
/// a run of any solve mode), and a row counts a position done only for its window.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RowSettings {
    /// The `mode` column.
    pub mode: String,
    /// The `variant` column: the weights (`eval 7ec978cc`, or `fastest-first` without).
    pub variant: String,
    /// The `selectivity` column (labels have none).
    pub selectivity: Option<u8>,
}

impl RowSettings {
    /// The first column of `row` that holds another value than this run writes there, with
    /// the two values. A column a row leaves empty is not held against it: a malformed
    /// line's row has no mode, a timeout row no selectivity, rows written before the
    /// weights were recorded no variant.
    pub(super) fn differs(&self, row: &CsvRow<&str>) -> Option<(&'static str, String, String)> {
        // Read for every row of a resumed output: nothing is allocated unless they differ.
        let clash = |found: &str, run: &str| !found.is_empty() && !run.is_empty() && found != run;
        let pair = |found: &str, run: &str| (found.to_string(), run.to_string());
        // A line's own window makes a `window` row in a solve of any mode.
        let lines_window = row.mode == "window" && !self.mode.starts_with("depth");
        if clash(row.mode, &self.mode) && !lines_window {
            let (f, r) = pair(row.mode, &self.mode);
            return Some(("mode", f, r));
        }
        if clash(row.variant, &self.variant) {
            let (f, r) = pair(row.variant, &self.variant);
            return Some(("variant", f, r));
        }
        match (row.selectivity, self.selectivity) {
            (Some(f), Some(r)) if f != r => Some(("selectivity", f.to_string(), r.to_string())),
            _ => None,
        }
    }
}

/// The deepest label search (`--label-depth`): a search without a table grows fast.
pub const MAX_LABEL_DEPTH: u32 = 12;

/// The `mode` column of labels searched `depth` moves deep: `depth8`.
pub fn label_mode(depth: u32) -> String {
    format!("depth{depth}")
}
