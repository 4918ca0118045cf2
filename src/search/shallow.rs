//! The shallow band (5 ..= `SHALLOW_MAX_EMPTIES` empties): no transposition table,
//! moves in odd quadrants first, then by square class; stability cutoff.

use super::kernel_dispatch::Entries;
use super::measure::account::Band;
use super::ordering::{SQUARE_CLASSES, odd_quadrants};
use super::state::Search;
use crate::board::{Bitboard, Board};

impl Search<'_> {
    /// Solves a board with `n` (> 4) empties in the shallow band, whose side to move has the
    /// legal moves `moves`.
    #[inline(always)]
    pub(crate) fn search_shallow<K: Entries>(
        &mut self,
        b: Board,
        moves: u64,
        alpha: i32,
        beta: i32,
        n: u32,
    ) -> i32 {
        self.count_node(Band::Shallow);
        if let Some(v) = self.stability_cutoff(&b, alpha, n) {
            return v;
        }
        if moves == 0 {
            let theirs = K::legal_moves(b.opponent, b.player);
            if theirs == 0 {
                return b.final_score();
            }
            return -K::shallow(self, b.pass(), theirs, -beta, -alpha, n);
        }
        let odd = odd_quadrants(b.empty());
        let mut best = -65;
        let mut alpha = alpha;
        for parity in [odd, !odd] {
            for class in SQUARE_CLASSES {
                for sq in Bitboard(moves & parity & class) {
                    let child = b.play_with_flips(sq, K::flips(b.player, b.opponent, sq));
                    let v = if n == 5 {
                        -K::last(self, child, -beta, -alpha, 4)
                    } else {
                        let m = K::legal_moves(child.player, child.opponent);
                        -K::shallow(self, child, m, -beta, -alpha, n - 1)
                    };
                    if v > best {
                        best = v;
                        if v >= beta {
                            return v;
                        }
                        alpha = alpha.max(v);
                    }
                }
            }
        }
        best
    }
}
