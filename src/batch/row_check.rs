//! What a batch row read back (by resume or merge) must hold: values a finale batch
//! writes, so that an edited or damaged row is refused instead of being passed on or
//! standing for a position it does not describe.
//!
//! Every row: a key of 16 hex digits, a status (`solved`, `timeout` or `error: ...`) and
//! the input line it came from (1 or more).
//! A position's row (`solved` or `timeout`): a board of 64 `X`, `O`, `-` and a side `X` or
//! `O` whose key is the row's key, its empties if given, a mode finale solves, a time in
//! seconds, scores in -64..=64 (a `solved` row has one, a `timeout` row none), and best,
//! expected and probable moves that are squares. A malformed line's `error` row: the key
//! of its text (in the board column) and no mode or a known one. The parity of a score is
//! not checked. A label row's mode is `depthD` with D at most [`MAX_LABEL_DEPTH`].

use super::options::{MAX_LABEL_DEPTH, label_mode};
use crate::board::Position;
use crate::board::Square;
use crate::board::key::{key_hex, line_key, parse_key, position_key};
use crate::results::csv_in::parse_seconds;
use crate::results::{BatchRow, CsvRow};
use crate::search::{Mode, Window};
use std::fmt;

/// The modes a batch solves, as the `mode` column names them.
const MODES: [Mode; 4] = [
    Mode::Exact,
    Mode::Wld,
    Mode::All,
    Mode::Window(Window::FULL),
];

/// A value of a row that finale never writes: its column and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowFault {
    /// The column's name in the header.
    pub column: &'static str,
    /// What is wrong with its value.
    pub what: String,
}

impl fmt::Display for RowFault {
    /// `bad score: 99 is not in -64..=64`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad {}: {}", self.column, self.what)
    }
}

/// The key of `row` after checking every value listed in the module doc.
pub fn check_row(row: &BatchRow<&str>) -> Result<u64, RowFault> {
    let (r, b) = row;
    let Some(key) = parse_key(r.key) else {
        return fault("key", format!("{:?} is not 16 hex digits", r.key));
    };
    if !b.line.parse::<usize>().is_ok_and(|l| l >= 1) {
        return fault("line", format!("{:?} is not a line number", b.line));
    }
    let solved = b.status == "solved";
    if !solved && b.status != "timeout" {
        return check_error_row(row, key);
    }
    check_position(r, key)?;
    if !is_mode(r.mode) {
        return fault(
            "mode",
            format!("{:?} is not exact, wld, all, window or depthD", r.mode),
        );
    }
    match (solved, r.score) {
        (true, None) => return fault("score", "a solved row has a score".into()),
        (false, Some(_)) => return fault("score", "a timeout row has none".into()),
        _ => {}
    }
    check_answer(row)?;
    Ok(key)
}

/// A `RowFault` in `column`, as an `Err`.
fn fault<T>(column: &'static str, what: String) -> Result<T, RowFault> {
    Err(RowFault { column, what })
}

/// An `error: ...` row (a line that was not a position): its mode, if any, and its key,
/// which is the key of the line's text.
fn check_error_row(row: &BatchRow<&str>, key: u64) -> Result<u64, RowFault> {
    let (r, b) = row;
    if !b.status.starts_with("error: ") {
        return fault(
            "status",
            format!("{:?} is not solved, timeout or error: ...", b.status),
        );
    }
    if !r.mode.is_empty() && !is_mode(r.mode) {
        return fault(
            "mode",
            format!("{:?} is not exact, wld, all, window or depthD", r.mode),
        );
    }
    let own = line_key(r.board);
    if own != key {
        return fault(
            "key",
            format!(
                "{} is not the key of the line's text ({})",
                r.key,
                key_hex(own)
            ),
        );
    }
    Ok(key)
}

/// The side, the board, the key (of the board and side) and the empties of a position's
/// row.
fn check_position(r: &CsvRow<&str>, key: u64) -> Result<(), RowFault> {
    if r.side != "X" && r.side != "O" {
        return fault("side", format!("{:?} is not X or O", r.side));
    }
    let Some(position) = Position::from_squares(r.board, r.side) else {
        return fault("board", "not 64 squares of X, O and -".into());
    };
    let own = position_key(&position);
    if own != key {
        return fault(
            "key",
            format!(
                "{} is not the key of the board and side ({})",
                r.key,
                key_hex(own)
            ),
        );
    }
    let empties = position.board.empty_count();
    if r.empties.is_some_and(|e| e != empties) {
        return fault("empties", format!("the board has {empties}"));
    }
    Ok(())
}

