//! Depth-limited alpha-beta with the pattern evaluation at the leaves: the shallow searches
//! that order deep endgame moves, probe for multi-probcut and label training positions.

use super::kernel_dispatch::{Entries, with_kernels};
use super::measure::account::Band;
use super::ordering::fastest_first;
use super::state::Search;
use crate::board::{Bitboard, Board, Square};
use crate::eval::pattern::{FEATURES, features};
use crate::eval::{Evaluator, FeatureState, UNITS_PER_DISC};
use arrayvec::ArrayVec;

use crate::settings::EVALUATED_ORDER_MIN_DEPTH as ORDER_MIN_DEPTH;

impl Search<'_> {
    /// Fail-soft value of `b` within (`alpha`, `beta`), in evaluation units, searching
    /// `depth` moves ahead (a forced pass is not counted) and evaluating there; a game
    /// found over before the leaves scores its exact disc difference. A leaf is evaluated
    /// even where the game ends on it (a full board): the probcut error model was fitted
    /// so, and the solver's shallow searches never reach a full board. Runs on the
    /// options' kernel set.
    pub(crate) fn search_evaluated(
        &mut self,
        eval: &Evaluator,
        b: Board,
        alpha: i32,
        beta: i32,
        depth: u32,
    ) -> i32 {
        with_kernels!(self.options.kernels, K => {
            self.search_evaluated_in::<K>(eval, b, alpha, beta, depth)
        })
    }

    /// [`Search::search_evaluated`] on kernel set `K`.
    #[inline(always)]
    pub(crate) fn search_evaluated_in<K: Entries>(
        &mut self,
        eval: &Evaluator,
        b: Board,
        alpha: i32,
        beta: i32,
        depth: u32,
    ) -> i32 {
        if depth == 0 {
            self.count_node(Band::Evaluated);
            if eval.has_mobility() {
                // Moves by this search's kernels, inlined here (see `mobility_indices_of`).
                let mut f = [0u32; FEATURES];
                features(&b, &mut f);
                let own = K::legal_moves(b.player, b.opponent);
                let theirs = K::legal_moves(b.opponent, b.player);
                return eval.evaluate_leaf(&b, &f, own, theirs);
            }
            return eval.evaluate(&b);
        }
        // Read once here, then kept up to date move by move: the leaves only sum weights.
        let state = FeatureState::new(&b);
        K::evaluated(self, eval, b, &state, alpha, beta, depth)
    }

    /// [`Search::search_evaluated`] at `depth` > 0, with `s` the pattern state of `b`.
    #[inline(always)]
    pub(crate) fn evaluated<K: Entries>(
        &mut self,
        eval: &Evaluator,
        b: Board,
        s: &FeatureState,
        alpha: i32,
        beta: i32,
        depth: u32,
    ) -> i32 {
        self.count_node(Band::Evaluated);
        let moves = K::legal_moves(b.player, b.opponent);
        if moves == 0 {
            if K::legal_moves(b.opponent, b.player) == 0 {
                return b.final_score() * UNITS_PER_DISC;
            }
            return -K::evaluated(self, eval, b.pass(), &s.pass(), -beta, -alpha, depth);
        }
        let mut alpha = alpha;
        let mut best = i32::MIN + 1;
        if depth < ORDER_MIN_DEPTH {
            for sq in Bitboard(moves) {
                let f = K::flips(b.player, b.opponent, sq);
                let v = -self.evaluated_child::<K>(eval, &b, s, sq, f, -beta, -alpha, depth - 1);
                if v > best {
                    best = v;
                    if v >= beta {
                        return v;
                    }
                    alpha = alpha.max(v);
                }
            }
            return best;
        }
        let mut list: ArrayVec<(i32, Square, Board), 64> = ArrayVec::new();
        for sq in Bitboard(moves) {
            let child = b.play_with_flips(sq, K::flips(b.player, b.opponent, sq));
            list.push((fastest_first::<K>(&child, sq, 0, None, true), sq, child));
        }
        list.sort_unstable_by_key(|&(s, _, _)| -s);
        for &(_, sq, child) in &list {
            // The flipped discs: the opponent's before the move, the mover's after it.
            let f = b.opponent & child.opponent;
            let v = -self.evaluated_child::<K>(eval, &b, s, sq, f, -beta, -alpha, depth - 1);
            if v > best {
                best = v;
                if v >= beta {
                    return v;
                }
                alpha = alpha.max(v);
            }
        }
        best
    }

    /// The value, for its side to move, of the child of `b` (state `s`) after `sq`
    /// flipping `f`, searched `depth` moves ahead. A leaf updates only the indices it sums.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn evaluated_child<K: Entries>(
        &mut self,
        eval: &Evaluator,
        b: &Board,
        s: &FeatureState,
        sq: Square,
        f: u64,
        alpha: i32,
        beta: i32,
        depth: u32,
    ) -> i32 {
        if depth == 0 {
            self.count_node(Band::Evaluated);
            let indices = s.child_indices(sq, f);
            if eval.has_mobility() {
                let child = b.play_with_flips(sq, f);
                let own = K::legal_moves(child.player, child.opponent);
                let theirs = K::legal_moves(child.opponent, child.player);
                return eval.evaluate_leaf(&child, &indices, own, theirs);
            }
            return eval.evaluate_features(&indices, b.empty_count() - 1);
        }
        let child = b.play_with_flips(sq, f);
        K::evaluated(self, eval, child, &s.play(sq, f), alpha, beta, depth)
    }
}

/// The value of `board` searched `depth` moves ahead with `eval` (evaluation units), and
/// the nodes searched: a stand-alone search without a transposition table.
pub fn evaluated_value(eval: &Evaluator, board: Board, depth: u32) -> (i32, u64) {
    evaluated_value_on(eval, board, depth, crate::board::kernels::Isa::chosen())
}

/// [`evaluated_value`] on the kernel set `isa` (which must be supported here).
pub fn evaluated_value_on(
    eval: &Evaluator,
    board: Board,
    depth: u32,
    isa: crate::board::kernels::Isa,
) -> (i32, u64) {
    static NO_TABLE: std::sync::OnceLock<super::TranspositionTable> = std::sync::OnceLock::new();
    let tt = NO_TABLE.get_or_init(|| super::TranspositionTable::new(0));
    let options = super::SearchOptions {
        tt: false,
        kernels: isa,
        ..super::SearchOptions::default()
    };
    let mut s = Search::new(tt, &options);
    let v = s.search_evaluated(eval, board, -i32::MAX, i32::MAX, depth);
    (v, s.nodes)
}
