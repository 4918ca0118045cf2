//! The tree a proof grows: what a position is (a finished game, a pass, or moves) and the
//! positions its moves lead to.

use crate::board::{Position, Square};

/// What a position is in the tree.
pub enum Node {
    /// Neither side can move: the final score for the side to move.
    Over(i32),
    /// Only the opponent can move: the position after the pass, whose value is minus
    /// this one's.
    Pass(Position),
    /// The legal moves and the positions after them, in square order.
    Moves(Vec<(Square, Position)>),
}

/// What `p` is in the tree.
pub fn node(p: &Position) -> Node {
    let board = p.board;
    if board.is_game_over() {
        return Node::Over(board.final_score());
    }
    let moves: Vec<(Square, Position)> = board
        .legal_moves()
        .filter_map(|sq| p.play(sq).map(|q| (sq, q)))
        .collect();
    if moves.is_empty() {
        Node::Pass(p.pass())
    } else {
        Node::Moves(moves)
    }
}

/// The position after `path` (squares, passes not written) from `root`, passing
/// wherever the side to move has no move; `None` when a move is illegal there.
pub fn follow(root: &Position, path: &[Square]) -> Option<Position> {
    let mut p = *root;
    for &sq in path {
        if p.board.legal_moves().is_empty() {
            p = p.pass();
        }
        p = p.play(sq)?;
    }
    Some(p)
}
