//! The suite CSV: one row per position, written and flushed as the position finishes, in a
//! file that never overwrites an earlier run unless asked to. The rows themselves are in
//! [`super::csv_row`].

use super::csv_row::{CsvRow, HEADER, RunInfo};
use super::machine;
use super::row::Row;
use crate::error::{Error, Result, ResultsError};
use std::fs::{File, OpenOptions};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

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
            .serialize((CsvRow::of_row(row, info), promise(row)))
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
