//! The `calibrate` command: what a probable answer is worth. Solves positions exactly and
//! at each selectivity level, and tabulates per level and band of empties how often the
//! probable score is exact, how often the probable move is a best move, the mean score
//! error, and the work against the exact solve.
//!
//! Rows go to a CSV as they finish, one per position and level; running the same command
//! again reuses the rows already there (a torn last row is dropped), so a calibration can
//! be stopped and resumed, and the exact solves of one run serve later runs of other
//! levels or another build (remove the probable rows to measure them again).

use super::labels::Label;
use crate::board::{ObfRecord, Position, Square, read_obf_file};
use crate::error::{CalibrateError, Error, Result};
use crate::results::machine::git_rev;
use crate::search::{Level, SearchOptions, SolveResult, Solver, SolverOptions};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::fs::OpenOptions;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Settings of a calibration run.
#[derive(Clone, Debug)]
pub struct CalibrateOptions {
    /// Selectivity levels to measure (the exact solve is always made).
    pub levels: Vec<Level>,
    /// Table size of each worker, MB.
    pub hash_mb: usize,
    /// Search switches (the selectivity is set per solve).
    pub search: SearchOptions,
    /// Positions solved at once, one thread and one table each (node counts repeat).
    pub workers: usize,
    /// The CSV of rows, created or resumed.
    pub csv: PathBuf,
    /// Once set (SIGINT, SIGTERM), no position is started and the solves in progress give
    /// up without a row; [`run_calibrate`] returns [`CalibrateError::Stopped`], every row
    /// written before kept for the same command to resume from.
    pub interrupt: crate::interrupt::Interrupt,
    /// A progress bar on stderr, when it is a terminal.
    pub progress: bool,
    /// Suite or batch CSVs whose exact answers stand in for the exact solves of their
    /// positions (`finale batch` labels made once, perhaps on other machines). They name
    /// one best move each (no ties), so a probable move that differs from it is checked
    /// by one exact null-window search of the position after it.
    pub labels: Vec<PathBuf>,
}

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

/// Bands of empties the table reports separately.
const BANDS: [(u32, u32); 6] = [(0, 13), (14, 19), (20, 24), (25, 29), (30, 34), (35, 60)];

/// One line of the calibration table: a level over a band of empties (or all of them).
#[derive(Clone, Debug, PartialEq)]
pub struct CalLine {
    /// Selectivity in percent.
    pub level: u8,
    /// Empties, inclusive.
    pub band: (u32, u32),
    /// Positions.
    pub positions: usize,
    /// Share of probable scores equal to the exact score.
    pub score_exact: f64,
    /// Share of probable moves that are a best move.
    pub best_move: f64,
    /// Mean |probable score - exact score|, discs.
    pub mean_abs_error: f64,
    /// Nodes over the exact solves' nodes (sums).
    pub nodes_ratio: f64,
    /// Time over the exact solves' time (sums).
    pub time_ratio: f64,
}

impl CalLine {
    /// Whether the level keeps its promise here: the probable move is a best move in at
    /// least `level` % of positions and, from 95 % up, the score is exact in at least 90 %.
    pub fn kept(&self) -> bool {
        let p = f64::from(self.level) / 100.0;
        self.best_move >= p && (self.level < 95 || self.score_exact >= 0.9)
    }
}

/// The table of `rows`: per level, one line per band that has positions, then one over
/// all empties.
pub fn calibration_table(rows: &[CalRow]) -> Vec<CalLine> {
    let mut levels: Vec<u8> = rows
        .iter()
        .map(|r| r.selectivity)
        .filter(|&s| s < 100)
        .collect();
    levels.sort_unstable();
    levels.dedup();
    let mut table = Vec::new();
    for level in levels {
        let mut bands: Vec<(u32, u32)> = BANDS.to_vec();
        bands.push((0, 60));
        for band in bands {
            let sel: Vec<&CalRow> = rows
                .iter()
                .filter(|r| r.selectivity == level && (band.0..=band.1).contains(&r.empties))
                .collect();
            if sel.is_empty() {
                continue;
            }
            let n = sel.len() as f64;
            let share = |f: fn(&CalRow) -> bool| sel.iter().filter(|r| f(r)).count() as f64 / n;
            let sum = |f: fn(&CalRow) -> f64| sel.iter().map(|r| f(r)).sum::<f64>();
            let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
            table.push(CalLine {
                level,
                band,
                positions: sel.len(),
                score_exact: share(|r| r.score_ok),
                best_move: share(|r| r.move_ok),
                mean_abs_error: sum(|r| f64::from(r.abs_error)) / n,
                nodes_ratio: ratio(sum(|r| r.nodes as f64), sum(|r| r.exact_nodes as f64)),
                time_ratio: ratio(sum(|r| r.time_s), sum(|r| r.exact_time_s)),
            });
        }
    }
    table
}

