//! Stable discs: discs that no sequence of moves can flip. They bound the final score,
//! which gives the stability cutoff (fail low when even keeping everything else cannot
//! reach alpha).

use super::measure::account::Event;
use super::state::Search;
use crate::board::Board;
use crate::settings::STABILITY_ALPHA_MIN;
use std::sync::LazyLock;

impl Search<'_> {
    /// Fail-low bound from the opponent's stable discs, when alpha is high enough for
    /// one to be likely (`n` empties). Always inlined: into a kernel set's entry it is
    /// compiled with POPCNT.
    #[inline(always)]
    pub(crate) fn stability_cutoff(&mut self, b: &Board, alpha: i32, n: u32) -> Option<i32> {
        if !self.options.stability || alpha < STABILITY_ALPHA_MIN[n as usize] {
            return None;
        }
        // Only the opponent's discs can be its stable ones: without that many, no cut.
        if 64 - 2 * b.opponent.count_ones() as i32 > alpha {
            return None;
        }
        self.measure.counts.event(Event::StabilityTry, n);
        let upper = 64 - 2 * stable_discs(b.opponent, b.player).count_ones() as i32;
        if upper <= alpha {
            self.measure.counts.event(Event::StabilityCut, n);
            return Some(upper);
        }
        None
    }
}

/// For every edge (player bits, opponent bits) of 8 squares, the discs of either colour
/// that can never change colour by play along that edge.
static EDGE_STABLE: LazyLock<Box<[u8]>> = LazyLock::new(build_edge_table);

fn build_edge_table() -> Box<[u8]> {
    const UNKNOWN: u16 = 0x100;
    let mut memo = vec![UNKNOWN; 1 << 16];
    fn solve(p: u8, o: u8, memo: &mut [u16]) -> u8 {
        let key = (p as usize) << 8 | o as usize;
        if memo[key] != UNKNOWN {
            return memo[key] as u8;
        }
        let occupied = p | o;
        let mut stable = occupied;
        let mut empty = !occupied;
        while empty != 0 && stable != 0 {
            let x = empty.trailing_zeros();
            empty &= empty - 1;
            // Either colour may fill x (by a move along another line, if not this one).
            for (me, them) in [(p, o), (o, p)] {
                let f = edge_flips(me, them, x);
                let (np, no) = if me == p {
                    (p | f | (1 << x), o & !f)
                } else {
                    (p & !f, o | f | (1 << x))
                };
                stable &= solve(np, no, memo) & !f;
            }
        }
        memo[key] = stable as u16;
        stable
    }
    let mut table = vec![0u8; 1 << 16].into_boxed_slice();
    for p in 0..=255u8 {
        for o in 0..=255u8 {
            if p & o == 0 {
                table[(p as usize) << 8 | o as usize] = solve(p, o, &mut memo);
            }
        }
    }
    table
}

/// Discs of `them` flipped on an 8-square line when `me` plays at `x`.
fn edge_flips(me: u8, them: u8, x: u32) -> u8 {
    let mut f = 0u8;
    for step in [-1i32, 1] {
        let mut run = 0u8;
        let mut i = x as i32 + step;
        while (0..8).contains(&i) && them >> i & 1 != 0 {
            run |= 1 << i;
            i += step;
        }
        if (0..8).contains(&i) && me >> i & 1 != 0 {
            f |= run;
        }
    }
    f
}

const COL_A: u64 = 0x0101_0101_0101_0101;
const INTERIOR: u64 = 0x007E_7E7E_7E7E_7E00;

