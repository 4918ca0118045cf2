//! What a position's value is likely to be, from everything a plan knows: a negamax over
//! the part of the tree the plan has expanded, each position's value held inside what
//! the rows and the decided goals prove of it, and predictions where nothing more is
//! known. The root aims its next goals there, so that solved leaves (not the first
//! prediction alone) move the aim: a prediction 10 discs low costs one step, not five.

use super::predict::Predictor;
use super::tree::{Node, node};
use crate::board::Position;
use crate::board::key::position_key;
use std::collections::{HashMap, HashSet};

/// What an estimate reads.
pub struct Estimator<'a, 'e> {
    /// Proven bounds by position key (rows and decided goals).
    pub bounds: &'a dyn Fn(u64) -> (i32, i32),
    /// The positions whose children the plan has looked at.
    pub expanded: &'a HashSet<u64>,
    /// Predictions where the tree stops.
    pub predictor: &'a mut Predictor<'e>,
}

impl Estimator<'_, '_> {
    /// The estimated value of `p` for its side to move, in discs within its proven bounds.
    pub fn value(&mut self, p: &Position) -> i32 {
        self.walk(p, &mut HashMap::new())
    }

    fn walk(&mut self, p: &Position, seen: &mut HashMap<u64, i32>) -> i32 {
        let key = position_key(p);
        if let Some(&v) = seen.get(&key) {
            return v;
        }
        let (lower, upper) = (self.bounds)(key);
        let v = if lower == upper {
            lower
        } else if !self.expanded.contains(&key) {
            self.predictor.score(p)
        } else {
            match node(p) {
                Node::Over(score) => score,
                Node::Pass(q) => -self.walk(&q, seen),
                Node::Moves(moves) => moves
                    .iter()
                    .map(|(_, q)| -self.walk(q, seen))
                    .max()
                    .unwrap_or(-64),
            }
        };
        let v = v.clamp(lower, upper);
        seen.insert(key, v);
        v
    }
}
