//! Incremental evaluation: the pattern indices of a board kept up to date as discs are
//! played and flipped, so that evaluating a leaf of the evaluated search is a sum of weights
//! instead of reading 46 pattern instances through 8 symmetries.
//!
//! A square's digit in an index depends on who is to move (1 own disc, 2 opponent's), and
//! the side to move changes at every move and pass, so the state keeps the indices of both
//! sides: a pass swaps them, and a move updates each from the other's. Keeping both costs
//! a second update at inner nodes only; the leaves, most of the nodes, need one array (see
//! [`FeatureState::child_indices`]), where converting one side's indices into the other's
//! would cost a table look-up per instance at every leaf.

use super::pattern::{FEATURES, PATTERNS, Symmetry, features_both};
use crate::board::{Board, Square};

/// One square's part in one pattern instance: the instance's place in the output of
/// [`features`](super::pattern::features) and the power of 3 of the square's digit there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Touch {
    /// The instance (feature slot), 0..[`FEATURES`].
    pub slot: u8,
    /// 3^(reading position of the square in the instance).
    pub pow: u32,
}

/// The square of the untransformed board that `s` brings to square `sq`.
const fn preimage(s: Symmetry, sq: u8) -> usize {
    let mut from = 0;
    while from < 64 {
        if s.apply(1u64 << from) == 1u64 << sq {
            return from;
        }
        from += 1;
    }
    panic!("a symmetry is a permutation of the squares")
}

/// Calls `f(square, slot, pow)` for every square of every pattern instance, slots in the
/// order of [`features`](super::pattern::features). A macro, as const fns take no
/// closures.
macro_rules! for_each_touch {
    (|$sq:ident, $slot:ident, $pow:ident| $body:block) => {{
        let mut $slot = 0usize;
        let mut k = 0;
        while k < PATTERNS.len() {
            let pat = &PATTERNS[k];
            let mut i = 0;
            while i < pat.instances.len() {
                let mut j = 0;
                let mut $pow = 1u32;
                while j < pat.squares.len() {
                    let $sq = preimage(pat.instances[i], pat.squares[j]);
                    $body
                    $pow *= 3;
                    j += 1;
                }
                $slot += 1;
                i += 1;
            }
            k += 1;
        }
    }};
}

const fn touch_counts() -> [u8; 64] {
    let mut counts = [0u8; 64];
    for_each_touch!(|sq, slot, pow| {
        let _ = (slot, pow);
        counts[sq] += 1;
    });
    counts
}

/// How many pattern instances read each square.
const COUNTS: [u8; 64] = touch_counts();

const fn max_touches() -> usize {
    let mut m = 0;
    let mut sq = 0;
    while sq < 64 {
        if COUNTS[sq] as usize > m {
            m = COUNTS[sq] as usize;
        }
        sq += 1;
    }
    m
}

/// The most pattern instances reading one square.
pub const MAX_TOUCHES: usize = max_touches();

const fn touch_table() -> [[Touch; MAX_TOUCHES]; 64] {
    let mut t = [[Touch { slot: 0, pow: 0 }; MAX_TOUCHES]; 64];
    let mut n = [0usize; 64];
    for_each_touch!(|sq, slot, pow| {
        t[sq][n[sq]] = Touch {
            slot: slot as u8,
            pow,
        };
        n[sq] += 1;
    });
    assert!(FEATURES <= u8::MAX as usize);
    t
}

/// Per square, the instances reading it (the first `COUNTS[sq]` entries), derived from
/// [`PATTERNS`] at compile time.
static TOUCHES: [[Touch; MAX_TOUCHES]; 64] = touch_table();

/// The pattern instances reading square `sq` and the weight of its digit in each.
#[inline(always)]
fn touches(sq: usize) -> &'static [Touch] {
    &TOUCHES[sq][..COUNTS[sq] as usize]
}

/// The pattern indices of a board for the side to move and for its opponent, kept up to
/// date move by move: [`FeatureState::indices`] always equals what
/// [`features`](super::pattern::features) reads from the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureState {
    /// The indices of the board as it is (side to move's discs digit 1).
    player: [u32; FEATURES],
    /// The indices of the board after a pass (opponent's discs digit 1).
    opponent: [u32; FEATURES],
}

impl FeatureState {
    /// The state of `b`, read from scratch.
    #[inline]
    pub fn new(b: &Board) -> FeatureState {
        let mut s = FeatureState {
            player: [0; FEATURES],
            opponent: [0; FEATURES],
        };
        features_both(b, &mut s.player, &mut s.opponent);
        s
    }

    /// The indices for the side to move, as [`features`](super::pattern::features) gives
    /// them.
    #[inline]
    pub fn indices(&self) -> &[u32; FEATURES] {
        &self.player
    }

    /// The state after the side to move passes.
    #[inline]
    pub fn pass(&self) -> FeatureState {
        FeatureState {
            player: self.opponent,
            opponent: self.player,
        }
    }

