//! The calibration's workers: each with its own solver and table, takes positions one at
//! a time, solves each exactly (or takes its label) and at every level, and writes the
//! rows as they finish.

use super::CalibrateOptions;
use super::rows::{CalRow, label_row, row_of};
use crate::board::key::{key_hex, position_key};
use crate::board::{ObfRecord, Position, Square};
use crate::commands::exact_labels::Label;
use crate::error::{Error, Result};
use crate::search::{Level, Mode, SearchOptions, SolveResult, Solver, SolverOptions};
use indicatif::ProgressBar;
use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What earlier work already tells: the labels' exact answers, the CSV's rows, and the
/// moves its rows proved best beyond the exact rows' (a label names one best move; a
/// probable move that differs is checked, and the row records it among the exact moves).
pub(super) struct Known {
    labels: HashMap<String, Label>,
    done: HashMap<(String, u8), CalRow>,
    proven: HashMap<String, HashSet<String>>,
}

impl Known {
    /// From the labels read from the label CSVs and the rows `old` of the resumed CSV.
    pub(super) fn new(labels: Vec<Label>, old: &[CalRow]) -> Known {
        let labels = labels.into_iter().map(|l| (l.key.clone(), l)).collect();
        let mut proven: HashMap<String, HashSet<String>> = HashMap::new();
        for r in old.iter().filter(|r| r.move_ok && !r.r#move.is_empty()) {
            proven
                .entry(r.key.clone())
                .or_default()
                .insert(r.r#move.clone());
        }
        let done = old
            .iter()
            .map(|r| ((r.key.clone(), r.selectivity), r.clone()))
            .collect();
        Known {
            labels,
            done,
            proven,
        }
    }
}

/// The key a row names its position by.
pub(super) fn key_of(pos: &Position) -> String {
    key_hex(position_key(pos))
}

/// What the workers share.
struct Shared<'a> {
    records: &'a [(String, ObfRecord)],
    known: &'a Known,
    levels: &'a [u8],
    o: &'a CalibrateOptions,
    /// The CSV, and the rows written to it by this run.
    writer: Mutex<(&'a mut csv::Writer<File>, Vec<CalRow>)>,
    /// The next position to take.
    next: AtomicUsize,
    /// Positions with every row written.
    finished: AtomicUsize,
    /// The first error; the workers stop at it.
    failed: Mutex<Option<Error>>,
    bar: ProgressBar,
}

/// Solves every position of `records` on `o.workers` threads, writing rows to `writer`;
/// returns the new rows and how many positions got all of theirs.
pub(super) fn solve_all(
    records: &[(String, ObfRecord)],
    known: &Known,
    levels: &[u8],
    o: &CalibrateOptions,
    writer: &mut csv::Writer<File>,
) -> Result<(Vec<CalRow>, usize)> {
    let shared = Shared {
        records,
        known,
        levels,
        o,
        writer: Mutex::new((writer, Vec::new())),
        next: AtomicUsize::new(0),
        finished: AtomicUsize::new(0),
        failed: Mutex::new(None),
        bar: crate::progress::bar(
            o.progress,
            records.len() as u64,
            "{bar:40} {pos}/{len} positions  {elapsed}  ETA {eta}",
        ),
    };
    std::thread::scope(|scope| {
        for _ in 0..o.workers.max(1) {
            scope.spawn(|| work(&shared));
        }
    });
    shared.bar.finish_and_clear();
    if let Some(e) = shared.failed.into_inner().expect("no panics") {
        return Err(e);
    }
    let (_, new_rows) = shared.writer.into_inner().expect("no panics");
    Ok((new_rows, shared.finished.into_inner()))
}

/// One worker: makes its solver, then takes positions until none is left, the interrupt
/// is set or a worker failed.
fn work(shared: &Shared) {
    let o = shared.o;
    let made = Solver::try_new(SolverOptions {
        hash_mb: o.hash_mb,
        search: o.search.clone(),
        threads: 1,
        oversubscribe: false,
    });
    let mut solver = match made {
        Ok(s) => s,
        Err(e) => {
            shared.fail(e.into());
            return;
        }
    };
    solver.set_abort(o.interrupt.flag());
    loop {
        let i = shared.next.fetch_add(1, Ordering::Relaxed);
        if i >= shared.records.len()
            || o.interrupt.requested()
            || shared.failed.lock().expect("no panics").is_some()
        {
            return;
        }
        let (file, rec) = &shared.records[i];
        if calibrate_position(&mut solver, shared, file, rec).is_none() {
            return;
        }
        shared.finished.fetch_add(1, Ordering::Relaxed);
        shared.bar.inc(1);
    }
}

impl Shared<'_> {
    /// Keeps the first error.
    fn fail(&self, e: Error) {
        self.failed.lock().expect("no panics").get_or_insert(e);
    }

    /// Writes `row` (unless the interrupt is set: a solve it stopped gave up).
    fn emit(&self, row: CalRow) {
        if self.o.interrupt.requested() {
            return;
        }
        let mut w = self.writer.lock().expect("no panics");
        let r = w.0.serialize(&row).and_then(|()| Ok(w.0.flush()?));
        if let Err(e) = r {
            self.fail(Error::Csv {
                path: self.o.csv.clone(),
                source: e,
            });
        }
        w.1.push(row);
    }
}

/// The rows of one position: its exact row (from the CSV, a label or a solve), then one
/// per level the CSV lacks. `None` when the interrupt stopped a solve.
fn calibrate_position(
    solver: &mut Solver,
    shared: &Shared,
    file: &str,
    rec: &ObfRecord,
) -> Option<()> {
    let (o, known) = (shared.o, shared.known);
    let pos = rec.position;
    let key = key_of(&pos);
    let exact = match known.done.get(&(key.clone(), 100)) {
        Some(r) => r.clone(),
        None => {
            let row = match known.labels.get(&key) {
                Some(label) => label_row(&pos, file, rec.line, label, o.hash_mb),
                None => {
                    let r = solve_at(solver, o, &pos, 100)?;
                    row_of(&pos, file, rec.line, &r, None, o.hash_mb)
                }
            };
            shared.emit(row.clone());
            row
        }
    };
    let mut best = known.proven.get(&key).cloned().unwrap_or_default();
    let mut not_best = HashSet::new();
    for &level in shared.levels {
        if known.done.contains_key(&(key.clone(), level)) {
            continue;
        }
        let r = solve_at(solver, o, &pos, level)?;
        let mut row = row_of(&pos, file, rec.line, &r, Some(&exact), o.hash_mb);
        if !row.move_ok && !row.r#move.is_empty() {
            let known = (&mut best, &mut not_best);
            row.move_ok = is_best(solver, &pos, &row.r#move, exact.exact_score, known)?;
        }
        for m in &best {
            if !row.exact_moves.split(' ').any(|e| e == m) {
                row.exact_moves = format!("{} {m}", row.exact_moves);
            }
        }
        shared.emit(row);
    }
    Some(())
}

/// `pos` solved at `selectivity` (100: exactly, finding every best move, which the
/// probable move is judged against; a probable solve is what a user gets). `None` only
/// when the interrupt stopped it.
fn solve_at(
    solver: &mut Solver,
    o: &CalibrateOptions,
    pos: &Position,
    selectivity: u8,
) -> Option<SolveResult> {
    solver.clear();
    solver.set_search(SearchOptions {
        selectivity: Level::from_percent(selectivity),
        ties: o.search.ties || selectivity == 100,
        ..o.search.clone()
    });
    solver.solve_within(pos.board, Mode::Exact, None).ok()
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
