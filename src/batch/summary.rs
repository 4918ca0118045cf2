//! What a batch run did: the counts, nodes and times of its rows, and the block it prints.

use crate::results::histogram::Distribution;
use std::time::Duration;

/// What a batch run did.
#[derive(Debug, Default)]
pub struct BatchSummary {
    /// Positions (and malformed lines) read in this shard, duplicates included.
    pub read: u64,
    /// Positions belonging to other shards.
    pub other_shards: u64,
    /// Repeats of a position seen earlier in the input.
    pub duplicates: u64,
    /// Positions already in the output from an earlier run.
    pub already_done: u64,
    /// Rows written: solved.
    pub solved: u64,
    /// Rows written: gave up at the time or node limit.
    pub timeouts: u64,
    /// Rows written: malformed input lines (with `skip_bad`).
    pub errors: u64,
    /// Solved positions whose answer disagrees with a value the input gives, at any of
    /// its occurrences.
    pub wrong: u64,
    /// Nodes over the rows written.
    pub nodes: u64,
    /// Solve time over the rows written (summed over threads).
    pub time: Duration,
    /// Wall time of the run.
    pub wall: Duration,
    /// Bytes of a torn last row dropped from the output.
    pub dropped_bytes: u64,
    /// What stopped the run before its end (`SIGINT`, ...), if anything did.
    pub stopped: Option<&'static str>,
    /// Solves given up when the run was stopped: no row, solved again on resume.
    pub interrupted: u64,
    /// Time until the best move was settled, over the solved rows.
    pub best_found: Duration,
    /// Positions whose solve went on from a table an earlier run saved (`--save-tables`);
    /// their rows count the nodes and time saved with the table too.
    pub resumed: u64,
}

impl BatchSummary {
    /// The summary block printed at the end.
    pub fn report(&self, dist: &Distribution) -> String {
        let secs = self.wall.as_secs_f64();
        let nps = if secs > 0.0 {
            self.nodes as f64 / secs
        } else {
            0.0
        };
        let stopped = match self.stopped {
            Some(cause) => format!(
                "stopped       by {cause}; {} solves in progress given up (no row: the same \
                 command resumes)\n",
                self.interrupted
            ),
            None => String::new(),
        };
        let resumed = match self.resumed {
            0 => String::new(),
            n => format!(
                "resumed       {n} positions from saved tables (their rows count the work saved with them too)\n"
            ),
        };
        format!(
            "{stopped}{resumed}read          {}\nother shards  {}\nduplicates    {}\nalready done  {}\n\
             solved        {}\ntimeouts      {}\nerrors        {}\nwrong         {}\n\
             nodes         {}\nwall time     {:.3} s\nnps (wall)    {:.0}\n\
             best found    {:.3} s (total)\npeak memory   {}\n{}",
            self.read,
            self.other_shards,
            self.duplicates,
            self.already_done,
            self.solved,
            self.timeouts,
            self.errors,
            self.wrong,
            self.nodes,
            secs,
            nps,
            self.best_found.as_secs_f64(),
            crate::results::machine::peak_memory_kb().map_or("unknown".to_string(), |kb| format!(
                "{:.1} MB",
                kb as f64 / 1024.0
            )),
            dist.report()
        )
    }
}
