//! Move ordering: parity, square classes and fastest-first, and the scored move list of a
//! node.

use super::kernel_dispatch::Entries;
use super::move_list::{Move, MoveList, NO_EVAL};
use super::stability::edge_stable;
use super::state::Search;
use super::table::Table;
use crate::board::kernels::Kernels;
use crate::board::{Bitboard, Board, Square};
use crate::eval::{Evaluator, UNITS_PER_DISC};
use crate::settings::{
    ORDER_EVAL_MARGIN, ORDER_EVAL_PVS_MARGIN, ORDER_EVAL_WEIGHT, ORDER_FULL_MIN_EMPTIES,
    ORDER_MOBILITY_WEIGHT, ORDER_PARITY_BONUS, ORDER_POTENTIAL_WEIGHT, ORDER_SQUARE_CLASS_VALUES,
    ORDER_SQUARE_WEIGHT, ORDER_STABLE_EDGE_WEIGHT, ORDER_TT_MOVE_BONUS, ORDER_WIPEOUT_BONUS,
    order_eval_depth,
};
use std::sync::atomic::{AtomicI32, Ordering::Relaxed};

/// a1, h1, a8, h8.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;
/// The squares diagonally next to a corner (b2, g2, b7, g7).
pub const X_SQUARES: u64 = 0x0042_0000_0000_4200;
/// The edge squares next to a corner.
pub const C_SQUARES: u64 = 0x4281_0000_0000_8142;
/// Everything else.
pub const PLAIN_SQUARES: u64 = !(CORNERS | X_SQUARES | C_SQUARES);

/// Square classes in the order the shallow band tries them.
pub const SQUARE_CLASSES: [u64; 4] = [CORNERS, PLAIN_SQUARES, C_SQUARES, X_SQUARES];

const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// Union of the quadrants holding an odd number of empty squares.
#[inline]
pub fn odd_quadrants(empty: u64) -> u64 {
    let mut m = 0;
    for q in QUADRANTS {
        if (empty & q).count_ones() & 1 != 0 {
            m |= q;
        }
    }
    m
}

/// Empty squares next to a disc of `discs` (where the other side may later move).
#[inline]
pub fn potential_mobility(discs: u64, empty: u64) -> u64 {
    const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
    const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let h = ((discs << 1) & NOT_A) | ((discs >> 1) & NOT_H);
    let around = h | (discs << 8) | (discs >> 8) | (h << 8) | (h >> 8);
    around & empty
}

/// Ordering value of each square: corners good, X and C squares bad, other edges good.
const SQUARE_VALUE: [i32; 64] = build_square_values();

const fn build_square_values() -> [i32; 64] {
    const EDGES: u64 = 0xFF81_8181_8181_81FF;
    let mut t = [0i32; 64];
    let mut sq = 0;
    while sq < 64 {
        let bit = 1u64 << sq;
        let [corner, x, c, edge] = ORDER_SQUARE_CLASS_VALUES;
        let class = if bit & CORNERS != 0 {
            corner
        } else if bit & X_SQUARES != 0 {
            x
        } else if bit & C_SQUARES != 0 {
            c
        } else if bit & EDGES != 0 {
            edge
        } else {
            0
        };
        t[sq] = class * ORDER_SQUARE_WEIGHT;
        sq += 1;
    }
    t
}

/// Fastest-first score of a move to `sq` giving `child` (opponent to move): higher is
/// tried first. Few opponent moves (corners counted twice) weigh most; then few empty
/// squares next to our discs, our stable edge discs, the square's value and parity.
#[inline(always)]
pub fn fastest_first<K: Kernels>(
    child: &Board,
    sq: Square,
    odd: u64,
    tt_move: Option<Square>,
    light: bool,
) -> i32 {
    let m = K::legal_moves(child.player, child.opponent);
    fastest_first_with(child, m, sq, odd, tt_move, light)
}

/// [`fastest_first`] given the child's legal moves `m` (its side to move's), which the
/// caller keeps for the child's own search.
#[inline(always)]
pub fn fastest_first_with(
    child: &Board,
    m: u64,
    sq: Square,
    odd: u64,
    tt_move: Option<Square>,
    light: bool,
) -> i32 {
    if child.player == 0 {
        return ORDER_WIPEOUT_BONUS;
    }
    let mut s = 0;
    if tt_move == Some(sq) {
        s += ORDER_TT_MOVE_BONUS;
    }
    let sq = sq.index();
    let mobility = (m.count_ones() + (m & CORNERS).count_ones()) as i32;
    s -= mobility * ORDER_MOBILITY_WEIGHT;
    if light {
        s += SQUARE_VALUE[sq];
    } else {
        let potential = potential_mobility(child.opponent, child.empty()).count_ones() as i32;
        let stable =
            (edge_stable(child.opponent, child.player) & child.opponent).count_ones() as i32;
        s -= potential * ORDER_POTENTIAL_WEIGHT;
        s += stable * ORDER_STABLE_EDGE_WEIGHT + SQUARE_VALUE[sq];
    }
    if odd >> sq & 1 != 0 {
        s += ORDER_PARITY_BONUS;
    }
    s
}

