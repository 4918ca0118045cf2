//! Training's hook in the search: the boards where probcut is tried, about one in `rate`
//! of them (by a hash of the board), for fitting the probcut error model (`finale
//! train-mpc`). Only the sampling kernel set (`kernel_dispatch.rs`) records them, so no
//! other search looks for the hook.

use crate::board::Board;

/// The boards recorded so far, and which to record.
pub(crate) struct ProbcutSamples {
    rate: u64,
    boards: Vec<Board>,
}

impl ProbcutSamples {
    /// Records about one board in `rate` (at least 1: every board).
    pub(crate) fn one_in(rate: u64) -> ProbcutSamples {
        ProbcutSamples {
            rate: rate.max(1),
            boards: Vec::new(),
        }
    }

    /// Offers `b`, a board where probcut is tried.
    #[inline]
    pub(crate) fn offer(&mut self, b: &Board) {
        if b.hash64().is_multiple_of(self.rate) {
            self.boards.push(*b);
        }
    }

    /// The boards recorded.
    pub(crate) fn into_boards(self) -> Vec<Board> {
        self.boards
    }
}

#[cfg(test)]
mod tests {
    use crate::board::random::{SplitMix64, random_position};
    use crate::search::{Level, Solver, SolverOptions};
    use crate::settings::MPC_MIN_EMPTIES;

    /// The boards a fresh solver records at one in `rate`.
    fn sampled(board: crate::board::Board, rate: u64) -> Vec<crate::board::Board> {
        let mut solver = Solver::new(SolverOptions {
            hash_mb: 1,
            ..Default::default()
        });
        solver.probcut_nodes(board, Level::probcut(2), rate)
    }

    #[test]
    fn the_sampling_search_records_probcut_boards_one_in_rate() {
        let board = random_position(&mut SplitMix64::new(68), 18).board;
        let every = sampled(board, 1);
        assert!(every.len() > 20, "{} boards", every.len());
        assert!(
            every.iter().all(|b| b.empty_count() >= MPC_MIN_EMPTIES),
            "probcut is tried only from MPC_MIN_EMPTIES on"
        );
        // The same search, recording only the boards whose hash is a multiple of 7.
        let some: Vec<_> = every
            .iter()
            .filter(|b| b.hash64().is_multiple_of(7))
            .copied()
            .collect();
        assert_eq!(sampled(board, 7), some);
    }
}
