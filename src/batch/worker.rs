//! The batch's workers: each solves positions with its own table and hands the writer
//! one row per position (solved, or given up at the time or node limit with its last probable
//! answer), keeping the bar's status line current.

use super::input::{Repeats, Task};
use super::options::BatchOptions;
use crate::board::ObfRecord;
use crate::board::key::key_hex;
use crate::error::{BatchError, Error};
use crate::results::check::check_values;
use crate::results::csv_row::{BatchSource, batch_solved, batch_timeout};
use crate::results::format::{move_scores_string, moves_string, pass_level, score_string};
use crate::results::{BatchRow, RunInfo, checked_row};
use crate::search::{
    Mode, PassReport, SavedTable, SolveResult, Solver, SolverOptions, TableSaves, TimedOut,
};
use crossbeam_channel::{Receiver, Sender};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A finished position (or a malformed line's row), from a worker to the writer.
pub(super) struct Done {
    pub(super) fields: BatchRow,
    /// Units of the bar ([`crate::progress::work_of`]).
    pub(super) work: u64,
    pub(super) nodes: u64,
    pub(super) time: Duration,
    pub(super) best_found: Duration,
    pub(super) timed_out: bool,
    pub(super) wrong: bool,
    /// Repeats of the position whose values disagree with its solve, one line each.
    pub(super) repeats_wrong: Vec<String>,
    /// A malformed input line, not a solve.
    pub(super) bad_line: bool,
    /// The position's saved table (`--save-tables`), removed once the row is written.
    pub(super) table: Option<PathBuf>,
}

/// What the workers share besides the channels.
pub(super) struct Shared<'a> {
    pub(super) options: &'a BatchOptions,
    pub(super) info: &'a RunInfo,
    pub(super) status: &'a Status,
    pub(super) repeats: &'a Repeats,
    /// Solves given up at an interrupt.
    pub(super) interrupted: AtomicU64,
    /// Positions resumed from a saved table.
    pub(super) resumed: AtomicU64,
    /// The first worker's failure (a saved table that cannot be loaded or saved); the
    /// run stops at it.
    pub(super) failed: Mutex<Option<Error>>,
}

impl Shared<'_> {
    /// Keeps the first failure.
    fn fail(&self, e: Error) {
        if let Ok(mut failed) = self.failed.lock() {
            failed.get_or_insert(e);
        }
    }

    /// True once a worker failed.
    fn has_failed(&self) -> bool {
        self.failed.lock().map_or(true, |f| f.is_some())
    }
}

/// The bar and what it says: rows written out of those to write, and what each worker is
/// solving (its position's empties and last finished pass).
pub(super) struct Status {
    pub(super) bar: indicatif::ProgressBar,
    pub(super) todo: u64,
    pub(super) written: AtomicU64,
    pub(super) solving: Mutex<Vec<String>>,
}

impl Status {
    /// The status of a run of `todo` rows worth `units` of work, on `workers` threads.
    /// The bar counts work by the positions' empties, as the suite's does, so that its ETA
    /// holds when the deep positions come last.
    pub(super) fn new(progress: bool, units: u64, todo: u64, workers: usize) -> Status {
        Status {
            bar: crate::progress::bar(
                progress,
                units,
                "{bar:40} {percent:>3}% of the work  {msg}  {elapsed}  ETA {eta}",
            ),
            todo,
            written: AtomicU64::new(0),
            solving: Mutex::new(vec![String::new(); workers]),
        }
    }

    /// Worker `slot` is now at `what`.
    fn set(&self, slot: usize, what: String) {
        if self.bar.is_hidden() {
            return;
        }
        let Ok(mut solving) = self.solving.lock() else {
            return;
        };
        if let Some(s) = solving.get_mut(slot) {
            *s = what;
        }
        let busy: Vec<&str> = solving
            .iter()
            .map(String::as_str)
            .filter(|s| !s.is_empty())
            .collect();
        let mut message = format!("{}/{} positions", self.written.load(Relaxed), self.todo);
        if !busy.is_empty() {
            message += &format!("; solving {}", busy.join(", "));
        }
        self.bar.set_message(message);
    }

