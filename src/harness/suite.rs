//! The benchmark runner: solves every position of some OBF files with one solver, checks
//! each answer against the file, prints a table row and writes a CSV row as each position
//! finishes, then sums up.

use super::compare::{Run, compare_runs};
use super::variant::{Runner, Variant, VariantKind};
use crate::board::key::{key_hex, position_key};
use crate::board::{ObfRecord, read_obf_file};
use crate::error::{Error, Result, SuiteError};
use crate::interrupt::Interrupt;
use crate::results::csv_out::{CsvOut, CsvTarget, RunInfo};
use crate::results::format::{moves_string, pv_head, score_string};
use crate::results::histogram::Distribution;
use crate::results::row::{Row, checked_row};
use crate::search::{
    Mode, PassReport, SearchOptions, SolveResult, Solver, SolverOptions, TimedOut, search_threads,
};
use crate::settings::POSITIONS_AT_ONCE_MAX_EMPTIES;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::Duration;

/// How to run a suite.
#[derive(Clone, Debug)]
pub struct SuiteOptions {
    /// What to solve for.
    pub mode: Mode,
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Search switches.
    pub search: SearchOptions,
    /// Search threads per solve.
    pub threads: usize,
    /// Run every thread even beyond the cores.
    pub oversubscribe: bool,
    /// Where the CSV goes.
    pub csv: CsvTarget,
    /// Times each position is solved (by each variant).
    pub repeat: u32,
    /// Variants to alternate; empty means this binary with `search`.
    pub variants: Vec<Variant>,
    /// Show a progress bar on stderr (positions done, the current one and its last pass,
    /// ETA) when stderr is a terminal.
    pub progress: bool,
    /// Another engine (`--engine`) running longer than this on a position is killed, and
    /// its row says `timeout`; finale's own solves are not limited.
    pub time_limit: Option<Duration>,
    /// Stops the run when set (by SIGINT or SIGTERM in the CLI): the position being
    /// solved gives up, and the run ends with the rows it finished and the position's last
    /// pass as a probable answer ([`Summary::stopped`]).
    pub interrupt: Interrupt,
}

/// Totals of a suite run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Positions solved.
    pub positions: usize,
    /// Nodes over all positions.
    pub nodes: u64,
    /// Solve time over all positions (loading and table allocation excluded).
    pub time: Duration,
    /// Positions whose best moves are wrong.
    pub wrong_moves: usize,
    /// Positions whose score (or, in mode all, some move's score) is wrong.
    pub wrong_scores: usize,
    /// The CSV written, if any.
    pub csv_path: Option<PathBuf>,
    /// Set when the run was stopped before its end: what stopped it and where.
    pub stopped: Option<String>,
    /// Time until the best move was settled, summed over the positions that report it.
    pub best_found: Duration,
    /// Peak memory over the rows, in MB.
    pub peak_mb: Option<f64>,
    /// Rows of other engines that gave no answer (timeout, crash, unreadable output).
    pub engine_failures: usize,
}

impl Summary {
    /// Nodes per second over the run.
    pub fn nps(&self) -> f64 {
        let s = self.time.as_secs_f64();
        if s > 0.0 { self.nodes as f64 / s } else { 0.0 }
    }

    /// True when no position was answered wrongly.
    pub fn all_ok(&self) -> bool {
        self.wrong_moves == 0 && self.wrong_scores == 0 && self.engine_failures == 0
    }

    fn add(&mut self, row: &Row) {
        self.positions += 1;
        // Another binary's counts are input: saturate rather than overflow.
        self.nodes = self.nodes.saturating_add(row.result.nodes);
        self.time = self.time.saturating_add(row.result.time);
        self.wrong_moves += usize::from(row.verdict.moves_ok == Some(false));
        self.wrong_scores += usize::from(row.verdict.score_ok == Some(false));
        self.best_found = self
            .best_found
            .saturating_add(row.result.best_found.unwrap_or_default());
        if let Some(m) = row.peak_mb {
            self.peak_mb = Some(self.peak_mb.map_or(m, |p| p.max(m)));
        }
    }

