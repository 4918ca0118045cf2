//! The finale adapter: another finale binary (`finale suite --binary PATH`), one more engine
//! beside Zebra, Edax and Egaroucid. Its executable is checked as theirs are
//! ([`checked_executable`]) and asked `--version` before anything runs; then it solves one
//! position at a time as `PATH suite POSITION.obf --csv ROW.csv --hash-mb MB --mode MODE
//! --threads N`, in this process's directory, run by [`process`] like every engine: in a
//! process group of its own, killed with every process it started on a stop, and with no
//! time limit (finale's solves are not limited, `suite --time-limit` is for `--engine`).
//!
//! Its answer is the row of that CSV, read by the CSV reader ([`read_row`]), so that an
//! older finale's CSV, without the newer columns, reads too.

use super::executable::{Unusable, checked_executable};
use super::output::engine_move;
use super::process::{self, Ended};
use crate::board::{ObfRecord, Square};
use crate::error::{Error, Result, SuiteError};
use crate::interrupt::Interrupt;
use crate::results::CsvRow;
use crate::results::csv_in::{MAX_SECONDS, parse_seconds, read_row};
use crate::search::{Level, Mode, SolveResult};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long `--version` may take before the binary is refused: a finale answers at once,
/// and a program that hangs on it is not one.
pub const VERSION_LIMIT: Duration = Duration::from_secs(30);

/// Another finale binary, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finale {
    /// The executable, absolute.
    pub path: PathBuf,
}

/// Another finale's answer to one position, from its CSV row.
#[derive(Clone, Debug)]
pub struct FinaleAnswer {
    /// Its result as its row gives it (an older finale's missing columns: exact, no
    /// time of the best move).
    pub result: SolveResult,
    /// The revision it was built from (its `git_rev`), if its row says.
    pub git_rev: Option<String>,
    /// Its own peak memory in MB (`None` when it does not write it).
    pub peak_mb: Option<f64>,
}

/// How one run of another finale on a position ended.
#[derive(Debug)]
pub enum FinaleRun {
    /// It answered.
    Answer(FinaleAnswer),
    /// A stop was requested of this process, which killed it (and its process group)
    /// after the wall time; its last pass is not known.
    Interrupted(Duration),
}

impl Finale {
    /// The finale binary at `path` (a bare name is the file in the current directory,
    /// never one found on `PATH`): an executable file that answers `--version` with
    /// `finale ...` within [`VERSION_LIMIT`], so that a path that is not a finale is
    /// refused before any position is solved.
    pub fn from_path(path: &Path) -> Result<Finale> {
        Finale::checked(path, VERSION_LIMIT)
    }

    /// [`Finale::from_path`] with `limit` for `--version`.
    fn checked(path: &Path, limit: Duration) -> Result<Finale> {
        let not_finale = |why: String| {
            Error::from(SuiteError::NotFinale {
                binary: path.to_path_buf(),
                why,
            })
        };
        let absolute = match checked_executable(path) {
            Ok(absolute) => absolute,
            Err(Unusable::NotExecutable) => return Err(not_finale("not executable".into())),
            Err(Unusable::Unreadable(_) | Unusable::NotAFile) => {
                return Err(SuiteError::NoBinary(path.to_path_buf()).into());
            }
        };
        let dir = temp_dir("finale-version-")?;
        let (out, err) = (dir.path().join("stdout.txt"), dir.path().join("stderr.txt"));
        let mut command = process::command(&absolute);
        command.arg("--version");
        // No stop request reaches this check: the suite has not started.
        let ended = process::run(command, &out, &err, Some(limit), &Interrupt::new())
            .map_err(|e| not_finale(format!("cannot run it: {e}")))?;
        let status = match ended {
            Ended::Exited { status, .. } => status,
            Ended::TimedOut(_) | Ended::Interrupted(_) => {
                return Err(not_finale(format!(
                    "`--version` did not answer within {limit:?}"
                )));
            }
        };
        let said = String::from_utf8_lossy(&std::fs::read(&out).unwrap_or_default()).into_owned();
        if !status.success() || !said.starts_with("finale ") {
            return Err(not_finale(match status.code() {
                Some(0) => format!("`--version` printed '{}'", said.trim()),
                Some(c) => format!("`--version` exited with code {c}"),
                None => "`--version` was killed by a signal".into(),
            }));
        }
        Ok(Finale { path: absolute })
    }

