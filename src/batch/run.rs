//! The batch runner: streams positions from OBF files, skips those already in the output,
//! outside the shard or seen before, solves the rest on worker threads (one position per
//! thread, each with its own table) and appends one row per position as it finishes.
//!
//! A position given again is not solved again, but the values the repeat gives are held
//! against the one solve (`Repeats`), so that any disagreement counts as wrong.

use super::depth_label::labeller;
use super::input::{Item, Repeat, Repeats, Task, items, line_mode, regular_file};
use super::options::{BatchOptions, MAX_LABEL_DEPTH};
use super::output::BatchOut;
use super::summary::BatchSummary;
use super::worker::{Done, Job, Shared, Status, worker};
use crate::error::{BatchError, Error, Result};
use crate::results::RunInfo;
use crate::results::csv_row::batch_bad_line;
use crate::results::histogram::Distribution;
use crate::search::TABLE_TEMP_PREFIX;
use crossbeam_channel::{Receiver, Sender, bounded};
use std::collections::HashSet;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::thread::{Scope, ScopedJoinHandle};
use std::time::{Duration, Instant};

/// What pass 1 found to do: positions (and malformed lines) to write rows for, the
/// positions among them, their work in units of the bar, and the repeats to check.
struct Work {
    todo: u64,
    positions: u64,
    units: u64,
    repeats: Repeats,
}

/// Runs a batch, printing a summary to `out`.
///
/// A failed write to the output (full disk, removed directory, closed pipe) stops the
/// input reader and every worker at once and is returned; the rows written before it stay
/// a valid output to resume from.
pub fn run_batch(options: &BatchOptions, out: &mut impl Write) -> Result<BatchSummary> {
    check_request(options)?;
    let wall = Instant::now();
    // Open (and lock) the output first: a damaged or busy file stops the run before any
    // work.
    let (mut csv, resumed) = BatchOut::open(&options.out, &options.row_settings())?;
    if options.save_tables.is_some() {
        tables_dir_ready(options, &resumed.done)?;
    }
    csv.sync_every(options.fsync_every);
    let mut summary = BatchSummary {
        dropped_bytes: resumed.dropped_bytes,
        ..BatchSummary::default()
    };
    let done = resumed.done;
    let counted = count_work(options, &done, &mut summary);
    if let Some(cause) = options.interrupt.cause() {
        // Stopped while counting: nothing was solved, the output is as it was.
        csv.finish()?;
        summary.stopped = Some(cause);
        summary.wall = wall.elapsed();
        out.write_all(summary.report(&Distribution::new()).as_bytes())
            .map_err(Error::Output)?;
        return Ok(summary);
    }
    let work = counted?;
    let workers = worker_count(options, work.positions)?;

    let status = Status::new(options.progress, work.units, work.todo, workers);
    // Labellers search without a table.
    let hash_mb = if options.label_depth.is_some() {
        0
    } else {
        options.hash_mb
    };
    let info = RunInfo::current(options.position_threads, hash_mb);
    let mut dist = Distribution::new();
    let shared = Shared {
        options,
        info: &info,
        status: &status,
        repeats: &work.repeats,
        interrupted: AtomicU64::new(0),
        resumed: AtomicU64::new(0),
        failed: std::sync::Mutex::new(None),
    };
    let mut rows = Rows {
        csv: &mut csv,
        out,
        status: &status,
        summary: &mut summary,
        dist: &mut dist,
    };
    let outcome = solve_all(&shared, workers, &done, &mut rows);
    summary.stopped = options.interrupt.cause();
    summary.interrupted = shared.interrupted.load(Relaxed);
    summary.resumed = shared.resumed.load(Relaxed);
    status.bar.finish_and_clear();
    match outcome {
        // Whatever was written is synced; an error in doing so only follows the first.
        Err(e) => {
            let _ = csv.sync();
            return Err(e);
        }
        Ok(()) => csv.finish()?,
    }
    summary.wall = wall.elapsed();
    out.write_all(summary.report(&dist).as_bytes())
        .and_then(|()| writeln!(out, "csv           {}", csv.path().display()))
        .map_err(Error::Output)?;
    Ok(summary)
}

