//! The batch runner: streams positions from OBF files, skips those already in the output,
//! outside the shard or seen before, solves the rest on worker threads (one position per
//! thread, each with its own table) and appends one row per position as it finishes.
//!
//! A position given again is not solved again, but the values the repeat gives are held
//! against the one solve (`Repeats`), so that any disagreement counts as wrong.

use super::output::BatchOut;
use super::output::{BatchColumns, BatchRow};
use super::shard::Shard;
use crate::board::key::{key_hex, line_key, position_key};
use crate::board::{ObfRecord, Square, parse_obf_line};
use crate::error::{BatchError, Error, Result};
use crate::interrupt::Interrupt;
use crate::results::check::check;
use crate::results::csv_out::{CsvRow, RunInfo, megabytes, seconds};
use crate::results::format::{move_scores_string, moves_string, pass_level, score_string};
use crate::results::histogram::Distribution;
use crate::results::{checked_row, peak_mb};
use crate::search::{Mode, PassReport, SearchOptions, SolveResult, Solver, SolverOptions};
use crate::settings::OBF_MAX_LINE_BYTES;
use crossbeam_channel::{Receiver, Sender, bounded};
use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How to run a batch.
#[derive(Clone, Debug)]
pub struct BatchOptions {
    /// OBF input files.
    pub inputs: Vec<PathBuf>,
    /// The output CSV (appended to).
    pub out: PathBuf,
    /// What to solve for.
    pub mode: Mode,
    /// Table size per worker thread, in MB.
    pub hash_mb: usize,
    /// Positions solved at once (one thread each).
    pub threads: usize,
    /// Give up on a position after this long.
    pub time_limit: Option<Duration>,
    /// The part of the input this run solves.
    pub shard: Shard,
    /// Record malformed input lines as `error` rows instead of stopping.
    pub skip_bad: bool,
    /// Search switches.
    pub search: SearchOptions,
    /// Draw a progress bar on stderr (only when it is a terminal).
    pub progress: bool,
    /// Sync the output to disk at least this often (zero: after every row).
    pub fsync_every: Duration,
    /// Stops the run when set (by SIGINT or SIGTERM in the CLI): no new position is
    /// started, the solves in progress give up and write no row (a rerun solves them),
    /// and the rows written stay a valid output to resume from. A failed write sets it
    /// too, to stop every worker (the run then returns that error): give each run its own.
    pub interrupt: Interrupt,
}

/// What a batch run did.
#[derive(Debug, Default)]
pub struct BatchSummary {
    /// Positions (and malformed lines) read in this shard, duplicates included.
    pub read: u64,
    /// Positions belonging to other shards.
    pub other_shards: u64,
    /// Repeats of a position seen earlier in the input.
    pub duplicates: u64,
    /// Positions already in the output from an earlier run.
    pub already_done: u64,
    /// Rows written: solved.
    pub solved: u64,
    /// Rows written: gave up at the time limit.
    pub timeouts: u64,
    /// Rows written: malformed input lines (with `skip_bad`).
    pub errors: u64,
    /// Solved positions whose answer disagrees with a value the input gives, at any of
    /// its occurrences.
    pub wrong: u64,
    /// Nodes over the rows written.
    pub nodes: u64,
    /// Solve time over the rows written (summed over threads).
    pub time: Duration,
    /// Wall time of the run.
    pub wall: Duration,
    /// Bytes of a torn last row dropped from the output.
    pub dropped_bytes: u64,
    /// What stopped the run before its end (`SIGINT`, ...), if anything did.
    pub stopped: Option<&'static str>,
    /// Solves given up when the run was stopped: no row, solved again on resume.
    pub interrupted: u64,
    /// Time until the best move was settled, over the solved rows.
    pub best_found: Duration,
}

impl BatchSummary {
    /// The summary block printed at the end.
    pub fn report(&self, dist: &Distribution) -> String {
        let secs = self.wall.as_secs_f64();
        let nps = if secs > 0.0 {
            self.nodes as f64 / secs
        } else {
            0.0
        };
        let stopped = match self.stopped {
            Some(cause) => format!(
                "stopped       by {cause}; {} solves in progress given up (no row: the same \
                 command resumes)\n",
                self.interrupted
            ),
            None => String::new(),
        };
        format!(
            "{stopped}read          {}\nother shards  {}\nduplicates    {}\nalready done  {}\n\
             solved        {}\ntimeouts      {}\nerrors        {}\nwrong         {}\n\
             nodes         {}\nwall time     {:.3} s\nnps (wall)    {:.0}\n\
             best found    {:.3} s (total)\npeak memory   {}\n{}",
            self.read,
            self.other_shards,
            self.duplicates,
            self.already_done,
            self.solved,
            self.timeouts,
            self.errors,
            self.wrong,
            self.nodes,
            secs,
            nps,
            self.best_found.as_secs_f64(),
            crate::results::machine::peak_memory_kb().map_or("unknown".to_string(), |kb| format!(
                "{:.1} MB",
                kb as f64 / 1024.0
            )),
            dist.report()
        )
    }
}

