//! Flip counts on the last empty square, without making the move.
//!
//! With one empty square every other square is occupied, so along each of the four lines
//! through it the opponent's discs are exactly the squares that are not the player's: the
//! player's discs on the line (gathered with BMI2 `pext`) and the square's place on the
//! line decide the count, read from one small table. Missing squares past the end of a
//! short line read as opponent discs never closed by a player disc, so they add nothing.

use super::moves::flips;
use super::square::Square;

/// Squares of the four lines (row, column, two diagonals) through each square.
const LINES: [[u64; 4]; 64] = build_lines();

const fn build_lines() -> [[u64; 4]; 64] {
    const STEPS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];
    let mut t = [[0u64; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut k = 0;
        while k < 4 {
            let (dc, dr) = STEPS[k];
            let mut m = 1u64 << sq;
            let mut s = 1;
            while s >= -1 {
                let (mut c, mut r) = ((sq % 8) as i32 + s * dc, (sq / 8) as i32 + s * dr);
                while c >= 0 && c < 8 && r >= 0 && r < 8 {
                    m |= 1u64 << (r * 8 + c);
                    c += s * dc;
                    r += s * dr;
                }
                s -= 2;
            }
            t[sq][k] = m;
            k += 1;
        }
        sq += 1;
    }
    t
}

/// Place of each square on each of its lines (count of line squares below it).
const PLACE: [[u8; 4]; 64] = build_places();

const fn build_places() -> [[u8; 4]; 64] {
    let mut t = [[0u8; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut k = 0;
        while k < 4 {
            t[sq][k] = (LINES[sq][k] & ((1u64 << sq) - 1)).count_ones() as u8;
            k += 1;
        }
        sq += 1;
    }
    t
}

/// Flips along one line of 8 when the player plays at `place`, owns `bits` (packed, in line
/// order) and the opponent owns every other square.
static LINE_FLIPS: [[u8; 256]; 8] = build_line_flips();

const fn build_line_flips() -> [[u8; 256]; 8] {
    let mut t = [[0u8; 256]; 8];
    let mut place = 0;
    while place < 8 {
        let mut bits = 0;
        while bits < 256 {
            let mut n = 0;
            // Towards higher places: opponent discs until the first player disc.
            let mut i = place + 1;
            while i < 8 && bits >> i & 1 == 0 {
                i += 1;
            }
            if i < 8 {
                n += i - place - 1;
            }
            let mut j = place as i32 - 1;
            while j >= 0 && bits >> j & 1 == 0 {
                j -= 1;
            }
            if j >= 0 {
                n += place - j as usize - 1;
            }
            t[place][bits] = n as u8;
            bits += 1;
        }
        place += 1;
    }
    t
}

/// Discs `p` flips by playing `sq`, the only empty square (every other square is
/// occupied: `p`'s or the opponent's), from the general flip kernel.
#[inline]
pub fn count_last_flips(p: u64, sq: Square) -> u32 {
    flips(p, !p & !sq.bit(), sq).count_ones()
}

/// [`count_last_flips`] by line tables: the player's discs on each of the four lines
/// through `sq`, gathered by BMI2 `pext`.
///
/// # Safety
/// The CPU has BMI2.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub unsafe fn count_last_flips_pext(p: u64, sq: Square) -> u32 {
    use core::arch::x86_64::_pext_u64;
    let lines = &LINES[sq.index()];
    let place = &PLACE[sq.index()];
    let mut n = 0;
    for k in 0..4 {
        // SAFETY: BMI2 present (the caller's contract).
        let bits = unsafe { _pext_u64(p, lines[k]) } as usize;
        n += LINE_FLIPS[place[k] as usize][bits] as u32;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_count_matches_flip_kernel() {
        let mut x = 0x1234_5678_9ABC_DEF1u64;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let sq = Square::from_index((x >> 58) as u32);
            let p = x.rotate_left(17) & !sq.bit();
            let reference = flips(p, !p & !sq.bit(), sq).count_ones();
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("bmi2") {
                // SAFETY: BMI2 checked just above.
                assert_eq!(
                    unsafe { count_last_flips_pext(p, sq) },
                    reference,
                    "{p:x} {sq}"
                );
            }
        }
        // A lone opponent disc between the square and a player disc flips once per line.
        let sq = Square::parse("d4").unwrap();
        let o = (1u64 << 28) | (1u64 << 19);
        let p = !o & !sq.bit();
        assert_eq!(count_last_flips(p, sq), 2);
    }
}
