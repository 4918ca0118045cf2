//! How many threads search: the cores this process may use, the count that runs when
//! some are asked for, and the one resolution every command makes of its `--threads`
//! ([`Threads`]).

/// Cores this process may run on (affinity and cgroup quotas included).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Threads that search when `requested` are asked for: at least 1, and no more than
/// [`cores`] unless `oversubscribe`.
pub fn search_threads(requested: usize, oversubscribe: bool) -> usize {
    let t = requested.max(1);
    if oversubscribe { t } else { t.min(cores()) }
}

/// A command's thread count, resolved once: what was asked for and what will run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threads {
    /// The flag's count, or the command's default when there was no flag.
    pub asked: usize,
    /// What runs: [`search_threads`] of `asked`.
    pub running: usize,
}

impl Threads {
    /// Resolves `flag` (`--threads`), or `default` when it was not given (every core for
    /// solve and suite, one for bench, the suite's count for its variants): at least 1
    /// runs, and no more than the [`cores`] unless `oversubscribe`.
    pub fn resolve(flag: Option<usize>, default: usize, oversubscribe: bool) -> Threads {
        let asked = flag.unwrap_or(default);
        Threads {
            asked,
            running: search_threads(asked, oversubscribe),
        }
    }

    /// Workers that each run one single-threaded search or game (batch, calibrate, train,
    /// train-mpc): `flag`, or every core; all of them run, as many as asked.
    pub fn workers(flag: Option<usize>) -> Threads {
        Threads::resolve(flag, cores(), true)
    }

    /// Whether fewer run than were asked for (the cores are fewer).
    pub fn capped(&self) -> bool {
        self.running < self.asked
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Solver, SolverOptions};

    #[test]
    fn a_flag_or_the_default_is_asked_and_the_cores_cap_what_runs() {
        let c = cores();
        let t = |flag, default, over| {
            let t = Threads::resolve(flag, default, over);
            (t.asked, t.running, t.capped())
        };
        assert_eq!(t(None, c, false), (c, c, false));
        assert_eq!(t(None, 1, false), (1, 1, false));
        assert_eq!(t(Some(2), 1, false), (2, 2.min(c), c < 2));
        assert_eq!(t(Some(c + 3), 1, false), (c + 3, c, true));
        assert_eq!(t(Some(c + 3), 1, true), (c + 3, c + 3, false));
        assert_eq!(t(None, c + 1, false), (c + 1, c, true));
        let w = Threads::workers(None);
        assert_eq!((w.asked, w.running), (c, c));
        let w = Threads::workers(Some(c + 4));
        assert_eq!((w.asked, w.running), (c + 4, c + 4));
    }

    #[test]
    fn search_threads_are_capped_at_the_cores_unless_oversubscribed() {
        let c = cores();
        assert!(c >= 1);
        assert_eq!(search_threads(0, false), 1);
        assert_eq!(search_threads(1, false), 1);
        assert_eq!(search_threads(c + 5, false), c);
        assert_eq!(search_threads(c + 5, true), c + 5);
        let s = Solver::new(SolverOptions {
            hash_mb: 1,
            threads: c + 1,
            ..SolverOptions::default()
        });
        assert_eq!(s.threads(), c);
        let s = Solver::new(SolverOptions {
            hash_mb: 1,
            threads: 3,
            oversubscribe: true,
            ..SolverOptions::default()
        });
        assert_eq!(s.threads(), 3);
    }
}
