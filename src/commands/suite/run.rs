//! One suite run as it goes: the variants and their solvers, the CSV, the table, the
//! totals and the measurements for the closing comparison.

use super::small::{POSITIONS_AT_ONCE_MAX_EMPTIES, small_run, solve_at_once};
use super::table::{table_header, table_row};
use super::{SuiteOptions, Summary};
use crate::board::ObfRecord;
use crate::board::key::{key_hex, position_key};
use crate::commands::compare::{Run, compare_runs};
use crate::commands::variant::{Runner, Variant, VariantKind};
use crate::error::{Error, Result};
use crate::interrupt::Interrupt;
use crate::results::format::{pass_move, score_string};
use crate::results::histogram::Distribution;
use crate::results::row::{Row, checked_row};
use crate::results::{CsvOut, RunInfo};
use crate::search::{Mode, PassReport, Solver, SolverOptions, TimedOut};
use indicatif::ProgressBar;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The state of a suite run between its positions.
pub(super) struct SuiteRun<'a> {
    options: &'a SuiteOptions,
    variants: Vec<Variant>,
    runners: Vec<Runner>,
    /// Per variant, what its CSV rows record (the threads that searched).
    infos: Vec<RunInfo>,
    /// What rows of small positions solved several at once record: one thread each.
    one_thread: RunInfo,
    /// One-thread solvers for small positions solved several at once (made when needed).
    pooled: Option<Vec<Solver>>,
    csv: Option<CsvOut>,
    summary: Summary,
    /// Per variant: position key -> measurements, for the closing comparison.
    measured: Vec<Run>,
    dist: Distribution,
    bar: ProgressBar,
    repeat: u32,
    /// Positions taken so far, and in all.
    done: usize,
    total: usize,
}

/// A variant's own table size, else the run's.
fn hash_of(v: &Variant, options: &SuiteOptions) -> usize {
    v.hash_mb.unwrap_or(options.hash_mb)
}

/// Writes `text` to `out` at once.
fn print(out: &mut dyn Write, text: &str) -> Result<()> {
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(Error::Output)
}

