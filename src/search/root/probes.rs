//! The root's probes: null-window probes of the root moves until the root's value is
//! known, each move's bounds kept, and the ties between best moves settled.

use super::answer::Mode;
use crate::board::kernels::Portable;
use crate::board::{Board, Square};
use crate::search::move_list::{MoveList, select_next};
use crate::search::ordering::scored_moves;
use crate::search::parallel::node_type::AllNodes;
use crate::search::state::Search;
use std::sync::Mutex;

/// A root move and what is proven about its score (in the mode's terms).
pub(crate) struct RootMove {
    pub(crate) sq: Square,
    pub(crate) child: Board,
    pub(crate) lower: i32,
    pub(crate) upper: i32,
    /// The move's value as the last pass left it, if that pass proved anything about it:
    /// twice its proven lower bound plus one, else twice its upper bound. Orders the
    /// moves: a move shown to reach v comes before one shown to stay at or below v. (With
    /// v alone they tied, and the order before the sort decided: with many threads a
    /// move refuted at the pass's last probe could come first, FFO #46's B7 before B3,
    /// 10 M nodes searched for nothing in some 16-thread runs.)
    pub(crate) prior: Option<i32>,
}

impl RootMove {
    /// Forgets the bounds for a new pass within (`lo`, `hi`), keeping what they said as
    /// the prior.
    pub(crate) fn reset(&mut self, lo: i32, hi: i32) {
        if self.lower > lo {
            self.prior = Some(2 * self.lower + 1);
        } else if self.upper < hi {
            self.prior = Some(2 * self.upper);
        }
        (self.lower, self.upper) = (lo, hi);
    }
}

/// The root's moves, best first by the table's move and fastest-first scoring, with the
/// mode's full window as their bounds.
pub(crate) fn root_moves(s: &mut Search, board: Board, moves: u64, mode: Mode) -> Vec<RootMove> {
    let tt_move = s.tables.shared.probe(&board).and_then(|h| h.best_move);
    let mut list = MoveList::new();
    scored_moves::<Portable>(&board, moves, tt_move, None, &mut list);
    for i in 0..list.len() {
        select_next(&mut list, i);
    }
    let (lower, upper) = full_window(mode);
    list.iter()
        .map(|mv| RootMove {
            sq: Square::from_index(mv.sq as u32),
            child: mv.child,
            lower,
            upper,
            prior: None,
        })
        .collect()
}

/// The widest window of scores in `mode`.
pub(crate) fn full_window(mode: Mode) -> (i32, i32) {
    if mode == Mode::Wld {
        (-1, 1)
    } else {
        (-64, 64)
    }
}

/// A null-window probe's answer `v` (fail-soft) against `beta`, in the mode's terms: a
/// lower bound when at least `beta`, else an upper bound. Every final disc difference is
/// even (64 discs; empty squares go to the winner), so in exact mode an odd bound, which
/// only a multi-probcut cut leaves (it answers with the window's edge), tightens to the
/// even score beyond it: "at least 3" is "at least 4". Without this a probable pass could
/// settle on a score no game ends with (`-1@73%` in exact mode).
pub(crate) fn probe_bound(mode: Mode, v: i32, beta: i32) -> i32 {
    let v = mode.class(v);
    if mode == Mode::Wld || v % 2 == 0 {
        v
    } else if v >= beta {
        v + 1
    } else {
        v - 1
    }
}

/// MTD(f) at the root with bounds kept per move: null-window probes "is the score at least
/// beta?" starting from `guess`, until the root value is known and every move is known to
/// reach it or to fall short. Null windows are much cheaper than a full window, and the
/// per-move bounds mean the final tie check re-searches only moves whose last bound was
/// exactly the value.
pub(crate) fn probe_until_exact(
    s: &mut Search,
    root: &mut [RootMove],
    n: u32,
    mode: Mode,
    guess: i32,
) {
    // The scores asked about: a probe's beta stays inside them, and once the root's value
    // is known to lie beyond an edge, the question is answered.
    let (mut lo, mut hi) = match mode {
        Mode::Window(w) => (w.alpha(), w.beta()),
        _ => full_window(mode),
    };
    let mut g = guess;
    while lo < hi {
        let beta = g.clamp(lo + 1, hi);
        let Some(failed_high) = probe_root(s, root, n, mode, beta) else {
            return;
        };
        if failed_high {
            lo = root.iter().map(|m| m.lower).max().unwrap_or(lo);
            g = lo + 1;
        } else {
            hi = root.iter().map(|m| m.upper).max().unwrap_or(hi);
            g = hi;
        }
    }
    if s.options.ties && ties_apply(mode, lo, hi) {
        settle_ties(s, root, n, mode, lo);
    }
}

