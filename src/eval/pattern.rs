//! The patterns of the evaluation: which squares each one reads, where its instances lie
//! on the board, and the fast extraction of every instance's index.
//!
//! Every instance of a pattern is the same squares read on a transformed copy of the
//! board (mirrored, flipped or transposed), so the instances of one pattern share one
//! weight table and the squares always come out in the same order. A square's state is a
//! ternary digit: 0 empty, 1 the side to move's disc, 2 the opponent's.

use crate::board::Board;

/// Flips the board top to bottom (row 1 <-> row 8).
#[inline]
pub const fn flip_vertical(x: u64) -> u64 {
    x.swap_bytes()
}

/// Mirrors the board left to right (column a <-> column h).
#[inline]
pub const fn flip_horizontal(x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    let x = ((x >> 1) & K1) | ((x & K1) << 1);
    let x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

/// Transposes the board about the a1-h8 diagonal (b1 <-> a2).
#[inline]
pub const fn transpose(x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0F0F_0F0F_0000_0000;
    let mut x = x;
    let t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = K1 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

/// The eight symmetries of the board, as the transformation applied before reading a
/// pattern: `V` flips vertically, `H` mirrors horizontally, `T` transposes (applied last).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    /// The board as it is.
    Id,
    /// Flipped top to bottom.
    V,
    /// Mirrored left to right.
    H,
    /// Both (a half turn).
    VH,
    /// Transposed.
    T,
    /// Flipped, then transposed.
    TV,
    /// Mirrored, then transposed.
    TH,
    /// Half turn, then transposed.
    TVH,
}

impl Symmetry {
    /// Every symmetry, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Id,
        Symmetry::V,
        Symmetry::H,
        Symmetry::VH,
        Symmetry::T,
        Symmetry::TV,
        Symmetry::TH,
        Symmetry::TVH,
    ];

    /// Applies the symmetry to one bitboard.
    pub const fn apply(self, x: u64) -> u64 {
        match self {
            Symmetry::Id => x,
            Symmetry::V => flip_vertical(x),
            Symmetry::H => flip_horizontal(x),
            Symmetry::VH => flip_vertical(flip_horizontal(x)),
            Symmetry::T => transpose(x),
            Symmetry::TV => transpose(flip_vertical(x)),
            Symmetry::TH => transpose(flip_horizontal(x)),
            Symmetry::TVH => transpose(flip_vertical(flip_horizontal(x))),
        }
    }
}

/// One pattern: its squares in reading order (square indices of the untransformed board,
/// a1 = 0) and the symmetries giving its instances.
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    /// Short name for reports.
    pub name: &'static str,
    /// Squares read, least significant ternary digit first.
    pub squares: &'static [u8],
    /// One symmetry per instance on the board.
    pub instances: &'static [Symmetry],
    /// A symmetry mapping the pattern's squares onto themselves (other than the identity),
    /// as the reading position each position goes to: equal boards under it must get
    /// equal weights, which the training enforces.
    pub mirror: Option<&'static [u8]>,
}

impl Pattern {
    /// Number of ternary indices: 3^squares.
    pub const fn size(&self) -> usize {
        3usize.pow(self.squares.len() as u32)
    }
}

use Symmetry::*;

const EDGES: &[Symmetry] = &[Id, V, T, TH];
const CORNERS: &[Symmetry] = &[Id, V, H, VH];
const EVERY: &[Symmetry] = &[Id, V, H, VH, T, TV, TH, TVH];
const DIAGONALS: &[Symmetry] = &[Id, T, H, TH];

/// Reverses the reading order of an 8-square line.
const REVERSE8: &[u8] = &[7, 6, 5, 4, 3, 2, 1, 0];