/// The table as aligned text.
pub fn format_table(table: &[CalLine]) -> String {
    let mut s = String::from(
        "level  empties  positions  score exact  best move  mean |err|  nodes/exact  time/exact  promise\n",
    );
    for l in table {
        let band = if l.band == (0, 60) {
            "all".to_string()
        } else {
            format!("{}-{}", l.band.0, l.band.1)
        };
        s += &format!(
            "{:>4}%  {:>7}  {:>9}  {:>10.1}%  {:>8.1}%  {:>10.2}  {:>11.3}  {:>10.3}  {}\n",
            l.level,
            band,
            l.positions,
            100.0 * l.score_exact,
            100.0 * l.best_move,
            l.mean_abs_error,
            l.nodes_ratio,
            l.time_ratio,
            if l.kept() { "kept" } else { "BROKEN" }
        );
    }
    s
}

fn moves_text(moves: &[Square]) -> String {
    let v: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    v.join(" ")
}

/// The row of `result` for `pos`, against the exact `exact` row of the same position.
fn row_of(
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
fn label_row(pos: &Position, file: &str, line: usize, label: &Label, hash_mb: usize) -> CalRow {
    let solved = SolveResult {
        mode: crate::search::Mode::Exact,
        score: label.score,
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

/// Reads the rows of an existing calibration CSV, dropping a torn last line (a run killed
/// while writing it) from the file so that new rows follow a whole one. A file it refuses
/// is left as it was.
fn resume_rows(path: &Path) -> Result<Vec<CalRow>> {
    let io_err = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = match OpenOptions::new().read(true).write(true).open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_err(e)),
    };
    let mut text = Vec::new();
    file.read_to_end(&mut text).map_err(io_err)?;
    let whole = text.iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
    // Checked before the torn line is cut, so that a refused file is not changed.
    let rows =
        parse_rows(&text[..whole], path).map_err(|e| CalibrateError::LeftUntouched(Box::new(e)))?;
    if whole < text.len() {
        file.set_len(whole as u64).map_err(io_err)?;
        file.seek(SeekFrom::End(0)).map_err(io_err)?;
    }
    Ok(rows)
}

/// The rows of the calibration CSV text `bytes` (whole lines; empty text has none); errors
/// name `path` and the line.
///
/// The header must be [`HEADER`]. Refuses text whose last line ends inside a quoted
/// field: it reads as whole rows, but the rows appended next would be swallowed into that
/// field. Refuses times that are not a number of seconds from 0 to
/// [`MAX_SECONDS`](super::run_csv::MAX_SECONDS).
pub fn parse_rows(bytes: &[u8], path: &Path) -> Result<Vec<CalRow>> {
    if bytes.is_empty() {
        return Ok(Vec::new());
    }
    let bad = |line: u64, what: String| {
        Error::from(CalibrateError::BadCsv {
            path: path.to_path_buf(),
            line,
            what,
        })
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
            if !super::run_csv::is_seconds(t) {
                return Err(bad(
                    line,
                    format!(
                        "bad {name} (expected seconds from 0 to {:e})",
                        super::run_csv::MAX_SECONDS
                    ),
                ));
            }
        }
        rows.push(row);
    }
}

/// Whether playing `mv` in `pos` keeps the exact score `exact` (an exact null-window
/// search of the position after it), remembering the answer in `known` (moves proven
/// best, and not); `None` when the interrupt stopped the search.
fn is_best(
    solver: &mut Solver,
    pos: &Position,
    mv: &str,
    exact: i32,
    known: (&mut HashSet<String>, &mut HashSet<String>),
) -> Option<bool> {
    let (best, not_best) = known;
    if best.contains(mv) {
        return Some(true);
    }
    if not_best.contains(mv) {
        return Some(false);
    }
    let child = Square::parse(mv)
        .and_then(|sq| pos.board.play(sq))
        .expect("a probable move is legal");
    solver.clear();
    // The move is best when the opponent cannot reach more than -exact after it.
    let ok = !solver.reaches(child, 1 - exact)?;
    if ok {
        best.insert(mv.to_string());
    } else {
        not_best.insert(mv.to_string());
    }
    Some(ok)
}

