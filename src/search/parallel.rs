//! Young Brothers Wait parallelism: a node searches its first (eldest) move alone; only when
//! that does not cut off are the younger siblings shared out to every thread of the pool.
//!
//! The siblings are taken in order from a shared counter, so the better-ordered ones start
//! first. Each is searched with a null window on the split point's current alpha and, if it
//! fails high, searched again with the full window; a cutoff cancels the other siblings at
//! once (they notice at their next node of the endgame band, through the chain of split
//! points above them, and give up without storing anything). Results never depend on the
//! number of threads: every bound returned is a true bound, only the work done changes.
//!
//! # Measured here, and what changes for 16-64 cores
//!
//! On this 2-core machine kind the split costs little: FFO 40-59 exact needs 24.0 G nodes
//! at one thread and 24.9 G at two (+3.8 %, results/deep/), and two threads ran FFO 40-49
//! 1.82 times and FFO 40-54 1.90 times as fast as one, side by side
//! (results/parallel/2026-11-23-*-threads-1-2*.csv). For many cores two things change:
//!
//! - When to split (built; measured by the work-and-span account, `span.rs`). With one or
//!   two threads a node of `SPLIT_MIN_EMPTIES` or more splits after its eldest
//!   (`SPLIT_ELDERS` = 1) unless the evaluation ordering found a younger move within
//!   `SPLIT_CUT_MARGIN` of alpha, or the other thread has nothing to do (`busy.rs`); the
//!   root never splits. Such a move may still cut, and a helper searching its siblings
//!   meanwhile wastes all of it: at 2 threads, root moves shared out beside one that
//!   reached beta were most of an 18 % node overhead on generated 27-28-empty positions
//!   (results/deep/README.md), and 30 % of FFO #54's 87 % pass. But the nodes of a
//!   probe's critical tree are exactly those whose moves come near alpha, so that rule
//!   searched most of the tree one move after another: FFO 40-59 had parallelism 10.8.
//!   From `SPLIT_MANY_THREADS` on, a node expected to be an all-node (`node_type.rs`) splits after its eldest
//!   whatever the ordering says, the root splits every probe, and the depth and margin
//!   are `SPLIT_MIN_EMPTIES_MANY` and `SPLIT_CUT_MARGIN_MANY`
//!   (results/parallel/2026-11-27-span/). Waiting for the eldest still doubled the span
//!   every two plies (an all-node's chain is its eldest's, then its longest younger
//!   sibling's), so an expected all-node whose ordering finds no move within
//!   `SPLIT_ALL_AT_ONCE_MARGIN` of alpha shares out all its moves at once, the table's
//!   move ordered first rather than searched first. Any other node with many threads
//!   splits after its eldest unless a younger move looks at least
//!   `-SPLIT_CUT_MARGIN_MANY` (4) discs above alpha: waiting on every move merely near
//!   alpha kept the chain going through mispredicted cut-nodes, most of all in the
//!   selective passes, where the table knows least
//!   (results/parallel/2026-11-28-cut-margin/). A node's own cost, its evaluation
//!   ordering's searches of every child, was a chain of its own: in the selective
//!   passes, from `ORDER_SHARED_MIN_EMPTIES` on, they are shared out all at once
//!   (`ordering.rs`). In the exact pass, whose nodes are deeper, values from the floor
//!   for every child cost far more work than the span they save.
//! - Which work runs first, and waiting (`pool.rs`). With two threads `share_out`
//!   waits in `rayon::scope`, whose thieves take the oldest job (the next sibling of a
//!   shallow split point) and whose waiting owner may run an unrelated one. From
//!   `SPLIT_MANY_THREADS` on, the solver's own pool runs the splits instead: an idle
//!   thread joins the open split point whose next sibling one thread would have searched
//!   soonest, takes that one sibling and chooses again, and an owner with nothing left
//!   helps only below its own split point. The split rules, and so the account's span,
//!   are the same; the oversubscribed runs' work fell by about a twentieth at 16 and at
//!   64 threads on the tuning set (results/parallel/2026-11-28-pool/).
//!
//! Also for many cores: the table (shared, lock-free, one 64-byte bucket per probe) should
//! grow with the threads (`--hash-mb`), and node counts are summed per split point, not
//! per node, so counting does not contend. Nodes of up to 9 empties use a small table per
//! thread (`table/local.rs`, 256 KB, in the core's own cache), so the shared table does
//! not see the most numerous nodes' traffic. With one or two threads, nodes of 10-12
//! empties use a larger one (4 MB) per thread too; with many they go to the shared
//! table, since a board stored in one thread's table is lost to the others: at 16
//! threads that cost FFO 40-49 a fifth of its speculative nodes
//! (`settings::LOCAL_TABLE_MAX_EMPTIES`).

