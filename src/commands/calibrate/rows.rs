//! The calibration CSV: one row per position and level, written as solves finish and
//! read back to resume.

use crate::board::{Position, Square};
use crate::commands::exact_labels::Label;
use crate::durable;
use crate::error::{CalibrateError, Error, Result};
use crate::results::machine::git_rev;
use crate::search::{Level, SolveResult};
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// One CSV row: a position solved at one selectivity, beside its exact solve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CalRow {
    /// Stable key of the position (board and side to move), hex.
    pub key: String,
    /// Input file.
    pub file: String,
    /// 1-based line in the input file.
    pub line: usize,
    /// The position (OBF: 64 squares, side to move).
    pub board: String,
    /// Empty squares.
    pub empties: u32,
    /// Selectivity in percent (100: the exact solve).
    pub selectivity: u8,
    /// Score found at this selectivity.
    pub score: i32,
    /// The move it would play (its first best move; empty when it must pass).
    pub r#move: String,
    /// Every best move it reports, space-separated.
    pub best_moves: String,
    /// The exact score.
    pub exact_score: i32,
    /// The exactly best moves known, space-separated: every one when the exact solve was
    /// made here (it finds ties); with `--labels`, the label's and every probable move
    /// proven best so far.
    pub exact_moves: String,
    /// Score equal to the exact score.
    pub score_ok: bool,
    /// The move it would play is an exactly best move.
    pub move_ok: bool,
    /// |score - exact score|.
    pub abs_error: u32,
    /// Nodes of this solve.
    pub nodes: u64,
    /// Seconds of this solve.
    pub time_s: f64,
    /// Nodes of the exact solve.
    pub exact_nodes: u64,
    /// Seconds of the exact solve.
    pub exact_time_s: f64,
    /// Table size, MB.
    pub hash_mb: usize,
    /// Revision of the finale that solved it.
    pub git_rev: String,
}

/// The header this build writes: [`CalRow`]'s fields in order. A resumed file must have
/// exactly this header, since new rows are appended in this order.
pub const HEADER: [&str; 20] = [
    "key",
    "file",
    "line",
    "board",
    "empties",
    "selectivity",
    "score",
    "move",
    "best_moves",
    "exact_score",
    "exact_moves",
    "score_ok",
    "move_ok",
    "abs_error",
    "nodes",
    "time_s",
    "exact_nodes",
    "exact_time_s",
    "hash_mb",
    "git_rev",
];

fn moves_text(moves: &[Square]) -> String {
    let v: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    v.join(" ")
}

/// The row of `result` for `pos`, against the exact `exact` row of the same position.
pub(super) fn row_of(
    pos: &Position,
    file: &str,
    line: usize,
    result: &SolveResult,
    exact: Option<&CalRow>,
    hash_mb: usize,
) -> CalRow {
    let first = result.best_moves.first().map(|m| m.to_string());
    let mv = first.clone().unwrap_or_default();
    let (exact_score, exact_moves, exact_nodes, exact_time_s) = match exact {
        Some(e) => (
            e.exact_score,
            e.exact_moves.clone(),
            e.exact_nodes,
            e.exact_time_s,
        ),
        None => (
            result.score,
            moves_text(&result.best_moves),
            result.nodes,
            result.time.as_secs_f64(),
        ),
    };
    let move_ok = match &first {
        Some(m) => exact_moves.split(' ').any(|e| e == m),
        None => exact_moves.is_empty(),
    };
    CalRow {
        key: crate::board::key::key_hex(crate::board::key::position_key(pos)),
        file: file.to_string(),
        line,
        board: pos.to_string(),
        empties: pos.board.empty_count(),
        selectivity: result.selectivity.percent(),
        score: result.score,
        r#move: mv,
        best_moves: moves_text(&result.best_moves),
        exact_score,
        exact_moves,
        score_ok: result.score == exact_score,
        move_ok,
        abs_error: result.score.abs_diff(exact_score),
        nodes: result.nodes,
        time_s: result.time.as_secs_f64(),
        exact_nodes,
        exact_time_s,
        hash_mb,
        git_rev: git_rev().to_string(),
    }
}

