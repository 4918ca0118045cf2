//! The `generate` command: reproducible positions as OBF lines, for benchmark, test and
//! calibration sets, from uniformly random play or from play guided by the evaluation.

use crate::board::Position;
use crate::board::random::{SplitMix64, random_position};
use crate::error::{Error, RequestError, Result};
use crate::eval::Evaluator;
use crate::train::self_play::{EVAL_PLAY_RANDOM_OPENING_MAX, children, eval_play_choice};
use std::io::Write;

/// How the moves leading to a generated position are chosen.
#[derive(Clone, Copy)]
pub enum Play<'a> {
    /// Uniformly random legal moves (the bench positions).
    Random,
    /// Games that look like real play: a few random opening moves, then each move drawn
    /// with a probability that falls off with how much worse than the best move a shallow
    /// search of the evaluation judges it.
    Eval(&'a Evaluator),
}

/// Writes `count` positions reached by `play` from the start (seeded by `seed`), cycling
/// through `min_empties..=max_empties` empty squares, one OBF line each.
pub fn run_generate(
    seed: u64,
    count: usize,
    min_empties: u32,
    max_empties: u32,
    play: Play,
    out: &mut impl Write,
) -> Result<()> {
    if min_empties == 0 || min_empties > max_empties || max_empties > 60 {
        return Err(RequestError::Empties {
            min: min_empties,
            max: max_empties,
        }
        .into());
    }
    let mut rng = SplitMix64::new(seed);
    let span = (max_empties - min_empties + 1) as usize;
    let how = match play {
        Play::Random => String::new(),
        Play::Eval(e) => format!(" --play eval (weights {:08x})", e.checksum()),
    };
    writeln!(
        out,
        "% finale generate --seed {seed} --count {count} --empties {min_empties}-{max_empties}{how}"
    )
    .map_err(Error::Output)?;
    for i in 0..count {
        let empties = min_empties + (i % span) as u32;
        let pos = match play {
            Play::Random => random_position(&mut rng, empties),
            Play::Eval(eval) => eval_play_position(&mut rng, eval, empties),
        };
        writeln!(out, "{pos}").map_err(Error::Output)?;
    }
    out.flush().map_err(Error::Output)
}

/// A position with exactly `empties` empty squares and a legal move for the side to move,
/// reached by eval play (see [`Play::Eval`]). Games that end earlier are replayed.
pub fn eval_play_position(rng: &mut SplitMix64, eval: &Evaluator, empties: u32) -> Position {
    assert!(
        (1..=60).contains(&empties),
        "a position with a legal move has 1 to 60 empty squares"
    );
    'game: loop {
        let opening = rng.below(EVAL_PLAY_RANDOM_OPENING_MAX + 1);
        let mut pos = Position::START;
        let mut ply = 0;
        while pos.board.empty_count() > empties {
            let moves = pos.board.moves();
            if moves == 0 {
                if pos.board.is_game_over() {
                    continue 'game;
                }
                pos = pos.pass();
                continue;
            }
            let children = children(&pos.board, moves);
            let k = if ply < opening {
                rng.below(children.len() as u64) as usize
            } else {
                eval_play_choice(rng, eval, &children)
            };
            pos = Position {
                board: children[k],
                side: pos.side.other(),
            };
            ply += 1;
        }
        if pos.board.moves() != 0 {
            return pos;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse_obf_line;
    use crate::search::evaluated_value;

    fn empties_of(text: &str) -> Vec<u32> {
        text.lines()
            .filter_map(|l| parse_obf_line(l).unwrap())
            .map(|r| r.position.board.empty_count())
            .collect()
    }

    #[test]
    fn lines_parse_back_with_the_requested_empties() {
        let mut out = Vec::new();
        run_generate(3, 6, 10, 12, Play::Random, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(empties_of(&text), vec![10, 11, 12, 10, 11, 12]);
        assert!(run_generate(3, 1, 12, 10, Play::Random, &mut Vec::new()).is_err());
        // No position with 0 empties has a move: refused, not searched for forever.
        assert!(run_generate(3, 1, 0, 9, Play::Random, &mut Vec::new()).is_err());
    }

    #[test]
    fn eval_play_is_reproducible_and_better_than_random() {
        let eval = Evaluator::shipped().unwrap();
        let gen_ = |seed| {
            let mut out = Vec::new();
            run_generate(seed, 6, 20, 22, Play::Eval(eval), &mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        let a = gen_(5);
        assert_eq!(a, gen_(5));
        assert_ne!(a, gen_(6));
        assert_eq!(empties_of(&a), vec![20, 21, 22, 20, 21, 22]);
        // Guided play keeps games closer than random play: on 40 positions of 24 empties,
        // the mean |evaluation| is smaller (random games are often lopsided).
        let mut rng_e = SplitMix64::new(9);
        let mut rng_r = SplitMix64::new(9);
        let (mut e_sum, mut r_sum) = (0i64, 0i64);
        for _ in 0..40 {
            let e = eval_play_position(&mut rng_e, eval, 24);
            let r = random_position(&mut rng_r, 24);
            e_sum += i64::from(evaluated_value(eval, e.board, 2).0.abs());
            r_sum += i64::from(evaluated_value(eval, r.board, 2).0.abs());
        }
        assert!(e_sum < r_sum, "eval play {e_sum} against random {r_sum}");
    }
}
