//! The endgame band (more than `SHALLOW_MAX_EMPTIES` empties): transposition table,
//! stability cutoff, enhanced transposition cutoff, fastest-first ordering and
//! principal variation search.

use super::account::{Band, Event};
use super::entry::Entries;
use super::level::Level;
use super::move_list::{Move, MoveList, NO_EVAL, select_next};
use super::ordering::scored_moves;
use super::state::Search;
use crate::board::{Board, Square};
use crate::eval::{Evaluator, UNITS_PER_DISC};
use crate::settings::{
    ETC_MIN_EMPTIES, MPC_MIN_EMPTIES, NARROW_MIN_EMPTIES, NARROW_MOVES, ORDER_EVAL_MARGIN,
    ORDER_EVAL_MIN_EMPTIES, ORDER_EVAL_PVS_MARGIN, ORDER_EVAL_WEIGHT, SPLIT_CUT_MARGIN,
    SPLIT_ELDERS, order_eval_depth,
};

/// True when the evaluation ordering found a move of `moves` that may reach `alpha`
/// (within `SPLIT_CUT_MARGIN`): the node may yet cut, and a helper searching its other
/// moves meanwhile would likely waste its work.
#[inline]
fn likely_cut(moves: &[Move], alpha: i32) -> bool {
    let threshold = (alpha - SPLIT_CUT_MARGIN) * UNITS_PER_DISC;
    moves
        .iter()
        .any(|m| m.eval != NO_EVAL && m.eval as i32 >= threshold)
}