/// The pattern set. Changing it changes [`PATTERN_SET`].
pub const PATTERNS: [Pattern; 11] = [
    // The edge with both X squares: a1..h1, b2, g2.
    Pattern {
        name: "edge+2x",
        squares: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
        instances: EDGES,
        mirror: Some(&[7, 6, 5, 4, 3, 2, 1, 0, 9, 8]),
    },
    // The 3x3 corner a1..c3, row by row.
    Pattern {
        name: "corner3x3",
        squares: &[0, 1, 2, 8, 9, 10, 16, 17, 18],
        instances: CORNERS,
        mirror: Some(&[0, 3, 6, 1, 4, 7, 2, 5, 8]),
    },
    // The 2x5 corner a1..e1, a2..e2.
    Pattern {
        name: "corner2x5",
        squares: &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
        instances: EVERY,
        mirror: None,
    },
    Pattern {
        name: "line2",
        squares: &[8, 9, 10, 11, 12, 13, 14, 15],
        instances: EDGES,
        mirror: Some(REVERSE8),
    },
    Pattern {
        name: "line3",
        squares: &[16, 17, 18, 19, 20, 21, 22, 23],
        instances: EDGES,
        mirror: Some(REVERSE8),
    },
    Pattern {
        name: "line4",
        squares: &[24, 25, 26, 27, 28, 29, 30, 31],
        instances: EDGES,
        mirror: Some(REVERSE8),
    },
    // a1-h8; its second instance (mirrored) is h1-a8.
    Pattern {
        name: "diag8",
        squares: &[0, 9, 18, 27, 36, 45, 54, 63],
        instances: &[Id, H],
        mirror: Some(REVERSE8),
    },
    Pattern {
        name: "diag7",
        squares: &[1, 10, 19, 28, 37, 46, 55],
        instances: DIAGONALS,
        mirror: Some(&[6, 5, 4, 3, 2, 1, 0]),
    },
    Pattern {
        name: "diag6",
        squares: &[2, 11, 20, 29, 38, 47],
        instances: DIAGONALS,
        mirror: Some(&[5, 4, 3, 2, 1, 0]),
    },
    Pattern {
        name: "diag5",
        squares: &[3, 12, 21, 30, 39],
        instances: DIAGONALS,
        mirror: Some(&[4, 3, 2, 1, 0]),
    },
    Pattern {
        name: "diag4",
        squares: &[4, 13, 22, 31],
        instances: DIAGONALS,
        mirror: Some(&[3, 2, 1, 0]),
    },
];

/// Identity of the pattern set above, stored in weight files: bump it whenever a
/// pattern, its square order, its instances, its mirror or the phases change (weight
/// files store one weight per mirror pair, found from this number).
pub const PATTERN_SET: u32 = 2;

/// Number of pattern instances read from one board.
pub const FEATURES: usize = count_features();

const fn count_features() -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < PATTERNS.len() {
        n += PATTERNS[i].instances.len();
        i += 1;
    }
    n
}

/// Where each pattern's weights start within one phase; the last entry is the bias.
pub const OFFSETS: [usize; PATTERNS.len() + 1] = offsets();

const fn offsets() -> [usize; PATTERNS.len() + 1] {
    let mut o = [0; PATTERNS.len() + 1];
    let mut i = 0;
    let mut at = 0;
    while i < PATTERNS.len() {
        o[i] = at;
        at += PATTERNS[i].size();
        i += 1;
    }
    o[PATTERNS.len()] = at;
    o
}

/// Index of the bias weight within a phase, for an even number of empties; the next one is
/// for odd: the side to move's final disc difference depends on who gets the last move,
/// an offset of about 3 discs either way that no pattern sees (measured by
/// `finale train-mpc` with one bias: the mean error alternates in sign with the empties).
pub const BIAS: usize = OFFSETS[PATTERNS.len()];
/// The bias index of a board with `empties` empty squares.
#[inline]
pub const fn bias(empties: u32) -> usize {
    BIAS + (empties & 1) as usize
}
/// Weights of one phase: every pattern's table and the two biases.
pub const PER_PHASE: usize = BIAS + 2;

/// Game phases of the evaluation: empties 0-3, 4-7, ..., 60, each with its own weights.
/// Part of the weight file's layout (changing it changes the format); narrower phases gave
/// nothing ([results/eval/2026-11-25-capacity.md](../../results/eval/2026-11-25-capacity.md)).
pub const EVAL_PHASES: usize = 16;

/// Game phases: empties 0-3, 4-7, ..., 60 ([`EVAL_PHASES`]).
pub const PHASES: usize = EVAL_PHASES;

/// The phase of a board with `empties` empty squares.
#[inline]
pub const fn phase(empties: u32) -> usize {
    let p = (empties / 4) as usize;
    if p < PHASES { p } else { PHASES - 1 }
}

/// Ternary value of a set of up to 10 bits: bit i counts 3^i.
const TERNARY: [u16; 1024] = ternary_table();

const fn ternary_table() -> [u16; 1024] {
    let mut t = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let mut v = 0u32;
        let mut p = 1u32;
        let mut i = 0;
        while i < 10 {
            if b >> i & 1 != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[b] = v as u16;
        b += 1;
    }
    t
}

/// Ternary index of the squares whose bits are `p` (side to move) and `o` (opponent).
#[inline(always)]
fn ternary(p: u64, o: u64) -> u32 {
    TERNARY[p as usize] as u32 + 2 * TERNARY[o as usize] as u32
}

