//! Reading suite and batch CSVs back (compare, report): columns found by name, only the
//! solved rows, every error naming the file and line.

use crate::error::{Error, Result};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// A suite or batch CSV open for reading.
pub struct RunCsv {
    path: PathBuf,
    header: Vec<String>,
    reader: csv::Reader<File>,
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
        let csv_err = |source| Error::Csv {
            path: path.to_path_buf(),
            source,
        };
        let mut reader = csv::Reader::from_path(path).map_err(csv_err)?;
        let header = reader
            .headers()
            .map_err(csv_err)?
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
            Error::Invalid(format!(
                "{}:1: no '{name}' column: not a finale suite or batch CSV",
                self.path.display()
            ))
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
        self.text(i).parse().map_err(|_| {
            Error::Invalid(format!("{}:{}: bad {name}", self.path.display(), self.line))
        })
    }
}
