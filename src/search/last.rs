//! The last 1-4 empty squares: specialised, no move list, no table.
//!
//! Empties are passed as square indices. A square is tried only when it touches an
//! opponent disc (otherwise it cannot flip anything), and squares alone in their
//! quadrant (odd parity) are tried first. With 3 and 4 empties the stability cutoff is
//! tried first, as in the bands above (see `STABILITY_ALPHA_MIN`).

use super::kernel_dispatch::Entries;
use super::measure::account::Band;
use super::state::Search;
use crate::board::moves::NEIGHBOURS;
use crate::board::{Board, Square};

/// Quadrant (0..4) of each square.
const fn quadrant(sq: Square) -> u32 {
    let sq = sq.index();
    ((sq >> 2) & 1) as u32 | (((sq >> 5) & 1) << 1) as u32
}

/// Puts the squares that are alone (odd count) in their quadrant first; stable otherwise.
/// A bubble sort of constant indices with selects, so the squares stay in registers:
/// writing them to a list by a running index and reading them back stalled on store
/// forwarding (perf, FFO #50: `parity_sort` 2.5 % of the time, and 8 % of
/// `solve_last_3`'s on the reload).
#[inline(always)]
fn parity_sort<const N: usize>(sq: &mut [Square; N]) {
    let mut parity = 0u32;
    for &s in sq.iter() {
        parity ^= 1 << quadrant(s);
    }
    let odd = |s: Square| parity >> quadrant(s) & 1 != 0;
    for pass in 0..N - 1 {
        for i in 0..N - 1 - pass {
            let (a, b) = (sq[i], sq[i + 1]);
            let swap = !odd(a) & odd(b);
            sq[i] = if swap { b } else { a };
            sq[i + 1] = if swap { a } else { b };
        }
    }
}

/// Score when neither side can move.
#[inline]
fn game_over_score(b: &Board) -> i32 {
    b.final_score()
}

