//! A split point: a node whose younger moves several threads search together
//! (`parallel.rs`), and the cancellation that runs down its chain of split points.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};

/// A node whose younger siblings are being searched by several threads.
pub(crate) struct SplitPoint<'p> {
    /// The split point the owner of this one works for, if any.
    pub(super) parent: Option<&'p SplitPoint<'p>>,
    /// A sibling reached beta: the others are wasted work.
    pub(super) cutoff: AtomicBool,
    /// A helper reached the deadline: the node's result is incomplete.
    pub(super) timed_out: AtomicBool,
    /// Index of the next sibling to hand out.
    pub(super) next: AtomicUsize,
    /// Nodes searched by the helpers.
    pub(super) nodes: AtomicU64,
}

impl SplitPoint<'_> {
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
