//! AVX-512 kernels: the eight directions of a move in the eight 64-bit lanes of one vector.
//!
//! Lanes 0-3 hold the directions that increase the square index (+1, +7, +8, +9), lanes
//! 4-7 those that decrease it. As in `avx2.rs`, every function is `#[inline(always)]`
//! and `unsafe`: callable only where the CPU has AVX-512 F, CD, VL and BW (`kernels.rs`),
//! and vector code once inlined into a function compiled with them.

use super::rays::RAYS;
use super::square::Square;
use core::arch::x86_64::*;

/// Rays from each square, transposed so one aligned 64-byte load gives all 8 directions.
#[repr(C, align(64))]
struct Rays([[u64; 8]; 64]);

static RAYS_BY_SQUARE: Rays = {
    let mut t = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            t[sq][d] = RAYS[d][sq];
            d += 1;
        }
        sq += 1;
    }
    Rays(t)
};

/// Lanes 4-7: the decreasing directions.
const DECREASING: __mmask8 = 0xF0;

/// Discs flipped by `p` playing on the empty square `sq`.
///
/// # Safety
/// The CPU has AVX-512 F, CD, VL and BW.
#[inline(always)]
pub unsafe fn flips(p: u64, o: u64, sq: Square) -> u64 {
    // SAFETY: the features are present (the caller's contract), and `sq < 64` indexes an
    // aligned 64-byte row.
    unsafe {
        let rays = _mm512_load_si512(RAYS_BY_SQUARE.0[sq.index()].as_ptr().cast());
        let vo = _mm512_set1_epi64(o as i64);
        let vp = _mm512_set1_epi64(p as i64);
        // First square along each ray that is not an opponent disc.
        let blockers = _mm512_andnot_si512(vo, rays);
        let lowest = _mm512_and_si512(blockers, _mm512_sub_epi64(_mm512_setzero_si512(), blockers));
        // Highest bit: 1<<63 shifted right by the leading zero count (a count of 64 gives 0).
        let highest = _mm512_srlv_epi64(_mm512_set1_epi64(i64::MIN), _mm512_lzcnt_epi64(blockers));
        let first = _mm512_mask_blend_epi64(DECREASING, lowest, highest);
        // The run before it flips when that square is ours.
        let hit = _mm512_test_epi64_mask(first, vp);
        let below = _mm512_sub_epi64(first, _mm512_set1_epi64(1));
        let inc = _mm512_and_si512(rays, below);
        let dec = _mm512_andnot_si512(_mm512_or_si512(below, first), rays);
        let f = _mm512_mask_blend_epi64(DECREASING, inc, dec);
        _mm512_mask_reduce_or_epi64(hit, f) as u64
    }
}

/// `x` shifted by `s` in each lane: left in the increasing lanes, right in the others.
/// (A function, not a closure: a closure would be compiled without AVX-512.)
#[inline(always)]
unsafe fn sh(x: __m512i, s: __m512i) -> __m512i {
    // SAFETY: AVX-512 F present (the caller's contract).
    unsafe { _mm512_mask_blend_epi64(DECREASING, _mm512_sllv_epi64(x, s), _mm512_srlv_epi64(x, s)) }
}

/// Legal moves of `p` against `o`.
///
/// # Safety
/// The CPU has AVX-512 F and VL.
#[inline(always)]
pub unsafe fn legal_moves(p: u64, o: u64) -> u64 {
    // SAFETY: the features are present (the caller's contract).
    unsafe {
        let shift = _mm512_set_epi64(9, 8, 7, 1, 9, 8, 7, 1);
        let shift2 = _mm512_add_epi64(shift, shift);
        // Horizontal and diagonal runs may not cross the a/h file; vertical ones may.
        let inner = 0x7E7E_7E7E_7E7E_7E7Eu64 as i64;
        let masks = _mm512_set_epi64(inner, -1, inner, inner, inner, -1, inner, inner);
        let mask = _mm512_and_si512(_mm512_set1_epi64(o as i64), masks);
        let vp = _mm512_set1_epi64(p as i64);
        let mut f = _mm512_and_si512(mask, sh(vp, shift));
        f = _mm512_or_si512(f, _mm512_and_si512(mask, sh(f, shift)));
        let pre = _mm512_and_si512(mask, sh(mask, shift));
        f = _mm512_or_si512(f, _mm512_and_si512(pre, sh(f, shift2)));
        f = _mm512_or_si512(f, _mm512_and_si512(pre, sh(f, shift2)));
        let m = _mm512_reduce_or_epi64(sh(f, shift)) as u64;
        m & !(p | o)
    }
}