/// Whether the ties of a probe sequence that ended at `lo`..`hi` are settled: always in
/// the modes of a full window (where the sequence always ends with the value), in a
/// window only when it ended with the exact value inside it. A bound has no ties: it
/// names the move that proved it.
fn ties_apply(mode: Mode, lo: i32, hi: i32) -> bool {
    match mode {
        Mode::Window(w) => lo == hi && w.alpha() < lo && lo < w.beta(),
        _ => true,
    }
}

/// The root's proven bounds, in the mode's terms, from its moves' bounds: at the end of
/// a pass, its value or the bound that answers the window.
pub(crate) fn root_bounds(root: &[RootMove]) -> (i32, i32) {
    let lower = root.iter().map(|m| m.lower).max().unwrap_or(-64);
    let upper = root.iter().map(|m| m.upper).max().unwrap_or(64);
    (lower, upper)
}

/// Whether the root shares out its moves still in question after the first of a probe
/// (none when nothing was `searched` yet): only with many threads (`SPLIT_MANY_THREADS`),
/// where the probe's span would otherwise be the sum of its moves', and sharing them out
/// cost no more nodes. One or two threads find work enough inside each root move, and a
/// move that reaches beta beside a helper's wastes the helper's work: FFO #54 at two
/// threads searched 30 % more nodes than one thread in its 87 % pass, whose best move
/// the 73 % pass had ranked low (1 826.9 M nodes at one thread; 1 995.5 M at two with
/// the root split when the last pass expected no other move within `SPLIT_CUT_MARGIN`
/// of beta, 1 866.9 M without). The one rule of every split at the root.
pub(crate) fn root_should_split(s: &Search, searched: bool, n: u32) -> bool {
    searched && s.many_threads() && s.can_split(n, 2)
}

/// Sorts the root's moves most promising first: best proven lower bound, then best upper
/// bound, then the last pass's word.
fn most_promising_first(root: &mut [RootMove]) {
    root.sort_by_key(|m| (-m.lower, -m.upper, -m.prior.unwrap_or(i32::MIN + 1)));
}

/// One null-window probe of the root: "does a move reach `beta`?", most promising move
/// first, each move's bound kept. `None` when the search was stopped.
fn probe_root(
    s: &mut Search,
    root: &mut [RootMove],
    n: u32,
    mode: Mode,
    beta: i32,
) -> Option<bool> {
    most_promising_first(root);
    let mut searched = false;
    // A span build's split, searched in turn (see span.rs).
    let mut split = None;
    let failed_high = 'probe: {
        for k in 0..root.len() {
            if root[k].upper < beta {
                continue;
            }
            if root[k].lower >= beta {
                break 'probe true;
            }
            if let Some(split) = &mut split {
                s.measure.span.split_next(split, s.nodes);
            } else if root_should_split(s, searched, n) {
                if s.measure.span.in_turn() {
                    split = Some(s.measure.span.split_begin(s.nodes));
                } else {
                    let failed_high = probe_shared(s, &mut root[k..], n, mode, beta);
                    return (!s.stop.stopped).then_some(failed_high);
                }
            }
            let m = &mut root[k];
            // The probe's first move is its best hope of reaching beta; the others are
            // expected to fall short.
            s.split.all_nodes = AllNodes::below_root_move(n - 1, !searched);
            let r = probe_bound(mode, -s.search(m.child, -beta, -(beta - 1), n - 1), beta);
            if s.stop.stopped {
                return None;
            }
            searched = true;
            if r >= beta {
                m.lower = r;
                break 'probe true;
            }
            m.upper = r;
        }
        false
    };
    if let Some(split) = split {
        s.measure.span.split_end(split, s.nodes);
    }
    Some(failed_high)
}

