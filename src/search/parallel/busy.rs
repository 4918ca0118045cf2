//! How many of a solve's threads have work: with two threads, a node that would search
//! its younger moves alone shares them out after all when the other thread has nothing
//! to do (`parallel.rs`), since speculative work then costs no time.

use std::sync::atomic::{AtomicIsize, Ordering::Relaxed};

/// Threads of one solve that are searching or have a job queued for them: the root's
/// thread, plus one per job handed out and not yet finished, less one per owner waiting
/// for its helpers to finish. Read without synchronisation: a stale count only makes one
/// split decision the other way, never a wrong value.
pub(crate) struct Busy(AtomicIsize);

impl Busy {
    /// A solve's count: its root thread searching.
    pub(crate) fn new() -> Self {
        Busy(AtomicIsize::new(1))
    }

    /// True when fewer than `threads` threads have work.
    #[inline]
    pub(crate) fn has_idle(&self, threads: usize) -> bool {
        self.0.load(Relaxed) < threads as isize
    }

    /// A job was handed out (queued or running), or an owner took up its search again.
    #[inline]
    pub(crate) fn add(&self) {
        self.0.fetch_add(1, Relaxed);
    }

    /// A job finished, or an owner waits for its helpers.
    #[inline]
    pub(crate) fn remove(&self) {
        self.0.fetch_sub(1, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_root_thread_and_each_job_until_it_ends() {
        let b = Busy::new();
        assert!(b.has_idle(2));
        assert!(!b.has_idle(1));
        b.add();
        assert!(!b.has_idle(2));
        // The owner waits: its helper's thread is busy, the owner's free.
        b.remove();
        assert!(b.has_idle(2));
        b.add();
        b.remove();
        b.remove();
        assert!(b.has_idle(1));
    }
}