use super::busy::Busy;
use super::level::Level;
use super::move_list::{Move, NO_EVAL};
use super::node_type::AllNodes;
use super::options::SearchOptions;
use super::split_point::SplitPoint;
use super::state::Search;
use super::table::TranspositionTable;
use crate::eval::UNITS_PER_DISC;
use crate::settings::{
    ORDER_SHARED_MIN_EMPTIES, SPLIT_ALL_AT_ONCE_MARGIN, SPLIT_CUT_MARGIN, SPLIT_CUT_MARGIN_MANY,
    SPLIT_ELDERS, SPLIT_MANY_THREADS, SPLIT_MIN_EMPTIES, SPLIT_MIN_EMPTIES_MANY,
};
use std::sync::atomic::{AtomicI32, Ordering::Relaxed};

/// True when the evaluation ordering found a move of `moves` that may reach `alpha`
/// (within `margin` discs; a negative margin asks for a move that many discs above it):
/// the node may yet cut, and a helper searching its other moves meanwhile would likely
/// waste its work.
#[inline]
fn likely_cut(moves: &[Move], alpha: i32, margin: i32) -> bool {
    let threshold = (alpha - margin) * UNITS_PER_DISC;
    moves
        .iter()
        .any(|m| m.eval != NO_EVAL && m.eval as i32 >= threshold)
}

const NO_BEST: i32 = 0;

/// The count of a search run without a solver's (a test's): counted, never read.
static NOT_COUNTED: std::sync::LazyLock<Busy> = std::sync::LazyLock::new(Busy::new);

/// Score and move in one integer ordered by score (scores are within -64..=64).
fn pack(score: i32, sq: u8) -> i32 {
    ((score + 128) << 8) | sq as i32
}

fn unpack(p: i32) -> (i32, u8) {
    ((p >> 8) - 128, (p & 0xFF) as u8)
}

impl<'a> Search<'a> {
    /// True when a node of `n` empties, `searched` of whose moves were searched alone,
    /// shares out its `rest` (best first) now: young brothers wait for `SPLIT_ELDERS`
    /// elders, and none of the rest may look likely to cut ([`likely_cut`]), unless many
    /// threads search and the node is expected to be an all-node (`node_type.rs`), which
    /// searches every move anyway. The one rule of every split below the root.
    /// With many threads, a node expected to be an all-node whose moves all look far from
    /// alpha (none within [`SPLIT_ALL_AT_ONCE_MARGIN`]) shares them all out at once,
    /// before any was searched ([`Search::may_split_all_at_once`]).
    #[inline]
    pub(crate) fn should_split(&self, searched: usize, n: u32, rest: &[Move], alpha: i32) -> bool {
        if !self.can_split(n, rest.len()) {
            return false;
        }
        if searched == 0 {
            return self.many_threads()
                && self.all_nodes.expects_all(n)
                && !likely_cut(rest, alpha, SPLIT_ALL_AT_ONCE_MARGIN);
        }
        searched >= SPLIT_ELDERS
            && ((self.many_threads() && self.all_nodes.expects_all(n))
                || !likely_cut(rest, alpha, self.split_cut_margin())
                || self.other_thread_idle())
    }

    /// True when two threads search and the other has nothing to do: a younger move that
    /// may cut no longer keeps the node from sharing out, since the other thread's work,
    /// wasted or not, costs no time. FFO #53 at two threads, two rounds alternating
    /// (nodes, time): without 911.3 M 29.6 s, 911.3 M 29.1 s; with 907.6 M 27.0 s,
    /// 908.9 M 27.6 s; cores busy 1.88 -> 1.98 (user time over wall time). Not with many
    /// threads: the work-and-span account, which runs on one thread, could not see it.
    #[inline]
    fn other_thread_idle(&self) -> bool {
        !self.many_threads() && self.busy.is_some_and(|b| b.has_idle(self.split_workers))
    }

