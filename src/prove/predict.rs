//! Predicted values that order a proof's moves: a depth-limited search with the
//! evaluation at its leaves, once per position. Every search ends at the same number of
//! empties, [`PROVE_PREDICT_DEPTH`] below the frontier, so that a position's prediction
//! is the negamax of its children's: a plan never opens a move that the predictions of
//! the leaves under it refute. (One depth everywhere let predictions one ply apart
//! disagree by several discs, and the drawn 36-empty proof spent 2,004 of its first
//! 3,300 leaves under a root move that a search to their horizon puts 4 discs below the
//! best.)

use crate::board::Position;
use crate::board::key::position_key;
use crate::eval::{Evaluator, UNITS_PER_DISC};
use crate::search::evaluated_value;
use crate::settings::{PROVE_PREDICT_DEPTH, PROVE_PREDICT_MAX_DEPTH};
use std::collections::HashMap;

/// Predicts positions' values for the side to move, remembering each.
pub struct Predictor<'e> {
    eval: &'e Evaluator,
    frontier: u32,
    seen: HashMap<u64, i32>,
    /// Nodes of every prediction searched.
    pub nodes: u64,
}

impl<'e> Predictor<'e> {
    /// Predictions for a proof whose leaves have `frontier` empties.
    pub fn new(eval: &'e Evaluator, frontier: u32) -> Predictor<'e> {
        Predictor {
            eval,
            frontier,
            seen: HashMap::new(),
            nodes: 0,
        }
    }

    /// The predicted value of `p` for its side to move, in evaluation units (a finished
    /// game's exact score).
    pub fn value(&mut self, p: &Position) -> i32 {
        let key = position_key(p);
        if let Some(&v) = self.seen.get(&key) {
            return v;
        }
        let (v, nodes) = if p.board.is_game_over() {
            (p.board.final_score() * UNITS_PER_DISC, 0)
        } else {
            let depth = depth_for(p.board.empty_count(), self.frontier);
            evaluated_value(self.eval, p.board, depth)
        };
        self.nodes += nodes;
        self.seen.insert(key, v);
        v
    }

    /// The predicted value of `p` in discs rounded to the nearest even value (scores are
    /// even), within -64..64: a score to aim a bound at.
    pub fn score(&mut self, p: &Position) -> i32 {
        let halves = f64::from(self.value(p)) / f64::from(2 * UNITS_PER_DISC);
        (2 * halves.round() as i32).clamp(-64, 64)
    }

    /// Takes `discs` as the prediction of `p` (a better one than its own search).
    pub fn set_score(&mut self, p: &Position, discs: i32) {
        self.seen.insert(position_key(p), discs * UNITS_PER_DISC);
    }
}

/// The depth of the search that predicts a position of `empties` in a proof whose leaves
/// have `frontier` empties: down to [`PROVE_PREDICT_DEPTH`] empties below the frontier,
/// at most [`PROVE_PREDICT_MAX_DEPTH`] deep and, when capped, ending at the same parity.
pub fn depth_for(empties: u32, frontier: u32) -> u32 {
    let horizon = frontier.saturating_sub(PROVE_PREDICT_DEPTH);
    let depth = empties.saturating_sub(horizon).max(1);
    if depth <= PROVE_PREDICT_MAX_DEPTH {
        depth
    } else {
        PROVE_PREDICT_MAX_DEPTH - (depth - PROVE_PREDICT_MAX_DEPTH) % 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse_obf_line;
    use crate::prove::tree::{Node, node};

    #[test]
    fn predictions_end_at_one_horizon_and_keep_its_parity_when_capped() {
        assert_eq!(depth_for(30, 30), PROVE_PREDICT_DEPTH);
        assert_eq!(depth_for(31, 30), PROVE_PREDICT_DEPTH + 1);
        for empties in 30..=60 {
            let d = depth_for(empties, 30);
            assert!(d <= PROVE_PREDICT_MAX_DEPTH, "{empties}: {d}");
            assert_eq!(
                (empties - d) % 2,
                (30 - PROVE_PREDICT_DEPTH) % 2,
                "{empties}"
            );
        }
    }

    /// The point of one horizon: above the frontier, a position's prediction is the
    /// negamax of its children's predictions, each searched on its own.
    #[test]
    fn a_prediction_is_the_negamax_of_its_childrens() {
        let eval = Evaluator::shipped().expect("shipped weights");
        // FFO #40 (20 empties).
        let line = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X;";
        let root = parse_obf_line(line)
            .expect("FFO #40")
            .expect("a position")
            .position;
        let frontier = 18;
        let mut parent = Predictor::new(eval, frontier);
        let Node::Moves(moves) = node(&root) else {
            panic!("FFO #40 has moves")
        };
        for (_, child) in &moves {
            let Node::Moves(grand) = node(child) else {
                continue;
            };
            let mut fresh = Predictor::new(eval, frontier);
            let negamax = grand.iter().map(|(_, q)| -fresh.value(q)).max();
            assert_eq!(Some(parent.value(child)), negamax);
        }
    }
}
