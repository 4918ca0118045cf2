//! The suite's table: its header, and one line per finished solve.

use crate::results::format::{moves_string, pv_head, score_string};
use crate::results::row::Row;
use crate::search::PvMove;

/// The table header line.
pub fn table_header() -> String {
    format!(
        "{:>4} {:>3}  {:<14} {:>5} {:>5}  {:<9} {:>13} {:>9} {:>8} {:>7} {:>6}  {}",
        "#",
        "emp",
        "best",
        "score",
        "exp",
        "ok",
        "nodes",
        "time(s)",
        "found(s)",
        "Mnps",
        "MB",
        "pv"
    )
}

/// One table line: `ok` is blank when the file lists nothing, otherwise `ok` or what is
/// wrong.
pub fn table_row(row: &Row) -> String {
    let r = &row.result;
    if let Some(failure) = &row.failure {
        return format!(
            "{:>4} {:>3}  {failure} (after {:.3} s)",
            row.index,
            row.position.board.empty_count(),
            r.time.as_secs_f64()
        );
    }
    let best = if r.best_moves.is_empty() {
        // No move to list: the side to move passes (`-` when there is no line at all).
        if r.pv.is_empty() {
            "-".into()
        } else {
            PvMove::Pass.to_string()
        }
    } else {
        moves_string(&r.best_moves)
    };
    let expected = match row.expected_score {
        Some(e) => score_string(row.result.mode, e),
        None => "-".into(),
    };
    let ok = match (row.verdict.score_ok, row.verdict.moves_ok) {
        (None, None) => "-",
        (Some(false), Some(false)) => "WRONG",
        (Some(false), _) => "BAD-SCORE",
        (_, Some(false)) => "BAD-MOVE",
        _ => "ok",
    };
    let found = r
        .best_found
        .map_or_else(|| "-".to_string(), |t| format!("{:.3}", t.as_secs_f64()));
    let peak = row
        .peak_mb
        .map_or_else(|| "-".to_string(), |m| format!("{m:.0}"));
    format!(
        "{:>4} {:>3}  {:<14} {:>5} {:>5}  {:<9} {:>13} {:>9.4} {found:>8} {:>7.2} {peak:>6}  {}",
        row.index,
        row.position.board.empty_count(),
        best,
        probable_score(r, row.position.board.empty_count()),
        expected,
        ok,
        r.nodes,
        r.time.as_secs_f64(),
        r.nps() / 1e6,
        pv_head(&r.pv, 8)
    )
}

/// A row's score: `+18`, with `?` after it when it is a probable answer whose level's
/// promise was not checked at the position's number of empties (`+18?`; the run's level
/// is in the table's heading).
fn probable_score(r: &crate::search::SolveResult, empties: u32) -> String {
    let score = score_string(r.mode, r.score);
    if r.selectivity.checked_at(empties) {
        score
    } else {
        format!("{score}?")
    }
}
