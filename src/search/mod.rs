//! Exact endgame search: negamax alpha-beta in depth bands.
//!
//! | empties | band | file |
//! |---|---|---|
//! | 0-4 | specialised solvers | `last.rs` |
//! | 5..=`SHALLOW_MAX_EMPTIES` | no table, parity order | `shallow.rs` |
//! | above | table, ETC, stability, fastest-first, PVS | `endgame.rs` |
//!
//! The root (`root.rs`) runs the requested mode and extracts the principal variation.
//! `evaluated.rs` is the shallow evaluated search (a few moves deep, the pattern
//! evaluation at its leaves) that orders deep moves, decides probcut and labels training
//! positions.

pub mod account;
mod answer;
mod endgame;
mod entry;
mod etc;
mod evaluated;
mod last;
mod level;
mod local_table;
pub mod ordering;
mod parallel;
mod root;
pub mod stability;
mod start_error;
mod table_memory;
mod threads;
pub mod tt;

pub use answer::{Mode, PASS_PV_MOVES, PassReport, PvMove, SolveResult, TimedOut, Wld};
pub use evaluated::{evaluated_value, evaluated_value_on};
pub use level::{Level, ProbcutT};
pub use root::{Solver, SolverOptions};
pub use start_error::StartError;
pub use threads::Threads;
pub use threads::{cores, search_threads};
pub use tt::TranspositionTable;

use crate::board::Board;
use crate::board::kernels::Isa;
use crate::eval::Evaluator;
use crate::settings::{
    LOCAL_SMALL_MAX_EMPTIES, LOCAL_TABLE_MAX_EMPTIES, SHALLOW_MAX_EMPTIES, STOP_CHECK_INTERVAL,
};
use entry::{Entries, with_kernels};
mod shallow;

/// Switches that change search behaviour, for measuring their effect. Every one is on
/// by default; turning one off never changes a score, only the work done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Enhanced transposition cutoff.
    pub etc: bool,
    /// Stability cutoff.
    pub stability: bool,
    /// Probe and store the transposition table (off: no ETC either).
    pub tt: bool,
    /// The narrow first-guess search before exact solves of many empties.
    pub first_guess: bool,
    /// The evaluation ordering deep moves and predicting for multi-probcut (none:
    /// fastest-first only, no probcut).
    pub eval: EvalRef,
    /// Selectivity: exact, or a multi-probcut level, whose pass gives a probable answer.
    /// The narrow level is only the first guess of an exact solve; asked for here it
    /// solves exactly.
    pub selectivity: Level,
    /// Find every best move (ties): each other root move is proven to reach the score or
    /// to fall short. Off, the solve proves the score and the best moves it met on the way
    /// (at least one), as the published engines do. Ties can cost far more than the score:
    /// at a wipe-out every other move needs its own proof that it falls short (FFO #59,
    /// +64: 5.5 G nodes with ties, a few million without).
    pub ties: bool,
    /// The move generation kernels the search runs on: a set this CPU has. Default
    /// [`Isa::chosen`]; never changes a score or a node count, only the time.
    pub kernels: Isa,
    /// A width for the pass of the level asked for (`selectivity`) in place of the
    /// level's own (other passes keep theirs): for choosing widths by measurement.
    pub probcut_t: Option<ProbcutT>,
}

/// A shared evaluation, or none. Compared by identity: two options are equal when they
/// use the same loaded weights.
#[derive(Clone, Default)]
pub struct EvalRef(pub Option<std::sync::Arc<Evaluator>>);

impl EvalRef {
    /// The shipped weights, or none when they cannot be used (see [`Evaluator::shipped`]).
    pub fn shipped() -> EvalRef {
        EvalRef(Evaluator::shipped_shared().ok().cloned())
    }
}

impl PartialEq for EvalRef {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => std::sync::Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

impl Eq for EvalRef {}

impl std::fmt::Debug for EvalRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(e) => write!(f, "EvalRef({:08x})", e.checksum()),
            None => f.write_str("EvalRef(none)"),
        }
    }
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            etc: true,
            stability: true,
            tt: true,
            first_guess: true,
            eval: EvalRef::shipped(),
            selectivity: Level::EXACT,
            ties: false,
            kernels: Isa::chosen(),
            probcut_t: None,
        }
    }
}

/// The table a node probes and stores in: the shared one or this thread's local one.
#[derive(Clone, Copy)]
pub(crate) enum Table<'a> {
    Shared(&'a TranspositionTable),
    Local(&'a local_table::DenseTable),
}

impl Table<'_> {
    /// Starts loading the bucket of `board` into the cache.
    #[inline(always)]
    pub(crate) fn prefetch(self, board: &Board) {
        match self {
            Table::Shared(t) => t.prefetch(board),
            Table::Local(t) => t.prefetch(board),
        }
    }

    /// Bounds stored for `board`, if any.
    #[inline(always)]
    pub(crate) fn probe(self, board: &Board) -> Option<tt::TtHit> {
        match self {
            Table::Shared(t) => t.probe(board),
            Table::Local(t) => t.probe(board),
        }
    }

    /// Records a search's result (see [`TranspositionTable::store`]).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn store(
        self,
        board: &Board,
        alpha: i32,
        beta: i32,
        score: i32,
        best_move: Option<crate::board::Square>,
        level: Level,
        nodes: u64,
    ) {
        match self {
            Table::Shared(t) => t.store(board, alpha, beta, score, best_move, level, nodes),
            Table::Local(t) => t.store(board, alpha, beta, score, best_move, level, nodes),
        }
    }
}

