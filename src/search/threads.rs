//! How many threads search: the cores this process may use, and the count that runs when
//! some are asked for.

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Solver, SolverOptions};

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