/// The exact row of `pos` made from its `label` instead of a solve.
pub(super) fn label_row(
    pos: &Position,
    file: &str,
    line: usize,
    label: &Label,
    hash_mb: usize,
) -> CalRow {
    let solved = SolveResult {
        mode: crate::search::Mode::Exact,
        score: label.score,
        lower: label.score,
        upper: label.score,
        best_moves: label
            .best_moves
            .split(' ')
            .filter_map(Square::parse)
            .collect(),
        move_scores: Vec::new(),
        pv: Vec::new(),
        nodes: label.nodes,
        time: std::time::Duration::from_secs_f64(label.time_s),
        selectivity: Level::EXACT,
        best_found: None,
    };
    CalRow {
        time_s: label.time_s,
        exact_time_s: label.time_s,
        git_rev: label.git_rev.clone(),
        ..row_of(pos, file, line, &solved, None, hash_mb)
    }
}

/// Reads the rows of the calibration CSV `file` (at `path`, opened for reading and
/// appending), dropping a torn last line (a run killed while writing it) so that new rows
/// follow a whole one. A file it refuses is left as it was.
pub(super) fn resume_rows(file: &mut File, path: &Path) -> Result<Vec<CalRow>> {
    let io_err = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let tail = durable::torn_tail(file).map_err(io_err)?;
    let mut text = Vec::new();
    file.seek(SeekFrom::Start(0)).map_err(io_err)?;
    file.take(tail.whole)
        .read_to_end(&mut text)
        .map_err(io_err)?;
    // Checked before the torn line is cut, so that a refused file is not changed.
    let rows = parse_rows(&text, path).map_err(|e| CalibrateError::LeftUntouched(Box::new(e)))?;
    tail.drop_torn(file).map_err(io_err)?;
    Ok(rows)
}

/// The rows of the calibration CSV text `bytes` (whole lines; empty text has none); errors
/// name `path` and the line.
///
/// The header must be [`HEADER`]. Refuses text whose last line ends inside a quoted
/// field: it reads as whole rows, but the rows appended next would be swallowed into that
/// field. Refuses times that are not a number of seconds from 0 to
/// [`MAX_SECONDS`](crate::results::csv_in::MAX_SECONDS).
pub fn parse_rows(bytes: &[u8], path: &Path) -> std::result::Result<Vec<CalRow>, CalibrateError> {
    if bytes.is_empty() {
        return Ok(Vec::new());
    }
    let bad = |line: u64, what: String| CalibrateError::BadCsv {
        path: path.to_path_buf(),
        line,
        what,
    };
    // Read with an end marker after the text: if the marker does not come back as a row
    // of its own, the text ends inside a quoted field.
    const END: &str = "finale-end-of-calibration";
    let marked = bytes.chain(b"finale-end-of-calibration\n".as_slice());
    let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(marked);
    // Rows are appended in this build's column order: another order would be misread.
    let header = match reader.headers() {
        Ok(h) if h.iter().eq(HEADER) => h.clone(),
        _ => return Err(bad(1, "not a finale calibration CSV".into())),
    };
    let mut rows = Vec::new();
    let mut records = reader.records();
    let mut last_line = 1;
    loop {
        let Some(record) = records.next() else {
            return Err(bad(
                last_line,
                "the last row ends inside a quoted field".into(),
            ));
        };
        let record = record.map_err(|e| {
            let line = e.position().map_or(last_line, |p| p.line());
            bad(line, format!("not a calibration row ({e})"))
        })?;
        let line = record.position().map_or(last_line, |p| p.line());
        last_line = line;
        if record.len() == 1 && &record[0] == END && records.next().is_none() {
            return Ok(rows);
        }
        if record.len() != header.len() {
            return Err(bad(
                line,
                format!(
                    "not a calibration row ({} fields, the header has {})",
                    record.len(),
                    header.len()
                ),
            ));
        }
        let row: CalRow = record
            .deserialize(Some(&header))
            .map_err(|e| bad(line, format!("not a calibration row ({e})")))?;
        for (name, t) in [("time_s", row.time_s), ("exact_time_s", row.exact_time_s)] {
            if !crate::results::csv_in::is_seconds(t) {
                return Err(bad(
                    line,
                    format!(
                        "bad {name} (expected seconds from 0 to {:e})",
                        crate::results::csv_in::MAX_SECONDS
                    ),
                ));
            }
        }
        rows.push(row);
    }
}
