//! The principal variation: a line of play that keeps the solved score, checked move by
//! move, and the likely line of a pass read from the table.

use super::answer::{Mode, PvMove};
use crate::board::kernels::Portable;
use crate::board::{Board, Square};
use crate::search::move_list::{MoveList, select_next};
use crate::search::ordering::scored_moves;
use crate::search::selectivity::level::Level;
use crate::search::state::Search;

/// Appends to `pv` up to `max` moves from `b` on, each the best move the table holds for
/// the position reached (a pass where the side to move has none), stopping where the
/// table has no legal move. Reads only: no node is searched and nothing is stored.
pub(crate) fn table_line(s: &Search, mut b: Board, max: usize, pv: &mut Vec<PvMove>) {
    for _ in 0..max {
        let moves = b.moves();
        if moves == 0 {
            if b.pass().moves() == 0 {
                return;
            }
            pv.push(PvMove::Pass);
            b = b.pass();
            continue;
        }
        let n = b.empty_count();
        let Some(sq) = s.table(n).probe(&b).and_then(|h| h.best_move) else {
            return;
        };
        if moves & sq.bit() == 0 {
            return;
        }
        let Some(next) = b.play(sq) else { return };
        pv.push(PvMove::Play(sq));
        b = next;
    }
}

/// A line from `board` starting with `first`, every move of which keeps the score at
/// `value` (in `mode`'s terms), checked by a narrow search at each step.
pub(crate) fn principal_variation(
    s: &mut Search,
    board: Board,
    first: Square,
    value: i32,
    mode: Mode,
) -> Vec<PvMove> {
    let mut pv = vec![PvMove::Play(first)];
    let mut b = board.play(first).expect("best move is legal");
    let mut v = -value;
    loop {
        let moves = b.moves();
        if moves == 0 {
            if b.pass().moves() == 0 {
                break;
            }
            pv.push(PvMove::Pass);
            b = b.pass();
            v = -v;
            continue;
        }
        let n = b.empty_count();
        let tt_move = s.tables.shared.probe(&b).and_then(|h| h.best_move);
        let mut list = MoveList::new();
        scored_moves::<Portable>(&b, moves, tt_move, None, &mut list);
        let mut found = None;
        for i in 0..list.len() {
            select_next(&mut list, i);
            let mv = list[i];
            let w = if mode == Mode::Wld {
                mode.class(-s.search(mv.child, -1, 1, n - 1))
            } else {
                -s.search(mv.child, -(v + 1), -(v - 1), n - 1)
            };
            if w == v {
                found = Some(mv);
                break;
            }
        }
        let Some(mv) = found else {
            // Unreachable when the search is exact and correct; a selective search may
            // disagree with itself. Stop rather than print a wrong line.
            debug_assert!(s.level < Level::EXACT, "no move keeps the value {v}");
            break;
        };
        pv.push(PvMove::Play(Square::from_index(mv.sq as u32)));
        b = mv.child;
        v = -v;
    }
    pv
}
