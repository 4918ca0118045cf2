//! The solver's own pool for many threads (from `SPLIT_MANY_THREADS` on): an idle thread
//! joins the open split point whose next sibling one thread would have searched soonest,
//! and an owner whose siblings are all taken helps only at split points below its own
//! (a "helpful master") until its helpers are done.
//!
//! Why not `rayon::scope`, which two threads still use: a thief there takes the oldest
//! job of a random thread, which is the next sibling of a shallow split point, the
//! biggest and most speculative work there is; at 64 threads every sibling of such a
//! node gets under way before one cuts (results/parallel/2026-11-28-speculation/). And
//! its waiting owner runs any job, possibly from an unrelated split point, so a cutoff can
//! reach its parent late. Here the order of preference is the split point's rank (the sum
//! of the sibling indices on its chain of split points: 0 on the path one thread searches
//! first) plus the index of its next sibling, then the shallower. It changes which work
//! runs first when threads are fewer than the work, never what may run at once: the
//! work-and-span account (`span.rs`) does not see it, and Brent's bound charges it
//! through the oversubscribed runs' nodes.

use super::split_point::SplitPoint;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// An open split point and the call that helps it. Raw pointers, since the split point
/// lives on its owner's stack: its owner closes it before the frame ends and then waits
/// until every thread that joined it has left (`SplitPoint::active`).
#[derive(Clone, Copy)]
struct Open {
    sp: *const SplitPoint<'static>,
    help: *const (dyn Fn() + Sync + 'static),
}

// SAFETY: the pointees are `Sync` and outlive their entry (see `Open`).
unsafe impl Send for Open {}

impl Open {
    fn sp(&self) -> &SplitPoint<'static> {
        // SAFETY: an entry is only read under the lock, while it is open (see `Open`).
        unsafe { &*self.sp }
    }
}