/// Makes the directory of saved tables, and removes what a kill left in it (the output's
/// lock makes this run its only user): partial saves, and the tables of rows already
/// written (a kill between a row and its table's removal).
fn tables_dir_ready(options: &BatchOptions, done: &HashSet<Task>) -> Result<()> {
    let dir = options.tables_dir();
    let failed = |source| BatchError::TablesDir {
        path: dir.clone(),
        source,
    };
    std::fs::create_dir_all(&dir).map_err(failed)?;
    for entry in std::fs::read_dir(&dir).map_err(failed)? {
        let path = entry.map_err(failed)?.path();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let partial = name.starts_with(TABLE_TEMP_PREFIX) && name.ends_with(".tmp");
        let written = name
            .strip_suffix(".table")
            .and_then(crate::board::key::parse_key)
            .is_some_and(|task| done.contains(&task) && options.table_path(task) == path);
        if partial || written {
            std::fs::remove_file(&path).map_err(failed)?;
        }
    }
    Ok(())
}

/// Refuses, before anything is opened, a batch that cannot run as asked.
fn check_request(options: &BatchOptions) -> Result<()> {
    if options.inputs.is_empty() {
        return Err(BatchError::NoInput.into());
    }
    if options.threads == 0 {
        return Err(BatchError::NoThreads.into());
    }
    if !(1..=options.threads).contains(&options.position_threads) {
        return Err(BatchError::PositionThreads {
            per: options.position_threads,
            threads: options.threads,
        }
        .into());
    }
    if let Some(depth) = options.label_depth {
        if depth > MAX_LABEL_DEPTH {
            return Err(BatchError::LabelDepth(depth).into());
        }
        if options.search.eval.0.is_none() {
            return Err(BatchError::NoEvaluation.into());
        }
    }
    if options.search.selectivity.is_probcut() {
        // Rows are keyed by position and mode: a probable answer must not merge with or
        // stand in for an exact one.
        return Err(BatchError::Selective(options.search.selectivity.percent()).into());
    }
    for path in &options.inputs {
        regular_file(path)?;
    }
    Ok(())
}

/// Pass 1: validates every line and counts the work, keeping only keys in memory (and the
/// values of repeats that give some); counts what is read, skipped and done in `summary`.
fn count_work(
    options: &BatchOptions,
    done: &HashSet<Task>,
    summary: &mut BatchSummary,
) -> Result<Work> {
    let labels = options.label_depth.is_some();
    let mut seen = HashSet::new();
    let mut work = Work {
        todo: 0,
        positions: 0,
        units: 0,
        repeats: Repeats::new(),
    };
    items(&options.inputs, options.skip_bad, |item| {
        if options.interrupt.requested() {
            return Err(BatchError::Stopped.into());
        }
        let task = item.task(options.mode, labels);
        let (key, position, units) = match &item {
            Item::Position {
                key, record, file, ..
            } => {
                if labels && record.window.is_some() {
                    return Err(BatchError::WindowInLabels {
                        path: options.inputs[*file].clone(),
                        line: record.line,
                    }
                    .into());
                }
                let empties = record.position.board.empty_count();
                (*key, true, crate::progress::work_of(empties))
            }
            Item::Bad { key, .. } => (*key, false, 1),
        };
        if !options.shard.contains(key) {
            summary.other_shards += 1;
        } else {
            summary.read += 1;
            if !seen.insert(task) {
                summary.duplicates += 1;
                if let Item::Position { file, record, .. } = item
                    && record.expected_score().is_some()
                    && !done.contains(&task)
                {
                    work.repeats.entry(task).or_default().push(Repeat {
                        file,
                        line: record.line,
                        expected: record.expected,
                        score: record.score,
                    });
                }
            } else if done.contains(&task) {
                summary.already_done += 1;
            } else {
                work.todo += 1;
                work.positions += u64::from(position);
                work.units += units;
            }
        }
        Ok(())
    })?;
    Ok(work)
}

