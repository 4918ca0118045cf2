//! Exact endgame search: negamax alpha-beta in depth bands.
//!
//! | empties | band | file |
//! |---|---|---|
//! | 0-4 | specialised solvers | `last.rs` |
//! | 5..=`SHALLOW_MAX_EMPTIES` | no table, parity order | `shallow.rs` |
//! | above | table, ETC, stability, fastest-first, PVS | `endgame.rs` |
//!
//! The root (`root.rs`) runs the requested mode and extracts the principal variation.

mod endgame;
mod etc;
mod last;
pub mod ordering;
mod root;
pub mod stability;
mod table_memory;
pub mod tt;

pub use root::{Mode, PvMove, SolveResult, Solver, SolverOptions};
pub use tt::TranspositionTable;

use crate::board::Board;
use crate::settings::SHALLOW_MAX_EMPTIES;
mod shallow;

/// Switches that change search behaviour, for measuring their effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Enhanced transposition cutoff.
    pub etc: bool,
    /// Stability cutoff.
    pub stability: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            etc: true,
            stability: true,
        }
    }
}

/// One thread's search: the shared table, its node count and options.
pub(crate) struct Search<'a> {
    pub(crate) tt: &'a TranspositionTable,
    pub(crate) nodes: u64,
    pub(crate) options: SearchOptions,
    /// Trust level of this search's results ([`tt::EXACT`] unless selective).
    pub(crate) level: u8,
}

impl<'a> Search<'a> {
    pub(crate) fn new(tt: &'a TranspositionTable, options: SearchOptions) -> Self {
        Search {
            tt,
            nodes: 0,
            options,
            level: tt::EXACT,
        }
    }

    /// Exact score of `b` (with `n` empties) within (`alpha`, `beta`), fail-soft:
    /// a result `<= alpha` is an upper bound, `>= beta` a lower bound.
    #[inline]
    pub(crate) fn search(&mut self, b: Board, alpha: i32, beta: i32, n: u32) -> i32 {
        if n > SHALLOW_MAX_EMPTIES {
            self.search_endgame(b, alpha, beta, n)
        } else if n > 4 {
            self.search_shallow(b, alpha, beta, n)
        } else {
            self.solve_last(b, alpha, beta, n)
        }
    }
}
