//! What a split does: the younger siblings of a node shared out through a split point to
//! every thread of the solve, each taking the next from a shared counter (so the
//! better-ordered ones start first), searched with a null window on the split point's
//! current alpha and, if it fails high, again with the full window. A cutoff cancels the
//! other siblings at once: they notice at their next node of the endgame band, through the
//! chain of split points above them, and give up without storing anything. With one or
//! two threads the siblings run on rayon's pool, from `SPLIT_MANY_THREADS` on on the
//! solver's own (`pool.rs`).

use super::busy::Busy;
use super::split_point::SplitPoint;
use crate::search::move_list::Move;
use crate::search::state::Search;
use std::sync::atomic::{AtomicI32, Ordering::Relaxed};

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
    /// [`Search::share_out`] of `count` calls that all start at once (none waits for
    /// another). A span build (`span.rs`) runs them in turn on this search instead and
    /// accounts them as one split.
    pub(crate) fn share_out_all<F>(&mut self, count: usize, each: F) -> bool
    where
        F: for<'h> Fn(&mut Search<'h>, usize) -> bool + Sync,
    {
        if !self.measure.span.in_turn() {
            return self.share_out(count, each);
        }
        let mut split = self.measure.span.split_begin(self.nodes);
        for i in 0..count {
            if i > 0 {
                self.measure.span.split_next(&mut split, self.nodes);
            }
            if each(self, i) || self.stop.stopped {
                break;
            }
        }
        self.measure.span.split_end(split, self.nodes);
        !self.stop.stopped
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
        let sp = SplitPoint::new(self.split.point, count, self.split.rank);
        let (tt, options, level) = (self.tables.shared, self.options, self.level);
        let (context, limits) = (self.split, self.stop.limits);
        let work = |at_most| {
            let h = Search::helper(tt, options, level, context, limits, &sp);
            work(h, &sp, count, &each, at_most);
        };
        match self.split.pool {
            // The busy count is read with two threads only: the pool does not keep it.
            Some(pool) => {
                let help = || work(1);
                pool.open(&sp, &help);
                work(usize::MAX);
                pool.close(&sp);
            }
            None => {
                let busy = self.split.busy.unwrap_or(&NOT_COUNTED);
                rayon::scope(|s| {
                    // No more helpers than siblings: the owner takes one too.
                    for _ in 1..self.split.workers.min(count) {
                        busy.add();
                        s.spawn(|_| {
                            work(usize::MAX);
                            busy.remove();
                        });
                    }
                    // The owner works too, rather than waiting, then waits for its helpers.
                    work(usize::MAX);
                    busy.remove();
                });
                busy.add();
            }
        }
        self.nodes += sp.nodes.load(Relaxed);
        if sp.timed_out.load(Relaxed) {
            self.stop.stopped = true;
            self.stop.timed_out = true;
        }
        if self.split.point.is_some_and(|p| p.cancelled()) {
            self.stop.stopped = true;
        }
        !self.stop.stopped
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
            if !h.stop.stopped && v > a && v < beta {
                // At least v: search again with what alpha is now (it may have risen).
                let a = shared_alpha.load(Relaxed);
                v = -h.search(mv.child, -beta, -a, n - 1);
                if v > a && v < beta {
                    shared_alpha.fetch_max(v, Relaxed);
                }
            }
            if h.stop.stopped {
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

/// A helper's loop: `h` takes siblings from `sp` until none is left, `at_most` were taken
/// (a helper of the pool chooses again after each) or the split point is cancelled, then
/// adds its nodes to the split point's.
fn work<F>(mut h: Search<'_>, sp: &SplitPoint, count: usize, each: &F, at_most: usize)
where
    F: for<'h> Fn(&mut Search<'h>, usize) -> bool + Sync,
{
    let mut taken = 0;
    while !sp.cancelled() && taken < at_most {
        taken += 1;
        let i = sp.next.fetch_add(1, Relaxed);
        if i >= count {
            break;
        }
        h.split.rank = sp.rank + i;
        if each(&mut h, i) {
            sp.cutoff.store(true, Relaxed);
        }
        if h.stop.stopped {
            break;
        }
    }
    sp.nodes.fetch_add(h.nodes, Relaxed);
    if h.stop.timed_out {
        sp.timed_out.store(true, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_orders_by_score_and_keeps_the_move() {
        for (v, sq) in [(-64, 0u8), (0, 63), (64, 17), (-1, 5)] {
            assert_eq!(unpack(pack(v, sq)), (v, sq));
            assert!(pack(v, sq) > NO_BEST);
            assert!(pack(v + 1, 0) > pack(v, 63));
        }
    }
}
