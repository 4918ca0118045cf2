//! Self-play: the training positions, played from the start position as randomised
//! fastest-first games or as games guided by an evaluation ("eval play", which also makes
//! the positions of `finale generate --play eval`).

use crate::board::kernels::Portable;
use crate::board::moves::flips;
use crate::board::random::SplitMix64;
use crate::board::{Bitboard, Board, Square};
use crate::eval::{Evaluator, UNITS_PER_DISC};
use crate::search::evaluated_value;
use crate::search::ordering::fastest_first;

/// Eval play: the first moves are random, a game-dependent number of them up to this, so
/// that openings vary.
pub const EVAL_PLAY_RANDOM_OPENING_MAX: u64 = 6;
/// Eval play: depth of the search judging each move.
pub const EVAL_PLAY_DEPTH: u32 = 2;
/// Eval play: a move judged this many discs worse than the best is chosen e times less
/// often than the best. At 3 discs about one move in four is not the search's choice,
/// like a club player's game; the positions are neither random nor all alike.
pub const EVAL_PLAY_TEMPERATURE_DISCS: f64 = 3.0;

/// Eval play's choice among `children` (the positions after each legal move): each is
/// judged by a search of [`EVAL_PLAY_DEPTH`] moves and drawn with a probability falling
/// off as e^(-d / [`EVAL_PLAY_TEMPERATURE_DISCS`]) with the d discs it is judged worse
/// than the best. Returns the index of the chosen child.
pub fn eval_play_choice(rng: &mut SplitMix64, eval: &Evaluator, children: &[Board]) -> usize {
    let values: Vec<f64> = children
        .iter()
        .map(|c| -evaluated_value(eval, *c, EVAL_PLAY_DEPTH - 1).0 as f64)
        .collect();
    let top = values.iter().cloned().fold(f64::MIN, f64::max);
    let scale = EVAL_PLAY_TEMPERATURE_DISCS * UNITS_PER_DISC as f64;
    let weights: Vec<f64> = values.iter().map(|v| ((v - top) / scale).exp()).collect();
    // A uniform number in [0, total) from 53 random bits.
    let total: f64 = weights.iter().sum();
    let mut r = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
    for (i, w) in weights.iter().enumerate() {
        if r < *w {
            return i;
        }
        r -= w;
    }
    weights.len() - 1
}

/// The positions after each legal move of `b` (`moves` its legal moves), in square order.
pub fn children(b: &Board, moves: u64) -> Vec<Board> {
    let mut out = Vec::with_capacity(moves.count_ones() as usize);
    for sq in Bitboard(moves) {
        out.push(b.play_with_flips(sq, flips(b.player, b.opponent, sq)));
    }
    out
}

/// Plays game `game` of an eval-play run seeded by `seed` (see [`eval_play_choice`]) and
/// returns every position in it where the side to move has a legal move. Each game has
/// its own generator, so games can be played in any order or in parallel.
pub fn play_eval_game(seed: u64, game: u32, eval: &Evaluator) -> Vec<Sample> {
    self_play(
        seed,
        game,
        EVAL_PLAY_RANDOM_OPENING_MAX,
        |rng, b, moves, opening| {
            let children = children(b, moves);
            let k = if opening {
                rng.below(children.len() as u64) as usize
            } else {
                eval_play_choice(rng, eval, &children)
            };
            children[k]
        },
    )
}

/// Plays one game from the start: the first moves, a game-dependent number up to
/// `opening_max`, are in the opening; `next` gets the generator, the board, its legal
/// moves and whether the game is still in the opening, and returns the board after its
/// move. Returns every position where the side to move has a legal move.
fn self_play(
    seed: u64,
    game: u32,
    opening_max: u64,
    mut next: impl FnMut(&mut SplitMix64, &Board, u64, bool) -> Board,
) -> Vec<Sample> {
    let mut rng = game_rng(seed, game);
    let opening = rng.below(opening_max + 1);
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
        out.push(Sample {
            game,
            board: b,
            known: None,
        });
        b = next(&mut rng, &b, moves, ply < opening);
        ply += 1;
    }
}