/// Column A bits (a1, a2, ..., a8) packed into one byte, a1 lowest.
#[inline(always)]
fn pack_col_a(x: u64) -> usize {
    ((x & COL_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize
}

/// The inverse of [`pack_col_a`].
static UNPACK_COL_A: LazyLock<[u64; 256]> = LazyLock::new(|| {
    let mut t = [0u64; 256];
    for (m, v) in t.iter_mut().enumerate() {
        for k in 0..8 {
            if m >> k & 1 != 0 {
                *v |= 1u64 << (8 * k);
            }
        }
    }
    t
});

/// Discs of `p` (and of `o`) stable along the four edges. Always inlined, here and in
/// the functions below that the search calls: inlined into a kernel set's entry
/// (`search/kernel_dispatch.rs`), they are compiled with its CPU features (BMI2, POPCNT).
#[inline(always)]
pub(crate) fn edge_stable(p: u64, o: u64) -> u64 {
    let t = &**EDGE_STABLE;
    let unpack = &*UNPACK_COL_A;
    let row1 = t[((p & 0xFF) as usize) << 8 | (o & 0xFF) as usize] as u64;
    let row8 = (t[((p >> 56) as usize) << 8 | (o >> 56) as usize] as u64) << 56;
    let cola = unpack[t[pack_col_a(p) << 8 | pack_col_a(o)] as usize];
    let colh = unpack[t[pack_col_a(p >> 7) << 8 | pack_col_a(o >> 7)] as usize] << 7;
    row1 | row8 | cola | colh
}

/// Diagonal masks, each line of 2 or more squares in the +9 and +7 directions. Constant,
/// so that the loops over them below unroll into branch-free code: as a lazily built
/// vector they were loops of loads and branches, and `stability_cutoff` took 7 % of bench.
const DIAGONALS: ([u64; 13], [u64; 13]) = build_diagonals();

const fn build_diagonals() -> ([u64; 13], [u64; 13]) {
    let mut d9 = [0u64; 13];
    let mut d7 = [0u64; 13];
    let mut k = -6i32;
    while k <= 6 {
        let mut r = 0i32;
        while r < 8 {
            let c9 = r + k;
            if c9 >= 0 && c9 < 8 {
                d9[(k + 6) as usize] |= 1 << (r * 8 + c9);
            }
            let c7 = 7 - r + k;
            if c7 >= 0 && c7 < 8 {
                d7[(k + 6) as usize] |= 1 << (r * 8 + c7);
            }
            r += 1;
        }
        k += 1;
    }
    (d9, d7)
}

/// Squares whose line is full in each direction: (horizontal, vertical, +7 diag, +9 diag).
#[inline(always)]
fn full_lines(occ: u64) -> (u64, u64, u64, u64) {
    let mut t = occ & (occ >> 4);
    t &= t >> 2;
    t &= t >> 1;
    let h = (t & COL_A).wrapping_mul(0xFF);
    let mut v = occ;
    v &= v.rotate_left(8);
    v &= v.rotate_left(16);
    v &= v.rotate_left(32);
    let (d9s, d7s) = DIAGONALS;
    let mut d9 = 0;
    for m in d9s {
        d9 |= if occ & m == m { m } else { 0 };
    }
    let mut d7 = 0;
    for m in d7s {
        d7 |= if occ & m == m { m } else { 0 };
    }
    // Corners sit on one-square diagonals: always full.
    (h, v, d7 | 0x8000_0000_0000_0001, d9 | 0x0100_0000_0000_0080)
}

/// Discs of `p` that can never be flipped, given opponent discs `o`. A lower estimate:
/// stable edges, then interior discs whose four lines are each full or anchored on a
/// stable disc of the same colour, repeated until nothing changes.
#[inline(always)]
pub fn stable_discs(p: u64, o: u64) -> u64 {
    let (h, v, d7, d9) = full_lines(p | o);
    let mut stable = edge_stable(p, o) & p;
    stable |= p & INTERIOR & h & v & d7 & d9;
    loop {
        let sh = (stable >> 1) | (stable << 1) | h;
        let sv = (stable >> 8) | (stable << 8) | v;
        let s7 = (stable >> 7) | (stable << 7) | d7;
        let s9 = (stable >> 9) | (stable << 9) | d9;
        let next = stable | (p & INTERIOR & sh & sv & s7 & s9);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// Forces the lazily built tables so the first search does not pay for them.
pub fn init() {
    LazyLock::force(&EDGE_STABLE);
    LazyLock::force(&UNPACK_COL_A);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corner_and_full_edge_are_stable() {
        // Player owns a1 only: stable. Owns b1 with a1 empty: not stable.
        assert_eq!(stable_discs(1, 0), 1);
        assert_eq!(stable_discs(2, 0), 0);
        // A full first row of the player is stable.
        assert_eq!(stable_discs(0xFF, 0) & 0xFF, 0xFF);
        // Full board: everything is stable.
        let p = 0x0F0F_0F0F_0F0F_0F0F;
        assert_eq!(stable_discs(p, !p), p);
    }
}