    /// A row of `work` units was written.
    pub(super) fn row_written(&self, work: u64) {
        self.written.fetch_add(1, Relaxed);
        self.bar.inc(work);
    }
}

/// Solves one position and builds its row; `None` when the interrupt stopped it. With
/// `--save-tables`, the solve starts from the position's saved table if it has one and
/// saves its own as it goes.
fn solve_one(
    solver: &mut Solver,
    shared: &Shared,
    slot: usize,
    job: &Job,
) -> Result<Option<Done>, Error> {
    let options = shared.options;
    let record = &job.record;
    let empties = record.position.board.empty_count();
    shared.status.set(slot, format!("{empties} empties"));
    let mut on_pass = |p: &PassReport| {
        shared
            .status
            .set(slot, format!("{empties} empties {}", pass_level(p)));
    };
    solver.clear();
    let table = options.save_tables.map(|every| TableSaves {
        path: options.table_path(job.task),
        every,
    });
    let carried = match &table {
        Some(saves) => resume_table(solver, shared, &saves.path, &record.position.board)?,
        None => SavedTable::default(),
    };
    solver.set_table_saves(table.clone());
    let solved = solver.solve_reporting(
        record.position.board,
        job.mode,
        options.time_limit,
        &mut on_pass,
    );
    shared.status.set(slot, String::new());
    // A failed save stops the run once this position's row is written: the row holds
    // the answer whether or not the table was saved.
    let save_failed = solver
        .take_save_error()
        .map(|(path, source)| Error::from(BatchError::TableSave { path, source }));
    if let Some(e) = save_failed {
        shared.fail(e);
    }
    let work = crate::progress::work_of(empties);
    // A resumed row counts the work its table carries, as if one run had done it all.
    let (nodes, time) = (carried.nodes, Duration::from_secs_f64(carried.seconds));
    let mut done = match solved {
        Ok(mut result) => {
            (result.nodes, result.time) = (result.nodes + nodes, result.time + time);
            solved_row(shared, job, result, work)
        }
        Err(_) if options.interrupt.requested() => return Ok(None),
        Err(mut t) => {
            (t.nodes, t.time) = (t.nodes + nodes, t.time + time);
            timeout_row(shared, job, &t, work)
        }
    };
    done.table = table.map(|t| t.path);
    Ok(Some(done))
}

/// Loads the position's table saved at `path` by an earlier run, if there is one, and
/// returns the work it carries.
fn resume_table(
    solver: &mut Solver,
    shared: &Shared,
    path: &std::path::Path,
    board: &crate::board::Board,
) -> Result<SavedTable, Error> {
    if !path.exists() {
        return Ok(SavedTable::default());
    }
    let carried = solver
        .load_table(path, board)
        .map_err(|source| BatchError::TableFile {
            path: path.to_path_buf(),
            source,
        })?;
    shared.resumed.fetch_add(1, Relaxed);
    Ok(carried)
}

/// The lines saying which repeats of `job`'s position give values its solve disagrees
/// with.
fn disagreeing_repeats(shared: &Shared, job: &Job, result: &SolveResult) -> Vec<String> {
    let options = shared.options;
    let (file, record) = (&options.inputs[job.file], &job.record);
    shared
        .repeats
        .get(&job.task)
        .into_iter()
        .flatten()
        .filter(|r| {
            let verdict = check_values(
                job.mode,
                &r.expected,
                r.score,
                result.score,
                &result.best_moves,
                &result.move_scores,
            );
            verdict.ok() == Some(false)
        })
        .map(|r| {
            format!(
                "wrong: {}:{} gives {}, but the same position ({}:{}, key {}) {}",
                options.inputs[r.file].display(),
                r.line,
                match r.score {
                    Some(alone) => format!("{alone:+}"),
                    None => move_scores_string(&r.expected),
                },
                file.display(),
                record.line,
                key_hex(job.key),
                verdict_text(job.mode, result)
            )
        })
        .collect()
}

