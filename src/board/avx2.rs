//! AVX2 kernels: four directions of a move in the four 64-bit lanes of one vector.
//!
//! Every function here is `#[inline(always)]` and `unsafe`: it may be called only where
//! the CPU has AVX2 (see `kernels.rs`), and it becomes vector code only when inlined into
//! a function compiled with that feature (the search's entry points, `search/kernel_dispatch.rs`).

use super::rays::RAYS;
use super::square::Square;
use core::arch::x86_64::*;

/// The increasing rays (+1, +7, +8, +9) from each square, one aligned 32-byte row each.
#[repr(C, align(32))]
struct Rays([[u64; 4]; 64]);

static INCREASING: Rays = {
    let mut t = [[0u64; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 4 {
            t[sq][d] = RAYS[d][sq];
            d += 1;
        }
        sq += 1;
    }
    Rays(t)
};

/// Columns b..g, where a horizontal or diagonal run may go on without wrapping.
const INNER: i64 = 0x7E7E_7E7E_7E7E_7E7E;

/// OR of the four lanes.
#[inline(always)]
unsafe fn or_lanes(v: __m256i) -> u64 {
    // SAFETY: AVX2 present (the caller's contract).
    unsafe {
        let x = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        _mm_cvtsi128_si64(_mm_or_si128(x, _mm_unpackhi_epi64(x, x))) as u64
    }
}

/// Legal moves of `p` against `o`.
///
/// # Safety
/// The CPU has AVX2.
#[inline(always)]
pub unsafe fn legal_moves(p: u64, o: u64) -> u64 {
    // SAFETY: AVX2 present (the caller's contract).
    unsafe {
        // Lanes: +1, +8, +7, +9 (shift left) and the same amounts to the right.
        let shift = _mm256_set_epi64x(9, 7, 8, 1);
        let shift2 = _mm256_add_epi64(shift, shift);
        let mask = _mm256_and_si256(
            _mm256_set1_epi64x(o as i64),
            _mm256_set_epi64x(INNER, INNER, -1, INNER),
        );
        let vp = _mm256_set1_epi64x(p as i64);

        let mut l = _mm256_and_si256(mask, _mm256_sllv_epi64(vp, shift));
        l = _mm256_or_si256(l, _mm256_and_si256(mask, _mm256_sllv_epi64(l, shift)));
        let pre_l = _mm256_and_si256(mask, _mm256_sllv_epi64(mask, shift));
        l = _mm256_or_si256(l, _mm256_and_si256(pre_l, _mm256_sllv_epi64(l, shift2)));
        l = _mm256_or_si256(l, _mm256_and_si256(pre_l, _mm256_sllv_epi64(l, shift2)));

        let mut r = _mm256_and_si256(mask, _mm256_srlv_epi64(vp, shift));
        r = _mm256_or_si256(r, _mm256_and_si256(mask, _mm256_srlv_epi64(r, shift)));
        let pre_r = _mm256_and_si256(mask, _mm256_srlv_epi64(mask, shift));
        r = _mm256_or_si256(r, _mm256_and_si256(pre_r, _mm256_srlv_epi64(r, shift2)));
        r = _mm256_or_si256(r, _mm256_and_si256(pre_r, _mm256_srlv_epi64(r, shift2)));

        let m = _mm256_or_si256(_mm256_sllv_epi64(l, shift), _mm256_srlv_epi64(r, shift));
        or_lanes(m) & !(p | o)
    }
}

/// Discs of `o` flipped when `p` plays on the empty square `sq`.
///
/// Increasing directions: the first square along the ray that is not an opponent disc is
/// the lowest set bit of the blockers, one subtraction away. Decreasing directions (no
/// vector bit scan in AVX2): the run of opponent discs from `sq` is filled by shifts,
/// as in `legal_moves`, and flips when the square past it is `p`'s.
///
/// # Safety
/// The CPU has AVX2.
#[inline(always)]
pub unsafe fn flips(p: u64, o: u64, sq: Square) -> u64 {
    // SAFETY: AVX2 present (the caller's contract); `sq < 64` indexes an aligned row.
    unsafe {
        let vp = _mm256_set1_epi64x(p as i64);
        let vo = _mm256_set1_epi64x(o as i64);
        let zero = _mm256_setzero_si256();
        let ones = _mm256_set1_epi64x(-1);

        let rays = _mm256_load_si256(INCREASING.0[sq.index()].as_ptr().cast());
        let blockers = _mm256_andnot_si256(vo, rays);
        let first = _mm256_and_si256(blockers, _mm256_sub_epi64(zero, blockers));
        let own = _mm256_cmpeq_epi64(_mm256_and_si256(first, vp), zero);
        let run = _mm256_and_si256(rays, _mm256_add_epi64(first, ones));
        let up = _mm256_andnot_si256(own, run);

        // Lanes: -1, -8, -7, -9.
        let shift = _mm256_set_epi64x(9, 7, 8, 1);
        let shift2 = _mm256_add_epi64(shift, shift);
        let mask = _mm256_and_si256(vo, _mm256_set_epi64x(INNER, INNER, -1, INNER));
        let x = _mm256_set1_epi64x((1u64 << sq.index()) as i64);
        let mut r = _mm256_and_si256(mask, _mm256_srlv_epi64(x, shift));
        r = _mm256_or_si256(r, _mm256_and_si256(mask, _mm256_srlv_epi64(r, shift)));
        let pre = _mm256_and_si256(mask, _mm256_srlv_epi64(mask, shift));
        r = _mm256_or_si256(r, _mm256_and_si256(pre, _mm256_srlv_epi64(r, shift2)));
        r = _mm256_or_si256(r, _mm256_and_si256(pre, _mm256_srlv_epi64(r, shift2)));
        let past = _mm256_and_si256(_mm256_srlv_epi64(r, shift), vp);
        let down = _mm256_andnot_si256(_mm256_cmpeq_epi64(past, zero), r);

        or_lanes(_mm256_or_si256(up, down))
    }
}
