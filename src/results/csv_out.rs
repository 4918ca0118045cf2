//! The suite CSV: one row per position, written and flushed as the position finishes, in a
//! file that never overwrites an earlier run unless asked to.

use super::format::{move_scores_string, moves_string};
use super::machine;
use super::row::Row;
use crate::board::Position;
use crate::board::key::{key_hex, position_key};
use crate::error::{Error, Result, ResultsError};
use crate::search::Mode;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// The CSV columns, in order.
pub const HEADER: [&str; 29] = [
    "index",
    "file",
    "empties",
    "side",
    "mode",
    "score",
    "best_moves",
    "expected_score",
    "expected_moves",
    "ok",
    "nodes",
    "time_s",
    "nps",
    "threads",
    "hash_mb",
    "pv",
    "git_rev",
    "cpu",
    "profile",
    "move_scores",
    "key",
    "board",
    "variant",
    "repeat",
    "selectivity",
    "best_found_s",
    "peak_mb",
    "engine",
    "engine_status",
];

/// The suite's own columns, written after [`HEADER`]: `promise` is `unchecked` for a
/// probable answer from a position deeper than its level was checked at
/// ([`crate::search::Level::checked_at`]), `checked` for another probable answer, and
/// empty for an exact one. (Readers match columns by name, so older CSVs still read.)
pub const SUITE_COLUMNS: [&str; 1] = ["promise"];

/// Where a suite's CSV goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CsvTarget {
    /// A new file `<dir>/<YYYY-MM-DD>-<stem of the first suite file>.csv`, with `-2`, `-3`
    /// ... added when that name is taken. `dir` is created if missing.
    Default(PathBuf),
    /// Exactly this file, overwritten.
    Path(PathBuf),
    /// No CSV.
    None,
}

/// What is the same for every row of a run.
#[derive(Clone, Debug)]
pub struct RunInfo {
    /// Threads searching.
    pub threads: usize,
    /// Table size in MB.
    pub hash_mb: usize,
    /// Source revision of the binary.
    pub git_rev: String,
    /// CPU model name.
    pub cpu: String,
    /// `release` or `debug`.
    pub profile: String,
}

impl RunInfo {
    /// This build on this machine.
    pub fn current(threads: usize, hash_mb: usize) -> RunInfo {
        RunInfo {
            threads,
            hash_mb,
            git_rev: machine::git_rev().to_string(),
            cpu: machine::cpu_model(),
            profile: machine::profile().to_string(),
        }
    }
}

/// An open CSV file with its header written.
pub struct CsvOut {
    path: PathBuf,
    writer: csv::Writer<File>,
}

impl CsvOut {
    /// Opens the target for a suite whose first file is `first_file`; `None` for
    /// [`CsvTarget::None`].
    pub fn open(target: &CsvTarget, first_file: &Path) -> Result<Option<CsvOut>> {
        let (path, file) = match target {
            CsvTarget::None => return Ok(None),
            CsvTarget::Path(path) => {
                let file = File::create(path).map_err(|source| Error::Write {
                    path: path.clone(),
                    source,
                })?;
                (path.clone(), file)
            }
            CsvTarget::Default(dir) => {
                std::fs::create_dir_all(dir).map_err(|source| Error::Write {
                    path: dir.clone(),
                    source,
                })?;
                let base = format!("{}-{}", machine::today(), file_stem(first_file));
                create_unique(dir, &base)?
            }
        };
        // The header is written once, from HEADER; rows never write it again.
        let writer = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(file);
        let mut out = CsvOut { path, writer };
        out.write_record(HEADER.iter().chain(&SUITE_COLUMNS).map(|s| s.to_string()))?;
        Ok(Some(out))
    }

    /// The file being written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes and flushes the row of one position.
    pub fn write_row(&mut self, row: &Row, info: &RunInfo) -> Result<()> {
        let path = &self.path;
        self.writer
            .serialize((record(row, info), promise(row)))
            .map_err(|source| Error::Csv {
                path: path.clone(),
                source,
            })?;
        self.flush()
    }

    fn write_record(&mut self, fields: impl IntoIterator<Item = String>) -> Result<()> {
        let path = &self.path;
        let csv_error = |source| Error::Csv {
            path: path.clone(),
            source,
        };
        self.writer.write_record(fields).map_err(csv_error)?;
        self.flush()
    }

    fn flush(&mut self) -> Result<()> {
        let path = &self.path;
        // Flush every row: a run cut short must keep the rows it finished.
        self.writer.flush().map_err(|source| Error::Write {
            path: path.clone(),
            source,
        })
    }
}

/// The stem of a suite file for the default CSV name: `fforum-40-59` for
/// `suites/fforum-40-59.obf`, `suite` when there is none.
pub fn file_stem(file: &Path) -> String {
    file.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "suite".into())
}