impl Search<'_> {
    /// The side to move of the passed board `b` has no move among the last empties
    /// either: neither side can move, the game is over. The passed board was counted as a
    /// node, but the game-over check does not examine a position: taken back. (A board
    /// whose side to move cannot move is searched passed, by its caller, without computing
    /// mobility to detect the pass: the passed board finds its own moves. Written out in
    /// each solver rather than as a closure: a closure is compiled without the kernel
    /// set's CPU features, and the kernels inlined into it become calls.)
    #[inline(always)]
    fn game_over_after_pass(&mut self, b: &Board) -> i32 {
        self.nodes -= 1;
        self.measure.counts.add(Band::Last, -1);
        // `b` is the passed board: its final score, negated by the caller.
        game_over_score(b)
    }

    /// Solves a board with `n` <= 4 empties.
    #[inline(always)]
    pub(crate) fn solve_last<K: Entries>(
        &mut self,
        b: Board,
        alpha: i32,
        beta: i32,
        n: u32,
    ) -> i32 {
        let mut e = b.empty();
        let mut sq = [Square::from_index(0); 4];
        for s in sq.iter_mut().take(n as usize) {
            *s = Square::from_index(e.trailing_zeros());
            e &= e - 1;
        }
        match n {
            0 => {
                self.count_node(Band::Last);
                game_over_score(&b)
            }
            1 => self.solve_last_1::<K>(b, sq[0]),
            2 => self.solve_last_2::<K, false>(b, alpha, beta, sq[0], sq[1]),
            3 => K::last_3::<false>(self, b, alpha, beta, [sq[0], sq[1], sq[2]]),
            _ => self.solve_last_4::<K, false>(b, alpha, beta, sq),
        }
    }

    /// One empty square `x`: the score follows from flip counts, no move is made.
    ///
    /// No lazy cut-off here: returning "nobody plays x" as an upper bound at or below alpha
    /// when the side to move cannot play skips one flip count, but the looser fail-soft
    /// bound costs nodes elsewhere; bench at one thread, 3 alternating runs (median):
    /// 8 443 ms without, 8 423 ms with, and 251 770 176 nodes instead of 251 288 679.
    #[inline(always)]
    pub(crate) fn solve_last_1<K: Entries>(&mut self, b: Board, x: Square) -> i32 {
        self.count_node(Band::Last);
        let p = b.player.count_ones() as i32;
        let n = K::count_last_flips(b.player, x) as i32;
        if n > 0 {
            // own = p + n + 1, opponent = 63 - p - n.
            return 2 * (p + n) - 62;
        }
        // The side to move passes: one more position examined.
        self.count_node(Band::Last);
        let m = K::count_last_flips(b.opponent, x) as i32;
        if m > 0 {
            // own = p - m, opponent = 64 - p + m.
            return 2 * (p - m) - 64;
        }
        // Nobody can play x: it goes to the winner (63 discs, so no draw).
        if 2 * p > 63 { 2 * p - 62 } else { 2 * p - 64 }
    }

    /// Two empty squares.
    #[inline(always)]
    pub(crate) fn solve_last_2<K: Entries, const PASSED: bool>(
        &mut self,
        b: Board,
        alpha: i32,
        beta: i32,
        x1: Square,
        x2: Square,
    ) -> i32 {
        self.count_node(Band::Last);
        let mut best = -65;
        let mut alpha = alpha;
        for (x, y) in [(x1, x2), (x2, x1)] {
            if NEIGHBOURS[x.index()] & b.opponent != 0 {
                let f = K::flips(b.player, b.opponent, x);
                if f != 0 {
                    let v = -self.solve_last_1::<K>(b.play_with_flips(x, f), y);
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
        if best > -65 {
            return best;
        }
        if PASSED {
            self.game_over_after_pass(&b)
        } else {
            -self.solve_last_2::<K, true>(b.pass(), -beta, -alpha, x1, x2)
        }
    }

    /// Three empty squares.
    #[inline(always)]
    pub(crate) fn solve_last_3<K: Entries, const PASSED: bool>(
        &mut self,
        b: Board,
        alpha: i32,
        beta: i32,
        mut sq: [Square; 3],
    ) -> i32 {
        self.count_node(Band::Last);
        if let Some(v) = self.stability_cutoff(&b, alpha, 3) {
            return v;
        }
        parity_sort(&mut sq);
        let mut best = -65;
        let mut alpha = alpha;
        for (x, y, z) in [
            (sq[0], sq[1], sq[2]),
            (sq[1], sq[0], sq[2]),
            (sq[2], sq[0], sq[1]),
        ] {
            if NEIGHBOURS[x.index()] & b.opponent != 0 {
                let f = K::flips(b.player, b.opponent, x);
                if f != 0 {
                    let v = -self.solve_last_2::<K, false>(
                        b.play_with_flips(x, f),
                        -beta,
                        -alpha,
                        y,
                        z,
                    );
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
        if best > -65 {
            return best;
        }
        if PASSED {
            self.game_over_after_pass(&b)
        } else {
            -K::last_3::<true>(self, b.pass(), -beta, -alpha, sq)
        }
    }

    /// Four empty squares.
    #[inline(always)]
    pub(crate) fn solve_last_4<K: Entries, const PASSED: bool>(
        &mut self,
        b: Board,
        alpha: i32,
        beta: i32,
        mut sq: [Square; 4],
    ) -> i32 {
        self.count_node(Band::Last);
        if let Some(v) = self.stability_cutoff(&b, alpha, 4) {
            return v;
        }
        parity_sort(&mut sq);
        let mut best = -65;
        let mut alpha = alpha;
        let orders = [
            (sq[0], [sq[1], sq[2], sq[3]]),
            (sq[1], [sq[0], sq[2], sq[3]]),
            (sq[2], [sq[0], sq[1], sq[3]]),
            (sq[3], [sq[0], sq[1], sq[2]]),
        ];
        for (x, rest) in orders {
            if NEIGHBOURS[x.index()] & b.opponent != 0 {
                let f = K::flips(b.player, b.opponent, x);
                if f != 0 {
                    let v = -K::last_3::<false>(self, b.play_with_flips(x, f), -beta, -alpha, rest);
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
        if best > -65 {
            return best;
        }
        if PASSED {
            self.game_over_after_pass(&b)
        } else {
            -self.solve_last_4::<K, true>(b.pass(), -beta, -alpha, sq)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Odd-quadrant squares first, each group in its first order: a plain filter.
    fn reference<const N: usize>(sq: [Square; N]) -> Vec<Square> {
        let count = |q| sq.iter().filter(|&&s| quadrant(s) == q).count();
        let lone = |s: Square| count(quadrant(s)) % 2 == 1;
        let mut out: Vec<Square> = sq.iter().copied().filter(|&s| lone(s)).collect();
        out.extend(sq.iter().copied().filter(|&s| !lone(s)));
        out
    }

    /// Plain minimax over the board's own move generator: no ordering, no cutoffs.
    fn minimax(b: Board) -> i32 {
        let moves = b.moves();
        if moves == 0 {
            if b.pass().moves() == 0 {
                return b.final_score();
            }
            return -minimax(b.pass());
        }
        crate::board::Bitboard(moves)
            .map(|sq| -minimax(b.play(sq).expect("a legal move")))
            .max()
            .expect("a move")
    }

    /// The stability cutoff at 3 and 4 empties: every null window's fail-soft value bounds
    /// minimax's score on the right side, with and without the cutoff; and the cutoff
    /// does answer some windows at the node itself (one node where the full search needs
    /// more).
    #[test]
    fn stability_cutoff_at_3_and_4_empties_keeps_bounds_and_cuts() {
        use crate::board::kernels::{Isa, Portable};
        use crate::board::random::{SplitMix64, random_position};
        use crate::search::{SearchOptions, TranspositionTable};
        let tt = TranspositionTable::new(0);
        let mut rng = SplitMix64::new(0x5EED_3434);
        let mut cuts = [0usize; 2];
        for k in 0..400 {
            let n = 3 + k % 2;
            let b = random_position(&mut rng, n).board;
            let exact = minimax(b);
            let empties: Vec<Square> = crate::board::Bitboard(b.empty()).collect();
            for alpha in -64..64 {
                let mut nodes = [0u64; 2];
                for (i, stability) in [true, false].into_iter().enumerate() {
                    let options = SearchOptions {
                        tt: false,
                        stability,
                        kernels: Isa::Portable,
                        ..SearchOptions::default()
                    };
                    let mut s = Search::new(&tt, &options);
                    let v = if n == 4 {
                        let sq = [empties[0], empties[1], empties[2], empties[3]];
                        s.solve_last_4::<Portable, false>(b, alpha, alpha + 1, sq)
                    } else {
                        let sq = [empties[0], empties[1], empties[2]];
                        s.solve_last_3::<Portable, false>(b, alpha, alpha + 1, sq)
                    };
                    if v <= alpha {
                        assert!(exact <= v, "{b:?} alpha {alpha}: {v} but exact {exact}");
                    } else {
                        assert!(exact >= v, "{b:?} alpha {alpha}: {v} but exact {exact}");
                    }
                    nodes[i] = s.nodes;
                }
                if nodes[0] == 1 && nodes[1] > 1 {
                    cuts[n as usize - 3] += 1;
                }
            }
        }
        assert!(
            cuts[0] > 0 && cuts[1] > 0,
            "cutoffs at 3 / 4 empties: {cuts:?}"
        );
    }

    #[test]
    fn parity_sort_puts_lone_squares_first_in_order() {
        let mut rng = crate::board::random::SplitMix64::new(0x2545_F491_4F6C_DD1D);
        for _ in 0..20_000 {
            let x = rng.next_u64();
            let mut sq = [Square::from_index(0); 4];
            let mut used = 0u64;
            for (k, s) in sq.iter_mut().enumerate() {
                let mut v = (x >> (k * 12)) as usize % 64;
                while used >> v & 1 != 0 {
                    v = (v + 1) % 64;
                }
                used |= 1 << v;
                *s = Square::from_index(v as u32);
            }
            let mut four = sq;
            parity_sort(&mut four);
            assert_eq!(four.to_vec(), reference(sq), "{sq:?}");
            let mut three = [sq[0], sq[1], sq[2]];
            parity_sort(&mut three);
            assert_eq!(three.to_vec(), reference([sq[0], sq[1], sq[2]]), "{sq:?}");
        }
    }
}