/// One thread's search: the shared table, its node count and options.
pub(crate) struct Search<'a> {
    pub(crate) tt: &'a TranspositionTable,
    /// This thread's small table for nodes of few empties (`local_table.rs`); none when
    /// the search uses no table.
    local: Option<local_table::LocalTable>,
    /// Threads that search the younger moves of one split node together (1: no
    /// splitting; see `parallel.rs`).
    pub(crate) split_workers: usize,
    /// The innermost split point this search works for, if it is a helper: its siblings'
    /// cutoffs make it give up.
    pub(crate) split: Option<&'a parallel::SplitPoint<'a>>,
    pub(crate) nodes: u64,
    /// Nodes per band, counted only with the `account` feature.
    pub(crate) counts: account::Counts,
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
            tt,
            local: options
                .tt
                .then(|| local_table::LocalTable::of_this_thread(tt)),
            split_workers: 1,
            split: None,
            nodes: 0,
            counts: account::Counts::default(),
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

    /// The table for boards of `n` empties: this thread's small local table up to
    /// `LOCAL_SMALL_MAX_EMPTIES`, its large one up to `LOCAL_TABLE_MAX_EMPTIES`, the
    /// shared one above.
    #[inline(always)]
    pub(crate) fn table(&self, n: u32) -> Table<'_> {
        match &self.local {
            Some(local) if n <= LOCAL_SMALL_MAX_EMPTIES => Table::Local(&local.get().small),
            Some(local) if n <= LOCAL_TABLE_MAX_EMPTIES => Table::Local(&local.get().large),
            _ => Table::Shared(self.tt),
        }
    }

    /// True when boards of `n` empties use a table that stays in the core's cache, where
    /// a prefetch only queues behind the loads it would hide (see `search_rest`).
    #[inline]
    pub(crate) fn uses_cached_table(&self, n: u32) -> bool {
        self.local.is_some() && n <= LOCAL_SMALL_MAX_EMPTIES
    }

    /// True when boards of `n` empties use this thread's local table.
    #[inline]
    pub(crate) fn uses_local_table(&self, n: u32) -> bool {
        self.local.is_some() && n <= LOCAL_TABLE_MAX_EMPTIES
    }

    /// Counts one node of `band`.
    #[inline(always)]
    pub(crate) fn count_node(&mut self, band: account::Band) {
        self.nodes += 1;
        self.counts.add(band, 1);
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

    /// True when the search must stop: a sibling of a split point above it cut off, the
    /// deadline passed or the abort flag was set (both looked at every few thousand nodes;
    /// an abort counts as a timeout, which stops the helpers too).
    #[inline]
    pub(crate) fn should_stop(&mut self) -> bool {
        if let Some(sp) = self.split
            && sp.cancelled()
        {
            self.stopped = true;
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

    /// Exact score of `b` (with `n` empties) within (`alpha`, `beta`), fail-soft:
    /// a result `<= alpha` is an upper bound, `>= beta` a lower bound. Runs on the kernel
    /// set of the options, chosen here once for the whole subtree.
    pub(crate) fn search(&mut self, b: Board, alpha: i32, beta: i32, n: u32) -> i32 {
        with_kernels!(self.options.kernels, K => self.search_in::<K>(b, alpha, beta, n))
    }

    /// [`Search::search`] on kernel set `K`.
    #[inline(always)]
    pub(crate) fn search_in<K: Entries>(&mut self, b: Board, alpha: i32, beta: i32, n: u32) -> i32 {
        if n > 4 {
            let moves = K::legal_moves(b.player, b.opponent);
            self.search_child_in::<K>(b, moves, alpha, beta, n)
        } else {
            K::last(self, b, alpha, beta, n)
        }
    }

    /// As [`Self::search_in`], given the legal moves of `b`'s side to move (computed by
    /// the parent's ordering). Only the bands above the last four take them.
    #[inline(always)]
    pub(crate) fn search_child_in<K: Entries>(
        &mut self,
        b: Board,
        moves: u64,
        alpha: i32,
        beta: i32,
        n: u32,
    ) -> i32 {
        if n > SHALLOW_MAX_EMPTIES {
            K::endgame(self, b, moves, alpha, beta, n)
        } else if n > 4 {
            K::shallow(self, b, moves, alpha, beta, n)
        } else {
            K::last(self, b, alpha, beta, n)
        }
    }
}