    /// Solves `record` in `dir` (a directory of this run's own) with a `hash_mb` table and
    /// `threads` (it caps them itself), killing it and its process group on `interrupt`.
    /// `Err`: this process could not write its files or start it, or it failed (exit code
    /// other than 0 or 1, or no CSV row) or wrote a row this one cannot read.
    pub fn solve(
        &self,
        dir: &Path,
        record: &ObfRecord,
        mode: Mode,
        hash_mb: usize,
        threads: usize,
        interrupt: &Interrupt,
    ) -> Result<FinaleRun> {
        let bin = &self.path;
        let obf = write_position(dir, record)?;
        let csv = dir.join("row.csv");
        let (stdout, errors) = (dir.join("stdout.txt"), dir.join("stderr.txt"));
        // A row left by the previous position is never read as this one's.
        let _ = std::fs::remove_file(&csv);
        let mut command = process::command(bin);
        command
            .arg("suite")
            .arg(&obf)
            .arg("--csv")
            .arg(&csv)
            .args(["--hash-mb", &hash_mb.to_string()])
            .args(mode_args(mode))
            .args(["--threads", &threads.to_string()]);
        let ended = process::run(command, &stdout, &errors, None, interrupt).map_err(|source| {
            Error::Io {
                path: bin.clone(),
                source,
            }
        })?;
        let status = match ended {
            Ended::Exited { status, .. } => status,
            Ended::Interrupted(wall) | Ended::TimedOut(wall) => {
                return Ok(FinaleRun::Interrupted(wall));
            }
        };
        // Exit 1 means a wrong answer: still an answer to time, when the row was written.
        if !matches!(status.code(), Some(0 | 1)) || !csv.is_file() {
            let err = std::fs::read_to_string(&errors).unwrap_or_default();
            let message = match (err.lines().next(), status.code()) {
                (Some(line), _) => line.to_string(),
                (None, Some(c)) => format!("exited with code {c} and wrote no CSV row"),
                (None, None) => "killed by a signal before it wrote its CSV row".into(),
            };
            return Err(SuiteError::BinaryFailed {
                binary: bin.clone(),
                message,
            }
            .into());
        }
        read_answer(bin, &csv, mode).map(FinaleRun::Answer)
    }
}

/// The other binary's arguments that ask for `mode`: `--window A,B` for a window.
fn mode_args(mode: Mode) -> [String; 2] {
    match mode {
        Mode::Window(w) => ["--window".into(), w.to_string()],
        m => ["--mode".into(), m.name().into()],
    }
}

/// A temporary directory named `prefix...`, removed when dropped.
fn temp_dir(prefix: &str) -> Result<tempfile::TempDir> {
    tempfile::Builder::new()
        .prefix(prefix)
        .tempdir()
        .map_err(|source| Error::Write {
            path: std::env::temp_dir(),
            source,
        })
}

/// The one-position OBF file the other binary solves, with the record's expected scores
/// (so that it checks its answer as this run does).
fn write_position(dir: &Path, record: &ObfRecord) -> Result<PathBuf> {
    let obf = dir.join("position.obf");
    let pairs: Vec<String> = record
        .expected
        .iter()
        .map(|(m, s)| format!("{m}:{s:+};"))
        .collect();
    let line = format!("{}; {}\n", record.position, pairs.join(" "));
    std::fs::write(&obf, line).map_err(|source| Error::Write {
        path: obf.clone(),
        source,
    })?;
    Ok(obf)
}

