//! When a search must give up: a deadline, an abort flag set by another thread, or a
//! cutoff at a split point above it. The clock and the flag are looked at every
//! `STOP_CHECK_INTERVAL` nodes, the split points every `SPLIT_CHECK_INTERVAL`, so that a
//! plain search does exactly the work it did without them.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
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
}

impl Limits<'_> {
    /// True when the deadline passed or the abort flag is set.
    #[inline]
    pub(crate) fn reached(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.abort.is_some_and(|a| a.load(Relaxed))
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
        },
        next_limit_check: u64::MAX,
        next_split_check: u64::MAX,
        stopped: false,
        timed_out: false,
    };
}
