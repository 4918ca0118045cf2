//! One thread's search state: the tables it uses, its node count, its options and level,
//! its place in the parallel search, when it must stop, and what it measures. The band
//! files add its search methods.

use super::measure::Measure;
use super::measure::account::Band;
use super::options::SearchOptions;
use super::parallel::context::SplitContext;
use super::parallel::split_point::SplitPoint;
use super::selectivity::level::Level;
use super::selectivity::samples::ProbcutSamples;
use super::stop::{Limits, Stop};
use super::table::{Table, Tables, TranspositionTable};
use crate::eval::Evaluator;
use crate::settings::{SPLIT_CHECK_INTERVAL, STOP_CHECK_INTERVAL};

/// One thread's search: its tables, node count, options and level.
pub(crate) struct Search<'a> {
    /// The shared table and this thread's own (`table/`).
    pub(crate) tables: Tables<'a>,
    pub(crate) options: &'a SearchOptions,
    /// Trust level of this search's results (exact unless selective).
    pub(crate) level: Level,
    pub(crate) nodes: u64,
    /// Its place in the parallel search (`parallel/context.rs`).
    pub(crate) split: SplitContext<'a>,
    /// When it must give up (`stop.rs`).
    pub(crate) stop: Stop<'a>,
    /// Nodes per band, work and span (`measure/`; empty without their features).
    pub(crate) measure: Measure,
    /// Training's hook: the boards where probcut is tried (`selectivity/samples.rs`).
    /// None in every real search; read only by the sampling kernel set.
    pub(crate) samples: Option<ProbcutSamples>,
}

impl<'a> Search<'a> {
    pub(crate) fn new(tt: &'a TranspositionTable, options: &'a SearchOptions) -> Self {
        Search {
            tables: Tables::of_this_thread(tt, options.tt),
            options,
            level: Level::EXACT,
            nodes: 0,
            split: SplitContext::ALONE,
            stop: Stop::NEVER,
            measure: Measure::default(),
            samples: None,
        }
    }

    /// A helper's search for the split point `sp` (a sibling of its owner's node): the
    /// owner's table, options, level, parallel context and limits.
    pub(crate) fn helper(
        tt: &'a TranspositionTable,
        options: &'a SearchOptions,
        level: Level,
        context: SplitContext<'a>,
        limits: Limits<'a>,
        sp: &'a SplitPoint<'a>,
    ) -> Self {
        let mut h = Search::new(tt, options);
        h.level = level;
        h.split = context;
        h.work_for(sp);
        h.set_limits(limits);
        h
    }

    /// The evaluation ordering deep moves and predicting for probcut, if any. Borrowed
    /// from the options for the whole search, so that the search can use it while it
    /// changes itself.
    #[inline]
    pub(crate) fn eval(&self) -> Option<&'a Evaluator> {
        self.options.eval.0.as_deref()
    }

    /// The table for boards of `n` empties (`table::choice`).
    #[inline(always)]
    pub(crate) fn table(&self, n: u32) -> Table<'_> {
        self.tables.for_board(n, self.many_threads())
    }

    /// True when boards of `n` empties use this thread's own tables.
    #[inline]
    pub(crate) fn uses_local_table(&self, n: u32) -> bool {
        self.tables.is_local(n, self.many_threads())
    }

    /// Counts one node of `band`.
    #[inline(always)]
    pub(crate) fn count_node(&mut self, band: Band) {
        self.nodes += 1;
        self.measure.counts.add(band, 1);
    }

    /// Makes this search a helper of `sp`: it gives up once `sp` or one above it is
    /// cancelled.
    pub(crate) fn work_for(&mut self, sp: &'a SplitPoint<'a>) {
        self.split.point = Some(sp);
        self.stop.next_split_check = self.nodes;
    }

    /// Gives up searching at `deadline`.
    pub(crate) fn set_deadline(&mut self, deadline: std::time::Instant) {
        self.set_limits(Limits {
            deadline: Some(deadline),
            ..self.stop.limits
        });
    }

    /// Gives up searching once `nodes` nodes are searched.
    pub(crate) fn set_node_budget(&mut self, nodes: u64) {
        self.set_limits(Limits {
            max_nodes: Some(nodes),
            ..self.stop.limits
        });
    }

    /// Gives up searching once `flag` is set.
    pub(crate) fn set_abort(&mut self, flag: &'a std::sync::atomic::AtomicBool) {
        self.set_limits(Limits {
            abort: Some(flag),
            ..self.stop.limits
        });
    }

    /// Publishes the node count to `count` every few thousand nodes.
    pub(crate) fn set_progress(&mut self, count: &'a std::sync::atomic::AtomicU64) {
        self.set_limits(Limits {
            progress: Some(count),
            ..self.stop.limits
        });
    }

    /// Gives up searching at `limits` (looked at from the next node on, if any is set).
    fn set_limits(&mut self, limits: Limits<'a>) {
        self.stop.limits = limits;
        if limits.any() {
            self.stop.next_limit_check = self.nodes;
        }
    }

    /// True when the search must stop: a sibling of a split point above it cut off (looked
    /// at every [`SPLIT_CHECK_INTERVAL`] nodes), the deadline passed, the node budget was
    /// spent or the abort flag was set (all looked at every few thousand nodes; an abort
    /// counts as a timeout, which stops the helpers too).
    #[inline]
    pub(crate) fn should_stop(&mut self) -> bool {
        if self.nodes >= self.stop.next_split_check {
            self.stop.next_split_check = self.nodes + SPLIT_CHECK_INTERVAL;
            if self.split.point.is_some_and(|sp| sp.cancelled()) {
                self.stop.stopped = true;
            }
        }
        if self.nodes >= self.stop.next_limit_check {
            self.stop.next_limit_check = self.nodes + STOP_CHECK_INTERVAL;
            if self.stop.limits.reached(self.nodes) {
                self.stop.stopped = true;
                self.stop.timed_out = true;
            }
        }
        self.stop.stopped
    }
}

/// Runs `f` on a search with the default options and a table of one megabyte, for unit
/// tests of the split and table rules (which set `split.workers` themselves).
#[cfg(test)]
pub(crate) fn with_test_search(f: impl FnOnce(&mut Search)) {
    let tt = TranspositionTable::new(1);
    let options = SearchOptions::default();
    f(&mut Search::new(&tt, &options));
}