/// What the threads share, under one lock.
struct State {
    open: Vec<Open>,
    /// Threads waiting on `Shared::wake` for a split point to open.
    sleeping: usize,
    quit: bool,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic in a search is a bug that ends the process anyway; the state stays usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Helper threads of a solve that searches with many threads; the thread that calls the
/// solve is the last one.
pub(crate) struct Pool {
    shared: Arc<Shared>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

/// The best open split point with a sibling left, below `within` when given.
fn best(open: &[Open], within: Option<&SplitPoint>) -> Option<Open> {
    open.iter()
        .filter(|o| {
            let sp = o.sp();
            sp.has_sibling_left() && within.is_none_or(|w| sp.is_below(w))
        })
        .min_by_key(|o| o.sp().priority())
        .copied()
}

/// Runs `o`'s help as one of its threads.
fn join(state: MutexGuard<'_, State>, o: Open) {
    // Counted before the lock is let go, so that a closing owner sees it.
    o.sp().active.fetch_add(1, Relaxed);
    drop(state);
    // SAFETY: the split point stays alive while `active` counts this thread (see `Open`).
    unsafe { (*o.help)() };
    // The owner may free the split point as soon as this is seen.
    o.sp().active.fetch_sub(1, Release);
}

impl Pool {
    /// Starts `helpers` threads with stacks of `stack` bytes, each calling `prepare`
    /// first (its local tables): the first error is returned, and no thread is left.
    pub(crate) fn start(
        helpers: usize,
        stack: usize,
        prepare: fn() -> std::io::Result<()>,
    ) -> Result<Pool, String> {
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                open: Vec::new(),
                sleeping: 0,
                quit: false,
            }),
            wake: Condvar::new(),
        });
        let mut pool = Pool {
            shared,
            threads: Vec::with_capacity(helpers),
        };
        let (tx, rx) = std::sync::mpsc::channel();
        for i in 0..helpers {
            let shared = Arc::clone(&pool.shared);
            let tx = tx.clone();
            let t = std::thread::Builder::new()
                .name(format!("finale-search-{i}"))
                .stack_size(stack)
                .spawn(move || {
                    let ready = prepare();
                    let ok = ready.is_ok();
                    let _ = tx.send(ready);
                    if ok {
                        work(&shared);
                    }
                })
                .map_err(|e| e.to_string())?;
            pool.threads.push(t);
        }
        drop(tx);
        for _ in 0..helpers {
            rx.recv()
                .map_err(|e| e.to_string())?
                .map_err(|e| e.to_string())?;
        }
        Ok(pool)
    }

    /// Opens `sp`, whose siblings `help` searches, to the idle threads.
    pub(crate) fn open(&self, sp: &SplitPoint<'_>, help: &(dyn Fn() + Sync)) {
        let help: *const (dyn Fn() + Sync + '_) = help;
        let o = Open {
            sp: (sp as *const SplitPoint<'_>).cast(),
            // SAFETY: only the lifetime changes (see `Open`).
            help: unsafe {
                std::mem::transmute::<
                    *const (dyn Fn() + Sync + '_),
                    *const (dyn Fn() + Sync + 'static),
                >(help)
            },
        };
        let mut state = self.shared.lock();
        state.open.push(o);
        let wake = state.sleeping.min(sp.siblings_left());
        drop(state);
        for _ in 0..wake {
            self.shared.wake.notify_one();
        }
    }

    /// Closes `sp` to threads not yet in it, then helps below it until every thread
    /// that joined it has left.
    pub(crate) fn close(&self, sp: &SplitPoint<'_>) {
        let me = (sp as *const SplitPoint<'_>).cast::<()>();
        self.shared.lock().open.retain(|o| o.sp.cast::<()>() != me);
        while sp.active.load(Acquire) > 0 {
            let state = self.shared.lock();
            match best(&state.open, Some(sp)) {
                Some(o) => join(state, o),
                None => {
                    drop(state);
                    std::thread::yield_now();
                }
            }
        }
    }
}

/// A helper thread's life: join the best open split point, or sleep until one opens.
fn work(shared: &Shared) {
    let mut state = shared.lock();
    loop {
        if state.quit {
            return;
        }
        match best(&state.open, None) {
            Some(o) => {
                join(state, o);
                state = shared.lock();
            }
            None => {
                state.sleeping += 1;
                state = shared.wake.wait(state).unwrap_or_else(|e| e.into_inner());
                state.sleeping -= 1;
            }
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.shared.lock().quit = true;
        self.shared.wake.notify_all();
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize};
    use std::time::Duration;

    fn open(sps: &[&SplitPoint<'_>]) -> Vec<Open> {
        static NOTHING: fn() = || {};
        sps.iter()
            .map(|sp| Open {
                sp: (*sp as *const SplitPoint<'_>).cast(),
                help: &NOTHING as &(dyn Fn() + Sync) as *const _,
            })
            .collect()
    }

    #[test]
    fn the_best_is_the_soonest_sibling_and_an_owner_looks_only_below_its_own() {
        let root = SplitPoint::new(None, 6, 0);
        let first = SplitPoint::new(Some(&root), 4, 0);
        let deep = SplitPoint::new(Some(&first), 4, 1);
        let third = SplitPoint::new(Some(&root), 4, 2);
        let list = open(&[&root, &first, &deep, &third]);
        let pick = |within| best(&list, within).map(|o| o.sp.cast::<()>());
        let at = |sp: &SplitPoint<'_>| Some((sp as *const SplitPoint<'_>).cast::<()>());
        // Ranks 0 and 0: the shallower.
        assert_eq!(pick(None), at(&root));
        root.next.store(1, Relaxed);
        assert_eq!(pick(None), at(&first));
        first.next.store(4, Relaxed);
        root.next.store(2, Relaxed);
        // The first one's siblings are all taken: rank 1 + 0 beats the root's 0 + 2.
        assert_eq!(pick(None), at(&deep));
        assert_eq!(pick(Some(&first)), at(&deep));
        assert_eq!(pick(Some(&third)), None);
        deep.cutoff.store(true, Relaxed);
        assert_eq!(pick(None), at(&root));
        assert_eq!(pick(Some(&first)), None);
    }

    #[test]
    fn every_sibling_runs_once_and_close_waits_for_the_helpers() {
        let pool = Pool::start(3, 1 << 20, || Ok(())).unwrap();
        for round in 0..20 {
            let count = 40;
            let sp = SplitPoint::new(None, count, 0);
            let runs: Vec<AtomicUsize> = (0..count).map(|_| AtomicUsize::new(0)).collect();
            let done: Vec<AtomicBool> = (0..count).map(|_| AtomicBool::new(false)).collect();
            let helpers = AtomicUsize::new(0);
            let take = |helper: bool| {
                loop {
                    let i = sp.next.fetch_add(1, Relaxed);
                    if i >= count {
                        break;
                    }
                    runs[i].fetch_add(1, Relaxed);
                    std::thread::sleep(Duration::from_micros(200));
                    done[i].store(true, Release);
                    if helper {
                        helpers.fetch_add(1, Relaxed);
                        break;
                    }
                }
            };
            let help = || take(true);
            pool.open(&sp, &help);
            take(false);
            pool.close(&sp);
            assert_eq!(sp.active.load(Acquire), 0);
            for i in 0..count {
                assert_eq!(runs[i].load(Relaxed), 1, "round {round}, sibling {i}");
                // Nothing still running once the owner may free the split point.
                assert!(done[i].load(Acquire), "round {round}, sibling {i}");
            }
            if round == 19 {
                assert!(helpers.load(Relaxed) > 0, "no helper ever joined");
            }
        }
    }

    #[test]
    fn a_thread_that_cannot_prepare_is_an_error_and_the_others_stop() {
        let e = Pool::start(4, 1 << 20, || Err(std::io::Error::other("no memory")));
        assert!(e.is_err_and(|e| e.contains("no memory")));
    }
}
