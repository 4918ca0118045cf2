//! Mobility tables: four small weight tables per phase, read by counts no pattern sees
//! whole: each side's legal moves and each side's potential mobility (empty squares next
//! to the other side's discs).
//!
//! Pattern set [`MOBILITY_SET`] is [`PATTERN_SET`]'s patterns followed, in each phase, by
//! these tables. Measured before they were built in (results/eval/2026-11-25-capacity.md,
//! e5 against e1, 100 000 games): 0.3 discs rms less error at every count of empties from
//! 8 to 14 on held-out games, and on the 422 held-out positions of 14-26 empties.

use super::pattern::{PATTERN_SET, PER_PHASE, canonical_indices};
use crate::board::Board;

/// Identity of [`PATTERN_SET`] with the mobility tables after each phase's patterns.
pub const MOBILITY_SET: u32 = PATTERN_SET + 1;

/// Tables per phase: the side to move's moves, the opponent's moves, the side to move's
/// potential mobility, the opponent's.
pub const MOBILITY_TABLES: usize = 4;

/// Entries of one table: a count from 0 up, the last entry for that count and more.
pub const MOBILITY_ENTRIES: usize = 32;

/// Weights of the tables of one phase.
pub const MOBILITY_WEIGHTS: usize = MOBILITY_TABLES * MOBILITY_ENTRIES;

/// Weights of one phase of [`MOBILITY_SET`]: the patterns' and biases, then the tables.
pub const PER_PHASE_MOBILITY: usize = PER_PHASE + MOBILITY_WEIGHTS;

/// [`canonical_indices`] of [`MOBILITY_SET`]: the patterns' mirror ties, and each table
/// entry its own weight.
pub fn canonical_indices_with_mobility() -> Vec<u32> {
    let mut canon = canonical_indices();
    canon.extend(PER_PHASE as u32..PER_PHASE_MOBILITY as u32);
    canon
}

/// Squares next to any of `discs` (8 directions), whatever is on them.
#[inline]
fn neighbours(discs: u64) -> u64 {
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let w = (discs >> 1) & NOT_H;
    let e = (discs << 1) & NOT_A;
    let row = discs | w | e;
    w | e | (row << 8) | (row >> 8)
}

/// Indices into one phase's tables (0..[`MOBILITY_WEIGHTS`]) of board `b`, whose side to
/// move has the legal moves `own` and whose opponent has `theirs`. The caller generates
/// them with its own kernels: a generator passed in as a function was called out of line
/// from the search's AVX2 code, its vector instructions each a call (perf, FFO #49: a
/// quarter of the time of the mobility weights).
#[inline(always)]
pub fn mobility_indices_of(b: &Board, own: u64, theirs: u64) -> [u32; MOBILITY_TABLES] {
    let empty = b.empty();
    let cap = |n: u32| n.min(MOBILITY_ENTRIES as u32 - 1);
    let e = MOBILITY_ENTRIES as u32;
    [
        cap(own.count_ones()),
        e + cap(theirs.count_ones()),
        2 * e + cap((neighbours(b.opponent) & empty).count_ones()),
        3 * e + cap((neighbours(b.player) & empty).count_ones()),
    ]
}

/// [`mobility_indices_of`] with the portable move generator.
pub fn mobility_indices(b: &Board) -> [u32; MOBILITY_TABLES] {
    use crate::board::moves::legal_moves;
    mobility_indices_of(
        b,
        legal_moves(b.player, b.opponent),
        legal_moves(b.opponent, b.player),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::random::SplitMix64;

    /// Counts by looking at every square and its eight neighbours on the grid.
    fn naive(b: &Board) -> [u32; 4] {
        let at = |x: i32, y: i32, bits: u64| {
            (0..8).contains(&x) && (0..8).contains(&y) && bits >> (y * 8 + x) & 1 != 0
        };
        let next_to = |sq: i32, bits: u64| {
            let (x, y) = (sq % 8, sq / 8);
            (-1..=1)
                .flat_map(|dx| (-1..=1).map(move |dy| (dx, dy)))
                .any(|(dx, dy)| (dx, dy) != (0, 0) && at(x + dx, y + dy, bits))
        };
        let mut moves = [0u32; 2];
        let mut potential = [0u32; 2];
        for sq in 0..64 {
            if b.empty() >> sq & 1 == 0 {
                continue;
            }
            for (side, (p, o)) in [(b.player, b.opponent), (b.opponent, b.player)]
                .into_iter()
                .enumerate()
            {
                if next_to(sq, o) {
                    potential[side] += 1;
                }
                let legal = (-1..=1)
                    .flat_map(|dx| (-1..=1).map(move |dy| (dx, dy)))
                    .filter(|&d| d != (0, 0))
                    .any(|(dx, dy)| {
                        let (mut x, mut y) = (sq % 8 + dx, sq / 8 + dy);
                        let mut seen = 0;
                        while at(x, y, o) {
                            x += dx;
                            y += dy;
                            seen += 1;
                        }
                        seen > 0 && at(x, y, p)
                    });
                moves[side] += legal as u32;
            }
        }
        let cap = |n: u32| n.min(31);
        [
            cap(moves[0]),
            32 + cap(moves[1]),
            64 + cap(potential[0]),
            96 + cap(potential[1]),
        ]
    }

    #[test]
    fn indices_equal_square_by_square_counts() {
        let mut rng = SplitMix64::new(11);
        for _ in 0..2000 {
            // Dense and sparse boards both: the caps and the edges are reached.
            let p = rng.next_u64() & rng.next_u64();
            let o = rng.next_u64()
                & !p
                & if rng.below(2) == 0 {
                    rng.next_u64()
                } else {
                    !0
                };
            let b = Board::new(p, o);
            assert_eq!(mobility_indices(&b), naive(&b), "{b:?}");
        }
    }
}