/// One input line, as the batch sees it.
enum Item {
    /// A position to solve.
    Position {
        file: usize,
        index: usize,
        key: u64,
        record: ObfRecord,
    },
    /// A malformed line (kept only with `skip_bad`).
    Bad {
        file: usize,
        /// Its line in the file.
        line: usize,
        key: u64,
        text: String,
        error: String,
    },
}

/// Streams the items of the input files in order; `Err` for unreadable files and, unless
/// `skip_bad`, malformed lines.
fn items(
    inputs: &[PathBuf],
    skip_bad: bool,
    mut visit: impl FnMut(Item) -> Result<()>,
) -> Result<()> {
    for (f, path) in inputs.iter().enumerate() {
        let io = |source| Error::Io {
            path: path.clone(),
            source,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        let mut reader = BufReader::new(file);
        let mut bytes = Vec::new();
        let (mut number, mut index) = (0usize, 0usize);
        loop {
            // Bounded: a file that is not text must not be read into memory as one line.
            bytes.clear();
            let limit = OBF_MAX_LINE_BYTES as u64 + 1;
            if (&mut reader)
                .take(limit)
                .read_until(b'\n', &mut bytes)
                .map_err(io)?
                == 0
            {
                break;
            }
            number += 1;
            if bytes.len() > OBF_MAX_LINE_BYTES && bytes.last() != Some(&b'\n') {
                return Err(BatchError::LineTooLong {
                    path: path.clone(),
                    line: number,
                    max: OBF_MAX_LINE_BYTES,
                }
                .into());
            }
            // Bytes that are not UTF-8 become U+FFFD, which the OBF parser then reports
            // with its column (or `--skip-bad` records).
            let line = String::from_utf8_lossy(&bytes);
            match parse_obf_line(&line) {
                Ok(None) => {}
                Ok(Some(mut record)) => {
                    index += 1;
                    record.line = number;
                    let key = position_key(&record.position);
                    visit(Item::Position {
                        file: f,
                        index,
                        key,
                        record,
                    })?;
                }
                Err(error) => {
                    let error = crate::board::ReadError::Obf {
                        origin: path.display().to_string(),
                        line: number,
                        error,
                    };
                    if !skip_bad {
                        return Err(error.into());
                    }
                    let text = line.trim().to_string();
                    visit(Item::Bad {
                        file: f,
                        line: number,
                        key: line_key(&text),
                        text,
                        error: error.to_string(),
                    })?;
                }
            }
        }
    }
    Ok(())
}

/// Checks that `path` is a regular file: inputs are read twice (to count, then to solve),
/// and a pipe or device would give nothing, or something else, the second time.
pub(crate) fn regular_file(path: &Path) -> Result<()> {
    let meta = std::fs::metadata(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    if meta.is_file() {
        Ok(())
    } else {
        Err(BatchError::NotRegular(path.to_path_buf()).into())
    }
}

/// The values that repeats of a position give (`MOVE:SCORE` pairs on a later line of the
/// same position), by key, to be checked against the one solve. Only repeats that give
/// values and are to be solved in this run are kept, so a batch of millions of distinct
/// positions keeps nothing here.
type Repeats = HashMap<u64, Vec<Repeat>>;

/// A later occurrence of a position, with the values it gives.
struct Repeat {
    /// Index of its input file.
    file: usize,
    /// 1-based line in that file.
    line: usize,
    /// Its `MOVE:SCORE` pairs.
    expected: Vec<(Square, i32)>,
}

/// A finished position (or a malformed line's row), from a worker to the writer.
struct Done {
    fields: BatchRow,
    /// Units of the bar ([`crate::progress::work_of`]).
    work: u64,
    nodes: u64,
    time: Duration,
    best_found: Duration,
    timed_out: bool,
    wrong: bool,
    /// Repeats of the position whose values disagree with its solve, one line each.
    repeats_wrong: Vec<String>,
    /// A malformed input line, not a solve.
    bad_line: bool,
}

/// What the workers share besides the channels.
struct Shared<'a> {
    options: &'a BatchOptions,
    info: &'a RunInfo,
    status: &'a Status,
    repeats: &'a Repeats,
    /// Solves given up at an interrupt.
    interrupted: AtomicU64,
}

/// The bar and what it says: rows written out of those to write, and what each worker is
/// solving (its position's empties and last finished pass).
struct Status {
    bar: indicatif::ProgressBar,
    todo: u64,
    written: AtomicU64,
    solving: Mutex<Vec<String>>,
}

impl Status {
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
    fn row_written(&self, work: u64) {
        self.written.fetch_add(1, Relaxed);
        self.bar.inc(work);
    }
}

/// Solves one position and builds its row; `None` when the interrupt stopped it.
fn solve_one(solver: &mut Solver, shared: &Shared, slot: usize, job: &Job) -> Option<Done> {
    let (options, info) = (shared.options, shared.info);
    let (file, index, record) = (&options.inputs[job.0], job.1, &job.3);
    let empties = record.position.board.empty_count();
    shared.status.set(slot, format!("{empties} empties"));
    let mut on_pass = |p: &PassReport| {
        shared
            .status
            .set(slot, format!("{empties} empties {}", pass_level(p)));
    };
    solver.clear();
    let solved = solver.solve_reporting(
        record.position.board,
        options.mode,
        options.time_limit,
        &mut on_pass,
    );
    shared.status.set(slot, String::new());
    let work = crate::progress::work_of(empties);
    match solved {
        Ok(result) => {
            let (nodes, time) = (result.nodes, result.time);
            let best_found = result.best_found.unwrap_or_default();
            let repeats_wrong: Vec<String> = shared
                .repeats
                .get(&job.2)
                .into_iter()
                .flatten()
                .filter(|r| {
                    let verdict = check(
                        options.mode,
                        &r.expected,
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
                        move_scores_string(&r.expected),
                        file.display(),
                        record.line,
                        key_hex(job.2),
                        verdict_text(options.mode, &result)
                    )
                })
                .collect();
            let row = checked_row(file, index, record, result);
            let wrong = row.verdict.ok() == Some(false) || !repeats_wrong.is_empty();
            let mut csv_row = crate::results::csv_out::record(&row, info);
            if !repeats_wrong.is_empty() {
                // The row is the position's only one: it is not ok if any occurrence
                // disagrees.
                csv_row.ok = Some(false);
            }
            let fields = (
                csv_row,
                BatchColumns {
                    status: "solved".into(),
                    line: record.line.to_string(),
                    ..BatchColumns::default()
                },
            );
            Some(Done {
                fields,
                work,
                nodes,
                time,
                best_found,
                timed_out: false,
                wrong,
                repeats_wrong,
                bad_line: false,
            })
        }
        Err(_) if options.interrupt.requested() => None,
        Err(t) => {
            let pass = t.last_pass.as_ref();
            let fields = (
                CsvRow {
                    mode: options.mode.name().to_string(),
                    nodes: Some(t.nodes),
                    time_s: seconds(t.time),
                    peak_mb: megabytes(peak_mb()),
                    ..CsvRow::of_position(index, file, &record.position, info)
                },
                BatchColumns {
                    status: "timeout".into(),
                    probable_score: pass
                        .map(|p| score_string(options.mode, p.score))
                        .unwrap_or_default(),
                    probable_level: pass.map(pass_level).unwrap_or_default(),
                    probable_move: pass
                        .and_then(|p| p.best)
                        .map(|m| m.to_string())
                        .unwrap_or_default(),
                    line: record.line.to_string(),
                },
            );
            Some(Done {
                fields,
                work,
                nodes: t.nodes,
                time: t.time,
                best_found: Duration::ZERO,
                timed_out: true,
                wrong: false,
                repeats_wrong: Vec::new(),
                bad_line: false,
            })
        }
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

/// A position for a worker.
type Job = (usize, usize, u64, ObfRecord);

/// One worker thread: solves positions from `jobs` with its own table and sends their rows
/// to the writer, until the jobs run out or `stop` is set (a solve in progress then gives
/// up within a few thousand nodes; after an interrupt its result is dropped and counted in
/// `interrupted`, a solve that had finished is still written).
fn worker(
    shared: &Shared,
    slot: usize,
    jobs: &Receiver<Job>,
    done: &Sender<Done>,
    stop: &Arc<AtomicBool>,
) {
    let options = shared.options;
    let mut solver = Solver::new(SolverOptions {
        hash_mb: options.hash_mb,
        search: options.search.clone(),
        threads: 1,
        oversubscribe: false,
    });
    solver.set_abort(Arc::clone(stop));
    while !stop.load(Relaxed) {
        let Ok(job) = jobs.recv() else {
            return;
        };
        // A solve the interrupt cut short writes no row: a rerun solves it again.
        let Some(d) = solve_one(&mut solver, shared, slot, &job) else {
            shared.interrupted.fetch_add(1, Relaxed);
            return;
        };
        if done.send(d).is_err() {
            return;
        }
    }
}

/// Runs a batch, printing a summary to `out`.
///
/// A failed write to the output (full disk, removed directory, closed pipe) stops the
/// input reader and every worker at once and is returned; the rows written before it stay
/// a valid output to resume from.
pub fn run_batch(options: &BatchOptions, out: &mut impl Write) -> Result<BatchSummary> {
    if options.inputs.is_empty() {
        return Err(BatchError::NoInput.into());
    }
    if options.threads == 0 {
        return Err(BatchError::NoThreads.into());
    }
    if options.search.selectivity.is_probcut() {
        // Rows are keyed by position and mode: a probable answer must not merge with or
        // stand in for an exact one.
        return Err(BatchError::Selective(options.search.selectivity.percent()).into());
    }
    for path in &options.inputs {
        regular_file(path)?;
    }
    let wall = Instant::now();
    // Open (and lock) the output first: a damaged or busy file stops the run before any
    // work.
    let (mut csv, resumed) = BatchOut::open(&options.out, options.mode)?;
    csv.sync_every(options.fsync_every);
    let mut summary = BatchSummary {
        dropped_bytes: resumed.dropped_bytes,
        ..BatchSummary::default()
    };
    let done = resumed.done;

    // Pass 1: validate every line and count the work, keeping only keys in memory (and
    // the values of repeats that give some).
    let mut seen = HashSet::new();
    let mut repeats = Repeats::new();
    let (mut todo, mut positions, mut work) = (0u64, 0u64, 0u64);
    let counted = items(&options.inputs, options.skip_bad, |item| {
        if options.interrupt.requested() {
            return Err(BatchError::Stopped.into());
        }
        let (key, position, units) = match &item {
            Item::Position { key, record, .. } => (
                *key,
                true,
                crate::progress::work_of(record.position.board.empty_count()),
            ),
            Item::Bad { key, .. } => (*key, false, 1),
        };
        if !options.shard.contains(key) {
            summary.other_shards += 1;
        } else {
            summary.read += 1;
            if !seen.insert(key) {
                summary.duplicates += 1;
                if let Item::Position { file, record, .. } = item
                    && !record.expected.is_empty()
                    && !done.contains(&key)
                {
                    repeats.entry(key).or_default().push(Repeat {
                        file,
                        line: record.line,
                        expected: record.expected,
                    });
                }
            } else if done.contains(&key) {
                summary.already_done += 1;
            } else {
                todo += 1;
                positions += u64::from(position);
                work += units;
            }
        }
        Ok(())
    });
    drop(seen);
    if let Some(cause) = options.interrupt.cause() {
        // Stopped while counting: nothing was solved, the output is as it was.
        csv.finish()?;
        summary.stopped = Some(cause);
        summary.wall = wall.elapsed();
        out.write_all(summary.report(&Distribution::new()).as_bytes())
            .map_err(Error::Output)?;
        return Ok(summary);
    }
    counted?;

    // No more workers than positions to solve: each allocates a whole table.
    let workers = usize::try_from(positions).map_or(options.threads, |p| options.threads.min(p));
    let tables_mb = (workers as u64).saturating_mul(options.hash_mb as u64);
    if workers > 0 {
        crate::results::check_hash_mb(tables_mb).map_err(|e| {
            Error::from(BatchError::Tables {
                workers,
                threads: options.threads,
                hash_mb: options.hash_mb,
                why: e,
            })
        })?;
    }

    // The bar counts work by the positions' empties, as the suite's does, so that its ETA
    // holds when the deep positions come last.
    let status = Status {
        bar: crate::progress::bar(
            options.progress,
            work,
            "{bar:40} {percent:>3}% of the work  {msg}  {elapsed}  ETA {eta}",
        ),
        todo,
        written: AtomicU64::new(0),
        solving: Mutex::new(vec![String::new(); workers]),
    };
    let progress = &status.bar;

    let info = RunInfo::current(1, options.hash_mb);
    let mut dist = Distribution::new();
    // Set by the interrupt, or when the output fails: the reader stops handing out work
    // and every solve in progress gives up.
    let stop = options.interrupt.flag();
    let shared = Shared {
        options,
        info: &info,
        status: &status,
        repeats: &repeats,
        interrupted: AtomicU64::new(0),
    };

    let outcome: Result<()> = std::thread::scope(|scope| {
        // The channels live in this scope, so that every way out of it closes them and
        // no thread waits on one for ever.
        // Only the workers hold the job receiver: once they have all stopped, the
        // reader's next send fails instead of waiting.
        let (job_tx, job_rx) = bounded::<Job>(workers.saturating_mul(2));
        // Bounded both ways: when the writer (one flush per row) is slower than the
        // solvers, as with millions of tiny positions, they wait instead of queueing rows
        // in memory.
        let (done_tx, done_rx) = bounded::<Done>(workers.saturating_mul(4).max(1));
        let stopped = || Error::from(BatchError::Stopped);
        let mut handles = Vec::with_capacity(workers);
        for i in 0..workers {
            let (jobs, done_tx, flag, shared) =
                (job_rx.clone(), done_tx.clone(), Arc::clone(&stop), &shared);
            let spawned = std::thread::Builder::new()
                .name(format!("batch-{i}"))
                .spawn_scoped(scope, move || worker(shared, i, &jobs, &done_tx, &flag));
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
        drop(job_rx);
        // Pass 2: hand out the work; malformed-line rows go straight to the writer.
        let bad_tx = done_tx;
        let stop_reader = Arc::clone(&stop);
        let reader = move || -> Result<()> {
            let mut dispatched = HashSet::new();
            items(&options.inputs, options.skip_bad, |item| {
                if stop_reader.load(Relaxed) {
                    return Err(stopped());
                }
                match item {
                    Item::Position {
                        file,
                        index,
                        key,
                        record,
                    } => {
                        if options.shard.contains(key)
                            && !done.contains(&key)
                            && dispatched.insert(key)
                        {
                            // Fails only once every worker has stopped.
                            job_tx.send((file, index, key, record)).map_err(|_| {
                                if stop_reader.load(Relaxed) {
                                    stopped()
                                } else {
                                    BatchError::WorkersStopped.into()
                                }
                            })?;
                        }
                    }
                    Item::Bad {
                        file,
                        line,
                        key,
                        text,
                        error,
                    } => {
                        if options.shard.contains(key)
                            && !done.contains(&key)
                            && dispatched.insert(key)
                        {
                            let fields = (
                                CsvRow {
                                    file: options.inputs[file].display().to_string(),
                                    key: key_hex(key),
                                    board: text,
                                    ..CsvRow::default()
                                },
                                BatchColumns {
                                    status: format!("error: {error}"),
                                    line: line.to_string(),
                                    ..BatchColumns::default()
                                },
                            );
                            bad_tx
                                .send(Done {
                                    fields,
                                    work: 1,
                                    nodes: 0,
                                    time: Duration::ZERO,
                                    best_found: Duration::ZERO,
                                    timed_out: false,
                                    wrong: false,
                                    repeats_wrong: Vec::new(),
                                    bad_line: true,
                                })
                                .map_err(|_| stopped())?;
                        }
                    }
                }
                Ok(())
            })
        };
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

        // The writer: rows in the order positions finish.
        let mut write_error = None;
        for d in done_rx.iter() {
            if let Err(e) = csv.write_row(&d.fields) {
                // Stop everything now rather than solve positions that cannot be written.
                stop.store(true, Relaxed);
                write_error = Some(e);
                break;
            }
            for line in &d.repeats_wrong {
                if let Err(e) = writeln!(out, "{line}") {
                    stop.store(true, Relaxed);
                    write_error = Some(Error::Output(e));
                    break;
                }
            }
            if write_error.is_some() {
                break;
            }
            status.row_written(d.work);
            if d.bad_line {
                summary.errors += 1;
                continue;
            }
            summary.nodes += d.nodes;
            summary.time += d.time;
            summary.best_found += d.best_found;
            dist.record(d.nodes, d.time);
            if d.timed_out {
                summary.timeouts += 1;
            } else {
                summary.solved += 1;
            }
            summary.wrong += u64::from(d.wrong);
        }
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
        let read = read.map_err(|_| Error::from(BatchError::ReaderPanicked))?;
        // Stopped on purpose: the reader's "stopped" is no failure.
        if options.interrupt.cause().is_some() {
            return Ok(());
        }
        read
    });
    summary.stopped = options.interrupt.cause();
    summary.interrupted = shared.interrupted.load(Relaxed);
    progress.finish_and_clear();
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
