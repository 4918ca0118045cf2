//! Move generation kernels on raw bitboards: legal moves (mobility) and flips.
//!
//! `p` is the side to move, `o` the opponent. These are the hot inner loops of the
//! solver. The portable versions here are plain integer code; where the build target has
//! AVX-512 (see .cargo/config.toml), `legal_moves` and `flips` use the vector kernels in
//! `avx512.rs` instead, unless the `portable` feature forces the fallback. Both give
//! identical results (tests/movegen.rs checks the dispatched versions against a naive
//! reference, and the unit tests below compare the two paths directly).

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
#[inline(always)]
pub fn legal_moves(p: u64, o: u64) -> u64 {
    #[cfg(all(feature_avx512, not(feature = "portable")))]
    {
        super::avx512::legal_moves(p, o)
    }
    #[cfg(not(all(feature_avx512, not(feature = "portable"))))]
    {
        legal_moves_portable(p, o)
    }
}

/// Legal moves of `p` against `o`, portable integer code.
#[inline]
pub fn legal_moves_portable(p: u64, o: u64) -> u64 {
    let mo = o & INNER_COLS;
    let m = moves_dir(p, mo, 1) | moves_dir(p, o, 8) | moves_dir(p, mo, 7) | moves_dir(p, mo, 9);
    m & !(p | o)
}

/// Discs of `o` flipped when `p` plays on the empty square `sq` (0 if the move is
/// illegal there).
#[inline(always)]
pub fn flips(p: u64, o: u64, sq: Square) -> u64 {
    #[cfg(all(feature_avx512, not(feature = "portable")))]
    {
        super::avx512::flips(p, o, sq)
    }
    #[cfg(not(all(feature_avx512, not(feature = "portable"))))]
    {
        flips_portable(p, o, sq)
    }
}

/// [`flips`] in portable integer code. For each direction the first non-opponent square
/// along the ray is found with one bit scan; the discs before it flip when that square is
/// `p`'s.
#[inline]
pub fn flips_portable(p: u64, o: u64, sq: Square) -> u64 {
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

    /// The dispatched kernels (vector ones where built) equal the portable code.
    #[test]
    fn kernels_match_portable() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..200_000 {
            let a = next();
            let b = next() & !a;
            let (p, o) = if next() & 1 == 0 {
                (a & next(), b)
            } else {
                (a, b & next())
            };
            assert_eq!(legal_moves(p, o), legal_moves_portable(p, o));
            let sq = Square::from_index((next() % 64) as u32);
            if (p | o) & sq.bit() == 0 {
                assert_eq!(
                    flips(p, o, sq),
                    flips_portable(p, o, sq),
                    "{p:x} {o:x} {sq}"
                );
            }
        }
    }

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
