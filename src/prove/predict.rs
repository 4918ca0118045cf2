//! Predicted values that order a proof's moves: a depth-limited search with the
//! evaluation at its leaves, once per position.

use crate::board::Position;
use crate::board::key::position_key;
use crate::eval::{Evaluator, UNITS_PER_DISC};
use crate::search::evaluated_value;
use std::collections::HashMap;

/// Predicts positions' values for the side to move, remembering each.
pub struct Predictor<'e> {
    eval: &'e Evaluator,
    depth: u32,
    seen: HashMap<u64, i32>,
    /// Nodes of every prediction searched.
    pub nodes: u64,
}

impl<'e> Predictor<'e> {
    /// Predictions by searches `depth` moves deep.
    pub fn new(eval: &'e Evaluator, depth: u32) -> Predictor<'e> {
        Predictor {
            eval,
            depth,
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
            evaluated_value(self.eval, p.board, self.depth)
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