    /// The state after the side to move plays `sq` flipping `flipped`.
    #[inline]
    pub fn play(&self, sq: Square, flipped: u64) -> FeatureState {
        // Sides swap: the next side to move reads the mover's discs as digit 2.
        let mut next = self.pass();
        // The new disc: 0 -> 2 for the next side to move, 0 -> 1 for the mover.
        for t in touches(sq.index()) {
            next.player[t.slot as usize] += 2 * t.pow;
            next.opponent[t.slot as usize] += t.pow;
        }
        // A flipped disc: 1 -> 2 for the next side to move, 2 -> 1 for the mover.
        let mut f = flipped;
        while f != 0 {
            for t in touches(f.trailing_zeros() as usize) {
                next.player[t.slot as usize] += t.pow;
                next.opponent[t.slot as usize] -= t.pow;
            }
            f &= f - 1;
        }
        next
    }

    /// `self.play(sq, flipped).indices()`, without updating the other side's indices: all
    /// a leaf needs.
    #[inline]
    pub fn child_indices(&self, sq: Square, flipped: u64) -> [u32; FEATURES] {
        let mut ix = self.opponent;
        for t in touches(sq.index()) {
            ix[t.slot as usize] += 2 * t.pow;
        }
        let mut f = flipped;
        while f != 0 {
            for t in touches(f.trailing_zeros() as usize) {
                ix[t.slot as usize] += t.pow;
            }
            f &= f - 1;
        }
        ix
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::moves::flips;
    use crate::board::random::SplitMix64;
    use crate::eval::Evaluator;
    use crate::eval::pattern::{PER_PHASE, PHASES, features, features_naive};

    #[test]
    fn touches_equal_the_effect_of_one_disc_on_the_naive_reading() {
        // A lone disc of the side to move on `sq` adds 3^position to exactly the instances
        // reading `sq`: read square by square, independently of the table's derivation.
        let empty = features_naive(&Board::new(0, 0));
        let mut total = 0;
        for sq in 0..64 {
            let one = features_naive(&Board::new(1u64 << sq, 0));
            let mut want: Vec<Touch> = (0..FEATURES)
                .filter(|&f| one[f] != empty[f])
                .map(|f| Touch {
                    slot: f as u8,
                    pow: one[f] - empty[f],
                })
                .collect();
            let mut got = touches(sq).to_vec();
            want.sort_by_key(|t| t.slot);
            got.sort_by_key(|t| t.slot);
            assert_eq!(got, want, "square {sq}");
            total += got.len();
        }
        let squares_read: usize = PATTERNS
            .iter()
            .map(|p| p.squares.len() * p.instances.len())
            .sum();
        assert_eq!(total, squares_read);
    }

    /// Weights with no structure, so that any wrong index shows in the value.
    fn random_evaluator(seed: u64, per_phase: usize) -> Evaluator {
        let mut rng = SplitMix64::new(seed);
        Evaluator::from_weights(
            (0..PHASES * per_phase)
                .map(|_| (rng.below(2001) as i32 - 1000) as i16)
                .collect(),
        )
    }

    fn check(s: &FeatureState, b: &Board, evals: &[&Evaluator]) {
        let mut f = [0; FEATURES];
        features(b, &mut f);
        assert_eq!(s.indices(), &f, "{b:?}");
        assert_eq!(s.indices().to_vec(), features_naive(b), "{b:?}");
        assert_eq!(
            s.pass().indices().to_vec(),
            features_naive(&b.pass()),
            "{b:?}"
        );
        assert_eq!(*s, FeatureState::new(b));
        for e in evals {
            assert_eq!(e.evaluate_incremental(s, b), e.evaluate(b), "{b:?}");
        }
    }

    #[test]
    fn updates_along_random_games_equal_reading_from_scratch() {
        let shipped = Evaluator::shipped().expect("shipped weights");
        let random = random_evaluator(9, PER_PHASE);
        let mobility = random_evaluator(10, crate::eval::mobility::PER_PHASE_MOBILITY);
        let evals = [shipped, &random, &mobility];
        let mut rng = SplitMix64::new(21);
        let (mut moves, mut passes) = (0, 0);
        for _ in 0..300 {
            let mut b = Board::START;
            let mut s = FeatureState::new(&b);
            check(&s, &b, &evals);
            loop {
                let mut m = b.moves();
                if m == 0 {
                    if b.pass().moves() == 0 {
                        break;
                    }
                    b = b.pass();
                    s = s.pass();
                    passes += 1;
                } else {
                    for _ in 0..rng.below(m.count_ones() as u64) {
                        m &= m - 1;
                    }
                    let sq = Square::from_index(m.trailing_zeros());
                    let f = flips(b.player, b.opponent, sq);
                    let child = s.child_indices(sq, f);
                    b = b.play_with_flips(sq, f);
                    s = s.play(sq, f);
                    assert_eq!(&child, s.indices());
                    moves += 1;
                }
                check(&s, &b, &evals);
            }
        }
        assert!(
            moves > 10_000 && passes > 20,
            "{moves} moves, {passes} passes"
        );
    }
}
