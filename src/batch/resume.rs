//! Reopening an existing batch output: its torn last row found and, once the file has
//! checked out as a batch CSV of this finale (header, every row's values, every row made
//! with the run's settings), cut off; the tasks (position and window) it already holds.

use super::input::{Task, task};
use super::options::RowSettings;
use super::row_check::{check_row, row_window};
use crate::durable;
use crate::error::{BatchError, Error, Result};
use crate::results::batch_header;
use crate::results::csv_in::read_batch_row;
use std::collections::HashSet;
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::Path;

/// What reopening an existing output found.
#[derive(Debug, Default)]
pub struct Resumed {
    /// Tasks that already have a row (a solve, a label, a timeout, or an `error` row of a
    /// malformed line): a position's key and the window it was solved in.
    pub(super) done: HashSet<Task>,
    /// Bytes of an unfinished last row that were dropped.
    pub dropped_bytes: u64,
}

/// Reads the existing output `file` at `path` (open for reading and appending, locked):
/// the keys done, every row made with `settings`, and the bytes of whole rows, where the
/// next row goes. A file
/// with no whole row must be empty or a cut header; a torn last row is dropped only from
/// a file that checked out as ours, and a refused file is left as it was.
pub(super) fn resume(
    path: &Path,
    file: &mut File,
    settings: &RowSettings,
) -> Result<(Resumed, u64)> {
    let io = |source| Error::Write {
        path: path.to_path_buf(),
        source,
    };
    let mut resumed = Resumed::default();
    // An unfinished last line is the row that was being written when a run died.
    let tail = durable::torn_tail(file).map_err(io)?;
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    if tail.whole == 0 {
        // Nothing, or a header cut short: start afresh. Anything else is not ours.
        let mut text = Vec::new();
        file.take(4096).read_to_end(&mut text).map_err(io)?;
        if !batch_header().join(",").as_bytes().starts_with(&text) {
            return Err(BatchError::NotBatchCsv(path.to_path_buf()).into());
        }
    } else {
        // Streamed: a resumed output of millions of rows costs only its keys.
        let reader = BufReader::new(file.take(tail.whole));
        resumed.done = read_keys(path, reader, settings)?;
    }
    resumed.dropped_bytes = tail.torn_bytes();
    tail.drop_torn(file).map_err(io)?;
    Ok((resumed, tail.whole))
}

/// What is wrong with an output's header `found`, if it is not this finale's batch
/// header: the same columns in another order, another version's, or no batch header.
fn header_fault(found: &csv::StringRecord) -> Option<String> {
    if found.iter().eq(batch_header()) {
        return None;
    }
    let ours = found.get(0) == Some("index") && found.iter().any(|c| c == "key");
    let moved = (1..)
        .zip(found.iter().zip(batch_header()))
        .find(|(_, (f, h))| f != h)
        .filter(|_| found.len() == batch_header().len())
        .filter(|_| batch_header().iter().all(|c| found.iter().any(|f| f == *c)));
    Some(if let Some((i, (f, h))) = moved {
        format!(
            "this finale's batch columns in another order (column {i} is '{f}', this one \
             writes '{h}' there); rows are appended in this finale's order, so give a new --out"
        )
    } else if ours {
        format!(
            "a finale batch CSV of another version ({} columns, this one writes {}); \
             finish it with the finale that started it, or give a new --out",
            found.len(),
            batch_header().len()
        )
    } else {
        "the header is not a finale batch header".into()
    })
}

/// Tasks of the rows of an existing output, after checking its header, reading every row
/// as a [`BatchRow`](crate::results::BatchRow), checking its values ([`check_row`]) and
/// that it was made with `settings`.
///
/// The text is read with an end marker after it: a file whose last line ends inside a
/// quoted field reads as whole rows without it, but would swallow the rows appended next.
fn read_keys(path: &Path, text: impl Read, settings: &RowSettings) -> Result<HashSet<Task>> {
    let text = text.chain(b"finale-end-of-file\n".as_slice());
    let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(text);
    let bad = |line: u64, what: String| {
        Error::from(BatchError::Damaged {
            path: path.to_path_buf(),
            line,
            what,
        })
    };
    let found = reader
        .headers()
        .map_err(|e| bad(1, format!("unreadable header ({e})")))?
        .clone();
    if let Some(what) = header_fault(&found) {
        return Err(bad(1, what));
    }
    let mut done = HashSet::new();
    // One record reused: a resume reads millions of rows.
    let mut record = csv::StringRecord::new();
    let mut last_line = 1;
    loop {
        let more = reader.read_record(&mut record).map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            bad(line, format!("malformed row ({e})"))
        })?;
        if !more {
            return Err(bad(
                last_line,
                "the last row ends inside a quoted field".into(),
            ));
        }
        let line = record.position().map_or(0, |p| p.line());
        last_line = line;
        if record.len() == 1 && &record[0] == END {
            let mut after = csv::StringRecord::new();
            if !reader.read_record(&mut after).unwrap_or(true) {
                break;
            }
        }
        let key = record_key(&record, found.len(), settings).map_err(|fault| match fault {
            Fault::Row(at, what) => bad(at.unwrap_or(line), what),
            Fault::Settings(column, found, run) => Error::from(BatchError::OtherSettings {
                path: path.to_path_buf(),
                line,
                column,
                found,
                run,
            }),
        })?;
        done.insert(key);
    }
    Ok(done)
}

/// The line [`read_keys`] reads after an existing output's text.
const END: &str = "finale-end-of-file";

/// Why a row of an existing output cannot be resumed from.
enum Fault {
    /// A damaged row: its line, when it is not the record's first, and what is wrong.
    Row(Option<u64>, String),
    /// A row made with other settings: the column, its value, and the run's.
    Settings(&'static str, String, String),
}

/// The task of one row of an existing output (read with the end marker [`END`] after it).
fn record_key(
    record: &csv::StringRecord,
    fields: usize,
    settings: &RowSettings,
) -> std::result::Result<Task, Fault> {
    if record.len() != fields {
        let what = format!("malformed row ({} fields, expected {fields})", record.len());
        return Err(Fault::Row(None, what));
    }
    // By position: the header is the batch header, checked before.
    let row = read_batch_row(record)
        .map_err(|b| Fault::Row(Some(b.line), format!("bad {}", b.column)))?;
    // A row finale would not write (a score of 99, a key not its board's) must not
    // count a position done or be resumed from.
    let key = check_row(&row).map_err(|fault| {
        // A quote opened in the last field swallows the end marker: say that, not
        // that the field's value is odd.
        if record
            .get(record.len() - 1)
            .is_some_and(|f| f.contains(END))
        {
            Fault::Row(None, "the last row ends inside a quoted field".to_string())
        } else {
            Fault::Row(None, fault.to_string())
        }
    })?;
    match settings.differs(&row.0) {
        Some((column, found, run)) => Err(Fault::Settings(column, found, run)),
        None => Ok(task(key, row_window(&row.0))),
    }
}
