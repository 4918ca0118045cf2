//! When a node splits: the one rule of every split below the root (the root's is
//! `root_should_split`, `root/probes.rs`), by the thread count, the node's expected type
//! (`node_type.rs`), what the evaluation ordering says of its moves and whether the other
//! thread is idle (`busy.rs`). How the rules were chosen:
//! [results/parallel/README.md](../../../results/parallel/README.md).

use crate::eval::UNITS_PER_DISC;
use crate::search::move_list::{Move, NO_EVAL};
use crate::search::state::Search;
use crate::settings::{
    ORDER_SHARED_MIN_EMPTIES, SPLIT_ALL_AT_ONCE_MARGIN, SPLIT_CUT_MARGIN, SPLIT_CUT_MARGIN_MANY,
    SPLIT_ELDERS, SPLIT_MANY_THREADS, SPLIT_MIN_EMPTIES, SPLIT_MIN_EMPTIES_MANY,
};

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

impl Search<'_> {
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
                && self.split.all_nodes.expects_all(n)
                && !likely_cut(rest, alpha, SPLIT_ALL_AT_ONCE_MARGIN);
        }
        searched >= SPLIT_ELDERS
            && ((self.many_threads() && self.split.all_nodes.expects_all(n))
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
        !self.many_threads()
            && self
                .split
                .busy
                .is_some_and(|b| b.has_idle(self.split.workers))
    }

    /// True when a node of `n` empties with the legal `moves` may share them all out at
    /// once ([`Search::should_split`] decides once they are ordered): many threads, an
    /// expected all-node, at least two moves besides one. Such a node does not search the table's move
    /// first, but orders it first among the others.
    #[inline]
    pub(crate) fn may_split_all_at_once(&self, n: u32, moves: u64) -> bool {
        self.many_threads()
            && self.split.all_nodes.expects_all(n)
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
        self.split.workers >= SPLIT_MANY_THREADS
    }

    /// True when this search may share out its nodes at all (more than one thread): a
    /// cheap test that keeps one thread's loop free of the split rules.
    #[inline(always)]
    pub(crate) fn splits(&self) -> bool {
        self.split.workers > 1
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::search::parallel::busy::Busy;
    use crate::search::parallel::node_type::AllNodes;
    use crate::search::selectivity::level::Level;
    use crate::search::{SearchOptions, TranspositionTable};

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
        s.split.all_nodes = AllNodes::below_root_move(n, true);
        assert!(s.split.all_nodes.expects_all(n));
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
        s.split.workers = 2;
        assert!(!s.should_split(0, n, &far, alpha));
        s.split.workers = 16;
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
        s.split.workers = 2;
        assert!(!s.should_split(1, n - 1, &above(-SPLIT_CUT_MARGIN), alpha));
        assert!(s.should_split(1, n - 1, &above(-SPLIT_CUT_MARGIN - 1), alpha));
        // ... unless the other thread has nothing to do.
        let busy = Busy::new();
        s.split.busy = Some(&busy);
        assert!(s.should_split(1, n - 1, &above(-SPLIT_CUT_MARGIN), alpha));
        busy.add();
        assert!(!s.should_split(1, n - 1, &above(-SPLIT_CUT_MARGIN), alpha));
        busy.remove();
        // Many threads ignore idleness, which the work-and-span account cannot see.
        s.split.workers = 16;
        assert!(!s.should_split(1, n - 1, &above(m), alpha));
        s.split.busy = None;
        // Only the expected all-node leaves its table's move to the ordering.
        let moves = 0b111;
        assert!(s.may_split_all_at_once(n, moves));
        assert!(!s.may_split_all_at_once(n - 1, moves));
        assert!(!s.may_split_all_at_once(n, 0b11));
        s.split.workers = 2;
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
                s.split.workers = threads;
                let shares = level.is_probcut() && threads >= SPLIT_MANY_THREADS;
                assert_eq!(s.should_share_ordering(n, 5), shares, "{level:?} {threads}");
                assert!(!s.should_share_ordering(n - 1, 5), "{level:?} {threads}");
                assert!(!s.should_share_ordering(n, 1), "{level:?} {threads}");
            }
        }
    }
}