/// No more workers than positions to solve, since each allocates a whole table; refuses
/// tables this machine cannot hold.
fn worker_count(options: &BatchOptions, positions: u64) -> Result<usize> {
    let at_once = options.threads / options.position_threads;
    let workers = usize::try_from(positions).map_or(at_once, |p| at_once.min(p));
    let tables_mb = (workers as u64).saturating_mul(options.hash_mb as u64);
    // Labellers search without a table.
    if workers > 0 && options.label_depth.is_none() {
        crate::results::check_hash_mb(tables_mb).map_err(|e| {
            Error::from(BatchError::Tables {
                workers,
                threads: options.threads,
                hash_mb: options.hash_mb,
                why: e,
            })
        })?;
    }
    Ok(workers)
}

/// Where finished rows go, and what they add to.
struct Rows<'r, W: Write> {
    csv: &'r mut BatchOut,
    out: &'r mut W,
    status: &'r Status,
    summary: &'r mut BatchSummary,
    dist: &'r mut Distribution,
}

/// Pass 2: solves every position to do on `workers` threads while a reader hands them
/// out and this thread writes their rows as they finish.
fn solve_all<W: Write>(
    shared: &Shared,
    workers: usize,
    done: &HashSet<Task>,
    rows: &mut Rows<'_, W>,
) -> Result<()> {
    let options = shared.options;
    // Set by the interrupt, or when the output fails: the reader stops handing out work
    // and every solve in progress gives up.
    let stop = options.interrupt.flag();
    std::thread::scope(|scope| {
        // The channels live in this scope, so that every way out of it closes them and
        // no thread waits on one for ever.
        // Only the workers hold the job receiver: once they have all stopped, the
        // reader's next send fails instead of waiting.
        let (job_tx, job_rx) = bounded::<Job>(workers.saturating_mul(2));
        // Bounded both ways: when the writer (one flush per row) is slower than the
        // solvers, as with millions of tiny positions, they wait instead of queueing rows
        // in memory.
        let (done_tx, done_rx) = bounded::<Done>(workers.saturating_mul(4).max(1));
        let handles = spawn_workers(scope, shared, workers, &job_rx, &done_tx, &stop)?;
        drop(job_rx);
        // Malformed-line rows go straight to the writer.
        let stop_reader = Arc::clone(&stop);
        let reader = move || dispatch(options, done, &job_tx, &done_tx, &stop_reader);
        let producer = match std::thread::Builder::new()
            .name("batch-reader".into())
            .spawn_scoped(scope, reader)
        {
            Ok(p) => p,
            Err(e) => {
                stop.store(true, Relaxed);
                return Err(BatchError::ReaderThread(e).into());
            }
        };
        let write_error = write_rows(&done_rx, rows, &stop);
        // Workers waiting to hand over a row now see the writer gone.
        drop(done_rx);
        let read = producer.join();
        // Every handle is joined (not short-circuited): a panic left unjoined would
        // panic the scope.
        let panicked = handles
            .into_iter()
            .map(|h| h.join().is_err())
            .filter(|&p| p)
            .count();
        // The first failure is the cause; the reader's "stopped" only follows from it.
        if let Some(e) = write_error {
            return Err(e);
        }
        if panicked > 0 {
            return Err(BatchError::WorkerPanicked.into());
        }
        if let Some(e) = shared.failed.lock().ok().and_then(|mut f| f.take()) {
            return Err(e);
        }
        let read = read.map_err(|_| Error::from(BatchError::ReaderPanicked))?;
        // Stopped on purpose: the reader's "stopped" is no failure.
        if options.interrupt.cause().is_some() {
            return Ok(());
        }
        read
    })
}