    /// The summary block printed after the table.
    pub fn report(&self) -> String {
        let mut s = String::new();
        if let Some(why) = &self.stopped {
            s += &format!("stopped       {why}\n");
        }
        s += &format!(
            "positions     {}\nnodes         {}\ntime          {:.3} s\nnps           {:.0}\n\
             best found    {:.3} s (total)\npeak memory   {}\nwrong moves   {}\n\
             wrong scores  {}\n",
            self.positions,
            self.nodes,
            self.time.as_secs_f64(),
            self.nps(),
            self.best_found.as_secs_f64(),
            self.peak_mb
                .map_or_else(|| "unknown".to_string(), |m| format!("{m:.1} MB")),
            self.wrong_moves,
            self.wrong_scores
        );
        if self.engine_failures > 0 {
            s += &format!("engine failures {}\n", self.engine_failures);
        }
        if let Some(p) = &self.csv_path {
            s += &format!("csv           {}\n", p.display());
        }
        s
    }
}

/// Solves one record with a cleared table (so node counts do not depend on what was
/// solved before) and checks the answer.
pub fn solve_record(
    solver: &mut Solver,
    file: &Path,
    index: usize,
    record: &ObfRecord,
    mode: Mode,
) -> Row {
    solver.clear();
    checked_row(
        file,
        index,
        record,
        solver.solve(record.position.board, mode),
    )
}

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
        if r.pv.is_empty() {
            "-".into()
        } else {
            "pass".into()
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

/// Runs a suite: reads every file first (so a malformed line in the last file is reported
/// before hours of solving), opens the CSV, then solves, printing to `out` and writing the
/// CSV row by row so an interrupted run keeps what it finished.
pub fn run_suite(
    files: &[PathBuf],
    options: &SuiteOptions,
    out: &mut impl Write,
) -> Result<Summary> {
    if files.is_empty() {
        return Err(SuiteError::NoFile.into());
    }
    if let CsvTarget::Path(out) = &options.csv {
        crate::results::outputs::refuse_input_as_output(
            "--csv",
            out,
            files.iter().map(|f| f.as_path()),
        )?;
    }
    let suites: Vec<(&PathBuf, Vec<ObfRecord>)> = files
        .iter()
        .map(|f| {
            read_obf_file(f)
                .map(|records| (f, records))
                .map_err(Error::from)
        })
        .collect::<Result<_>>()?;

    // A variant's own table size, else the run's.
    let hash_of = |v: &Variant| v.hash_mb.unwrap_or(options.hash_mb);
    let variants = if options.variants.is_empty() {
        vec![Variant {
            label: String::new(),
            kind: VariantKind::Flags(options.search.clone()),
            threads: None,
            oversubscribe: options.oversubscribe,
            hash_mb: None,
        }]
    } else {
        options.variants.clone()
    };
    let mut runners: Vec<Runner> = variants
        .iter()
        .map(|v| {
            let threads = v.threads.unwrap_or(options.threads);
            Runner::new(v, hash_of(v), threads, v.oversubscribe, options.time_limit)
        })
        .collect::<Result<_>>()?;
    // Opened once the solvers have their threads and tables: a refused one writes nothing.
    let mut csv = CsvOut::open(&options.csv, &files[0])?;
    let mut summary = Summary {
        csv_path: csv.as_ref().map(|c| c.path().to_path_buf()),
        ..Summary::default()
    };
    // The CSV records the threads that searched.
    let mut infos: Vec<RunInfo> = variants
        .iter()
        .map(|v| {
            let threads = v.threads.unwrap_or(options.threads);
            match &v.kind {
                // What the engine really runs with; not this build's revision or profile.
                VariantKind::Engine(engine) => {
                    let used = engine.settings(threads, hash_of(v));
                    RunInfo {
                        git_rev: String::new(),
                        profile: String::new(),
                        ..RunInfo::current(used.threads, used.hash_mb)
                    }
                }
                _ => RunInfo::current(search_threads(threads, v.oversubscribe), hash_of(v)),
            }
        })
        .collect();
    // Per variant: position key -> measurements, for the closing comparison.
    let mut measured: Vec<Run> = vec![Run::new(); variants.len()];

    let repeat = options.repeat.max(1);
    let solves = (variants.len() as u64) * repeat as u64;
    let work: u64 = suites
        .iter()
        .flat_map(|(_, records)| records.iter())
        .map(|r| crate::progress::work_of(r.position.board.empty_count()) * solves)
        .sum();
    let bar = crate::progress::bar(
        options.progress,
        work,
        "{bar:40} {percent:>3}% of the work  {msg}  {elapsed}  ETA {eta}",
    );
    let total: usize = suites.iter().map(|(_, r)| r.len()).sum();
    let mut done = 0usize;

    let mut dist = Distribution::new();
    let print = |out: &mut dyn Write, text: &str| -> Result<()> {
        out.write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .map_err(Error::Output)
    };
    // One finished solve: CSV row, table line, distribution, comparison, totals.
    let mut emit = |mut row: Row, v: usize, k: u32, info: &RunInfo, out: &mut dyn Write| {
        row.variant = variants[v].label.clone();
        row.repeat = k;
        if let Some(c) = csv.as_mut() {
            c.write_row(&row, info)?;
        }
        let mut line = table_row(&row);
        if variants.len() > 1 || repeat > 1 {
            line += &format!("  [{} #{k}]", variants[v].label);
        }
        print(out, &format!("{line}\n"))?;
        if row.failure.is_some() {
            // No answer to time or count.
            summary.engine_failures += 1;
            return Result::Ok(());
        }
        dist.record(row.result.nodes, row.result.time);
        let m = measured[v]
            .entry((
                key_hex(position_key(&row.position)),
                options.mode.name().into(),
            ))
            .or_default();
        if m.nodes.is_empty() {
            m.file = row.file.display().to_string();
            m.index = Some(row.index);
        }
        m.empties = row.position.board.empty_count();
        m.nodes.push(row.result.nodes);
        m.times.push(row.result.time.as_secs_f64());
        summary.add(&row);
        Result::Ok(())
    };
    // Rows of small positions solved several at once: one thread searched each.
    let one_thread = RunInfo::current(1, hash_of(&variants[0]));
    // One-thread solvers for small positions solved several at once (made when needed).
    let mut pooled: Option<Vec<Solver>> = None;
    let mut stopped = None;
    'files: for (file, records) in &suites {
        // What stopped the run in `record`, the `number`th position of all.
        let stop_note = |record: &ObfRecord, number: usize, t: &TimedOut| {
            stop_note(
                &options.interrupt,
                file,
                record,
                (number, total),
                options.mode,
                t,
            )
        };
        print(
            out,
            &format!(
                "{} ({} positions, {} mode{})\n",
                file.display(),
                records.len(),
                options.mode.name(),
                if options.search.selectivity.is_probcut() {
                    format!(
                        ", probable at {}; a score marked ? is from a position deeper than the \
                         level was checked at",
                        options.search.selectivity
                    )
                } else {
                    String::new()
                }
            ),
        )?;
        print(out, &format!("{}\n", table_header()))?;
        if let [v] = &variants[..]
            && repeat == 1
            && (0..records.len()).any(|k| small_run(&records[k..], v, options) > 1)
        {
            print(
                out,
                &format!(
                    "(positions below {POSITIONS_AT_ONCE_MAX_EMPTIES} empties: several at once, \
                     one thread each)\n"
                ),
            )?;
        }
        let mut i = 0;
        while i < records.len() {
            // A run of small positions, when positions at once beat splitting each one.
            let small = match &variants[..] {
                [v] if repeat == 1 => small_run(&records[i..], v, options),
                _ => 0,
            };
            if small > 1 {
                let v = &variants[0];
                let threads = search_threads(v.threads.unwrap_or(options.threads), v.oversubscribe);
                let search = match &v.kind {
                    VariantKind::Flags(search) => search,
                    _ => unreachable!("small_run takes flag variants only"),
                };
                if pooled.is_none() {
                    let made: std::result::Result<Vec<Solver>, _> = (0..threads)
                        .map(|_| {
                            Solver::try_new(SolverOptions {
                                hash_mb: hash_of(v),
                                search: search.clone(),
                                threads: 1,
                                oversubscribe: false,
                            })
                        })
                        .collect();
                    pooled = Some(made?);
                }
                let solvers = pooled.as_mut().expect("made just above");
                bar.set_message(format!(
                    "positions {}-{} of {total} (at once)",
                    done + 1,
                    done + small
                ));
                let results = solve_at_once(
                    solvers,
                    &records[i..i + small],
                    options.mode,
                    &options.interrupt,
                );
                for (j, result) in results.into_iter().enumerate() {
                    let record = &records[i + j];
                    let result = match result {
                        Ok(r) => r,
                        Err(t) => {
                            stopped = Some(stop_note(record, done + j + 1, &t));
                            break 'files;
                        }
                    };
                    let row = checked_row(file, i + j + 1, record, result);
                    bar.suspend(|| emit(row, 0, 1, &one_thread, &mut *out))?;
                    bar.inc(crate::progress::work_of(
                        record.position.board.empty_count(),
                    ));
                }
                done += small;
                i += small;
                continue;
            }
            let record = &records[i];
            done += 1;
            let here = format!(
                "position {done} of {total} ({} empties)",
                record.position.board.empty_count()
            );
            bar.set_message(here.clone());
            for k in 1..=repeat {
                // Alternate the order too, so neither variant always runs first.
                let order: Vec<usize> = if k % 2 == 1 {
                    (0..variants.len()).collect()
                } else {
                    (0..variants.len()).rev().collect()
                };
                for v in order {
                    let mut on_pass = |p: &PassReport| {
                        bar.set_message(format!("{here}, {}", pass_brief(options.mode, p)));
                    };
                    let answer = runners[v].solve(
                        record,
                        options.mode,
                        hash_of(&variants[v]),
                        &options.interrupt,
                        &mut on_pass,
                    )?;
                    let answer = match answer {
                        Ok(a) => a,
                        Err(t) => {
                            stopped = Some(stop_note(record, done, &t));
                            break 'files;
                        }
                    };
                    if let Some(rev) = answer.git_rev {
                        infos[v].git_rev = rev;
                    }
                    let mut row = checked_row(file, i + 1, record, answer.result);
                    row.peak_mb = answer.peak_mb;
                    if let Some(engine) = answer.engine {
                        row.engine = engine;
                    }
                    if let Some(failure) = answer.failure {
                        row.failure = Some(failure);
                        row.verdict = Default::default();
                    }
                    bar.suspend(|| emit(row, v, k, &infos[v], &mut *out))?;
                    bar.inc(crate::progress::work_of(
                        record.position.board.empty_count(),
                    ));
                }
            }
            i += 1;
        }
    }
    bar.finish_and_clear();
    summary.stopped = stopped;
    print(out, &format!("\n{}{}", summary.report(), dist.report()))?;
    if variants.len() == 2 {
        let heading = format!(
            "\ncomparison: A = {}, B = {}\n",
            variants[0].label, variants[1].label
        );
        // Another engine that answered no position leaves nothing to compare: said so,
        // as the rows are written and the run is not an error.
        if let Err(e) = compare_runs(&measured[0], &measured[1], "A", "B", &heading, out) {
            if !matches!(e, Error::Compare(_)) {
                return Err(e);
            }
            print(out, &format!("{heading}not made: {e}\n"))?;
        }
    }
    Ok(summary)
}

