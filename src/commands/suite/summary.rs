//! A suite run's totals, and the block that reports them.

use crate::results::row::Row;
use std::path::PathBuf;
use std::time::Duration;

/// Totals of a suite run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Positions solved.
    pub positions: usize,
    /// Nodes over all positions.
    pub nodes: u64,
    /// Solve time over all positions (loading and table allocation excluded).
    pub time: Duration,
    /// Positions whose best moves are wrong.
    pub wrong_moves: usize,
    /// Positions whose score (or, in mode all, some move's score) is wrong.
    pub wrong_scores: usize,
    /// The CSV written, if any.
    pub csv_path: Option<PathBuf>,
    /// Set when the run was stopped before its end: what stopped it and where.
    pub stopped: Option<String>,
    /// Time until the best move was settled, summed over the positions that report it.
    pub best_found: Duration,
    /// Peak memory over the rows, in MB.
    pub peak_mb: Option<f64>,
    /// Rows of other engines that gave no answer (timeout, crash, unreadable output).
    pub engine_failures: usize,
}

impl Summary {
    /// Nodes per second over the run.
    pub fn nps(&self) -> f64 {
        let s = self.time.as_secs_f64();
        if s > 0.0 { self.nodes as f64 / s } else { 0.0 }
    }

    /// True when no position was answered wrongly.
    pub fn all_ok(&self) -> bool {
        self.wrong_moves == 0 && self.wrong_scores == 0 && self.engine_failures == 0
    }

    /// Counts one answered row.
    pub(super) fn add(&mut self, row: &Row) {
        self.positions += 1;
        // Another binary's counts are input: saturate rather than overflow.
        self.nodes = self.nodes.saturating_add(row.result.nodes);
        self.time = self.time.saturating_add(row.result.time);
        self.wrong_moves += usize::from(row.verdict.moves_ok == Some(false));
        self.wrong_scores += usize::from(row.verdict.score_ok == Some(false));
        self.best_found = self
            .best_found
            .saturating_add(row.result.best_found.unwrap_or_default());
        if let Some(m) = row.peak_mb {
            self.peak_mb = Some(self.peak_mb.map_or(m, |p| p.max(m)));
        }
    }

    /// The summary block printed after the table.
    pub fn report(&self) -> String {
        let mut s = String::new();
        if let Some(why) = &self.stopped {
            s += &format!("stopped       {why}\n");
        }
        s += &format!(
            "positions     {}\nnodes         {}\ntime          {:.3} s\nnps           {:.0}\n\
             best found    {:.3} s (total)\npeak memory   {}\nwrong moves   {}\n\
             wrong scores  {}\n",
            self.positions,
            self.nodes,
            self.time.as_secs_f64(),
            self.nps(),
            self.best_found.as_secs_f64(),
            self.peak_mb
                .map_or_else(|| "unknown".to_string(), |m| format!("{m:.1} MB")),
            self.wrong_moves,
            self.wrong_scores
        );
        if self.engine_failures > 0 {
            s += &format!("engine failures {}\n", self.engine_failures);
        }
        if let Some(p) = &self.csv_path {
            s += &format!("csv           {}\n", p.display());
        }
        s
    }
}