/// Solves every position of `files` exactly and at each of `o.levels` (skipping rows the
/// CSV already has), prints the table to `out`, and returns it with every row.
pub fn run_calibrate(
    files: &[PathBuf],
    o: &CalibrateOptions,
    out: &mut impl Write,
) -> Result<(Vec<CalLine>, Vec<CalRow>)> {
    let total = (o.workers as u64).saturating_mul(o.hash_mb as u64);
    crate::results::check_hash_mb(total).map_err(|why| CalibrateError::Tables {
        workers: o.workers,
        hash_mb: o.hash_mb,
        why,
    })?;
    if let Some(&l) = o.levels.iter().find(|&&l| l == Level::NARROW) {
        return Err(CalibrateError::NoLevel(l).into());
    }
    let mut records: Vec<(String, ObfRecord)> = Vec::new();
    let mut seen = HashSet::new();
    for f in files {
        for r in read_obf_file(f)? {
            if r.position.board.moves() != 0 && seen.insert(r.position) {
                records.push((f.display().to_string(), r));
            }
        }
    }
    let labels: HashMap<String, Label> = super::labels::read_labels(&o.labels)?
        .into_iter()
        .map(|l| (l.key.clone(), l))
        .collect();
    let old = resume_rows(&o.csv)?;
    // Moves proven best beyond the exact rows' (a label names one best move; a probable
    // move that differs is checked, and the row records it among the exact moves).
    let mut proven: HashMap<String, HashSet<String>> = HashMap::new();
    for r in old.iter().filter(|r| r.move_ok && !r.r#move.is_empty()) {
        proven
            .entry(r.key.clone())
            .or_default()
            .insert(r.r#move.clone());
    }
    let write_err = |source| Error::Write {
        path: o.csv.clone(),
        source,
    };
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&o.csv)
        .map_err(write_err)?;
    let mut writer = csv::WriterBuilder::new()
        .has_headers(file.metadata().map_or(true, |m| m.len() == 0))
        .from_writer(file);
    let done: HashMap<(String, u8), CalRow> = old
        .iter()
        .map(|r| ((r.key.clone(), r.selectivity), r.clone()))
        .collect();
    // Percentages, as the rows hold them.
    let mut levels: Vec<u8> = o
        .levels
        .iter()
        .filter(|l| l.is_probcut())
        .map(|l| l.percent())
        .collect();
    levels.sort_unstable();
    levels.dedup();

    let writer = Mutex::new((&mut writer, Vec::<CalRow>::new()));
    let next = AtomicUsize::new(0);
    let failed: Mutex<Option<Error>> = Mutex::new(None);
    let bar = crate::progress::bar(
        o.progress,
        records.len() as u64,
        "{bar:40} {pos}/{len} positions  {elapsed}  ETA {eta}",
    );
    let finished = AtomicUsize::new(0);
    let total = records.len();
    std::thread::scope(|scope| {
        for _ in 0..o.workers.max(1) {
            scope.spawn(|| {
                let made = Solver::try_new(SolverOptions {
                    hash_mb: o.hash_mb,
                    search: o.search.clone(),
                    threads: 1,
                    oversubscribe: false,
                });
                let mut solver = match made {
                    Ok(s) => s,
                    Err(e) => {
                        failed.lock().expect("no panics").get_or_insert(e.into());
                        return;
                    }
                };
                solver.set_abort(o.interrupt.flag());
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= total
                        || o.interrupt.requested()
                        || failed.lock().expect("no panics").is_some()
                    {
                        return;
                    }
                    let (file, rec) = &records[i];
                    let pos = rec.position;
                    let key = crate::board::key::key_hex(crate::board::key::position_key(&pos));
                    let emit = |row: CalRow| {
                        // A solve stopped by the interrupt gave up: not a row.
                        if o.interrupt.requested() {
                            return;
                        }
                        let mut w = writer.lock().expect("no panics");
                        let r = w.0.serialize(&row).and_then(|()| Ok(w.0.flush()?));
                        if let Err(e) = r {
                            failed.lock().expect("no panics").get_or_insert(Error::Csv {
                                path: o.csv.clone(),
                                source: e,
                            });
                        }
                        w.1.push(row);
                    };
                    let solve = |solver: &mut Solver, selectivity: u8| {
                        solver.clear();
                        // The exact solve finds every best move (ties), which the probable
                        // move is judged against; a probable solve is what a user gets.
                        solver.set_search(SearchOptions {
                            selectivity: Level::from_percent(selectivity),
                            ties: o.search.ties || selectivity == 100,
                            ..o.search.clone()
                        });
                        // Gives up only when the interrupt is set: then no row.
                        solver
                            .solve_within(pos.board, crate::search::Mode::Exact, None)
                            .ok()
                    };
                    let exact = match done.get(&(key.clone(), 100)) {
                        Some(r) => r.clone(),
                        None if labels.contains_key(&key) => {
                            let row = label_row(&pos, file, rec.line, &labels[&key], o.hash_mb);
                            emit(row.clone());
                            row
                        }
                        None => {
                            let Some(r) = solve(&mut solver, 100) else {
                                return;
                            };
                            let row = row_of(&pos, file, rec.line, &r, None, o.hash_mb);
                            emit(row.clone());
                            row
                        }
                    };
                    let mut best = proven.get(&key).cloned().unwrap_or_default();
                    let mut not_best = HashSet::new();
                    for &level in &levels {
                        if done.contains_key(&(key.clone(), level)) {
                            continue;
                        }
                        let Some(r) = solve(&mut solver, level) else {
                            return;
                        };
                        let mut row = row_of(&pos, file, rec.line, &r, Some(&exact), o.hash_mb);
                        if !row.move_ok && !row.r#move.is_empty() {
                            let Some(ok) = is_best(
                                &mut solver,
                                &pos,
                                &row.r#move,
                                exact.exact_score,
                                (&mut best, &mut not_best),
                            ) else {
                                return;
                            };
                            row.move_ok = ok;
                        }
                        for m in &best {
                            if !row.exact_moves.split(' ').any(|e| e == m) {
                                row.exact_moves = format!("{} {m}", row.exact_moves);
                            }
                        }
                        emit(row);
                    }
                    finished.fetch_add(1, Ordering::Relaxed);
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = failed.into_inner().expect("no panics") {
        return Err(e);
    }
    let (w, new_rows) = writer.into_inner().expect("no panics");
    w.flush().map_err(write_err)?;
    if let Some(cause) = o.interrupt.cause() {
        return Err(CalibrateError::Stopped {
            cause,
            finished: finished.into_inner(),
            total,
            path: o.csv.clone(),
        }
        .into());
    }
    // The table covers the positions and levels of this command only.
    let wanted: HashSet<String> = records
        .iter()
        .map(|(_, r)| crate::board::key::key_hex(crate::board::key::position_key(&r.position)))
        .collect();
    let mut rows: Vec<CalRow> = old
        .into_iter()
        .chain(new_rows)
        .filter(|r| {
            wanted.contains(&r.key) && (r.selectivity == 100 || levels.contains(&r.selectivity))
        })
        .collect();
    rows.sort_by(|a, b| (&a.file, a.line, a.selectivity).cmp(&(&b.file, b.line, b.selectivity)));
    let table = calibration_table(&rows);
    write!(out, "{}", format_table(&table)).map_err(Error::Output)?;
    Ok((table, rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(empties: u32, selectivity: u8, score: i32, exact: i32, move_ok: bool) -> CalRow {
        CalRow {
            key: format!("{empties}-{selectivity}-{score}"),
            file: "f.obf".into(),
            line: 1,
            board: String::new(),
            empties,
            selectivity,
            score,
            r#move: "A1".into(),
            best_moves: "A1".into(),
            exact_score: exact,
            exact_moves: "A1".into(),
            score_ok: score == exact,
            move_ok,
            abs_error: score.abs_diff(exact),
            nodes: 10,
            time_s: 1.0,
            exact_nodes: 40,
            exact_time_s: 2.0,
            hash_mb: 1,
            git_rev: "x".into(),
        }
    }

    #[test]
    fn table_counts_shares_errors_and_ratios_by_band() {
        // Two positions of 16 empties and two of 22 at 95 %, plus exact rows (ignored).
        let rows = vec![
            row(16, 95, 4, 4, true),
            row(16, 95, 2, 6, false),
            row(22, 95, -2, -2, true),
            row(22, 95, 0, -2, true),
            row(16, 100, 4, 4, true),
        ];
        let t = calibration_table(&rows);
        let line = |b: (u32, u32)| t.iter().find(|l| l.band == b).unwrap();
        assert_eq!(t.len(), 3, "bands 14-19, 20-24 and all: {t:?}");
        let low = line((14, 19));
        assert_eq!(low.positions, 2);
        assert_eq!((low.score_exact, low.best_move), (0.5, 0.5));
        assert_eq!(low.mean_abs_error, 2.0);
        let all = line((0, 60));
        assert_eq!(all.positions, 4);
        assert_eq!((all.score_exact, all.best_move), (0.5, 0.75));
        assert_eq!(all.mean_abs_error, 1.5);
        assert_eq!((all.nodes_ratio, all.time_ratio), (0.25, 0.5));
        // 95 % needs a best move in 95 % and an exact score in 90 % of positions.
        assert!(!all.kept());
        let mut good = all.clone();
        (good.best_move, good.score_exact) = (0.95, 0.9);
        assert!(good.kept());
        good.score_exact = 0.89;
        assert!(!good.kept());
        good.level = 87;
        assert!(good.kept(), "below 95 % only the move is promised");
    }
}