/// The root's value is `lo`. A move whose upper bound is `lo` may tie: one null-window
/// probe each says whether it reaches `lo` (on every thread when the root may split).
pub(crate) fn settle_ties(s: &mut Search, root: &mut [RootMove], n: u32, mode: Mode, lo: i32) {
    // A tie is rarer than a move that falls short.
    s.split.all_nodes = AllNodes::below_root_move(n - 1, false);
    if s.can_split(n, 2) && !s.measure.span.in_turn() {
        settle_ties_shared(s, root, n, mode, lo);
        return;
    }
    // A span build accounts the ties as a split, searched in turn (see span.rs).
    let mut split = s
        .can_split(n, 2)
        .then(|| s.measure.span.split_begin(s.nodes));
    for m in root.iter_mut() {
        if m.upper == lo && m.lower < lo {
            if let Some(split) = &mut split {
                s.measure.span.split_next(split, s.nodes);
            }
            let r = probe_bound(mode, -s.search(m.child, -lo, -(lo - 1), n - 1), lo);
            if s.stop.stopped {
                return;
            }
            if r >= lo {
                m.lower = lo;
            } else {
                m.upper = r;
            }
        }
    }
    if let Some(split) = split {
        s.measure.span.split_end(split, s.nodes);
    }
}

/// [`settle_ties`] on every thread.
fn settle_ties_shared(s: &mut Search, root: &mut [RootMove], n: u32, mode: Mode, lo: i32) {
    let ties: Vec<usize> = (0..root.len())
        .filter(|&k| root[k].upper == lo && root[k].lower < lo)
        .collect();
    let children: Vec<Board> = ties.iter().map(|&k| root[k].child).collect();
    let results = Mutex::new(Vec::new());
    if !s.share_out(children.len(), |h, i| {
        let r = probe_bound(mode, -h.search(children[i], -lo, -(lo - 1), n - 1), lo);
        if !h.stop.stopped {
            results.lock().expect("no panics").push((ties[i], r));
        }
        false
    }) {
        return;
    }
    for (k, r) in results.into_inner().expect("no panics") {
        if r >= lo {
            root[k].lower = lo;
        } else {
            root[k].upper = r;
        }
    }
}

/// One probe "is the score at least `beta`?" over `moves` (those of the root still in
/// question, in order, the first of which fell short) on every thread: the first to reach
/// beta cancels the rest. Records every finished answer in the moves' bounds; returns
/// true when one reached beta.
fn probe_shared(s: &mut Search, moves: &mut [RootMove], n: u32, mode: Mode, beta: i32) -> bool {
    s.split.all_nodes = AllNodes::below_root_move(n - 1, false);
    let todo: Vec<usize> = (0..moves.len())
        .filter(|&k| moves[k].upper >= beta)
        .collect();
    let children: Vec<Board> = todo.iter().map(|&k| moves[k].child).collect();
    let results = Mutex::new(Vec::new());
    s.share_out(children.len(), |h, i| {
        let r = probe_bound(
            mode,
            -h.search(children[i], -beta, -(beta - 1), n - 1),
            beta,
        );
        if h.stop.stopped {
            return false;
        }
        results.lock().expect("no panics").push((todo[i], r));
        r >= beta
    });
    let mut failed_high = false;
    for (k, r) in results.into_inner().expect("no panics") {
        if r >= beta {
            moves[k].lower = r;
            failed_high = true;
        } else {
            moves[k].upper = r;
        }
    }
    failed_high
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::state::with_test_search;

    fn root_move(lower: i32, upper: i32) -> RootMove {
        RootMove {
            sq: Square::from_index(0),
            child: Board::START,
            lower,
            upper,
            prior: None,
        }
    }

    #[test]
    fn a_new_pass_ranks_a_move_shown_to_reach_v_before_one_shown_to_stay_at_or_below_v() {
        // The last pass: the first move fell short of -6 (at most -8), the second reached
        // -8, the third fell short of -8 (at most -10), the fourth was never searched.
        let mut root = [
            root_move(-64, -8),
            root_move(-8, 64),
            root_move(-64, -10),
            root_move(-64, 64),
        ];
        for (i, m) in root.iter_mut().enumerate() {
            m.sq = Square::from_index(i as u32);
            m.reset(-64, 64);
            assert_eq!((m.lower, m.upper), (-64, 64));
        }
        most_promising_first(&mut root);
        let order: Vec<usize> = root.iter().map(|m| m.sq.index()).collect();
        assert_eq!(order, [1, 0, 2, 3]);
    }

    #[test]
    fn the_root_splits_only_with_many_threads_and_after_a_first_move() {
        with_test_search(|s| {
            for (threads, splits) in [(1, false), (2, false), (3, true), (16, true)] {
                s.split.workers = threads;
                assert_eq!(root_should_split(s, true, 20), splits, "{threads} threads");
                assert!(!root_should_split(s, false, 20));
            }
        });
    }
}