    /// True when a node of `n` empties with the legal `moves` may share them all out at
    /// once ([`Search::should_split`] decides once they are ordered): many threads, an
    /// expected all-node, at least two moves besides one. Such a node does not search the table's move
    /// first, but orders it first among the others.
    #[inline]
    pub(crate) fn may_split_all_at_once(&self, n: u32, moves: u64) -> bool {
        self.many_threads()
            && self.all_nodes.expects_all(n)
            && self.can_split(n, (moves.count_ones() as usize).saturating_sub(1))
    }

    /// The margin of [`likely_cut`] at this search's thread count.
    #[inline]
    fn split_cut_margin(&self) -> i32 {
        if self.many_threads() {
            SPLIT_CUT_MARGIN_MANY
        } else {
            SPLIT_CUT_MARGIN
        }
    }

    /// True when [`SPLIT_MANY_THREADS`] or more threads share out this search's nodes:
    /// the split rules that keep them busy apply.
    #[inline]
    pub(crate) fn many_threads(&self) -> bool {
        self.split_workers >= SPLIT_MANY_THREADS
    }

    /// True when this search may share out its nodes at all (more than one thread): a
    /// cheap test that keeps one thread's loop free of the split rules.
    #[inline(always)]
    pub(crate) fn splits(&self) -> bool {
        self.split_workers > 1
    }

    /// True when a node with `n` empties and `younger` moves left after the first is worth
    /// sharing out.
    #[inline]
    pub(crate) fn can_split(&self, n: u32, younger: usize) -> bool {
        if !self.splits() || younger < 2 {
            return false;
        }
        let min_empties = if self.many_threads() {
            SPLIT_MIN_EMPTIES_MANY
        } else {
            SPLIT_MIN_EMPTIES
        };
        n >= min_empties
    }

    /// True when a node of `n` empties shares out the evaluation ordering's searches of
    /// its `count` children all at once ([`Search::share_out_all`]): many threads, a
    /// selective pass, and a node deep enough ([`ORDER_SHARED_MIN_EMPTIES`]).
    #[inline]
    pub(crate) fn should_share_ordering(&self, n: u32, count: usize) -> bool {
        self.many_threads()
            && self.level.is_probcut()
            && n >= ORDER_SHARED_MIN_EMPTIES
            && count >= 2
    }

