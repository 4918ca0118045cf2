//! Squares and bitboards as newtypes over `u8` and `u64`.
//!
//! Square `a1` is bit 0, `h1` bit 7, `a2` bit 8 ... `h8` bit 63: the order in which an OBF
//! line lists the 64 squares.

use std::fmt;

/// One of the 64 squares, `a1` = 0 ... `h8` = 63.
///
/// Held as a `u32`, not a `u8`: a square indexes tables in the hot kernels, and on x86-64
/// a 32-bit value widens to an index for free where a byte needs a zero extension
/// (callgrind, FFO #43-44 at one thread, AVX2 build, against the kernels taking `usize`:
/// 0.70 % more instructions with `u8`, 3.5 % more in the three-empties solver; 0.13 % with
/// `u32`, one register move per flip count).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u32);

impl Square {
    /// The square with the given index; `None` when `index >= 64`.
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u32))
        } else {
            None
        }
    }

    /// The square with the given index; the caller guarantees `index < 64`.
    #[inline]
    pub(crate) const fn from_index(index: u32) -> Square {
        debug_assert!(index < 64);
        Square(index)
    }

    /// Index 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Column 0 (`a`) .. 7 (`h`).
    pub const fn col(self) -> u8 {
        (self.0 & 7) as u8
    }

    /// Row 0 (`1`) .. 7 (`8`).
    pub const fn row(self) -> u8 {
        (self.0 >> 3) as u8
    }

    /// The single-bit bitboard of this square.
    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Parses `a1`..`h8` (either case).
    pub fn parse(text: &str) -> Option<Square> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let col = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let row = b[1].wrapping_sub(b'1');
        if col < 8 && row < 8 {
            Some(Square((row * 8 + col) as u32))
        } else {
            None
        }
    }
}

impl fmt::Display for Square {
    /// Upper-case coordinates as in FFO files, e.g. `F5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'A' + self.col()) as char,
            (b'1' + self.row()) as char
        )
    }
}

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// Number of squares in the set.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when the set holds no square.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when `sq` is in the set.
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & sq.bit() != 0
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    /// Squares in increasing index order.
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::from_index(self.0.trailing_zeros());
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for i in 0..64u8 {
            let sq = Square::new(i).unwrap();
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("a1").unwrap().index(), 0);
        assert_eq!(Square::parse("H8").unwrap().index(), 63);
        assert_eq!(Square::parse("b1").unwrap().index(), 1);
        assert_eq!(Square::parse("a2").unwrap().index(), 8);
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a9"), None);
        assert_eq!(Square::parse("a"), None);
    }

    #[test]
    fn bitboard_iterates_in_order() {
        let v: Vec<usize> = Bitboard(0b1010_0001 | (1 << 63))
            .map(|s| s.index())
            .collect();
        assert_eq!(v, vec![0, 5, 7, 63]);
    }
}
