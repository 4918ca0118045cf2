//! The suite CSV: one row per position, written and flushed as the position finishes, in a
//! file that never overwrites an earlier run unless asked to.

use super::format::{move_scores_string, moves_string};
use super::machine;
use super::row::Row;
use crate::board::key::{key_hex, position_key};
use crate::error::{Error, Result};
use crate::search::Mode;
use std::fs::{File, OpenOptions};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// The CSV columns, in order.
pub const HEADER: [&str; 27] = [
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
];

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
        let mut out = CsvOut {
            path,
            writer: csv::Writer::from_writer(file),
        };
        out.write_record(HEADER.iter().map(|s| s.to_string()))?;
        Ok(Some(out))
    }

    /// The file being written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes and flushes the row of one position.
    pub fn write_row(&mut self, row: &Row, info: &RunInfo) -> Result<()> {
        self.write_record(record(row, info))
    }

    fn write_record(&mut self, fields: impl IntoIterator<Item = String>) -> Result<()> {
        let path = &self.path;
        let csv_error = |source| Error::Csv {
            path: path.clone(),
            source,
        };
        self.writer.write_record(fields).map_err(csv_error)?;
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
    Err(Error::Invalid(format!(
        "{}: {base}.csv to {base}-{MAX_SUFFIX}.csv all exist; give --csv PATH",
        dir.display()
    )))
}

/// A score in `mode`'s terms: the sign only for wld.
fn class(mode: Mode, score: i32) -> i32 {
    if mode == Mode::Wld {
        score.signum()
    } else {
        score
    }
}

/// The CSV fields of one row, in [`HEADER`] order.
pub(crate) fn record(row: &Row, info: &RunInfo) -> [String; 27] {
    let r = &row.result;
    let pv: Vec<String> = r.pv.iter().map(|m| m.to_string()).collect();
    [
        row.index.to_string(),
        row.file.display().to_string(),
        row.position.board.empty_count().to_string(),
        row.position.side.letter().to_string(),
        r.mode.name().to_string(),
        r.score.to_string(),
        moves_string(&r.best_moves),
        // In the mode's terms, like `score`: the sign only in wld.
        row.expected_score
            .map(|s| class(r.mode, s).to_string())
            .unwrap_or_default(),
        moves_string(&row.expected_moves),
        row.verdict
            .ok()
            .map(|ok| ok.to_string())
            .unwrap_or_default(),
        r.nodes.to_string(),
        format!("{:.6}", r.time.as_secs_f64()),
        format!("{:.0}", r.nps()),
        info.threads.to_string(),
        info.hash_mb.to_string(),
        pv.join(" "),
        info.git_rev.clone(),
        info.cpu.clone(),
        info.profile.clone(),
        move_scores_string(&r.move_scores),
        key_hex(position_key(&row.position)),
        row.position.squares_string(),
        row.variant.clone(),
        row.repeat.to_string(),
        r.selectivity.to_string(),
        r.best_found
            .map(|t| format!("{:.6}", t.as_secs_f64()))
            .unwrap_or_default(),
        row.peak_mb.map(|m| format!("{m:.1}")).unwrap_or_default(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems() {
        assert_eq!(
            file_stem(Path::new("suites/fforum-40-59.obf")),
            "fforum-40-59"
        );
        assert_eq!(file_stem(Path::new("x")), "x");
        assert_eq!(file_stem(Path::new("/")), "suite");
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
