//! Perft: leaf counts of the move tree, a pass counted as a ply, a finished game as a leaf.

use super::moves::flips;
use super::position::Board;
use super::square::Bitboard;

/// Number of leaves `depth` plies below `board`.
pub fn perft(board: Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.moves();
    if moves == 0 {
        let passed = board.pass();
        if passed.moves() == 0 {
            return 1;
        }
        return perft(passed, depth - 1);
    }
    if depth == 1 {
        return moves.count_ones() as u64;
    }
    let mut total = 0;
    for sq in Bitboard(moves) {
        let f = flips(board.player, board.opponent, sq);
        total += perft(board.play_with_flips(sq, f), depth - 1);
    }
    total
}