/// The row of a finished solve, checked against the values its line and repeats give.
fn solved_row(shared: &Shared, job: &Job, result: SolveResult, work: u64) -> Done {
    let (nodes, time) = (result.nodes, result.time);
    let best_found = result.best_found.unwrap_or_default();
    let repeats_wrong = disagreeing_repeats(shared, job, &result);
    let file = &shared.options.inputs[job.file];
    let mut row = checked_row(file, job.index, &job.record, result);
    row.variant = shared.options.row_variant();
    let wrong = row.verdict.ok() == Some(false) || !repeats_wrong.is_empty();
    Done {
        fields: batch_solved(&row, shared.info, repeats_wrong.is_empty()),
        work,
        nodes,
        time,
        best_found,
        timed_out: false,
        wrong,
        repeats_wrong,
        bad_line: false,
        table: None,
    }
}

/// The row of a solve given up at the time or node limit: what its last finished pass said.
fn timeout_row(shared: &Shared, job: &Job, t: &TimedOut, work: u64) -> Done {
    let options = shared.options;
    let at = BatchSource {
        file: &options.inputs[job.file],
        index: job.index,
        record: &job.record,
    };
    let mut fields = batch_timeout(&at, job.mode, t, shared.info);
    fields.0.variant = options.row_variant();
    Done {
        fields,
        work,
        nodes: t.nodes,
        time: t.time,
        best_found: Duration::ZERO,
        timed_out: true,
        wrong: false,
        repeats_wrong: Vec::new(),
        bad_line: false,
        table: None,
    }
}

/// A solve's answer, for the line that says a repeat disagrees: `solved +4 (best F1 G2)`.
fn verdict_text(mode: Mode, result: &SolveResult) -> String {
    format!(
        "solved {} (best {})",
        score_string(mode, result.score),
        moves_string(&result.best_moves)
    )
}

/// A position for a worker, and where it was read.
pub(super) struct Job {
    /// Its input file, an index into the batch's inputs.
    pub(super) file: usize,
    /// 1-based index of the position within that file.
    pub(super) index: usize,
    /// Its position key.
    pub(super) key: u64,
    /// What it is solved for: its line's window, or the run's mode.
    pub(super) mode: Mode,
    /// Its key and window, as repeats and rows know it.
    pub(super) task: Task,
    /// The position, its line and the values the line gives.
    pub(super) record: ObfRecord,
}

/// One worker thread: solves positions from `jobs` with its own table and sends their rows
/// to the writer, until the jobs run out or `stop` is set (a solve in progress then gives
/// up within a few thousand nodes; after an interrupt its result is dropped and counted in
/// `interrupted`, a solve that had finished is still written).
pub(super) fn worker(
    shared: &Shared,
    slot: usize,
    jobs: &Receiver<Job>,
    done: &Sender<Done>,
    stop: &Arc<AtomicBool>,
) {
    let options = shared.options;
    // Every thread asked for runs, as the workers do, so that rows name what searched.
    let started = Solver::try_new(SolverOptions {
        hash_mb: options.hash_mb,
        search: options.search.clone(),
        threads: options.position_threads,
        oversubscribe: true,
    });
    let mut solver = match started {
        Ok(s) => s,
        Err(e) => {
            shared.fail(e.into());
            stop.store(true, Relaxed);
            return;
        }
    };
    solver.set_abort(Arc::clone(stop));
    solver.set_node_budget(options.node_limit);
    while !stop.load(Relaxed) {
        let Ok(job) = jobs.recv() else {
            return;
        };
        // A solve the interrupt cut short writes no row: a rerun solves it again.
        let d = match solve_one(&mut solver, shared, slot, &job) {
            Ok(Some(d)) => d,
            Ok(None) => {
                shared.interrupted.fetch_add(1, Relaxed);
                return;
            }
            Err(e) => {
                shared.fail(e);
                stop.store(true, Relaxed);
                return;
            }
        };
        if done.send(d).is_err() || shared.has_failed() {
            stop.store(true, Relaxed);
            return;
        }
    }
}