/// The answer's values: scores in range, times in seconds, moves on the board.
fn check_answer(row: &BatchRow<&str>) -> Result<(), RowFault> {
    let (r, b) = row;
    score_in_range("score", r.score)?;
    score_in_range("expected_score", r.expected_score)?;
    if parse_seconds(r.time_s).is_none() {
        return fault("time_s", format!("{:?} is not a time in seconds", r.time_s));
    }
    if !r.best_found_s.is_empty() && parse_seconds(r.best_found_s).is_none() {
        let what = format!("{:?} is not a time in seconds", r.best_found_s);
        return fault("best_found_s", what);
    }
    check_bounds(r)?;
    squares("best_moves", r.best_moves)?;
    squares("expected_moves", r.expected_moves)?;
    if !b.probable_move.is_empty() && Square::parse(b.probable_move).is_none() {
        let what = format!("{:?} is not a square", b.probable_move);
        return fault("probable_move", what);
    }
    if !b.probable_score.is_empty() {
        // A window solve's probable answer may be a bound beyond its window (`<=+0`).
        let s: &str = b.probable_score;
        let s = s
            .strip_prefix("<=")
            .or_else(|| s.strip_prefix(">="))
            .unwrap_or(s);
        let score = s.parse::<i32>().ok();
        if score.is_none() {
            let what = format!("{:?} is not a score", b.probable_score);
            return fault("probable_score", what);
        }
        score_in_range("probable_score", score)?;
    }
    Ok(())
}

/// The window and the proven bounds, when given: a window (`alpha`, `beta`) that is one
/// and is the mode's (-64,64 for exact and all, -1,1 for wld), bounds
/// -64 <= lower <= upper <= 64 that answer it, and a score that is their class.
fn check_bounds(r: &CsvRow<&str>) -> Result<(), RowFault> {
    let window = match (r.alpha, r.beta) {
        (None, None) => None,
        (Some(a), Some(b)) => Some(Window::new(a, b).map_err(|e| RowFault {
            column: "alpha",
            what: e.to_string(),
        })?),
        _ => return fault("beta", "a row has both alpha and beta or neither".into()),
    };
    let own = MODES
        .iter()
        .find(|m| m.name() == r.mode && !matches!(m, Mode::Window(_)));
    if let (Some(w), Some(m)) = (window, own)
        && m.window() != w
    {
        let what = format!("{w} is not the window of mode {}", r.mode);
        return fault("alpha", what);
    }
    let (lower, upper) = match (r.lower, r.upper) {
        (None, None) => return Ok(()),
        (Some(l), Some(u)) if -64 <= l && l <= u && u <= 64 => (l, u),
        (l, u) => {
            let what = format!("{l:?} and {u:?} are not bounds -64 <= lower <= upper <= 64");
            return fault("lower", what);
        }
    };
    let Some(w) = window else {
        return fault("alpha", "bounds without the window they answer".into());
    };
    if !w.answered_by(lower, upper) {
        let what = format!("{lower}..{upper} does not answer the window {w}");
        return fault("lower", what);
    }
    if r.score.is_some_and(|s| s != w.class(lower)) {
        let what = format!("not the class of the bounds {lower}..{upper} in the window {w}");
        return fault("score", what);
    }
    Ok(())
}

/// The window a checked row answers: its `alpha` and `beta`, or for a solve's row that
/// leaves them empty its mode's; `None` for labels and malformed lines' rows.
pub(super) fn row_window(r: &CsvRow<&str>) -> Option<Window> {
    match (r.alpha, r.beta) {
        (Some(a), Some(b)) => Window::new(a, b).ok(),
        _ => MODES
            .iter()
            .find(|m| m.name() == r.mode)
            .map(|m| m.window()),
    }
}