/// Creates `<dir>/<base>.csv`, or the first free `<dir>/<base>-N.csv` (N = 2, 3, ...).
/// `create_new` makes choosing and creating one step, so two runs started together
/// cannot pick the same name.
pub fn create_unique(dir: &Path, base: &str) -> Result<(PathBuf, File)> {
    // A bound keeps a directory that cannot be written from looping forever (that fails
    // with an error other than AlreadyExists anyway) and a full one from scanning for long.
    const MAX_SUFFIX: u32 = 10_000;
    for n in 1..=MAX_SUFFIX {
        let name = if n == 1 {
            format!("{base}.csv")
        } else {
            format!("{base}-{n}.csv")
        };
        let path = dir.join(name);
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((path, file)),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
            Err(source) => return Err(Error::Write { path, source }),
        }
    }
    Err(ResultsError::NamesTaken {
        dir: dir.to_path_buf(),
        base: base.to_string(),
        last: MAX_SUFFIX,
    }
    .into())
}

/// A score in `mode`'s terms: the sign only for wld.
fn class(mode: Mode, score: i32) -> i32 {
    if mode == Mode::Wld {
        score.signum()
    } else {
        score
    }
}

/// The `promise` column of a row ([`SUITE_COLUMNS`]).
fn promise(row: &Row) -> &'static str {
    let r = &row.result;
    if row.failure.is_some() || !r.selectivity.is_probcut() {
        ""
    } else if r.selectivity.checked_at(row.position.board.empty_count()) {
        "checked"
    } else {
        "unchecked"
    }
}

/// One row of the suite CSV, the columns in [`HEADER`] order (a test checks that they
/// agree). The batch writes it followed by its own columns ([`BatchRow`]). Fields a row
/// does not have (a batch timeout has no score) stay empty.
///
/// The same type reads the CSVs back ([`super::csv_in`]). A column a file lacks reads as
/// empty (`serde(default)`): CSVs of older finales, which compare and report read by
/// column name, have fewer columns. The text columns are `S`: `String`, or `&str`
/// borrowed from the record read.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CsvRow<S = String> {
    pub index: Option<usize>,
    pub file: S,
    pub empties: Option<u32>,
    pub side: S,
    pub mode: S,
    pub score: Option<i32>,
    pub best_moves: S,
    pub expected_score: Option<i32>,
    pub expected_moves: S,
    pub ok: Option<bool>,
    pub nodes: Option<u64>,
    /// Seconds, 6 decimals.
    pub time_s: S,
    /// Nodes per second, rounded.
    pub nps: S,
    pub threads: Option<usize>,
    pub hash_mb: Option<usize>,
    pub pv: S,
    pub git_rev: S,
    pub cpu: S,
    pub profile: S,
    pub move_scores: S,
    pub key: S,
    pub board: S,
    pub variant: S,
    pub repeat: Option<u32>,
    pub selectivity: Option<u8>,
    /// Seconds, 6 decimals.
    pub best_found_s: S,
    /// MB, 1 decimal.
    pub peak_mb: S,
    /// The engine that solved the row, as it names itself (`finale 0.1.0`, `zebra`).
    pub engine: S,
    /// `solved`, or why another engine gave no answer (`timeout`, `error: ...`). (A
    /// batch's own `status` column says what became of its rows.)
    pub engine_status: S,
}

/// The batch's own columns, after the suite's.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct BatchColumns<S = String> {
    /// `solved`, `timeout` or `error: ...`.
    pub status: S,
    /// A timeout's last finished pass: its score...
    pub probable_score: S,
    /// ...its level (`73%`..`99%`, `narrow`)...
    pub probable_level: S,
    /// ...and its move.
    pub probable_move: S,
    /// The line of the input file (`file`) the position was read from: its first line
    /// when it repeats.
    pub line: S,
}

/// The names of [`BatchColumns`], in order.
pub const BATCH_COLUMNS: [&str; 5] = [
    "status",
    "probable_score",
    "probable_level",
    "probable_move",
    "line",
];

/// The batch CSV columns: the suite's, then `status` and, for a `timeout` row, the last
/// finished pass as a probable answer (score, level such as `73%`, move), then `line`.
pub fn batch_header() -> Vec<&'static str> {
    let mut h: Vec<&str> = HEADER.to_vec();
    h.extend(BATCH_COLUMNS);
    h
}

/// One batch row: the suite's columns, then the batch's. Written as one record, and read
/// back by position ([`super::csv_in::read_batch_row`]) or, by compare and report, each
/// half by column name. `S` is `String` for rows made or kept, `&str` for rows read and
/// looked at in place (a resume reads millions).
pub type BatchRow<S = String> = (CsvRow<S>, BatchColumns<S>);

/// Seconds as written in the CSVs: 6 decimals.
pub fn seconds(t: std::time::Duration) -> String {
    format!("{:.6}", t.as_secs_f64())
}

