//! Reading suite and batch CSVs back (compare, report): each row read as the suite's and
//! the batch's row types, columns matched by name, only the solved rows, every error
//! naming the file, line and column.
//!
//! A torn last row (one a suite or batch stopped while writing it, on a full disk or by a
//! kill, left without its newline or with fewer fields than the header) is dropped, as
//! batch resume and calibrate drop it, and [`RunCsv::torn`] says where it was. A row like
//! it anywhere else is refused: only the end of a file is written last.

use crate::durable::{LastByte, is_torn_row};
use crate::error::{CompareError, Error, Result};
use crate::results::csv_in::{BadValue, MAX_EMPTIES, duplicate_column, read_row};
use crate::results::csv_in::{MAX_SECONDS, parse_seconds};
use crate::results::{BatchColumns, CsvRow};
use csv::{ByteRecord, StringRecord};
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

/// A suite or batch CSV open for reading.
pub struct RunCsv<R = File> {
    path: PathBuf,
    header: StringRecord,
    reader: csv::Reader<LastByte<R>>,
    torn: Option<TornRow>,
}

/// A torn last row that was dropped (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TornRow {
    /// 1-based line where it starts.
    pub line: u64,
    /// Its fields, fewer than the header's or all of them, the last perhaps cut short.
    pub fields: usize,
    /// The header's fields.
    pub columns: usize,
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
        // Flexible: rows of another length are told apart here, a torn last row from one
        // damaged elsewhere.
        let mut reader = csv::ReaderBuilder::new()
            .flexible(true)
            .from_reader(LastByte::new(reader));
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
            torn: None,
        })
    }

    /// The torn last row that [`for_each_solved`](Self::for_each_solved) dropped, if any.
    pub fn torn(&self) -> Option<&TornRow> {
        self.torn.as_ref()
    }

    /// One line saying which torn last row was dropped, if one was (for stderr).
    pub fn torn_note(&self) -> Option<String> {
        self.torn.as_ref().map(|t| {
            let how = if t.fields < t.columns {
                format!("{} of its {} fields", t.fields, t.columns)
            } else {
                "no newline at its end".to_string()
            };
            format!(
                "note: {}:{}: the last row is torn ({how}: a run stopped while writing \
                 it); read without it",
                self.path.display(),
                t.line
            )
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

    /// Calls `visit` with every solved row (every row when the file has no `status`; not
    /// the rows whose `engine_status` says another engine gave no answer). A
    /// torn last row is dropped (see [`torn`](Self::torn)); a row of another number of
    /// fields than the header elsewhere, or one that is not UTF-8, is refused.
    pub fn for_each_solved(
        &mut self,
        mut visit: impl FnMut(&SolvedRow) -> Result<()>,
    ) -> Result<()> {
        let all_solved = !self.has("status");
        let columns = self.header.len();
        let mut next = ByteRecord::new();
        let mut more = self.read(&mut next)?;
        while more {
            let bytes = std::mem::take(&mut next);
            // Read one row ahead: only the last row may be torn.
            more = self.read(&mut next)?;
            let line = bytes.position().map_or(0, |p| p.line());
            let fields = bytes.len();
            let newline_after = more || self.reader.get_ref().ends_in_newline();
            if is_torn_row(!more, fields, columns, newline_after) {
                self.torn = Some(TornRow {
                    line,
                    fields,
                    columns,
                });
                break;
            }
            let malformed = |what: String| {
                Error::from(CompareError::Malformed {
                    path: self.path.clone(),
                    line,
                    what,
                })
            };
            if fields != columns {
                return Err(malformed(format!(
                    "{fields} fields, the header has {columns}"
                )));
            }
            let record = StringRecord::from_byte_record(bytes)
                .map_err(|e| malformed(format!("not UTF-8: {}", e.utf8_error())))?;
            let read_error = |BadValue { line, column }| bad(&self.path, line, &column);
            // The batch half first: a row that is not solved is skipped unread, as the
            // values of a timeout or an error row are not used.
            let batch: BatchColumns = read_row(&record, &self.header).map_err(read_error)?;
            if !all_solved && batch.status != "solved" {
                continue;
            }
            let row: CsvRow = read_row(&record, &self.header).map_err(read_error)?;
            // A suite row of another engine that gave no answer (timeout, error).
            if !row.engine_status.is_empty() && row.engine_status != "solved" {
                continue;
            }
            visit(&SolvedRow {
                path: &self.path,
                line: record.position().map_or(0, |p| p.line()),
                row,
                batch,
            })?;
        }
        Ok(())
    }

    /// Reads the next row into `record`; false at the end of the file.
    fn read(&mut self, record: &mut ByteRecord) -> Result<bool> {
        self.reader
            .read_byte_record(record)
            .map_err(|source| Error::Csv {
                path: self.path.clone(),
                source,
            })
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