impl<'a> SuiteRun<'a> {
    /// Makes the variants' solvers, then opens the CSV (`first_file` names its default
    /// place): a refused solver writes nothing.
    pub(super) fn new(
        first_file: &Path,
        suites: &[(&PathBuf, Vec<ObfRecord>)],
        total: usize,
        options: &'a SuiteOptions,
    ) -> Result<SuiteRun<'a>> {
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
        let runners = variants
            .iter()
            .map(|v| {
                let hash_mb = hash_of(v, options);
                Runner::new(v, hash_mb, v.threads(options.threads), options.time_limit)
            })
            .collect::<Result<_>>()?;
        let csv = CsvOut::open(&options.csv, first_file)?;
        let summary = Summary {
            csv_path: csv.as_ref().map(|c| c.path().to_path_buf()),
            ..Summary::default()
        };
        let repeat = options.repeat.max(1);
        let solves = (variants.len() as u64) * u64::from(repeat);
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
        Ok(SuiteRun {
            options,
            infos: run_infos(&variants, options),
            one_thread: RunInfo::current(1, hash_of(&variants[0], options)),
            measured: vec![Run::new(); variants.len()],
            variants,
            runners,
            pooled: None,
            csv,
            summary,
            dist: Distribution::new(),
            bar,
            repeat,
            done: 0,
            total,
        })
    }

    /// Solves the positions of one file, under its heading; `Some(note)` when the run was
    /// stopped in it.
    pub(super) fn solve_file(
        &mut self,
        file: &Path,
        records: &[ObfRecord],
        out: &mut dyn Write,
    ) -> Result<Option<String>> {
        self.print_heading(file, records, out)?;
        let mut i = 0;
        while i < records.len() {
            // A run of small positions, when positions at once beat splitting each one.
            let small = match &self.variants[..] {
                [v] if self.repeat == 1 => small_run(&records[i..], v, self.options),
                _ => 0,
            };
            let stopped = if small > 1 {
                let stopped = self.solve_small(file, &records[i..i + small], i, out)?;
                i += small;
                stopped
            } else {
                let stopped = self.solve_position(file, &records[i], i, out)?;
                i += 1;
                stopped
            };
            if stopped.is_some() {
                return Ok(stopped);
            }
        }
        Ok(None)
    }

    /// The file's heading (its level, if probable) and the table's header.
    fn print_heading(&self, file: &Path, records: &[ObfRecord], out: &mut dyn Write) -> Result<()> {
        let o = self.options;
        let level = if o.search.selectivity.is_probcut() {
            format!(
                ", probable at {}; a score marked ? is from a position deeper than the level \
                 was checked at",
                o.search.selectivity
            )
        } else {
            String::new()
        };
        let heading = format!(
            "{} ({} positions, {} mode{level})\n",
            file.display(),
            records.len(),
            o.mode.name(),
        );
        print(out, &heading)?;
        print(out, &format!("{}\n", table_header()))?;
        if let [v] = &self.variants[..]
            && self.repeat == 1
            && (0..records.len()).any(|k| small_run(&records[k..], v, o) > 1)
        {
            print(
                out,
                &format!(
                    "(positions below {POSITIONS_AT_ONCE_MAX_EMPTIES} empties: several at once, \
                     one thread each)\n"
                ),
            )?;
        }
        Ok(())
    }

    /// Solves `records` (from the `first`th of the file, 0-based) several at once, one
    /// thread each, with the single variant.
    fn solve_small(
        &mut self,
        file: &Path,
        records: &[ObfRecord],
        first: usize,
        out: &mut dyn Write,
    ) -> Result<Option<String>> {
        let o = self.options;
        if self.pooled.is_none() {
            let v = &self.variants[0];
            let threads = v.threads(o.threads).running;
            let VariantKind::Flags(search) = &v.kind else {
                unreachable!("small_run takes flag variants only")
            };
            let made: std::result::Result<Vec<Solver>, _> = (0..threads)
                .map(|_| {
                    Solver::try_new(SolverOptions {
                        hash_mb: hash_of(v, o),
                        search: search.clone(),
                        threads: 1,
                        oversubscribe: false,
                    })
                })
                .collect();
            self.pooled = Some(made?);
        }
        let solvers = self.pooled.as_mut().expect("made just above");
        self.bar.set_message(format!(
            "positions {}-{} of {} (at once)",
            self.done + 1,
            self.done + records.len(),
            self.total
        ));
        let results = solve_at_once(solvers, records, o.mode, &o.interrupt);
        let info = self.one_thread.clone();
        for (j, (record, result)) in records.iter().zip(results).enumerate() {
            let result = match result {
                Ok(r) => r,
                Err(t) => return Ok(Some(self.stop_note(file, record, self.done + j + 1, &t))),
            };
            let row = checked_row(file, first + j + 1, record, result);
            self.emit(row, 0, 1, &info, out)?;
        }
        self.done += records.len();
        Ok(None)
    }

    /// Solves `record` (the `i`th of the file, 0-based) with every variant, `repeat`
    /// times, alternating their order.
    fn solve_position(
        &mut self,
        file: &Path,
        record: &ObfRecord,
        i: usize,
        out: &mut dyn Write,
    ) -> Result<Option<String>> {
        let o = self.options;
        self.done += 1;
        let here = format!(
            "position {} of {} ({} empties)",
            self.done,
            self.total,
            record.position.board.empty_count()
        );
        self.bar.set_message(here.clone());
        for k in 1..=self.repeat {
            // Alternate the order too, so neither variant always runs first.
            let order: Vec<usize> = if k % 2 == 1 {
                (0..self.variants.len()).collect()
            } else {
                (0..self.variants.len()).rev().collect()
            };
            for v in order {
                let bar = &self.bar;
                let mut on_pass = |p: &PassReport| {
                    bar.set_message(format!("{here}, {}", pass_brief(o.mode, p)));
                };
                let hash_mb = hash_of(&self.variants[v], o);
                let answer =
                    self.runners[v].solve(record, o.mode, hash_mb, &o.interrupt, &mut on_pass)?;
                let answer = match answer {
                    Ok(a) => a,
                    Err(t) => return Ok(Some(self.stop_note(file, record, self.done, &t))),
                };
                if let Some(rev) = answer.git_rev {
                    self.infos[v].git_rev = rev;
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
                let info = self.infos[v].clone();
                self.emit(row, v, k, &info, out)?;
            }
        }
        Ok(None)
    }

    /// One finished solve of variant `v`, the `k`th time: CSV row, table line,
    /// distribution, comparison, totals, and the bar's progress.
    fn emit(
        &mut self,
        mut row: Row,
        v: usize,
        k: u32,
        info: &RunInfo,
        out: &mut dyn Write,
    ) -> Result<()> {
        let work = crate::progress::work_of(row.position.board.empty_count());
        let bar = self.bar.clone();
        bar.suspend(|| {
            row.variant = self.variants[v].label.clone();
            row.repeat = k;
            if let Some(c) = self.csv.as_mut() {
                c.write_row(&row, info)?;
            }
            let mut line = table_row(&row);
            if self.variants.len() > 1 || self.repeat > 1 {
                line += &format!("  [{} #{k}]", self.variants[v].label);
            }
            print(out, &format!("{line}\n"))?;
            if row.failure.is_some() {
                // No answer to time or count.
                self.summary.engine_failures += 1;
            } else {
                self.measure(&row, v);
            }
            Result::Ok(())
        })?;
        bar.inc(work);
        Ok(())
    }

    /// Counts an answered row in the distribution, the comparison and the totals.
    fn measure(&mut self, row: &Row, v: usize) {
        self.dist.record(row.result.nodes, row.result.time);
        let m = self.measured[v]
            .entry((
                key_hex(position_key(&row.position)),
                self.options.mode.name().into(),
            ))
            .or_default();
        if m.nodes.is_empty() {
            m.file = row.file.display().to_string();
            m.index = Some(row.index);
        }
        m.empties = row.position.board.empty_count();
        m.nodes.push(row.result.nodes);
        m.times.push(row.result.time.as_secs_f64());
        self.summary.add(row);
    }

    /// What stopped the run in `record`, the `number`th position of all.
    fn stop_note(&self, file: &Path, record: &ObfRecord, number: usize, t: &TimedOut) -> String {
        let o = self.options;
        stop_note(&o.interrupt, file, record, (number, self.total), o.mode, t)
    }

    /// Prints the totals, the distribution and, for two variants, their comparison.
    pub(super) fn finish(
        mut self,
        stopped: Option<String>,
        out: &mut dyn Write,
    ) -> Result<Summary> {
        self.bar.finish_and_clear();
        self.summary.stopped = stopped;
        print(
            out,
            &format!("\n{}{}", self.summary.report(), self.dist.report()),
        )?;
        if let [a, b] = &self.variants[..] {
            let heading = format!("\ncomparison: A = {}, B = {}\n", a.label, b.label);
            // Another engine that answered no position leaves nothing to compare: said
            // so, as the rows are written and the run is not an error.
            let (ma, mb) = (&self.measured[0], &self.measured[1]);
            if let Err(e) = compare_runs(ma, mb, "A", "B", &heading, &mut &mut *out) {
                if !matches!(e, Error::Compare(_)) {
                    return Err(e);
                }
                print(out, &format!("{heading}not made: {e}\n"))?;
            }
        }
        Ok(self.summary)
    }
}

/// What each variant's CSV rows record: the threads that searched, and for another
/// engine what it really runs with (not this build's revision or profile).
fn run_infos(variants: &[Variant], options: &SuiteOptions) -> Vec<RunInfo> {
    variants
        .iter()
        .map(|v| {
            let threads = v.threads(options.threads);
            match &v.kind {
                VariantKind::Engine(engine) => {
                    let used = engine.settings(threads.asked, hash_of(v, options));
                    RunInfo {
                        git_rev: String::new(),
                        profile: String::new(),
                        ..RunInfo::current(used.threads, used.hash_mb)
                    }
                }
                _ => RunInfo::current(threads.running, hash_of(v, options)),
            }
        })
        .collect()
}

/// A pass in a few words, for the bar: `pass 73% +2 E2`.
fn pass_brief(mode: Mode, p: &PassReport) -> String {
    format!(
        "pass {} {} {}",
        crate::results::format::pass_level(p),
        score_string(mode, p.score),
        pass_move(p)
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
            pass_move(p)
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