fn game_rng(seed: u64, game: u32) -> SplitMix64 {
    SplitMix64::new(seed ^ (u64::from(game) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// A position of a training game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Number of the game it comes from (held-out games are chosen by this number).
    pub game: u32,
    /// The board, side to move first; it has a legal move.
    pub board: Board,
    /// Its exact score for the side to move, when known before labelling (a real game's
    /// theoretical score, see [`real`](super::real)); self-play positions have none.
    pub known: Option<i8>,
}

/// Self-play games: percent of the moves after the opening chosen at random, the others
/// fastest-first, so that the games mix sensible and odd positions as a search tree does.
/// Not measured; from the first training pipeline.
pub const TRAIN_RANDOM_MOVE_PERCENT: u64 = 25;
/// Self-play games: the first moves are all random, a game-dependent number of them up to
/// this. Not measured; from the first training pipeline.
pub const TRAIN_RANDOM_OPENING_MAX: u64 = 16;

/// Plays game `game` of the run seeded by `seed` and returns every position in it where the
/// side to move has a legal move. Each game has its own generator, so games can be played
/// in any order or in parallel with the same result.
pub fn play_game(seed: u64, game: u32) -> Vec<Sample> {
    self_play(
        seed,
        game,
        TRAIN_RANDOM_OPENING_MAX,
        |rng, b, moves, opening| {
            let sq = if opening || rng.below(100) < TRAIN_RANDOM_MOVE_PERCENT {
                let mut m = moves;
                for _ in 0..rng.below(u64::from(moves.count_ones())) {
                    m &= m - 1;
                }
                Square::from_index(m.trailing_zeros())
            } else {
                let mut best = (i32::MIN, Square::from_index(0));
                for sq in Bitboard(moves) {
                    let child = b.play_with_flips(sq, flips(b.player, b.opponent, sq));
                    // A little noise breaks ties differently in each game.
                    let s = fastest_first::<Portable>(&child, sq, 0, None, false)
                        + rng.below(64) as i32;
                    if s > best.0 {
                        best = (s, sq);
                    }
                }
                best.1
            };
            b.play_with_flips(sq, flips(b.player, b.opponent, sq))
        },
    )
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
        assert_one_move_apart(&a);
    }

    #[test]
    fn eval_play_games_are_reproducible_legal_and_differ() {
        let eval = Evaluator::shipped().expect("built-in weights");
        let a = play_eval_game(1, 7, eval);
        assert_eq!(a, play_eval_game(1, 7, eval));
        assert_ne!(a, play_eval_game(1, 8, eval));
        assert_ne!(a, play_eval_game(2, 7, eval));
        assert_one_move_apart(&a);
        // Guided by the evaluation: after the random opening, about half of the moves are
        // ones a 2-move search of the evaluation rates best (measured: 259 of 530); random
        // play would pick them about one time in eight.
        let (mut best, mut all) = (0, 0);
        for g in 0..10 {
            let game = play_eval_game(4, g, eval);
            for w in game.windows(2).skip(EVAL_PLAY_RANDOM_OPENING_MAX as usize) {
                let kids = children(&w[0].board, w[0].board.moves());
                let values: Vec<i32> = kids
                    .iter()
                    .map(|c| -evaluated_value(eval, *c, EVAL_PLAY_DEPTH - 1).0)
                    .collect();
                let top = *values.iter().max().unwrap();
                all += 1;
                if kids
                    .iter()
                    .zip(&values)
                    .any(|(c, &v)| v == top && *c == w[1].board)
                {
                    best += 1;
                }
            }
        }
        assert!(best * 3 > all, "{best} of {all} moves rated best");
    }

    fn assert_one_move_apart(a: &[Sample]) {
        assert!(a.len() > 40);
        for w in a.windows(2) {
            // Each position follows from the previous by one move (and maybe a pass).
            let (x, y) = (w[0].board, w[1].board);
            let moves = x.moves();
            let next = Bitboard(moves)
                .map(|sq| x.play_with_flips(sq, flips(x.player, x.opponent, sq)))
                .any(|c| c == y || (c.moves() == 0 && c.pass() == y));
            assert!(next, "not one move apart");
            assert_ne!(y.moves(), 0);
        }
    }
}