impl Search<'_> {
    /// Adds to each move's fastest-first score the value of a shallow evaluation search of
    /// its child (deeper for more empties). The window starts `ORDER_EVAL_MARGIN` below
    /// alpha: a move that bad only needs to be known bad, which a null-window refutation
    /// shows at a fraction of the cost. The children go most promising first (by
    /// fastest-first), and once one has a value, the others are first asked by a null
    /// window whether they come within `ORDER_EVAL_PVS_MARGIN` of the best so far: only
    /// those need their exact value; the upper bound ranks the rest, which matter only
    /// when the first move fails to cut (1-3 % of cut nodes).
    #[inline(always)]
    fn order_by_eval<K: Entries>(
        &mut self,
        eval: &Evaluator,
        list: &mut MoveList,
        n: u32,
        alpha: i32,
    ) {
        let depth = order_eval_depth(n);
        let floor = ((alpha - ORDER_EVAL_MARGIN) * UNITS_PER_DISC).max(-64 * UNITS_PER_DISC);
        list.sort_unstable_by_key(|m| -m.score);
        let mut best = floor;
        for mv in list.iter_mut() {
            if mv.child.player == 0 {
                continue;
            }
            let v = if best == floor {
                -self.search_evaluated_in::<K>(eval, mv.child, -i32::MAX, -floor, depth)
            } else {
                let bar = (best - ORDER_EVAL_PVS_MARGIN * UNITS_PER_DISC).max(floor);
                let v = -self.search_evaluated_in::<K>(eval, mv.child, -bar - 1, -bar, depth);
                if v > bar {
                    -self.search_evaluated_in::<K>(eval, mv.child, -i32::MAX, -bar, depth)
                } else {
                    v
                }
            };
            best = best.max(v);
            mv.score += v * ORDER_EVAL_WEIGHT;
            mv.eval = v.clamp(-i16::MAX as i32, i16::MAX as i32) as i16;
        }
    }

    /// Solves a board with `n` empties, `n > SHALLOW_MAX_EMPTIES`, whose side to move has
    /// the legal moves `moves`.
    ///
    /// Cheap things first: the table's bounds, then the table's move (searched before any
    /// ordering work, since at a cut node it usually cuts), then enhanced transposition
    /// cutoff over the other children, and only then the evaluation ordering of the rest.
    #[inline(always)]
    pub(crate) fn search_endgame<K: Entries>(
        &mut self,
        b: Board,
        moves: u64,
        alpha: i32,
        beta: i32,
        n: u32,
    ) -> i32 {
        let nodes0 = self.nodes;
        self.count_node(if self.uses_local_table(n) {
            Band::EndgameLocal
        } else {
            Band::EndgameShared
        });
        if self.should_stop() {
            return 0;
        }
        if let Some(v) = self.stability_cutoff(&b, alpha, n) {
            return v;
        }
        let (mut alpha, mut beta) = (alpha, beta);
        let mut tt_move = None;
        if self.options.tt {
            self.counts.event(Event::Probe, n);
        }
        if let Some(h) = self.options.tt.then(|| self.table(n).probe(&b)).flatten() {
            self.counts.event(Event::ProbeHit, n);
            tt_move = h.best_move;
            if h.level >= self.level {
                if h.lower >= beta || h.lower == h.upper {
                    self.counts.event(Event::ProbeCut, n);
                    return h.lower;
                }
                if h.upper <= alpha {
                    self.counts.event(Event::ProbeCut, n);
                    return h.upper;
                }
                alpha = alpha.max(h.lower);
                beta = beta.min(h.upper);
            }
        }
        let mut moves = moves;
        if moves == 0 {
            let theirs = K::legal_moves(b.opponent, b.player);
            if theirs == 0 {
                return b.final_score();
            }
            return -K::endgame(self, b.pass(), theirs, -beta, -alpha, n);
        }
        if self.level.is_probcut()
            && n >= MPC_MIN_EMPTIES
            && let Some(eval) = self.eval()
            && let Some(v) = self.probcut::<K>(eval, &b, alpha, beta, n)
        {
            return v;
        }

        let alpha0 = alpha;
        let mut best = -65;
        let mut best_move = None;
        let mut searched = 0;
        let mut table_move_nodes = 0;
        if let Some(sq) = tt_move.filter(|sq| moves & sq.bit() != 0) {
            let child = b.play_with_flips(sq, K::flips(b.player, b.opponent, sq));
            let before = self.nodes;
            let v = -self.search_in::<K>(child, -beta, -alpha, n - 1);
            table_move_nodes = self.nodes - before;
            if self.stopped {
                return 0;
            }
            best = v;
            best_move = Some(sq);
            alpha = alpha.max(v);
            moves &= !sq.bit();
            searched = 1;
            if v >= beta {
                self.counts.event(Event::CutFirst, n);
            }
        }
        if best < beta && moves != 0 {
            if let Some((v, sq)) = K::rest(self, b, moves, alpha, beta, n, searched) {
                if v >= beta && searched == 1 {
                    self.counts
                        .event_sum(Event::TableMoveWaste, n, table_move_nodes);
                }
                if v > best {
                    best = v;
                    best_move = Some(Square::from_index(sq.into()));
                }
            } else if self.stopped {
                return 0;
            }
        }
        if self.options.tt {
            let nodes = self.nodes - nodes0;
            self.table(n)
                .store(&b, alpha0, beta, best, best_move, self.level, nodes);
        }
        best
    }

    /// Searches the moves of `b` in `moves` (all but the `searched` ones, which proved
    /// `alpha`) within (`alpha`, `beta`): enhanced transposition cutoff, the evaluation
    /// ordering, then principal variation search. Returns the best (score, move), an ETC
    /// cutoff included, or `None` when nothing was searched or the search must stop.
    #[inline(always)]
    pub(crate) fn search_rest<K: Entries>(
        &mut self,
        b: Board,
        moves: u64,
        alpha: i32,
        beta: i32,
        n: u32,
        searched: usize,
    ) -> Option<(i32, u8)> {
        let mut alpha = alpha;
        let etc = self.options.etc && self.options.tt && n >= ETC_MIN_EMPTIES;
        // Buckets of the shared and the large local table are prefetched; the small local
        // table is in the core's cache already, and prefetches there only queued behind
        // each other.
        let prefetch = etc && !self.uses_cached_table(n - 1);
        let mut list = MoveList::new();
        scored_moves::<K>(
            &b,
            moves,
            None,
            prefetch.then(|| self.table(n - 1)),
            &mut list,
        );
        if etc && let Some(cut) = self.etc_cutoff(&list, beta, n) {
            return Some(cut);
        }
        if n >= ORDER_EVAL_MIN_EMPTIES
            && let Some(eval) = self.eval()
        {
            self.order_by_eval::<K>(eval, &mut list, n, alpha);
        }
        let mut best = -65;
        let mut best_move = None;
        // The narrow search (a first guess without an evaluation) tries only the best few
        // moves of deep nodes. A probcut pass searches every move: its levels promise
        // cuts by a measured error, not a pruned width (see NARROW_MOVES).
        let width = if self.level == Level::NARROW && n >= NARROW_MIN_EMPTIES {
            NARROW_MOVES.saturating_sub(searched)
        } else {
            list.len()
        };
        let width = width.min(list.len());
        // Nodes of the moves searched so far that did not reach beta (account only).
        let mut fell_short = 0;
        for i in 0..width {
            if searched + i >= SPLIT_ELDERS
                && self.can_split(n, width - i)
                && !likely_cut(&list[i..width], alpha)
            {
                // Young brothers wait: the eldest did not cut off, and no younger one
                // looks likely to; share out the rest.
                for j in i..width {
                    select_next(&mut list, j);
                }
                let (v, sq) = self.search_split(&list[i..width], alpha, beta, n)?;
                if v > best {
                    best = v;
                    best_move = Some(sq);
                }
                break;
            }
            select_next(&mut list, i);
            let mv = list[i];
            let before = self.nodes;
            let v = if searched + i == 0 {
                -self.search_child_in::<K>(mv.child, mv.moves, -beta, -alpha, n - 1)
            } else {
                let mut v =
                    -self.search_child_in::<K>(mv.child, mv.moves, -alpha - 1, -alpha, n - 1);
                if v > alpha && v < beta {
                    v = -self.search_child_in::<K>(mv.child, mv.moves, -beta, -alpha, n - 1);
                }
                v
            };
            if self.stopped {
                return None;
            }
            if v > best {
                best = v;
                best_move = Some(mv.sq);
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        let first = searched + i == 0;
                        let event = if first {
                            Event::CutFirst
                        } else {
                            Event::CutLater
                        };
                        self.counts.event(event, n);
                        self.counts.event_sum(Event::OrderedWaste, n, fell_short);
                        break;
                    }
                }
            }
            fell_short += self.nodes - before;
        }
        best_move.map(|sq| (best, sq))
    }
}