/// Fills `list` (empty) with the scored moves of `b` (which has legal `moves`),
/// prefetching the children's buckets in `prefetch`. The caller owns the list: returning
/// one by value copied its 1.5 KB at every node (3.5 % of the time, perf on FFO #50).
#[inline(always)]
pub(crate) fn scored_moves<K: Kernels>(
    b: &Board,
    moves: u64,
    tt_move: Option<Square>,
    prefetch: Option<Table<'_>>,
    list: &mut MoveList,
) {
    let light = b.empty_count() < ORDER_FULL_MIN_EMPTIES;
    let odd = odd_quadrants(b.empty());
    for sq in Bitboard(moves) {
        let child = b.play_with_flips(sq, K::flips(b.player, b.opponent, sq));
        if let Some(tt) = prefetch {
            tt.prefetch(&child);
        }
        let child_moves = K::legal_moves(child.player, child.opponent);
        list.push(Move {
            sq: sq.index() as u8,
            child,
            moves: child_moves,
            score: fastest_first_with(&child, child_moves, sq, odd, tt_move, light),
            eval: NO_EVAL,
        });
    }
}

/// Adds to the fastest-first score of the move to `sq` in `list` what [`fastest_first`]
/// gives the table's move (nothing to a wipeout, which already goes first).
#[inline(always)]
pub(crate) fn favor_table_move(list: &mut MoveList, sq: Square) {
    if let Some(mv) = list
        .iter_mut()
        .find(|m| m.sq as usize == sq.index() && m.child.player != 0)
    {
        mv.score += ORDER_TT_MOVE_BONUS;
    }
}

impl Search<'_> {
    /// Adds to each move's fastest-first score the value of a shallow evaluation search of
    /// its child (deeper for more empties). The window starts `ORDER_EVAL_MARGIN` below
    /// alpha: a move that bad only needs to be known bad, which a null-window refutation
    /// shows at a fraction of the cost. The children go most promising first (by
    /// fastest-first), and once one has a value, the others are first asked by a null
    /// window whether they come within `ORDER_EVAL_PVS_MARGIN` of the best so far: only
    /// those need their exact value; the upper bound ranks the rest, which matter only
    /// when the first move fails to cut (1-3 % of cut nodes). With many threads, deep
    /// nodes of a selective pass search them all at once instead
    /// ([`Search::order_by_eval_at_once`]).
    #[inline(always)]
    pub(super) fn order_by_eval<K: Entries>(
        &mut self,
        eval: &Evaluator,
        list: &mut MoveList,
        n: u32,
        alpha: i32,
    ) {
        let depth = order_eval_depth(n);
        let floor = ((alpha - ORDER_EVAL_MARGIN) * UNITS_PER_DISC).max(-64 * UNITS_PER_DISC);
        list.sort_unstable_by_key(|m| -m.score);
        if self.should_share_ordering(n, list.len()) {
            self.order_by_eval_at_once::<K>(eval, list, depth, floor);
            return;
        }
        let mut best = floor;
        for mv in list.iter_mut() {
            if mv.child.player == 0 {
                continue;
            }
            let v = self.ordering_value::<K>(eval, mv.child, depth, floor, best);
            best = best.max(v);
            add_ordering_value(mv, v);
        }
    }

    /// The evaluation ordering's value of `child` (searched `depth` deep, from the
    /// opponent's side): from `floor` up, exact when it comes within
    /// `ORDER_EVAL_PVS_MARGIN` of `best` (the best value so far; `floor` when none),
    /// else an upper bound.
    #[inline(always)]
    fn ordering_value<K: Entries>(
        &mut self,
        eval: &Evaluator,
        child: Board,
        depth: u32,
        floor: i32,
        best: i32,
    ) -> i32 {
        if best == floor {
            return -self.search_evaluated_in::<K>(eval, child, -i32::MAX, -floor, depth);
        }
        let bar = (best - ORDER_EVAL_PVS_MARGIN * UNITS_PER_DISC).max(floor);
        let v = -self.search_evaluated_in::<K>(eval, child, -bar - 1, -bar, depth);
        if v > bar {
            -self.search_evaluated_in::<K>(eval, child, -i32::MAX, -bar, depth)
        } else {
            v
        }
    }

    /// [`Search::order_by_eval`] with every child's search shared out at once, each from
    /// `floor` up (none waits for a best value to narrow its window): in turn, those
    /// searches were a long chain of a deep node's span. An evaluated search, once begun,
    /// runs to its end; a child left unvalued (no thread took it, since a cutoff above
    /// cancelled the split) keeps its fastest-first score alone, and then this search is
    /// stopped, so the list is not used.
    fn order_by_eval_at_once<K: Entries>(
        &mut self,
        eval: &Evaluator,
        list: &mut MoveList,
        depth: u32,
        floor: i32,
    ) {
        let children: Vec<Board> = list.iter().map(|m| m.child).collect();
        let values: Vec<AtomicI32> = children.iter().map(|_| AtomicI32::new(UNVALUED)).collect();
        self.share_out_all(children.len(), |h, i| {
            if children[i].player != 0 {
                let v = h.ordering_value::<K>(eval, children[i], depth, floor, floor);
                if !h.stop.stopped {
                    values[i].store(v, Relaxed);
                }
            }
            false
        });
        for (mv, v) in list.iter_mut().zip(values) {
            let v = v.into_inner();
            if v != UNVALUED {
                add_ordering_value(mv, v);
            }
        }
    }
}

