//! Reproducible random positions: a SplitMix64 generator and random play from the start.
//!
//! The generator is written out here (not taken from a crate) so that a seed gives the
//! same positions in every version of finale: the bench signature depends on it.

use super::moves::flips;
use super::position::Position;
use super::square::Square;

/// SplitMix64: a tiny, fast generator with a stable sequence for a given seed.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`); the tiny modulo bias does not matter here.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// A position reached by uniformly random legal moves from the start position, with
/// exactly `empties` empty squares and a legal move for the side to move. Games that end
/// earlier are replayed with the generator's next numbers.
pub fn random_position(rng: &mut SplitMix64, empties: u32) -> Position {
    assert!(
        (1..=60).contains(&empties),
        "a position with a legal move has 1 to 60 empty squares"
    );
    'game: loop {
        let mut pos = Position::START;
        while pos.board.empty_count() > empties {
            let mut moves = pos.board.moves();
            if moves == 0 {
                if pos.board.is_game_over() {
                    continue 'game;
                }
                pos = pos.pass();
                continue;
            }
            for _ in 0..rng.below(moves.count_ones() as u64) {
                moves &= moves - 1;
            }
            let sq = Square::from_index(moves.trailing_zeros());
            let f = flips(pos.board.player, pos.board.opponent, sq);
            pos = Position {
                board: pos.board.play_with_flips(sq, f),
                side: pos.side.other(),
            };
        }
        if pos.board.moves() != 0 {
            return pos;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_reproducible_and_legal() {
        let a = random_position(&mut SplitMix64::new(7), 20);
        let b = random_position(&mut SplitMix64::new(7), 20);
        assert_eq!(a, b);
        assert_eq!(a.board.empty_count(), 20);
        assert_ne!(a.board.moves(), 0);
        // The first outputs of SplitMix64 seeded with 0 (published test vector).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }
}