/// A pass in a few words, for the bar: `pass 73% +2 E2`.
fn pass_brief(mode: Mode, p: &PassReport) -> String {
    format!(
        "pass {} {} {}",
        crate::results::format::pass_level(p),
        score_string(mode, p.score),
        p.best.map_or_else(|| "pass".to_string(), |m| m.to_string())
    )
}

/// What stopped a suite, where, and the probable answer of the position it stopped in.
fn stop_note(
    interrupt: &Interrupt,
    file: &Path,
    record: &ObfRecord,
    (number, total): (usize, usize),
    mode: Mode,
    t: &TimedOut,
) -> String {
    let cause = interrupt.cause().unwrap_or("a stop request");
    let probable = match &t.last_pass {
        Some(p) => format!(
            "probable {} (its last finished pass), best {}",
            crate::results::format::probable_string(mode, p),
            p.best.map_or_else(|| "pass".to_string(), |m| m.to_string())
        ),
        None => "no pass had finished".to_string(),
    };
    format!(
        "by {cause} in position {number} of {total} ({}:{}, {} empties): {probable}",
        file.display(),
        record.line,
        record.position.board.empty_count()
    )
}

/// How many of `records` (from the first) to solve at once, each on one thread, rather
/// than one after the other with every thread splitting each: the leading run of
/// positions with fewer than [`POSITIONS_AT_ONCE_MAX_EMPTIES`] empties, when the variant
/// is this binary's and more than one thread may search.
fn small_run(records: &[ObfRecord], v: &Variant, options: &SuiteOptions) -> usize {
    let threads = search_threads(v.threads.unwrap_or(options.threads), v.oversubscribe);
    if threads < 2 || !matches!(v.kind, VariantKind::Flags(_)) {
        return 0;
    }
    records
        .iter()
        .take(SMALL_RUN_MAX)
        .take_while(|r| r.position.board.empty_count() < POSITIONS_AT_ONCE_MAX_EMPTIES)
        .count()
}