/// Starts `workers` worker threads; if one cannot start, stops those that did.
fn spawn_workers<'scope, 'env>(
    scope: &'scope Scope<'scope, 'env>,
    shared: &'env Shared<'env>,
    workers: usize,
    jobs: &Receiver<Job>,
    done: &Sender<Done>,
    stop: &Arc<AtomicBool>,
) -> Result<Vec<ScopedJoinHandle<'scope, ()>>> {
    let mut handles = Vec::with_capacity(workers);
    for i in 0..workers {
        let (jobs, done, flag) = (jobs.clone(), done.clone(), Arc::clone(stop));
        let spawned = std::thread::Builder::new()
            .name(format!("batch-{i}"))
            .spawn_scoped(scope, move || {
                match (shared.options.label_depth, &shared.options.search.eval.0) {
                    (Some(depth), Some(eval)) => labeller(shared, eval, depth, &jobs, &done, &flag),
                    _ => worker(shared, i, &jobs, &done, &flag),
                }
            });
        match spawned {
            Ok(h) => handles.push(h),
            Err(e) => {
                stop.store(true, Relaxed);
                return Err(BatchError::WorkerThread {
                    number: i + 1,
                    workers,
                    cause: e,
                }
                .into());
            }
        }
    }
    Ok(handles)
}

/// The reader of pass 2: hands each position of this shard not yet done (once) to the
/// workers, and each malformed line's row to the writer, until the input ends or `stop`.
fn dispatch(
    options: &BatchOptions,
    done: &HashSet<Task>,
    jobs: &Sender<Job>,
    rows: &Sender<Done>,
    stop: &AtomicBool,
) -> Result<()> {
    let stopped = || Error::from(BatchError::Stopped);
    let mut dispatched = HashSet::new();
    items(&options.inputs, options.skip_bad, |item| {
        if stop.load(Relaxed) {
            return Err(stopped());
        }
        let task = item.task(options.mode, options.label_depth.is_some());
        let key = match &item {
            Item::Position { key, .. } | Item::Bad { key, .. } => *key,
        };
        if !options.shard.contains(key) || done.contains(&task) || !dispatched.insert(task) {
            return Ok(());
        }
        match item {
            Item::Position {
                file,
                index,
                key,
                record,
            } => {
                // Fails only once every worker has stopped.
                let job = Job {
                    file,
                    index,
                    key,
                    mode: line_mode(&record, options.mode),
                    task,
                    record,
                };
                jobs.send(job).map_err(|_| {
                    if stop.load(Relaxed) {
                        stopped()
                    } else {
                        BatchError::WorkersStopped.into()
                    }
                })
            }
            Item::Bad {
                file,
                line,
                key,
                text,
                error,
            } => rows
                .send(bad_line_row(options, file, line, key, text, error))
                .map_err(|_| stopped()),
        }
    })
}

/// The row of a malformed input line (with `--skip-bad`).
fn bad_line_row(
    options: &BatchOptions,
    file: usize,
    line: usize,
    key: u64,
    text: String,
    error: String,
) -> Done {
    Done {
        fields: batch_bad_line(&options.inputs[file], line, key, text, &error),
        work: 1,
        nodes: 0,
        time: Duration::ZERO,
        best_found: Duration::ZERO,
        timed_out: false,
        wrong: false,
        repeats_wrong: Vec::new(),
        bad_line: true,
        table: None,
    }
}

/// The writer: rows in the order positions finish, each counted in the summary; the
/// first failed write sets `stop` and is returned.
fn write_rows<W: Write>(
    finished: &Receiver<Done>,
    rows: &mut Rows<'_, W>,
    stop: &AtomicBool,
) -> Option<Error> {
    for d in finished.iter() {
        let written = rows.csv.write_row(&d.fields).and_then(|()| {
            d.repeats_wrong
                .iter()
                .try_for_each(|line| writeln!(rows.out, "{line}").map_err(Error::Output))
        });
        if let Err(e) = written {
            // Stop everything now rather than solve positions that cannot be written.
            stop.store(true, Relaxed);
            return Some(e);
        }
        rows.status.row_written(d.work);
        if let Some(table) = &d.table {
            // The row holds the answer now; a table that will not go is only a stale file.
            let _ = std::fs::remove_file(table);
        }
        let summary = &mut *rows.summary;
        if d.bad_line {
            summary.errors += 1;
            continue;
        }
        summary.nodes += d.nodes;
        summary.time += d.time;
        summary.best_found += d.best_found;
        rows.dist.record(d.nodes, d.time);
        if d.timed_out {
            summary.timeouts += 1;
        } else {
            summary.solved += 1;
        }
        summary.wrong += u64::from(d.wrong);
    }
    None
}
