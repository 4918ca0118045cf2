//! The endgame band (more than `SHALLOW_MAX_EMPTIES` empties): transposition table,
//! stability cutoff, enhanced transposition cutoff, fastest-first ordering and
//! principal variation search.
//!
//! Every step is its own function, always inlined into the band's entry of a kernel set
//! (`entry.rs`), so the split costs nothing at run time.

use super::kernel_dispatch::Entries;
use super::measure::account::{Band, Event};
use super::move_list::{Move, MoveList, select_next};
use super::ordering::{favor_table_move, scored_moves};
use super::selectivity::level::Level;
use super::state::Search;
use super::table::Stored;
use crate::board::{Board, Square};
use crate::settings::{
    ETC_MIN_EMPTIES, MPC_MIN_EMPTIES, NARROW_MIN_EMPTIES, NARROW_MOVES, ORDER_EVAL_MIN_EMPTIES,
};
use std::ops::ControlFlow::{self, Break, Continue};

impl Search<'_> {
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
        let (alpha, beta, tt_move) = match self.probe_endgame(&b, alpha, beta, n) {
            Break(v) => return v,
            Continue(window) => window,
        };
        if moves == 0 {
            return self.pass_endgame::<K>(&b, alpha, beta, n);
        }
        if self.level.is_probcut()
            && n >= MPC_MIN_EMPTIES
            && let Some(eval) = self.eval()
            && let Some(v) = self.probcut::<K>(eval, &b, alpha, beta, n)
        {
            return v;
        }
        let Some((best, best_move)) = self.search_moves::<K>(&b, moves, tt_move, alpha, beta, n)
        else {
            return 0;
        };
        if self.options.tt {
            let nodes = self.nodes - nodes0;
            let stored = Stored::new((alpha, beta), best, best_move, self.level, nodes);
            self.table(n).store(&b, stored);
        }
        best
    }

    /// The table's bounds for `b`: `Break` with the value when they settle the node, else
    /// the window they narrow (`alpha`, `beta`) and the table's move.
    #[inline(always)]
    fn probe_endgame(
        &mut self,
        b: &Board,
        alpha: i32,
        beta: i32,
        n: u32,
    ) -> ControlFlow<i32, (i32, i32, Option<Square>)> {
        if !self.options.tt {
            return Continue((alpha, beta, None));
        }
        self.measure.counts.event(Event::Probe, n);
        let Some(h) = self.table(n).probe(b) else {
            return Continue((alpha, beta, None));
        };
        self.measure.counts.event(Event::ProbeHit, n);
        if h.level < self.level {
            return Continue((alpha, beta, h.best_move));
        }
        if h.lower >= beta || h.lower == h.upper {
            self.measure.counts.event(Event::ProbeCut, n);
            return Break(h.lower);
        }
        if h.upper <= alpha {
            self.measure.counts.event(Event::ProbeCut, n);
            return Break(h.upper);
        }
        Continue((alpha.max(h.lower), beta.min(h.upper), h.best_move))
    }

    /// A board whose side to move has no move: the game's end, or the opponent's search.
    #[inline(always)]
    fn pass_endgame<K: Entries>(&mut self, b: &Board, alpha: i32, beta: i32, n: u32) -> i32 {
        let theirs = K::legal_moves(b.opponent, b.player);
        if theirs == 0 {
            return b.final_score();
        }
        -K::endgame(self, b.pass(), theirs, -beta, -alpha, n)
    }

    /// Searches the moves of `b` within (`alpha`, `beta`): the table's move `tt_move`
    /// first when it is legal, then the rest ([`Search::search_rest`]). Returns the best
    /// score and move (`None` for the move when nothing was searched), or `None` when the
    /// search must stop.
    #[inline(always)]
    fn search_moves<K: Entries>(
        &mut self,
        b: &Board,
        mut moves: u64,
        tt_move: Option<Square>,
        mut alpha: i32,
        beta: i32,
        n: u32,
    ) -> Option<(i32, Option<Square>)> {
        let mut best = -65;
        let mut best_move = None;
        let mut searched = 0;
        let mut table_move_nodes = 0;
        let tt_move = tt_move.filter(|sq| moves & sq.bit() != 0);
        // A node that may share out all its moves at once orders the table's move among
        // them instead of searching it first.
        let (first, ordered_tt_move) = if self.may_split_all_at_once(n, moves) {
            (None, tt_move)
        } else {
            (tt_move, None)
        };
        if let Some(sq) = first {
            let child = b.play_with_flips(sq, K::flips(b.player, b.opponent, sq));
            let before = self.nodes;
            let v = -self.search_in::<K>(child, -beta, -alpha, n - 1);
            table_move_nodes = self.nodes - before;
            if self.stop.stopped {
                return None;
            }
            (best, best_move) = (v, Some(sq));
            alpha = alpha.max(v);
            moves &= !sq.bit();
            searched = 1;
            if v >= beta {
                self.measure.counts.event(Event::CutFirst, n);
            }
        }
        if best < beta && moves != 0 {
            // One thread's copy of `search_rest`, or the one with the split rules.
            let rest = if self.splits() {
                K::rest::<true>(self, *b, moves, (alpha, beta), n, searched, ordered_tt_move)
            } else {
                K::rest::<false>(self, *b, moves, (alpha, beta), n, searched, None)
            };
            if let Some((v, sq)) = rest {
                if v >= beta && searched == 1 {
                    self.measure
                        .counts
                        .event_sum(Event::TableMoveWaste, n, table_move_nodes);
                }
                if v > best {
                    (best, best_move) = (v, Some(Square::from_index(sq.into())));
                }
            } else if self.stop.stopped {
                return None;
            }
        }
        Some((best, best_move))
    }

    /// Searches the moves of `b` in `moves` (all but the `searched` ones, which proved
    /// `alpha`) within (`alpha`, `beta`): enhanced transposition cutoff, the evaluation
    /// ordering (the table's move `tt_move` first, when it is among them), then principal
    /// variation search. Returns the best (score, move), an ETC cutoff included, or `None`
    /// when nothing was searched or the search must stop.
    ///
    /// With `SPLITS` (more than one thread) the younger moves may be shared out, and
    /// `tt_move` is ordered first. One thread's copy has neither: one copy with both ran
    /// 1.0-1.4 % more instructions than 3baf3ba at one thread, and this one none
    /// (callgrind, FFO #42 and #43: 3,822 M and 7,944 M, 3baf3ba 3,784 M and 7,836 M, two
    /// copies 3,779 M and 7,837 M). Each copy is its own `rest` entry (`kernel_dispatch.rs`):
    /// inlined into one function, the two still cost 0.4 %.
    #[inline(always)]
    pub(crate) fn search_rest<K: Entries, const SPLITS: bool>(
        &mut self,
        b: Board,
        moves: u64,
        window: (i32, i32),
        n: u32,
        searched: usize,
        tt_move: Option<Square>,
    ) -> Option<(i32, u8)> {
        let mut list = MoveList::new();
        let (alpha, beta) = window;
        if let Break(cut) = self.order_rest::<K, SPLITS>(&b, moves, tt_move, window, n, &mut list) {
            return Some(cut);
        }
        // The narrow search (a first guess without an evaluation) tries only the best few
        // moves of deep nodes. A probcut pass searches every move: its levels promise
        // cuts by a measured error, not a pruned width (see NARROW_MOVES).
        let width = if self.level == Level::NARROW && n >= NARROW_MIN_EMPTIES {
            NARROW_MOVES.saturating_sub(searched)
        } else {
            list.len()
        };
        let width = width.min(list.len());
        self.search_list::<K, SPLITS>(&mut list, width, searched, alpha, beta, n)
    }

    /// Fills `list` with the scored moves of `b` in `moves` (`tt_move` first), then orders
    /// them: `Break` with an enhanced transposition cutoff's (score, move) when a child's
    /// stored bound settles the node (window (`alpha`, `beta`)), else the evaluation
    /// ordering at deep nodes.
    #[inline(always)]
    fn order_rest<K: Entries, const SPLITS: bool>(
        &mut self,
        b: &Board,
        moves: u64,
        tt_move: Option<Square>,
        (alpha, beta): (i32, i32),
        n: u32,
        list: &mut MoveList,
    ) -> ControlFlow<(i32, u8)> {
        let etc = self.options.etc && self.options.tt && n >= ETC_MIN_EMPTIES;
        // Buckets of the shared and the large local table are prefetched; the small local
        // table is in the core's cache already, and prefetches there only queued behind
        // each other.
        let prefetch = etc && !self.tables.is_cached(n - 1);
        // The table's move is rarely among these (only at a node that shares out all its
        // moves at once): it is favoured afterwards, not compared with every move.
        scored_moves::<K>(b, moves, None, prefetch.then(|| self.table(n - 1)), list);
        if SPLITS && let Some(sq) = tt_move {
            favor_table_move(list, sq);
        }
        if etc && let Some(cut) = self.etc_cutoff(list, beta, n) {
            return Break(cut);
        }
        if n >= ORDER_EVAL_MIN_EMPTIES
            && let Some(eval) = self.eval()
        {
            self.order_by_eval::<K>(eval, list, n, alpha);
        }
        Continue(())
    }

    /// Principal variation search over the best `width` moves of `list` (scored, not yet
    /// picked: each pick looks at the whole list), after `searched` moves that proved
    /// `alpha`, the younger ones shared out when [`Search::should_split`] says so. Returns
    /// the best (score, move), or `None` when the search must stop.
    #[inline(always)]
    fn search_list<K: Entries, const SPLITS: bool>(
        &mut self,
        list: &mut MoveList,
        width: usize,
        searched: usize,
        mut alpha: i32,
        beta: i32,
        n: u32,
    ) -> Option<(i32, u8)> {
        let mut best = -65;
        let mut best_move = None;
        // Nodes of the moves searched so far that did not reach beta (account only).
        let mut fell_short = 0;
        // A span build's split, searched in turn (see span.rs).
        let mut split = None;
        for i in 0..width {
            if let Some(split) = &mut split {
                self.measure.span.split_next(split, self.nodes);
            } else if SPLITS && self.should_split(searched + i, n, &list[i..width], alpha) {
                if self.measure.span.in_turn() {
                    split = Some(self.measure.span.split_begin(self.nodes));
                } else {
                    // Young brothers wait: the eldest did not cut off, and no younger one
                    // looks likely to (or, all at once, none looks likely to cut); share
                    // out the rest.
                    for j in i..width {
                        select_next(list, j);
                    }
                    let (v, sq) = self.search_split(&list[i..width], alpha, beta, n)?;
                    if v > best {
                        (best, best_move) = (v, Some(sq));
                    }
                    break;
                }
            }
            select_next(list, i);
            let mv = list[i];
            let before = self.nodes;
            let v = self.search_move::<K>(&mv, searched + i == 0, alpha, beta, n);
            if self.stop.stopped {
                return None;
            }
            if v > best {
                (best, best_move) = (v, Some(mv.sq));
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        self.count_cut(searched + i == 0, n, fell_short);
                        break;
                    }
                }
            }
            fell_short += self.nodes - before;
        }
        if let Some(split) = split {
            self.measure.span.split_end(split, self.nodes);
        }
        best_move.map(|sq| (best, sq))
    }

    /// The value of `mv` within (`alpha`, `beta`): a full window for the `first` move, a
    /// null window on alpha for the others, searched again with the full window when one
    /// lands inside it.
    #[inline(always)]
    fn search_move<K: Entries>(
        &mut self,
        mv: &Move,
        first: bool,
        alpha: i32,
        beta: i32,
        n: u32,
    ) -> i32 {
        if first {
            return -self.search_child_in::<K>(mv.child, mv.moves, -beta, -alpha, n - 1);
        }
        let v = -self.search_child_in::<K>(mv.child, mv.moves, -alpha - 1, -alpha, n - 1);
        if v > alpha && v < beta {
            -self.search_child_in::<K>(mv.child, mv.moves, -beta, -alpha, n - 1)
        } else {
            v
        }
    }

    /// Accounts a cutoff of a node with `n` empties: by its first move or a later one,
    /// after `fell_short` nodes on moves that did not cut (counted only with `account`).
    #[inline(always)]
    fn count_cut(&mut self, first: bool, n: u32, fell_short: u64) {
        let event = if first {
            Event::CutFirst
        } else {
            Event::CutLater
        };
        self.measure.counts.event(event, n);
        self.measure
            .counts
            .event_sum(Event::OrderedWaste, n, fell_short);
    }
}
