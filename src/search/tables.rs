//! The table a node uses: the shared transposition table, or one of this thread's local
//! tables for nodes of few empties (`local_table.rs`).

use super::level::Level;
use super::local_table::DenseTable;
use super::tt::{TranspositionTable, TtHit};
use crate::board::{Board, Square};

/// The table a node probes and stores in: the shared one or this thread's local one.
#[derive(Clone, Copy)]
pub(crate) enum Table<'a> {
    Shared(&'a TranspositionTable),
    Local(&'a DenseTable),
}

impl Table<'_> {
    /// Starts loading the bucket of `board` into the cache.
    #[inline(always)]
    pub(crate) fn prefetch(self, board: &Board) {
        match self {
            Table::Shared(t) => t.prefetch(board),
            Table::Local(t) => t.prefetch(board),
        }
    }

    /// Bounds stored for `board`, if any.
    #[inline(always)]
    pub(crate) fn probe(self, board: &Board) -> Option<TtHit> {
        match self {
            Table::Shared(t) => t.probe(board),
            Table::Local(t) => t.probe(board),
        }
    }

    /// Records a search's result (see [`TranspositionTable::store`]).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn store(
        self,
        board: &Board,
        alpha: i32,
        beta: i32,
        score: i32,
        best_move: Option<Square>,
        level: Level,
        nodes: u64,
    ) {
        match self {
            Table::Shared(t) => t.store(board, alpha, beta, score, best_move, level, nodes),
            Table::Local(t) => t.store(board, alpha, beta, score, best_move, level, nodes),
        }
    }
}
