//! Reading suite and batch CSVs back (compare, report): each row read as the suite's and
//! the batch's row types, columns matched by name, only the solved rows, every error
//! naming the file, line and column.

use crate::error::{CompareError, Error, Result};
use crate::results::csv_in::{BadValue, MAX_EMPTIES, duplicate_column, read_row};
pub use crate::results::csv_in::{MAX_SECONDS, is_seconds, parse_seconds};
use crate::results::{BatchColumns, CsvRow};
use csv::StringRecord;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

/// A suite or batch CSV open for reading.
pub struct RunCsv<R = File> {
    path: PathBuf,
    header: StringRecord,
    reader: csv::Reader<R>,
}

/// One solved row and where it is.
pub struct SolvedRow<'a> {
    path: &'a Path,
    /// Line number in the file.
    pub line: u64,
    /// The suite's columns; those the file does not have are empty.
    pub row: CsvRow,
    /// The batch's columns; empty in a suite CSV.
    pub batch: BatchColumns,
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
    /// Reads the header of the CSV text `reader`; errors name `path`. A header that names
    /// a column twice is refused: its rows could not be read by name.
    pub fn from_reader(reader: R, path: &Path) -> Result<RunCsv<R>> {
        let mut reader = csv::Reader::from_reader(reader);
        let header = reader
            .headers()
            .map_err(|source| Error::Csv {
                path: path.to_path_buf(),
                source,
            })?
            .clone();
        if let Some(column) = duplicate_column(&header) {
            return Err(CompareError::DuplicateColumn {
                path: path.to_path_buf(),
                column: column.to_string(),
            }
            .into());
        }
        Ok(RunCsv {
            path: path.to_path_buf(),
            header,
            reader,
        })
    }

    /// Whether the file has column `name`.
    pub fn has(&self, name: &str) -> bool {
        self.header.iter().any(|h| h == name)
    }

    /// Checks that the file has each column of `names`; the error names the first missing.
    pub fn need(&self, names: &[&str]) -> Result<()> {
        match names.iter().find(|&&name| !self.has(name)) {
            None => Ok(()),
            Some(name) => Err(CompareError::MissingColumn {
                path: self.path.clone(),
                column: name.to_string(),
            }
            .into()),
        }
    }

    /// Calls `visit` with every solved row (every row when the file has no `status`).
    pub fn for_each_solved(
        &mut self,
        mut visit: impl FnMut(&SolvedRow) -> Result<()>,
    ) -> Result<()> {
        let all_solved = !self.has("status");
        for rec in self.reader.records() {
            let record = rec.map_err(|source| Error::Csv {
                path: self.path.clone(),
                source,
            })?;
            let read_error = |BadValue { line, column }| bad(&self.path, line, &column);
            // The batch half first: a row that is not solved is skipped unread, as the
            // values of a timeout or an error row are not used.
            let batch: BatchColumns = read_row(&record, &self.header).map_err(read_error)?;
            if !all_solved && batch.status != "solved" {
                continue;
            }
            let row: CsvRow = read_row(&record, &self.header).map_err(read_error)?;
            visit(&SolvedRow {
                path: &self.path,
                line: record.position().map_or(0, |p| p.line()),
                row,
                batch,
            })?;
        }
        Ok(())
    }
}

impl SolvedRow<'_> {
    /// The `nodes` column, which the row must have.
    pub fn nodes(&self) -> Result<u64> {
        self.row.nodes.ok_or_else(|| self.bad("nodes"))
    }

    /// The `time_s` column as a solve time (see [`parse_seconds`]).
    pub fn seconds(&self) -> Result<f64> {
        parse_seconds(&self.row.time_s).ok_or_else(|| self.bad("time_s"))
    }

    /// The `empties` column: a number of empty squares, 0 to 64.
    pub fn empties(&self) -> Result<u32> {
        self.row
            .empties
            .filter(|&e| e <= MAX_EMPTIES)
            .ok_or_else(|| self.bad("empties"))
    }

    fn bad(&self, column: &str) -> Error {
        bad(self.path, self.line, column)
    }
}

/// The error of a bad value in `column` on `line` of `path`, saying what the column takes
/// when that is not plain from its name.
fn bad(path: &Path, line: u64, column: &str) -> Error {
    let expected = match column {
        "time_s" => format!(" (expected seconds from 0 to {MAX_SECONDS:e})"),
        "empties" => format!(" (expected 0 to {MAX_EMPTIES})"),
        _ => String::new(),
    };
    Error::from(CompareError::BadValue {
        path: path.to_path_buf(),
        line,
        column: column.to_string(),
        expected,
    })
}
