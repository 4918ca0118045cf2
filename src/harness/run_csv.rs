//! Reading suite and batch CSVs back (compare, report): columns found by name, only the
//! solved rows, every error naming the file and line.

use crate::error::{CompareError, Error, Result};
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The longest solve time accepted from a CSV, in seconds (about 31 years). Larger values
/// are not measurements, and they would overflow the sums and plot ranges built from them.
pub const MAX_SECONDS: f64 = 1e9;

/// The most empty squares a board can have.
const MAX_EMPTIES: u32 = 64;

/// Whether `t` can be a solve time in seconds: from 0 to [`MAX_SECONDS`] (not NaN).
pub fn is_seconds(t: f64) -> bool {
    (0.0..=MAX_SECONDS).contains(&t)
}

/// `text` as a solve time in seconds (see [`is_seconds`]).
pub fn parse_seconds(text: &str) -> Option<f64> {
    text.parse::<f64>().ok().filter(|&t| is_seconds(t))
}

/// A suite or batch CSV open for reading.
pub struct RunCsv<R = File> {
    path: PathBuf,
    header: Vec<String>,
    reader: csv::Reader<R>,
}

/// One solved row and where it is.
pub struct SolvedRow<'a> {
    path: &'a Path,
    /// Line number in the file.
    pub line: u64,
    record: csv::StringRecord,
}

impl RunCsv {
    /// Opens `path` and reads its header.
    pub fn open(path: &Path) -> Result<RunCsv> {
        let file = File::open(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        RunCsv::from_reader(file, path)
    }
}

impl<R: Read> RunCsv<R> {
    /// Reads the header of the CSV text `reader`; errors name `path`.
    pub fn from_reader(reader: R, path: &Path) -> Result<RunCsv<R>> {
        let mut reader = csv::Reader::from_reader(reader);
        let header = reader
            .headers()
            .map_err(|source| Error::Csv {
                path: path.to_path_buf(),
                source,
            })?
            .iter()
            .map(String::from)
            .collect();
        Ok(RunCsv {
            path: path.to_path_buf(),
            header,
            reader,
        })
    }

    /// The index of column `name`, if the file has it.
    pub fn col(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|h| h == name)
    }

    /// The index of column `name`, which the file must have.
    pub fn need(&self, name: &str) -> Result<usize> {
        self.col(name).ok_or_else(|| {
            Error::from(CompareError::MissingColumn {
                path: self.path.clone(),
                column: name.to_string(),
            })
        })
    }

    /// Calls `visit` with every solved row (every row when the file has no `status`).
    pub fn for_each_solved(
        &mut self,
        mut visit: impl FnMut(&SolvedRow) -> Result<()>,
    ) -> Result<()> {
        let status = self.col("status");
        for rec in self.reader.records() {
            let record = rec.map_err(|source| Error::Csv {
                path: self.path.clone(),
                source,
            })?;
            if status.is_some_and(|s| record.get(s) != Some("solved")) {
                continue;
            }
            let line = record.position().map_or(0, |p| p.line());
            visit(&SolvedRow {
                path: &self.path,
                line,
                record,
            })?;
        }
        Ok(())
    }
}

impl SolvedRow<'_> {
    /// The text of column `i` (empty when the row is short).
    pub fn text(&self, i: usize) -> &str {
        self.record.get(i).unwrap_or_default()
    }

    /// Column `i` parsed; the error names the file, line and column `name`.
    pub fn parse<T: FromStr>(&self, i: usize, name: &str) -> Result<T> {
        self.text(i).parse().map_err(|_| self.bad(name, ""))
    }

    /// Column `i` as a solve time (see [`parse_seconds`]); the error names the file, line
    /// and column `name`.
    pub fn seconds(&self, i: usize, name: &str) -> Result<f64> {
        parse_seconds(self.text(i)).ok_or_else(|| {
            self.bad(
                name,
                &format!(" (expected seconds from 0 to {MAX_SECONDS:e})"),
            )
        })
    }

    /// Column `i` as a number of empty squares, 0 to 64.
    pub fn empties(&self, i: usize, name: &str) -> Result<u32> {
        self.text(i)
            .parse()
            .ok()
            .filter(|&e| e <= MAX_EMPTIES)
            .ok_or_else(|| self.bad(name, &format!(" (expected 0 to {MAX_EMPTIES})")))
    }

    fn bad(&self, name: &str, expected: &str) -> Error {
        Error::from(CompareError::BadValue {
            path: self.path.to_path_buf(),
            line: self.line,
            column: name.to_string(),
            expected: expected.to_string(),
        })
    }
}