/// The bounds a checked `solved` row proves on its position's value: its `lower` and
/// `upper`, or for a row that leaves them empty, an exact score's (mode `exact` or `all`)
/// as both. `None` for labels and rows that prove no bound.
pub(super) fn row_bounds(row: &BatchRow<&str>) -> Option<(i32, i32)> {
    let (r, b) = row;
    if b.status != "solved" {
        return None;
    }
    match (r.lower, r.upper, r.score) {
        (Some(l), Some(u), _) => Some((l, u)),
        (None, None, Some(s)) if r.mode == "exact" || r.mode == "all" => Some((s, s)),
        _ => None,
    }
}

/// Whether `text` names a mode a batch solves, or labels of a depth it searches.
fn is_mode(text: &str) -> bool {
    let label = text
        .strip_prefix("depth")
        .filter(|d| d.bytes().all(|c| c.is_ascii_digit()))
        .and_then(|d| d.parse::<u32>().ok())
        .is_some_and(|d| label_mode(d) == text && d <= MAX_LABEL_DEPTH);
    label || MODES.iter().any(|m| m.name() == text)
}

/// A score, if any, in -64..=64.
fn score_in_range(column: &'static str, score: Option<i32>) -> Result<(), RowFault> {
    match score {
        Some(s) if !(-64..=64).contains(&s) => Err(RowFault {
            column,
            what: format!("{s} is not in -64..=64"),
        }),
        _ => Ok(()),
    }
}

