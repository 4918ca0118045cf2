//! The batch's input: OBF files streamed line by line (twice: to count, then to solve),
//! each line a position or, with `--skip-bad`, a malformed line to record; and the values
//! that repeats of a position give, to be held against its one solve.

use crate::board::key::{line_key, position_key};
use crate::board::parse::OBF_MAX_LINE_BYTES;
use crate::board::{ObfRecord, Square, parse_obf_line};
use crate::error::{BatchError, Error, Result};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// One input line, as the batch sees it.
pub(super) enum Item {
    /// A position to solve.
    Position {
        file: usize,
        index: usize,
        key: u64,
        record: ObfRecord,
    },
    /// A malformed line (kept only with `skip_bad`).
    Bad {
        file: usize,
        /// Its line in the file.
        line: usize,
        key: u64,
        text: String,
        error: String,
    },
}

/// Streams the items of the input files in order; `Err` for unreadable files and, unless
/// `skip_bad`, malformed lines.
pub(super) fn items(
    inputs: &[PathBuf],
    skip_bad: bool,
    mut visit: impl FnMut(Item) -> Result<()>,
) -> Result<()> {
    for (f, path) in inputs.iter().enumerate() {
        file_items(f, path, skip_bad, &mut visit)?;
    }
    Ok(())
}

/// The items of input file number `f`, at `path`.
fn file_items(
    f: usize,
    path: &Path,
    skip_bad: bool,
    visit: &mut impl FnMut(Item) -> Result<()>,
) -> Result<()> {
    let file = std::fs::File::open(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let mut reader = BufReader::new(file);
    let mut bytes = Vec::new();
    let (mut number, mut index) = (0usize, 0usize);
    while read_line(&mut reader, &mut bytes, path, number + 1)? {
        number += 1;
        // Bytes that are not UTF-8 become U+FFFD, which the OBF parser then reports
        // with its column (or `--skip-bad` records).
        let line = String::from_utf8_lossy(&bytes);
        match parse_obf_line(&line) {
            Ok(None) => {}
            Ok(Some(mut record)) => {
                index += 1;
                record.line = number;
                let key = position_key(&record.position);
                visit(Item::Position {
                    file: f,
                    index,
                    key,
                    record,
                })?;
            }
            Err(error) => {
                let error = crate::board::ReadError::Obf {
                    origin: path.display().to_string(),
                    line: number,
                    error,
                };
                if !skip_bad {
                    return Err(error.into());
                }
                let text = line.trim().to_string();
                visit(Item::Bad {
                    file: f,
                    line: number,
                    key: line_key(&text),
                    text,
                    error: error.to_string(),
                })?;
            }
        }
    }
    Ok(())
}

/// Reads line `number` of `path` into `bytes`; false at the end of the file. Bounded: a
/// file that is not text must not be read into memory as one line.
fn read_line(
    reader: &mut impl BufRead,
    bytes: &mut Vec<u8>,
    path: &Path,
    number: usize,
) -> Result<bool> {
    bytes.clear();
    let limit = OBF_MAX_LINE_BYTES as u64 + 1;
    let read = reader
        .take(limit)
        .read_until(b'\n', bytes)
        .map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
    if read == 0 {
        return Ok(false);
    }
    if bytes.len() > OBF_MAX_LINE_BYTES && bytes.last() != Some(&b'\n') {
        return Err(BatchError::LineTooLong {
            path: path.to_path_buf(),
            line: number,
            max: OBF_MAX_LINE_BYTES,
        }
        .into());
    }
    Ok(true)
}

/// Checks that `path` is a regular file: inputs are read twice (to count, then to solve),
/// and a pipe or device would give nothing, or something else, the second time.
pub(crate) fn regular_file(path: &Path) -> Result<()> {
    let meta = std::fs::metadata(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })?;
    if meta.is_file() {
        Ok(())
    } else {
        Err(BatchError::NotRegular(path.to_path_buf()).into())
    }
}

/// The values that repeats of a position give (`MOVE:SCORE` pairs, or a score alone, on a
/// later line of the same position), by key, to be checked against the one solve. Only repeats that give
/// values and are to be solved in this run are kept, so a batch of millions of distinct
/// positions keeps nothing here.
pub(super) type Repeats = HashMap<u64, Vec<Repeat>>;

/// A later occurrence of a position, with the values it gives.
pub(super) struct Repeat {
    /// Index of its input file.
    pub(super) file: usize,
    /// 1-based line in that file.
    pub(super) line: usize,
    /// Its `MOVE:SCORE` pairs.
    pub(super) expected: Vec<(Square, i32)>,
    /// Its score given alone.
    pub(super) score: Option<i32>,
}
