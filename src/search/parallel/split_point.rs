//! A split point: a node whose younger moves several threads search together
//! (`parallel.rs`), and the cancellation that runs down its chain of split points.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};

/// A node whose younger siblings are being searched by several threads.
pub(crate) struct SplitPoint<'p> {
    /// The split point the owner of this one works for, if any.
    pub(crate) parent: Option<&'p SplitPoint<'p>>,
    /// A sibling reached beta: the others are wasted work.
    pub(crate) cutoff: AtomicBool,
    /// A helper reached the deadline: the node's result is incomplete.
    pub(crate) timed_out: AtomicBool,
    /// Index of the next sibling to hand out.
    pub(crate) next: AtomicUsize,
    /// Nodes searched by the helpers.
    pub(crate) nodes: AtomicU64,
    /// How many siblings there are.
    pub(crate) count: usize,
    /// The sum of the sibling indices on the chain of split points above this one (0 on
    /// the path one thread searches first): the pool's order of preference (`pool.rs`).
    pub(crate) rank: usize,
    /// How many split points are above this one.
    pub(crate) depth: usize,
    /// Threads of the pool that joined this split point and have not left it.
    pub(crate) active: AtomicUsize,
}

impl<'p> SplitPoint<'p> {
    /// A split point of `count` siblings below `parent`, at `rank` (see the field).
    pub(crate) fn new(parent: Option<&'p SplitPoint<'p>>, count: usize, rank: usize) -> Self {
        SplitPoint {
            parent,
            cutoff: AtomicBool::new(false),
            timed_out: AtomicBool::new(false),
            next: AtomicUsize::new(0),
            nodes: AtomicU64::new(0),
            count,
            rank,
            depth: parent.map_or(0, |p| p.depth + 1),
            active: AtomicUsize::new(0),
        }
    }
}

impl SplitPoint<'_> {
    /// Siblings not yet handed out.
    #[inline]
    pub(crate) fn siblings_left(&self) -> usize {
        self.count.saturating_sub(self.next.load(Relaxed))
    }

    /// True when a thread joining now would find a sibling to search.
    #[inline]
    pub(crate) fn has_sibling_left(&self) -> bool {
        self.siblings_left() > 0 && !self.cancelled()
    }

    /// True when `other` is on this split point's chain above it.
    pub(crate) fn is_below(&self, other: &SplitPoint<'_>) -> bool {
        let other = (other as *const SplitPoint<'_>).cast::<()>();
        let mut sp = self.parent;
        while let Some(p) = sp {
            if std::ptr::eq((p as *const SplitPoint<'_>).cast::<()>(), other) {
                return true;
            }
            sp = p.parent;
        }
        false
    }

    /// The pool's order of preference of this split point's next sibling (lowest
    /// first): its rank plus its index, then the shallower.
    #[inline]
    pub(crate) fn priority(&self) -> (usize, usize) {
        (self.rank + self.next.load(Relaxed), self.depth)
    }

    /// True when this split point or one above it no longer needs its siblings' results.
    #[inline]
    pub(crate) fn cancelled(&self) -> bool {
        let mut sp = Some(self);
        while let Some(p) = sp {
            if p.cutoff.load(Relaxed) || p.timed_out.load(Relaxed) {
                return true;
            }
            sp = p.parent;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chain_knows_what_is_above_it_and_prefers_the_first_siblings_then_the_shallower() {
        let root = SplitPoint::new(None, 5, 0);
        let a = SplitPoint::new(Some(&root), 4, 2);
        let b = SplitPoint::new(Some(&a), 3, 2);
        let other = SplitPoint::new(Some(&root), 3, 1);
        assert!(b.is_below(&a) && b.is_below(&root) && a.is_below(&root));
        assert!(!root.is_below(&a) && !b.is_below(&b) && !b.is_below(&other));
        assert_eq!((root.depth, a.depth, b.depth), (0, 1, 2));
        // Rank plus the next sibling's index, then the depth.
        assert_eq!(root.priority(), (0, 0));
        assert!(a.priority() < b.priority());
        root.next.store(3, Relaxed);
        assert_eq!(root.priority(), (3, 0));
        assert!(a.priority() < root.priority());
        // A split point is open to joiners while a sibling is left and nothing cut.
        assert_eq!(root.siblings_left(), 2);
        assert!(b.has_sibling_left());
        a.cutoff.store(true, Relaxed);
        assert!(!b.has_sibling_left() && root.has_sibling_left());
        root.next.store(7, Relaxed);
        assert_eq!(root.siblings_left(), 0);
        assert!(!root.has_sibling_left());
    }
}