/// The answer in the other binary's CSV `csv`. The row is another program's output: a
/// value out of range is an error naming it, not a panic (`Duration` of an infinite time)
/// or a silently wrong table.
fn read_answer(bin: &Path, csv: &Path, mode: Mode) -> Result<FinaleAnswer> {
    let (row, line) = first_row(bin, csv)?;
    let bad = |what: &str| {
        Error::from(SuiteError::BinaryCsv {
            binary: bin.to_path_buf(),
            what: format!("{what} on line {line} of its CSV"),
        })
    };
    let seconds =
        |text: &str| parse_seconds(text).and_then(|t| Duration::try_from_secs_f64(t).ok());
    let score = row
        .score
        .filter(|s| (-64..=64).contains(s))
        .ok_or_else(|| bad("bad score (expected -64 to 64)"))?;
    // Older finales wrote no bounds: the score's class says what they proved.
    let (lower, upper) = match (row.lower, row.upper) {
        (Some(l), Some(u)) if -64 <= l && l <= u && u <= 64 => (l, u),
        (None, None) => mode.window().bounds_of(score),
        _ => {
            return Err(bad(
                "bad lower or upper (expected -64 <= lower <= upper <= 64)",
            ));
        }
    };
    let result = SolveResult {
        mode,
        // Older finales wrote no selectivity: they solved exactly.
        selectivity: Level::from_percent(row.selectivity.unwrap_or(100)),
        score,
        lower,
        upper,
        best_moves: row
            .best_moves
            .split_whitespace()
            .filter_map(Square::parse)
            .collect(),
        move_scores: row
            .move_scores
            .split_whitespace()
            .filter_map(|p| {
                let (m, s) = p.split_once(':')?;
                Some((Square::parse(m)?, s.trim_start_matches('+').parse().ok()?))
            })
            .collect(),
        pv: row.pv.split_whitespace().filter_map(engine_move).collect(),
        nodes: row.nodes.ok_or_else(|| bad("bad nodes"))?,
        time: seconds(&row.time_s).ok_or_else(|| {
            bad(&format!(
                "bad time_s (expected seconds from 0 to {MAX_SECONDS:e})"
            ))
        })?,
        best_found: seconds(&row.best_found_s),
    };
    Ok(FinaleAnswer {
        result,
        git_rev: Some(row.git_rev).filter(|r| !r.is_empty()),
        peak_mb: row.peak_mb.parse().ok().filter(|m: &f64| m.is_finite()),
    })
}

/// The first row of the other binary's CSV `csv` and its line number; no header, no row
/// or a field of the wrong type is an error naming the binary.
fn first_row(bin: &Path, csv: &Path) -> Result<(CsvRow, u64)> {
    let bad = |what: String| {
        Error::from(SuiteError::BinaryCsv {
            binary: bin.to_path_buf(),
            what,
        })
    };
    let mut r = csv::Reader::from_path(csv).map_err(|source| Error::Csv {
        path: csv.to_path_buf(),
        source,
    })?;
    let header = r
        .headers()
        .map_err(|_| bad("no header in its CSV".into()))?
        .clone();
    let rec = r
        .records()
        .next()
        .and_then(|x| x.ok())
        .ok_or_else(|| bad("no row in its CSV".into()))?;
    let line = rec.position().map_or(2, |p| p.line());
    let row = read_row(&rec, &header)
        .map_err(|b| bad(format!("bad {} on line {line} of its CSV", b.column)))?;
    Ok((row, line))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// An executable `name` in `dir` running `body` under sh.
    fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("script");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        path
    }

    /// A binary is refused, before anything runs, for what it is (a missing file, no
    /// execute bit) or for its `--version` (wrong text, a failure, a hang past the limit).
    #[test]
    fn only_a_finale_answering_its_version_is_taken() {
        let dir = tempfile::tempdir().expect("temp dir");
        let limit = Duration::from_millis(500);
        let said = |path: &Path| match Finale::checked(path, limit) {
            Ok(f) => format!("ok {}", f.path.is_absolute()),
            Err(e) => e.to_string(),
        };
        let missing = dir.path().join("none");
        assert!(matches!(
            Finale::checked(&missing, limit),
            Err(Error::Suite(SuiteError::NoBinary(_)))
        ));
        let plain = dir.path().join("plain");
        std::fs::write(&plain, "x").expect("file");
        assert!(said(&plain).ends_with("not a finale binary (not executable)"));
        let good = script(dir.path(), "good", "echo 'finale 9.9'");
        assert_eq!(said(&good), "ok true");
        for (name, body, why) in [
            ("other", "echo 'edax 4.4'", "`--version` printed 'edax 4.4'"),
            ("fails", "exit 3", "`--version` exited with code 3"),
            (
                "hangs",
                "sleep 30",
                "`--version` did not answer within 500ms",
            ),
        ] {
            let path = script(dir.path(), name, body);
            let e = said(&path);
            assert!(e.ends_with(&format!("not a finale binary ({why})")), "{e}");
        }
    }
}
