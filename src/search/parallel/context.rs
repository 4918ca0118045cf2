//! The parallel part of one thread's search: how many threads share out its nodes, the
//! pool and busy count they share, and where the search stands among the split points
//! above it. A helper's search starts from its owner's context (`share.rs`).

use super::busy::Busy;
use super::node_type::AllNodes;
use super::pool::Pool;
use super::split_point::SplitPoint;

/// One search's place in the parallel search (see `parallel/`).
#[derive(Clone, Copy)]
pub(crate) struct SplitContext<'a> {
    /// Threads that search the younger moves of one split node together (1: no
    /// splitting).
    pub(crate) workers: usize,
    /// How many of the solve's threads have work (none without a pool).
    pub(crate) busy: Option<&'a Busy>,
    /// The solver's own pool, with many threads (`pool.rs`); otherwise splits run on
    /// rayon's.
    pub(crate) pool: Option<&'a Pool>,
    /// The nodes expected to be all-nodes below the root move being searched
    /// (`node_type.rs`).
    pub(crate) all_nodes: AllNodes,
    /// The sum of the sibling indices on the chain of split points this search works
    /// for: the rank of the split points it opens (`pool.rs`).
    pub(crate) rank: usize,
    /// The innermost split point this search works for, if it is a helper: its siblings'
    /// cutoffs make it give up.
    pub(crate) point: Option<&'a SplitPoint<'a>>,
}

impl SplitContext<'_> {
    /// The context of a search on one thread, which never splits.
    pub(crate) const ALONE: SplitContext<'static> = SplitContext {
        workers: 1,
        busy: None,
        pool: None,
        all_nodes: AllNodes::NONE,
        rank: 0,
        point: None,
    };
}