/// Megabytes as written in the CSVs: 1 decimal; empty when unknown.
pub fn megabytes(mb: Option<f64>) -> String {
    mb.map(|m| format!("{m:.1}")).unwrap_or_default()
}

impl CsvRow {
    /// What is known of `position` and the run before any answer: where it came from, its
    /// key and board, and the run's threads, table, revision, CPU and build.
    pub fn of_position(index: usize, file: &Path, position: &Position, info: &RunInfo) -> Self {
        CsvRow {
            index: Some(index),
            file: file.display().to_string(),
            empties: Some(position.board.empty_count()),
            side: position.side.letter().to_string(),
            threads: Some(info.threads),
            hash_mb: Some(info.hash_mb),
            git_rev: info.git_rev.clone(),
            cpu: info.cpu.clone(),
            profile: info.profile.clone(),
            key: key_hex(position_key(position)),
            board: position.squares_string(),
            repeat: Some(1),
            ..CsvRow::default()
        }
    }
}

/// The CSV row of a solved position.
pub fn record(row: &Row, info: &RunInfo) -> CsvRow {
    let r = &row.result;
    if let Some(failure) = &row.failure {
        // No answer: only where and how long it ran.
        return CsvRow {
            mode: r.mode.name().to_string(),
            expected_score: row.expected_score.map(|s| class(r.mode, s)),
            expected_moves: moves_string(&row.expected_moves),
            time_s: seconds(r.time),
            variant: row.variant.clone(),
            repeat: Some(row.repeat),
            engine: row.engine.clone(),
            engine_status: failure.clone(),
            ..CsvRow::of_position(row.index, &row.file, &row.position, info)
        };
    }
    let pv: Vec<String> = r.pv.iter().map(|m| m.to_string()).collect();
    CsvRow {
        mode: r.mode.name().to_string(),
        score: Some(r.score),
        best_moves: moves_string(&r.best_moves),
        // In the mode's terms, like `score`: the sign only in wld.
        expected_score: row.expected_score.map(|s| class(r.mode, s)),
        expected_moves: moves_string(&row.expected_moves),
        ok: row.verdict.ok(),
        nodes: Some(r.nodes),
        time_s: seconds(r.time),
        nps: format!("{:.0}", r.nps()),
        pv: pv.join(" "),
        move_scores: move_scores_string(&r.move_scores),
        variant: row.variant.clone(),
        repeat: Some(row.repeat),
        selectivity: Some(r.selectivity.percent()),
        best_found_s: r.best_found.map(seconds).unwrap_or_default(),
        peak_mb: megabytes(row.peak_mb),
        engine: row.engine.clone(),
        engine_status: "solved".into(),
        ..CsvRow::of_position(row.index, &row.file, &row.position, info)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The header csv's serializer writes for a `T`: its field names, in order.
    fn serialized_header<T: Serialize + Default>() -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(T::default()).expect("serializes");
        let text = String::from_utf8(w.into_inner().expect("flushed")).expect("utf-8");
        text.lines().next().expect("a header").to_string()
    }

    /// The serialized columns are the documented ones, in order; the batch's too, as a
    /// batch row is read back by position.
    #[test]
    fn the_row_types_have_the_header_columns_in_order() {
        assert_eq!(serialized_header::<CsvRow>(), HEADER.join(","));
        assert_eq!(serialized_header::<BatchColumns>(), BATCH_COLUMNS.join(","));
    }

    #[test]
    fn stems() {
        assert_eq!(
            file_stem(Path::new("suites/fforum-40-59.obf")),
            "fforum-40-59"
        );
        assert_eq!(file_stem(Path::new("x")), "x");
        assert_eq!(file_stem(Path::new("/")), "suite");
    }

    /// When every name is taken the error is a type, with the message it always had.
    #[test]
    fn a_directory_with_every_name_taken_is_a_typed_error() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path();
        File::create(dir.join("s.csv")).expect("create");
        for n in 2..=10_000 {
            File::create(dir.join(format!("s-{n}.csv"))).expect("create");
        }
        let e = create_unique(dir, "s").expect_err("all taken");
        assert_eq!(
            e.to_string(),
            format!(
                "{}: s.csv to s-10000.csv all exist; give --csv PATH",
                dir.display()
            )
        );
        assert!(
            matches!(
                e,
                Error::Results(ResultsError::NamesTaken { last: 10_000, .. })
            ),
            "{e:?}"
        );
    }

    #[test]
    fn unique_names_never_overwrite() {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path();
        let names: Vec<String> = (0..3)
            .map(|_| {
                let (path, _) = create_unique(dir, "2026-11-22-s").expect("create");
                path.file_name()
                    .expect("name")
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        assert_eq!(
            names,
            [
                "2026-11-22-s.csv",
                "2026-11-22-s-2.csv",
                "2026-11-22-s-3.csv"
            ]
        );
    }
}
