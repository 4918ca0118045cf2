//! Training positions: randomised self-play from the start position.

use crate::board::Board;
use crate::board::moves::flips;
use crate::board::random::SplitMix64;
use crate::search::ordering::fastest_first;

/// A position of a training game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Number of the game it comes from (held-out games are chosen by this number).
    pub game: u32,
    /// The board, side to move first; it has a legal move.
    pub board: Board,
}

/// Percent of moves after the opening chosen at random; the others follow fastest-first
/// (fewest opponent moves, corners, edges), so the games mix sensible and odd positions,
/// as a search tree does.
const RANDOM_MOVE_PERCENT: u64 = 25;
/// The first moves are all random, a game-dependent number of them up to this.
const RANDOM_OPENING_MAX: u64 = 16;

/// Plays game `game` of the run seeded by `seed` and returns every position in it where the
/// side to move has a legal move. Each game has its own generator, so games can be played
/// in any order or in parallel with the same result.
pub fn play_game(seed: u64, game: u32) -> Vec<Sample> {
    let mut rng = SplitMix64::new(seed ^ (u64::from(game) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let opening = rng.below(RANDOM_OPENING_MAX + 1);
    let mut b = Board::START;
    let mut out = Vec::with_capacity(60);
    let mut ply = 0;
    loop {
        let moves = b.moves();
        if moves == 0 {
            if b.pass().moves() == 0 {
                return out;
            }
            b = b.pass();
            continue;
        }
        out.push(Sample { game, board: b });
        let sq = if ply < opening || rng.below(100) < RANDOM_MOVE_PERCENT {
            let mut m = moves;
            for _ in 0..rng.below(u64::from(moves.count_ones())) {
                m &= m - 1;
            }
            m.trailing_zeros() as usize
        } else {
            let mut best = (i32::MIN, 0usize);
            let mut m = moves;
            while m != 0 {
                let sq = m.trailing_zeros() as usize;
                m &= m - 1;
                let child = b.play_with_flips(sq, flips(b.player, b.opponent, sq));
                // A little noise breaks ties differently in each game.
                let s = fastest_first(&child, sq, 0, None, false) + rng.below(64) as i32;
                if s > best.0 {
                    best = (s, sq);
                }
            }
            best.1
        };
        b = b.play_with_flips(sq, flips(b.player, b.opponent, sq));
        ply += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_reproducible_legal_and_differ() {
        let a = play_game(1, 7);
        assert_eq!(a, play_game(1, 7));
        assert_ne!(a, play_game(1, 8));
        assert_ne!(a, play_game(2, 7));
        assert!(a.len() > 40);
        for w in a.windows(2) {
            // Each position follows from the previous by one move (and maybe a pass).
            let (x, y) = (w[0].board, w[1].board);
            let moves = x.moves();
            let next = (0..64)
                .filter(|&sq| moves >> sq & 1 != 0)
                .map(|sq| x.play_with_flips(sq, flips(x.player, x.opponent, sq)))
                .any(|c| c == y || (c.moves() == 0 && c.pass() == y));
            assert!(next, "not one move apart");
            assert_ne!(y.moves(), 0);
        }
    }
}