// Bit gatherers: each brings a pattern's squares, in reading order, to the low bits.
#[inline(always)]
fn edge_x(x: u64) -> u64 {
    (x & 0xFF) | ((x >> 1) & 0x100) | ((x >> 5) & 0x200)
}
#[inline(always)]
fn corner3x3(x: u64) -> u64 {
    (x & 7) | ((x >> 5) & 0x38) | ((x >> 10) & 0x1C0)
}
#[inline(always)]
fn corner2x5(x: u64) -> u64 {
    (x & 0x1F) | ((x >> 3) & 0x3E0)
}
#[inline(always)]
fn row(x: u64, r: u32) -> u64 {
    (x >> (8 * r)) & 0xFF
}
/// The diagonal starting at column `c` of row 1 and going up-right, `8 - c` squares:
/// the masked bits times 0x0101..01 all land, in order, in the top byte.
#[inline(always)]
fn diagonal(x: u64, c: u32) -> u64 {
    const MAIN: u64 = 0x8040_2010_0804_0201;
    let mask = MAIN << c & !(0x0101_0101_0101_0101u64.wrapping_mul((1 << c) - 1));
    ((x & mask).wrapping_mul(0x0101_0101_0101_0101)) >> (56 + c)
}

/// Reads every pattern instance of `b` into `out` as indices within one phase's weights
/// (pattern offsets added), in the order of [`PATTERNS`] and their instances.
#[inline]
pub fn features(b: &Board, out: &mut [u32; FEATURES]) {
    read_instances(b, |n, offset, p, o| out[n] = offset + ternary(p, o));
}

/// Reads the indices of [`features`] for both sides at once: `player` as `b` is (the side
/// to move's discs are digit 1), `opponent` as after a pass (its discs are digit 1), for
/// little more than one reading: the gathered bits serve both.
#[inline]
pub fn features_both(b: &Board, player: &mut [u32; FEATURES], opponent: &mut [u32; FEATURES]) {
    read_instances(b, |n, offset, p, o| {
        let (tp, to) = (TERNARY[p as usize] as u32, TERNARY[o as usize] as u32);
        player[n] = offset + tp + 2 * to;
        opponent[n] = offset + to + 2 * tp;
    });
}

/// Gathers the squares of every pattern instance of `b`, in the order of [`PATTERNS`] and
/// their instances, and hands `put` the instance's number, its pattern's weight offset and
/// the side to move's and the opponent's bits of those squares, in reading order.
#[inline(always)]
fn read_instances(b: &Board, mut put: impl FnMut(usize, u32, u64, u64)) {
    let (p, o) = (b.player, b.opponent);
    let mut boards = [(0u64, 0u64); 8];
    // The eight symmetric boards, in the order of Symmetry::ALL.
    boards[0] = (p, o);
    boards[1] = (flip_vertical(p), flip_vertical(o));
    boards[2] = (flip_horizontal(p), flip_horizontal(o));
    boards[3] = (flip_vertical(boards[2].0), flip_vertical(boards[2].1));
    for k in 0..4 {
        boards[4 + k] = (transpose(boards[k].0), transpose(boards[k].1));
    }
    let at = |s: Symmetry| boards[s as usize];
    let mut n = 0;
    let mut put = |offset: usize, p: u64, o: u64| {
        put(n, offset as u32, p, o);
        n += 1;
    };
    for &s in EDGES {
        let (p, o) = at(s);
        put(OFFSETS[0], edge_x(p), edge_x(o));
    }
    for &s in CORNERS {
        let (p, o) = at(s);
        put(OFFSETS[1], corner3x3(p), corner3x3(o));
    }
    for &s in EVERY {
        let (p, o) = at(s);
        put(OFFSETS[2], corner2x5(p), corner2x5(o));
    }
    for r in 1..4 {
        for &s in EDGES {
            let (p, o) = at(s);
            put(OFFSETS[2 + r as usize], row(p, r), row(o, r));
        }
    }
    for &s in &[Id, H] {
        let (p, o) = at(s);
        put(OFFSETS[6], diagonal(p, 0), diagonal(o, 0));
    }
    for c in 1..5 {
        for &s in DIAGONALS {
            let (p, o) = at(s);
            put(OFFSETS[6 + c as usize], diagonal(p, c), diagonal(o, c));
        }
    }
    debug_assert_eq!(n, FEATURES);
}

/// Reads the same indices as [`features`], square by square: the reference it is tested
/// against.
pub fn features_naive(b: &Board) -> Vec<u32> {
    let mut out = Vec::with_capacity(FEATURES);
    for (k, pat) in PATTERNS.iter().enumerate() {
        for &s in pat.instances {
            let (p, o) = (s.apply(b.player), s.apply(b.opponent));
            let mut idx = 0u32;
            for &sq in pat.squares.iter().rev() {
                idx = idx * 3 + (p >> sq & 1) as u32 + 2 * (o >> sq & 1) as u32;
            }
            out.push(OFFSETS[k] as u32 + idx);
        }
    }
    out
}

