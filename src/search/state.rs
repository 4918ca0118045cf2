//! One thread's search state: the tables it uses, its node count, its options and level,
//! and when it must stop. The band files add its search methods.

use super::account::{Band, Counts};
use super::busy::Busy;
use super::level::Level;
use super::node_type::AllNodes;
use super::options::SearchOptions;
use super::pool::Pool;
use super::span::Span;
use super::split_point::SplitPoint;
use super::table::{Table, Tables, TranspositionTable};
use crate::board::Board;
use crate::eval::Evaluator;
use crate::settings::{SPLIT_CHECK_INTERVAL, STOP_CHECK_INTERVAL};

/// One thread's search: the shared table, its node count and options.
pub(crate) struct Search<'a> {
    /// The shared table and this thread's own (`table/`).
    pub(crate) tables: Tables<'a>,
    /// Threads that search the younger moves of one split node together (1: no
    /// splitting; see `parallel.rs`).
    pub(crate) split_workers: usize,
    /// The innermost split point this search works for, if it is a helper: its siblings'
    /// cutoffs make it give up. Set with [`Search::work_for`].
    split: Option<&'a SplitPoint<'a>>,
    /// Node count at which to look at the split points above next (never without one).
    next_split_check: u64,
    /// How many of the solve's threads have work (none without a pool).
    pub(crate) busy: Option<&'a Busy>,
    /// The solver's own pool, with many threads (`pool.rs`); otherwise splits run on
    /// rayon's.
    pub(crate) pool: Option<&'a Pool>,
    /// The sum of the sibling indices on the chain of split points this search works
    /// for: the rank of the split points it opens (`pool.rs`).
    pub(crate) rank: usize,
    /// The nodes expected to be all-nodes below the root move being searched (for
    /// splits; `node_type.rs`).
    pub(crate) all_nodes: AllNodes,
    pub(crate) nodes: u64,
    /// Nodes per band, counted only with the `account` feature.
    pub(crate) counts: Counts,
    /// Work and span, accounted only with the `span` feature.
    pub(crate) span: Span,
    pub(crate) options: &'a SearchOptions,
    /// Trust level of this search's results (exact unless selective).
    pub(crate) level: Level,
    /// When to give up, if ever.
    pub(crate) deadline: Option<std::time::Instant>,
    /// Set by another thread to make the search give up (e.g. a batch whose output
    /// failed); looked at with the clock.
    pub(crate) abort: Option<&'a std::sync::atomic::AtomicBool>,
    /// Node count at which to look at the clock next (never without a deadline or abort
    /// flag, so that plain searches do exactly the same work as before).
    next_stop_check: u64,
    /// Set once the search must give up (deadline, or a cutoff at a split point above):
    /// every search returns at once, storing nothing.
    pub(crate) stopped: bool,
    /// Set when the deadline passed or the abort flag was set (as opposed to a cancelled
    /// helper).
    pub(crate) timed_out: bool,
    /// Fitting the probcut error model: one board in `rate` (by a hash of the board) of
    /// those where probcut is tried is recorded here. None in every real search.
    pub(crate) probcut_samples: Option<(u64, Vec<Board>)>,
}

impl<'a> Search<'a> {
    pub(crate) fn new(tt: &'a TranspositionTable, options: &'a SearchOptions) -> Self {
        Search {
            tables: Tables::of_this_thread(tt, options.tt),
            split_workers: 1,
            split: None,
            next_split_check: u64::MAX,
            busy: None,
            pool: None,
            rank: 0,
            all_nodes: AllNodes::NONE,
            nodes: 0,
            counts: Counts::default(),
            span: Span::default(),
            options,
            level: Level::EXACT,
            deadline: None,
            abort: None,
            next_stop_check: u64::MAX,
            stopped: false,
            timed_out: false,
            probcut_samples: None,
        }
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
        self.counts.add(band, 1);
    }

    /// The innermost split point this search works for, if any.
    #[inline]
    pub(crate) fn split(&self) -> Option<&'a SplitPoint<'a>> {
        self.split
    }

    /// Makes this search a helper of `sp`: it gives up once `sp` or one above it is
    /// cancelled.
    pub(crate) fn work_for(&mut self, sp: &'a SplitPoint<'a>) {
        self.split = Some(sp);
        self.next_split_check = self.nodes;
    }

    /// Gives up searching at `deadline`.
    pub(crate) fn set_deadline(&mut self, deadline: std::time::Instant) {
        self.deadline = Some(deadline);
        self.next_stop_check = self.nodes;
    }

    /// Gives up searching once `flag` is set.
    pub(crate) fn set_abort(&mut self, flag: &'a std::sync::atomic::AtomicBool) {
        self.abort = Some(flag);
        self.next_stop_check = self.nodes;
    }

    /// True when the search must stop: a sibling of a split point above it cut off (looked
    /// at every [`SPLIT_CHECK_INTERVAL`] nodes), the deadline passed or the abort flag was
    /// set (both looked at every few thousand nodes; an abort counts as a timeout, which
    /// stops the helpers too).
    #[inline]
    pub(crate) fn should_stop(&mut self) -> bool {
        if self.nodes >= self.next_split_check {
            self.next_split_check = self.nodes + SPLIT_CHECK_INTERVAL;
            if self.split.is_some_and(|sp| sp.cancelled()) {
                self.stopped = true;
            }
        }
        if self.nodes >= self.next_stop_check {
            self.next_stop_check = self.nodes + STOP_CHECK_INTERVAL;
            if self
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
                || self
                    .abort
                    .is_some_and(|a| a.load(std::sync::atomic::Ordering::Relaxed))
            {
                self.stopped = true;
                self.timed_out = true;
            }
        }
        self.stopped
    }
}

/// Runs `f` on a search with the default options and a table of one megabyte, for unit
/// tests of the split and table rules (which set `split_workers` themselves).
#[cfg(test)]
pub(crate) fn with_test_search(f: impl FnOnce(&mut Search)) {
    let tt = TranspositionTable::new(1);
    let options = SearchOptions::default();
    f(&mut Search::new(&tt, &options));
}