/// Squares separated by spaces (none at all is fine).
fn squares(column: &'static str, text: &str) -> Result<(), RowFault> {
    match text.split(' ').find(|m| Square::parse(m).is_none()) {
        Some(bad) if !text.is_empty() => Err(RowFault {
            column,
            what: format!("{bad:?} is not a square"),
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse_moves;
    use crate::results::csv_in::read_batch_row;
    use crate::results::format::score_string;
    use crate::results::{BatchColumns, CsvRow};
    use crate::search::{Mode, Window};

    /// A solved row of the position after `moves`, as a batch writes it.
    fn solved(moves: &str) -> BatchRow {
        let p = parse_moves(moves).expect("legal");
        let row = CsvRow {
            empties: Some(p.board.empty_count()),
            side: p.side.letter().to_string(),
            mode: "exact".into(),
            score: Some(-4),
            best_moves: "C4 E6".into(),
            expected_score: Some(-4),
            expected_moves: "C4".into(),
            time_s: "0.001000".into(),
            best_found_s: "0.000500".into(),
            key: key_hex(position_key(&p)),
            board: p.squares_string(),
            ..CsvRow::default()
        };
        let batch = BatchColumns {
            status: "solved".into(),
            line: "7".into(),
            ..BatchColumns::default()
        };
        (row, batch)
    }

    /// `row` written as a batch writes it and checked as resume and merge read it.
    fn written_and_checked(row: &BatchRow) -> Result<u64, RowFault> {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        w.serialize(row).expect("serializes");
        let text = w.into_inner().expect("flushed");
        let mut r = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(text.as_slice());
        let record = r.records().next().expect("a row").expect("reads");
        check_row(&read_batch_row(&record).expect("of the columns' types"))
    }

    /// The column `row` is refused for, after `edit`.
    fn refused(edit: impl FnOnce(&mut BatchRow)) -> &'static str {
        let mut row = solved("f5d6");
        edit(&mut row);
        written_and_checked(&row).expect_err("refused").column
    }

    #[test]
    fn rows_a_batch_writes_pass() {
        let row = solved("f5d6");
        let key = parse_key(&row.0.key).expect("a key");
        assert_eq!(written_and_checked(&row), Ok(key));
        // White to move, a timeout with its probable answer.
        let (mut r, mut b) = solved("f5");
        r.score = None;
        r.best_moves.clear();
        b.status = "timeout".into();
        b.probable_score = "+2".into();
        b.probable_level = "73%".into();
        b.probable_move = "D6".into();
        assert!(written_and_checked(&(r.clone(), b.clone())).is_ok());
        // A window solve's timeout: its probable answer is a bound beyond the window, as
        // the batch writes it (a proof's leaf given up at its time or node limit).
        let window = Mode::Window(Window::new(0, 1).unwrap());
        b.probable_score = score_string(window, 0);
        assert_eq!(b.probable_score, "<=+0");
        assert!(written_and_checked(&(r, b)).is_ok());
        // Labels of depth 0 and 12, with no best move.
        for depth in ["depth0", "depth12"] {
            let (mut r, b) = solved("f5d6");
            r.mode = depth.into();
            r.best_moves.clear();
            assert!(written_and_checked(&(r, b)).is_ok(), "{depth}");
        }
        // A malformed line's row: the key of its text, no mode, no side.
        let text = "not a position";
        let row = (
            CsvRow {
                key: key_hex(line_key(text)),
                board: text.to_string(),
                ..CsvRow::default()
            },
            BatchColumns {
                status: "error: in.obf:3: bad".to_string(),
                line: "3".into(),
                ..BatchColumns::default()
            },
        );
        assert!(written_and_checked(&row).is_ok());
    }

    #[test]
    fn values_finale_never_writes_are_refused() {
        assert_eq!(refused(|(r, _)| r.score = Some(99)), "score");
        assert_eq!(refused(|(r, _)| r.score = Some(-65)), "score");
        assert_eq!(refused(|(r, _)| r.score = None), "score");
        assert_eq!(refused(|(_, b)| b.status = "timeout".into()), "score");
        assert_eq!(refused(|(_, b)| b.status = "done".into()), "status");
        assert_eq!(
            refused(|(r, _)| r.expected_score = Some(70)),
            "expected_score"
        );
        assert_eq!(refused(|(r, _)| r.time_s = "NaN".into()), "time_s");
        assert_eq!(refused(|(r, _)| r.time_s = "inf".into()), "time_s");
        assert_eq!(refused(|(r, _)| r.time_s = "-1".into()), "time_s");
        assert_eq!(refused(|(r, _)| r.time_s = String::new()), "time_s");
        assert_eq!(
            refused(|(r, _)| r.best_found_s = "NaN".into()),
            "best_found_s"
        );
        assert_eq!(refused(|(r, _)| r.side = "Q".into()), "side");
        assert_eq!(refused(|(r, _)| r.mode = "bogus".into()), "mode");
        assert_eq!(refused(|(r, _)| r.mode = String::new()), "mode");
        for label in [
            "depth", "depth13", "depth08", "depth+8", "depth-1", "Depth8",
        ] {
            assert_eq!(refused(|(r, _)| r.mode = label.into()), "mode", "{label}");
        }
        assert_eq!(refused(|(r, _)| r.best_moves = "Z9".into()), "best_moves");
        assert_eq!(
            refused(|(r, _)| r.best_moves = "C4  E6".into()),
            "best_moves"
        );
        assert_eq!(
            refused(|(r, _)| r.expected_moves = "I1".into()),
            "expected_moves"
        );
        assert_eq!(
            refused(|(_, b)| b.probable_move = "Z9".into()),
            "probable_move"
        );
        assert_eq!(
            refused(|(_, b)| b.probable_score = "x".into()),
            "probable_score"
        );
        assert_eq!(
            refused(|(_, b)| b.probable_score = "+65".into()),
            "probable_score"
        );
        assert_eq!(refused(|(r, _)| r.empties = Some(3)), "empties");
        assert_eq!(refused(|(_, b)| b.line = "0".into()), "line");
        assert_eq!(refused(|(_, b)| b.line = String::new()), "line");
        assert_eq!(refused(|(r, _)| r.board.pop().map(drop).unwrap()), "board");
        // A key that is not its board's (another position's, or the other side's).
        let other = solved("f5d6c3").0.key;
        assert_eq!(refused(|(r, _)| r.key = other), "key");
        assert_eq!(refused(|(r, _)| r.side = "O".into()), "key");
        assert_eq!(refused(|(r, _)| r.key = "xyz".into()), "key");
        // A malformed line's row must carry its text's key.
        assert_eq!(
            refused(|(r, b)| {
                b.status = "error: in.obf:3: bad".into();
                r.board = "something else".into();
            }),
            "key"
        );
    }

    #[test]
    fn a_fault_is_one_line_naming_its_column() {
        let mut row = solved("f5d6");
        row.0.score = Some(99);
        let e = written_and_checked(&row).expect_err("refused");
        assert_eq!(e.to_string(), "bad score: 99 is not in -64..=64");
    }
}