    /// [`Search::share_out`] of `count` calls that all start at once (none waits for
    /// another). A span build (`span.rs`) runs them in turn on this search instead and
    /// accounts them as one split.
    pub(crate) fn share_out_all<F>(&mut self, count: usize, each: F) -> bool
    where
        F: for<'h> Fn(&mut Search<'h>, usize) -> bool + Sync,
    {
        if !self.span.in_turn() {
            return self.share_out(count, each);
        }
        let mut split = self.span.split_begin(self.nodes);
        for i in 0..count {
            if i > 0 {
                self.span.split_next(&mut split, self.nodes);
            }
            if each(self, i) || self.stopped {
                break;
            }
        }
        self.span.split_end(split, self.nodes);
        !self.stopped
    }

    /// Runs `each(search, i)` for `i` in `0..count`, in order, on every split worker; a
    /// call returning true (a cutoff) cancels the calls still running and not yet begun.
    /// Each call gets its own search, which it must check for `stopped` before trusting
    /// a value. Returns false when this search must give up (deadline, or a cutoff
    /// above it).
    pub(crate) fn share_out<F>(&mut self, count: usize, each: F) -> bool
    where
        F: for<'h> Fn(&mut Search<'h>, usize) -> bool + Sync,
    {
        let sp = SplitPoint::new(self.split(), count, self.rank);
        let busy = self.busy.unwrap_or(&NOT_COUNTED);
        let helper = HelperSettings {
            busy: self.busy,
            pool: self.pool,
            tt: self.tables.shared,
            options: self.options,
            level: self.level,
            deadline: self.deadline,
            abort: self.abort,
            split_workers: self.split_workers,
            all_nodes: self.all_nodes,
        };
        match self.pool {
            // The busy count is read with two threads only: the pool does not keep it.
            Some(pool) => {
                let help = || helper.work(&sp, count, &each, 1);
                pool.open(&sp, &help);
                helper.work(&sp, count, &each, usize::MAX);
                pool.close(&sp);
            }
            None => {
                rayon::scope(|s| {
                    // No more helpers than siblings: the owner takes one too.
                    for _ in 1..self.split_workers.min(count) {
                        busy.add();
                        s.spawn(|_| {
                            helper.work(&sp, count, &each, usize::MAX);
                            busy.remove();
                        });
                    }
                    // The owner works too, rather than waiting, then waits for its helpers.
                    helper.work(&sp, count, &each, usize::MAX);
                    busy.remove();
                });
                busy.add();
            }
        }
        self.nodes += sp.nodes.load(Relaxed);
        if sp.timed_out.load(Relaxed) {
            self.stopped = true;
            self.timed_out = true;
        }
        if self.split().is_some_and(|p| p.cancelled()) {
            self.stopped = true;
        }
        !self.stopped
    }

    /// Searches `younger` (the moves after the first, best-ordered first) of a node with
    /// `n` empties on every split worker, within (`alpha`, `beta`) where `alpha` is what
    /// the first move proved. Returns the best (score, move) among them (fail-soft, as a
    /// sequential loop would), or `None` when this search must give up.
    pub(crate) fn search_split(
        &mut self,
        younger: &[Move],
        alpha: i32,
        beta: i32,
        n: u32,
    ) -> Option<(i32, u8)> {
        // Best exact score so far (raised only by exact scores), and best (score, move)
        // offered, packed so that `fetch_max` keeps the best.
        let shared_alpha = AtomicI32::new(alpha);
        let best = AtomicI32::new(NO_BEST);
        let finished = self.share_out(younger.len(), |h, i| {
            let mv = younger[i];
            let a = shared_alpha.load(Relaxed);
            let mut v = -h.search(mv.child, -a - 1, -a, n - 1);
            if !h.stopped && v > a && v < beta {
                // At least v: search again with what alpha is now (it may have risen).
                let a = shared_alpha.load(Relaxed);
                v = -h.search(mv.child, -beta, -a, n - 1);
                if v > a && v < beta {
                    shared_alpha.fetch_max(v, Relaxed);
                }
            }
            if h.stopped {
                return false;
            }
            best.fetch_max(pack(v, mv.sq), Relaxed);
            v >= beta
        });
        let best = best.load(Relaxed);
        debug_assert!(
            !finished || best != NO_BEST,
            "every sibling searched or one cut off"
        );
        (finished && best != NO_BEST).then(|| unpack(best))
    }
}

/// What a helper's own search is built from.
struct HelperSettings<'a> {
    busy: Option<&'a Busy>,
    pool: Option<&'a super::pool::Pool>,
    tt: &'a TranspositionTable,
    options: &'a SearchOptions,
    level: Level,
    deadline: Option<std::time::Instant>,
    abort: Option<&'a std::sync::atomic::AtomicBool>,
    split_workers: usize,
    all_nodes: AllNodes,
}