use crate::settings::SUITE_SMALL_RUN_MAX as SMALL_RUN_MAX;

/// Solves `records` on one thread per solver, each with a cleared table, taking them in
/// order; returns the answers in the records' order (`Err` for those `interrupt` stopped).
fn solve_at_once(
    solvers: &mut [Solver],
    records: &[ObfRecord],
    mode: Mode,
    interrupt: &Interrupt,
) -> Vec<std::result::Result<SolveResult, TimedOut>> {
    let next = AtomicUsize::new(0);
    type Found = (usize, std::result::Result<SolveResult, TimedOut>);
    let mut found: Vec<Found> = std::thread::scope(|scope| {
        let handles: Vec<_> = solvers
            .iter_mut()
            .map(|solver| {
                let next = &next;
                scope.spawn(move || {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Relaxed);
                        let Some(r) = records.get(i) else { break };
                        solver.clear();
                        solver.set_abort(interrupt.flag());
                        mine.push((i, solver.solve_within(r.position.board, mode, None)));
                    }
                    mine
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a solver thread panicked"))
            .collect()
    });
    found.sort_by_key(|&(i, _)| i);
    found.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FFO1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6;";

    #[test]
    fn runs_a_suite_and_writes_rows() {
        let dir = tempfile::tempdir().expect("temp dir");
        let obf = dir.path().join("two.obf");
        // The second copy claims +20: one wrong score.
        let wrong = FFO1.replace("G8:+18", "G8:+20");
        std::fs::write(&obf, format!("% comment\n{FFO1}\n\n{wrong}\n")).expect("write obf");
        let csv = dir.path().join("out.csv");
        let options = SuiteOptions {
            progress: false,
            mode: Mode::Exact,
            hash_mb: 1,
            search: SearchOptions::default(),
            threads: 1,
            oversubscribe: false,
            csv: CsvTarget::Path(csv.clone()),
            repeat: 1,
            variants: Vec::new(),
            time_limit: None,
            interrupt: Interrupt::new(),
        };
        let mut out = Vec::new();
        let summary = run_suite(std::slice::from_ref(&obf), &options, &mut out).expect("runs");
        assert_eq!(summary.positions, 2);
        assert_eq!((summary.wrong_moves, summary.wrong_scores), (0, 1));
        assert!(!summary.all_ok());
        assert_eq!(summary.csv_path.as_deref(), Some(csv.as_path()));

        let text = String::from_utf8(out).expect("utf-8");
        assert!(text.contains("BAD-SCORE"), "{text}");
        assert!(text.contains("wrong scores  1"), "{text}");

        let mut reader = csv::Reader::from_path(&csv).expect("csv");
        let header: Vec<String> = reader
            .headers()
            .expect("header")
            .iter()
            .map(String::from)
            .collect();
        let mut want = crate::harness::HEADER.to_vec();
        want.extend(crate::results::SUITE_COLUMNS);
        assert_eq!(header, want);
        let rows: Vec<csv::StringRecord> = reader
            .records()
            .collect::<std::result::Result<_, _>>()
            .expect("rows");
        assert_eq!(rows.len(), 2);
        assert_eq!(&rows[0][0], "1");
        assert_eq!(&rows[0][5], "18");
        assert_eq!(&rows[0][9], "true");
        assert_eq!(&rows[1][0], "2");
        assert_eq!(&rows[1][7], "20");
        assert_eq!(&rows[1][9], "false");
    }

    #[test]
    fn a_bad_file_fails_before_any_csv() {
        let dir = tempfile::tempdir().expect("temp dir");
        let good = dir.path().join("good.obf");
        let bad = dir.path().join("bad.obf");
        std::fs::write(&good, format!("{FFO1}\n")).expect("write");
        std::fs::write(&bad, format!("{FFO1}\nnot a board\n")).expect("write");
        let options = SuiteOptions {
            progress: false,
            mode: Mode::Exact,
            hash_mb: 1,
            search: SearchOptions::default(),
            threads: 1,
            oversubscribe: false,
            csv: CsvTarget::Default(dir.path().join("results")),
            repeat: 1,
            variants: Vec::new(),
            time_limit: None,
            interrupt: Interrupt::new(),
        };
        let err = run_suite(&[good, bad], &options, &mut Vec::new()).expect_err("bad line");
        assert!(err.to_string().contains("bad.obf:2:"), "{err}");
        assert!(!dir.path().join("results").exists());
    }
}