/// A child's value not (yet) found by [`Search::order_by_eval_at_once`].
const UNVALUED: i32 = i32::MIN;

/// Adds the evaluation ordering's value `v` of `mv` to its score, and keeps it.
#[inline(always)]
fn add_ordering_value(mv: &mut Move, v: i32) {
    mv.score += v * ORDER_EVAL_WEIGHT;
    mv.eval = v.clamp(-i16::MAX as i32, i16::MAX as i32) as i16;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::kernels::Portable;
    use crate::board::random::{SplitMix64, random_position};
    use crate::search::options::SearchOptions;
    use crate::search::table::TranspositionTable;
    use crate::settings::ORDER_SHARED_MIN_EMPTIES;

    /// Plain negamax to `depth` with the evaluation at the leaves (a forced pass not
    /// counted): the ordering's value of a board, found independently.
    fn negamax(eval: &Evaluator, b: &Board, depth: u32) -> i32 {
        if b.is_game_over() {
            return b.final_score() * UNITS_PER_DISC;
        }
        if depth == 0 {
            return eval.evaluate(b);
        }
        if b.moves() == 0 {
            return -negamax(eval, &b.pass(), depth);
        }
        b.legal_moves()
            .map(|sq| -negamax(eval, &b.play(sq).expect("legal"), depth - 1))
            .max()
            .expect("a move")
    }

    #[test]
    fn ordering_values_are_bounds_and_at_once_exact_above_the_floor() {
        let eval = Evaluator::shipped().expect("shipped weights");
        let tt = TranspositionTable::new(0);
        let options = SearchOptions {
            tt: false,
            ..SearchOptions::default()
        };
        let mut rng = SplitMix64::new(48);
        let (mut exact, mut below) = (0, 0);
        for _ in 0..6 {
            let b = random_position(&mut rng, 18).board;
            let n = b.empty_count();
            let moves = b.moves();
            for alpha in [-24, -4, 10] {
                let floor =
                    ((alpha - ORDER_EVAL_MARGIN) * UNITS_PER_DISC).max(-64 * UNITS_PER_DISC);
                for workers in [1, 2, 16] {
                    let mut s = Search::new(&tt, &options);
                    s.split.workers = workers;
                    let mut list = MoveList::new();
                    scored_moves::<Portable>(&b, moves, None, None, &mut list);
                    // The at-once path directly (its threshold may be off).
                    let at_once = workers == 16;
                    assert!(!s.should_share_ordering(ORDER_SHARED_MIN_EMPTIES - 1, list.len()));
                    if at_once {
                        s.order_by_eval_at_once::<Portable>(
                            eval,
                            &mut list,
                            order_eval_depth(n),
                            floor,
                        );
                    } else {
                        s.order_by_eval::<Portable>(eval, &mut list, n, alpha);
                    }
                    for mv in &list {
                        if mv.child.player == 0 {
                            continue;
                        }
                        let truth = -negamax(eval, &mv.child, order_eval_depth(n));
                        let v = i32::from(mv.eval);
                        // Always a fail-soft upper bound (exact when the search says so).
                        assert!(v >= truth, "{b:?} move {}: {v} < {truth}", mv.sq);
                        if at_once && truth > floor {
                            assert_eq!(v, truth, "{b:?} move {}", mv.sq);
                            exact += 1;
                        } else if at_once {
                            assert!(v <= floor, "{b:?} move {}: {v} above {floor}", mv.sq);
                            below += 1;
                        }
                    }
                }
            }
        }
        assert!(
            exact > 20 && below > 5,
            "{exact} exact, {below} below the floor"
        );
    }
}
