//! A node's moves: each with its child board, the child's moves and its ordering score,
//! and the picking of the best-scored one next.

use crate::board::Board;
use arrayvec::ArrayVec;

/// A candidate move with its resulting board and ordering score.
#[derive(Clone, Copy)]
pub(crate) struct Move {
    pub sq: u8,
    pub child: Board,
    /// The child's legal moves (its side to move's), computed for the ordering and
    /// handed to the child's search, which would otherwise compute them again.
    pub moves: u64,
    pub score: i32,
    /// The shallow evaluation search's value of the move for the side to move, in
    /// evaluation units (a fail-soft upper bound when low, or when more than
    /// `ORDER_EVAL_PVS_MARGIN` below the best move's), or `NO_EVAL`.
    pub eval: i16,
}

/// [`Move::eval`] of a move the evaluation ordering did not search.
pub(crate) const NO_EVAL: i16 = i16::MIN;

/// Moves of one node (at most one per empty square).
pub(crate) type MoveList = ArrayVec<Move, 64>;

/// Moves the best-scored move of `list[i..]` to position `i`.
#[inline]
pub(crate) fn select_next(list: &mut MoveList, i: usize) {
    let mut best = i;
    for j in i + 1..list.len() {
        if list[j].score > list[best].score {
            best = j;
        }
    }
    list.swap(i, best);
}