impl HelperSettings<'_> {
    /// Takes items from `sp` until none is left, `at_most` were taken (a helper of the
    /// pool chooses again after each) or the split point is cancelled.
    fn work<F>(&self, sp: &SplitPoint, count: usize, each: &F, at_most: usize)
    where
        F: for<'h> Fn(&mut Search<'h>, usize) -> bool + Sync,
    {
        let mut h = Search::new(self.tt, self.options);
        h.level = self.level;
        h.split_workers = self.split_workers;
        h.busy = self.busy;
        h.pool = self.pool;
        h.all_nodes = self.all_nodes;
        h.work_for(sp);
        if let Some(d) = self.deadline {
            h.set_deadline(d);
        }
        if let Some(a) = self.abort {
            h.set_abort(a);
        }
        let mut taken = 0;
        while !sp.cancelled() && taken < at_most {
            taken += 1;
            let i = sp.next.fetch_add(1, Relaxed);
            if i >= count {
                break;
            }
            h.rank = sp.rank + i;
            if each(&mut h, i) {
                sp.cutoff.store(true, Relaxed);
            }
            if h.stopped {
                break;
            }
        }
        sp.nodes.fetch_add(h.nodes, Relaxed);
        if h.timed_out {
            sp.timed_out.store(true, Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    fn with_eval(discs: i32) -> Move {
        Move {
            sq: 0,
            child: Board::START,
            moves: 0,
            score: 0,
            eval: (discs * UNITS_PER_DISC) as i16,
        }
    }

    #[test]
    fn only_an_expected_all_node_with_every_move_far_from_alpha_splits_before_its_eldest() {
        let tt = TranspositionTable::new(0);
        let options = SearchOptions::default();
        let mut s = Search::new(&tt, &options);
        let n = 20;
        s.all_nodes = AllNodes::below_root_move(n, true);
        assert!(s.all_nodes.expects_all(n));
        let alpha = 3;
        let m = SPLIT_ALL_AT_ONCE_MARGIN;
        let far = [
            with_eval(alpha - m - 1),
            with_eval(alpha - 20),
            with_eval(-64),
        ];
        let near = [
            with_eval(alpha - 20),
            with_eval(alpha - m + 1),
            with_eval(-64),
        ];
        // One or two threads always wait for an eldest.
        s.split_workers = 2;
        assert!(!s.should_split(0, n, &far, alpha));
        s.split_workers = 16;
        assert!(s.should_split(0, n, &far, alpha));
        assert!(!s.should_split(0, n, &near, alpha));
        // An expected cut-node waits for its eldest, and so does a node too small.
        assert!(!s.should_split(0, n - 1, &far, alpha));
        assert!(!s.should_split(0, SPLIT_MIN_EMPTIES_MANY - 2, &far, alpha));
        assert!(!s.should_split(0, n, &far[..1], alpha));
        // After the eldest, the expected all-node splits whatever the ordering says.
        assert!(s.should_split(1, n, &near, alpha));
        // Any other node splits after its eldest unless a younger move looks at least
        // -SPLIT_CUT_MARGIN_MANY discs above alpha.
        let above = |d: i32| [with_eval(alpha - 20), with_eval(alpha + d)];
        let m = -SPLIT_CUT_MARGIN_MANY;
        assert!(m > 0);
        assert!(s.should_split(1, n - 1, &above(m - 1), alpha));
        assert!(!s.should_split(1, n - 1, &above(m), alpha));
        // With two threads, a move within SPLIT_CUT_MARGIN below alpha already holds it.
        s.split_workers = 2;
        assert!(!s.should_split(1, n - 1, &above(-SPLIT_CUT_MARGIN), alpha));
        assert!(s.should_split(1, n - 1, &above(-SPLIT_CUT_MARGIN - 1), alpha));
        // ... unless the other thread has nothing to do.
        let busy = Busy::new();
        s.busy = Some(&busy);
        assert!(s.should_split(1, n - 1, &above(-SPLIT_CUT_MARGIN), alpha));
        busy.add();
        assert!(!s.should_split(1, n - 1, &above(-SPLIT_CUT_MARGIN), alpha));
        busy.remove();
        // Many threads ignore idleness, which the work-and-span account cannot see.
        s.split_workers = 16;
        assert!(!s.should_split(1, n - 1, &above(m), alpha));
        s.busy = None;
        // Only the expected all-node leaves its table's move to the ordering.
        let moves = 0b111;
        assert!(s.may_split_all_at_once(n, moves));
        assert!(!s.may_split_all_at_once(n - 1, moves));
        assert!(!s.may_split_all_at_once(n, 0b11));
        s.split_workers = 2;
        assert!(!s.may_split_all_at_once(n, moves));
    }

    #[test]
    fn only_many_threads_share_out_a_deep_nodes_ordering_and_only_in_a_selective_pass() {
        let tt = TranspositionTable::new(0);
        let options = SearchOptions::default();
        let mut s = Search::new(&tt, &options);
        let n = ORDER_SHARED_MIN_EMPTIES;
        for level in [Level::probcut(0), Level::probcut(1), Level::EXACT] {
            s.level = level;
            for threads in [1, 2, SPLIT_MANY_THREADS, 16, 64] {
                s.split_workers = threads;
                let shares = level.is_probcut() && threads >= SPLIT_MANY_THREADS;
                assert_eq!(s.should_share_ordering(n, 5), shares, "{level:?} {threads}");
                assert!(!s.should_share_ordering(n - 1, 5), "{level:?} {threads}");
                assert!(!s.should_share_ordering(n, 1), "{level:?} {threads}");
            }
        }
    }

    #[test]
    fn packing_orders_by_score_and_keeps_the_move() {
        for (v, sq) in [(-64, 0u8), (0, 63), (64, 17), (-1, 5)] {
            assert_eq!(unpack(pack(v, sq)), (v, sq));
            assert!(pack(v, sq) > NO_BEST);
            assert!(pack(v + 1, 0) > pack(v, 63));
        }
    }
}