/// For every index of a phase, the index giving the same weight: the smaller of the index
/// and its mirror image (for patterns with a [`Pattern::mirror`]), else itself.
pub fn canonical_indices() -> Vec<u32> {
    let mut canon: Vec<u32> = (0..PER_PHASE as u32).collect();
    for (k, pat) in PATTERNS.iter().enumerate() {
        let Some(mirror) = pat.mirror else { continue };
        let len = pat.squares.len();
        for idx in 0..pat.size() {
            let mut digits = [0u32; 10];
            let mut v = idx;
            for d in digits.iter_mut().take(len) {
                *d = (v % 3) as u32;
                v /= 3;
            }
            let mut m = 0u32;
            for j in (0..len).rev() {
                // Reading position j of the mirror image holds what position mirror[j] held.
                m = m * 3 + digits[mirror[j] as usize];
            }
            let (a, b) = (OFFSETS[k] as u32 + idx as u32, OFFSETS[k] as u32 + m);
            canon[a as usize] = a.min(b);
        }
    }
    canon
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::random::{SplitMix64, random_position};

    fn naive_transform(x: u64, f: impl Fn(u32, u32) -> (u32, u32)) -> u64 {
        let mut y = 0;
        for sq in 0..64 {
            if x >> sq & 1 != 0 {
                let (c, r) = f(sq % 8, sq / 8);
                y |= 1u64 << (r * 8 + c);
            }
        }
        y
    }

    #[test]
    fn transforms_match_square_by_square_mappings() {
        let mut rng = SplitMix64::new(3);
        for _ in 0..200 {
            let x = rng.next_u64();
            assert_eq!(flip_vertical(x), naive_transform(x, |c, r| (c, 7 - r)));
            assert_eq!(flip_horizontal(x), naive_transform(x, |c, r| (7 - c, r)));
            assert_eq!(transpose(x), naive_transform(x, |c, r| (r, c)));
        }
    }

    #[test]
    fn fast_features_equal_square_by_square_reading() {
        let mut rng = SplitMix64::new(11);
        for e in (2..=59).step_by(3) {
            for _ in 0..20 {
                let b = random_position(&mut rng, e).board;
                let mut f = [0; FEATURES];
                features(&b, &mut f);
                assert_eq!(f.to_vec(), features_naive(&b), "empties {e}");
            }
        }
    }

    #[test]
    fn both_sides_equal_reading_each_side() {
        let mut rng = SplitMix64::new(12);
        for e in (2..=59).step_by(3) {
            for _ in 0..20 {
                let b = random_position(&mut rng, e).board;
                let (mut p, mut o) = ([0; FEATURES], [0; FEATURES]);
                features_both(&b, &mut p, &mut o);
                assert_eq!(p.to_vec(), features_naive(&b), "empties {e}");
                assert_eq!(o.to_vec(), features_naive(&b.pass()), "empties {e}");
            }
        }
    }

    #[test]
    fn instances_cover_distinct_square_sets() {
        // No two instances of a pattern read the same squares (else a weight counts twice).
        for pat in PATTERNS {
            let mut sets = Vec::new();
            for &s in pat.instances {
                let mut set = 0u64;
                for &sq in pat.squares {
                    // Square sq of the transformed board is the preimage square here.
                    for from in 0..64 {
                        if s.apply(1u64 << from) == 1u64 << sq {
                            set |= 1u64 << from;
                        }
                    }
                }
                assert_eq!(set.count_ones() as usize, pat.squares.len());
                assert!(!sets.contains(&set), "{}: repeated instance", pat.name);
                sets.push(set);
            }
        }
    }

    #[test]
    fn mirrors_map_the_pattern_onto_itself() {
        // Reading the mirror image of a board gives the mirrored index of the original:
        // checked through canonical indices being equal for a board and its mirror image.
        let canon = canonical_indices();
        let mut rng = SplitMix64::new(5);
        for _ in 0..200 {
            let b = random_position(&mut rng, 30).board;
            let m = Board::new(flip_horizontal(b.player), flip_horizontal(b.opponent));
            let mut fb: Vec<u32> = features_naive(&b)
                .iter()
                .map(|&i| canon[i as usize])
                .collect();
            let mut fm: Vec<u32> = features_naive(&m)
                .iter()
                .map(|&i| canon[i as usize])
                .collect();
            fb.sort_unstable();
            fm.sort_unstable();
            assert_eq!(fb, fm);
            let t = Board::new(transpose(b.player), transpose(b.opponent));
            let mut ft: Vec<u32> = features_naive(&t)
                .iter()
                .map(|&i| canon[i as usize])
                .collect();
            ft.sort_unstable();
            assert_eq!(fb, ft);
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(FEATURES, 46);
        assert_eq!(PER_PHASE, 167_267);
    }
}
