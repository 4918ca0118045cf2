//! When a search must give up: a deadline, a node budget, an abort flag set by another
//! thread, or a cutoff at a split point above it; and where it publishes its node count
//! meanwhile. The clock and the flag are looked at every
//! `STOP_CHECK_INTERVAL` nodes, the split points every `SPLIT_CHECK_INTERVAL`, so that a
//! plain search does exactly the work it did without them.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

/// What stops a search from outside: the same for every thread of one solve, so a helper
/// takes its owner's.
#[derive(Clone, Copy, Default)]
pub(crate) struct Limits<'a> {
    /// When to give up, if ever.
    pub(crate) deadline: Option<Instant>,
    /// Set by another thread to make the search give up (e.g. a batch whose output
    /// failed).
    pub(crate) abort: Option<&'a AtomicBool>,
    /// Give up once this many nodes are searched, if ever: by the count of the thread
    /// that started the solve, which takes in its helpers' nodes as their split points
    /// join, so exact to [`crate::settings::STOP_CHECK_INTERVAL`] at one thread and
    /// reproducible there, unlike a deadline.
    pub(crate) max_nodes: Option<u64>,
    /// Where the node count is published at each look, for a table save to record (the
    /// largest count any thread of the solve published: the starting thread's, which
    /// takes in its helpers' as their split points join).
    pub(crate) progress: Option<&'a AtomicU64>,
}

impl Limits<'_> {
    /// True when the deadline passed, `nodes` reached the budget or the abort flag is
    /// set.
    #[inline]
    pub(crate) fn reached(&self, nodes: u64) -> bool {
        if let Some(p) = self.progress {
            p.fetch_max(nodes, Relaxed);
        }
        self.max_nodes.is_some_and(|m| nodes >= m)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.abort.is_some_and(|a| a.load(Relaxed))
    }

    /// True when some limit is set: the search must look at them.
    pub(crate) fn any(&self) -> bool {
        self.deadline.is_some()
            || self.abort.is_some()
            || self.max_nodes.is_some()
            || self.progress.is_some()
    }
}

/// One search's stopping state.
pub(crate) struct Stop<'a> {
    pub(crate) limits: Limits<'a>,
    /// Node count at which to look at the clock and the flag next (never without one).
    pub(crate) next_limit_check: u64,
    /// Node count at which to look at the split points above next (never without one).
    pub(crate) next_split_check: u64,
    /// Set once the search must give up (a limit, or a cutoff at a split point above):
    /// every search returns at once, storing nothing.
    pub(crate) stopped: bool,
    /// Set when a limit was reached (as opposed to a cancelled helper).
    pub(crate) timed_out: bool,
}

impl Stop<'_> {
    /// Never stopping.
    pub(crate) const NEVER: Stop<'static> = Stop {
        limits: Limits {
            deadline: None,
            abort: None,
            max_nodes: None,
            progress: None,
        },
        next_limit_check: u64::MAX,
        next_split_check: u64::MAX,
        stopped: false,
        timed_out: false,
    };
}
