//! Move generation kernels on raw bitboards: legal moves (mobility) and flips.
//!
//! `p` is the side to move, `o` the opponent. These are the hot inner loops of the
//! solver. The versions here are portable integer code, used everywhere outside the
//! search and by the search's portable kernel set; the search's vector kernel sets
//! (`kernels.rs`: `avx2.rs`, `avx512.rs`) must give identical results (the unit tests
//! below compare every set this CPU has with these; tests/movegen.rs checks these against
//! a naive reference).

/// Columns b..g: masks the opponent discs on horizontal and diagonal shifts so that a
/// run never wraps from one row to the next.
const INNER_COLS: u64 = 0x7E7E_7E7E_7E7E_7E7E;

use super::rays::RAYS;
use super::square::Square;

/// Moves of `p` along one shift direction `d` (both senses), with `mask` the opponent
/// discs a run may cross. Kogge-Stone style: runs of 1, 2, then doubled twice to 6.
#[inline(always)]
fn moves_dir(p: u64, mask: u64, d: u32) -> u64 {
    let pre_l = mask & (mask << d);
    let mut l = mask & (p << d);
    l |= mask & (l << d);
    l |= pre_l & (l << (2 * d));
    l |= pre_l & (l << (2 * d));

    let pre_r = mask & (mask >> d);
    let mut r = mask & (p >> d);
    r |= mask & (r >> d);
    r |= pre_r & (r >> (2 * d));
    r |= pre_r & (r >> (2 * d));

    (l << d) | (r >> d)
}

/// Legal moves of `p` against `o`.
#[inline]
pub fn legal_moves(p: u64, o: u64) -> u64 {
    let mo = o & INNER_COLS;
    let m = moves_dir(p, mo, 1) | moves_dir(p, o, 8) | moves_dir(p, mo, 7) | moves_dir(p, mo, 9);
    m & !(p | o)
}

/// Discs of `o` flipped when `p` plays on the empty square `sq` (0 if the move is
/// illegal there). For each direction the first non-opponent square
/// along the ray is found with one bit scan; the discs before it flip when that square is
/// `p`'s.
#[inline]
pub fn flips(p: u64, o: u64, sq: Square) -> u64 {
    let sq = sq.index();
    let mut f = 0u64;
    // Increasing directions: the nearest blocker is the lowest set bit.
    let mut d = 0;
    while d < 4 {
        let ray = RAYS[d][sq];
        let blockers = ray & !o;
        let first = blockers & blockers.wrapping_neg();
        let hit = 0u64.wrapping_sub(((first & p) != 0) as u64);
        f |= ray & first.wrapping_sub(1) & hit;
        d += 1;
    }
    // Decreasing directions: the nearest blocker is the highest set bit. `| 1` keeps the
    // shift defined when there is no blocker; the fake bit 0 then lies outside `ray` or
    // is an opponent disc, so it never counts as a hit.
    while d < 8 {
        let ray = RAYS[d][sq];
        let blockers = ray & !o;
        let first = (1u64 << 63) >> (blockers | 1).leading_zeros();
        let hit = 0u64.wrapping_sub(((first & p & ray) != 0) as u64);
        f |= ray & (first.wrapping_neg() ^ first) & hit;
        d += 1;
    }
    f
}

/// Squares adjacent to each square (king moves).
pub const NEIGHBOURS: [u64; 64] = build_neighbours();

const fn build_neighbours() -> [u64; 64] {
    let mut n = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let c = (sq % 8) as i32;
        let r = (sq / 8) as i32;
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (cc, rr) = (c + dc, r + dr);
                if (dr != 0 || dc != 0) && cc >= 0 && cc < 8 && rr >= 0 && rr < 8 {
                    n[sq] |= 1u64 << (rr * 8 + cc);
                }
                dc += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_has_four_moves() {
        // Black (to move) on d5, e4; white on d4, e5.
        let black = (1u64 << 35) | (1u64 << 28);
        let white = (1u64 << 27) | (1u64 << 36);
        let m = legal_moves(black, white);
        let expected = (1u64 << 19) | (1u64 << 26) | (1u64 << 37) | (1u64 << 44);
        assert_eq!(m, expected);
        // f5 (37) flips e5 (36).
        assert_eq!(flips(black, white, Square::from_index(37)), 1u64 << 36);
        assert_eq!(flips(black, white, Square::from_index(0)), 0);
    }

    #[test]
    fn rays_have_expected_lengths() {
        assert_eq!(RAYS[0][0].count_ones(), 7);
        assert_eq!(RAYS[3][0].count_ones(), 7);
        assert_eq!(RAYS[4][0], 0);
        assert_eq!(RAYS[7][63].count_ones(), 7);
        assert_eq!(NEIGHBOURS[0].count_ones(), 3);
        assert_eq!(NEIGHBOURS[27].count_ones(), 8);
    }
}
