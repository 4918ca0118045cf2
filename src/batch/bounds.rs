//! The bounds a batch output's rows prove, read back for what is built on them (a proof's
//! leaves): each solved row checked as resume and merge check it, by position key.

use super::row_check::{check_row, row_bounds};
use crate::error::{BatchError, Error, Result};
use crate::results::batch_header;
use crate::results::csv_in::{parse_seconds, read_batch_row};
use std::io::Read;
use std::path::Path;

/// What one solved or timed-out row proves: its position's key, the bounds on its value
/// for the side to move (none for a timeout), its nodes and its line in the file.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Proven {
    /// The position key ([`crate::board::key::position_key`]).
    pub key: u64,
    /// Lower and upper bounds, -64 <= lower <= upper <= 64; `None` for a solve that gave
    /// up at its time or node limit (status `timeout`).
    pub bounds: Option<(i32, i32)>,
    /// The row's node count (0 when it gives none).
    pub nodes: u64,
    /// The row's seconds (0 when it gives none).
    pub seconds: f64,
    /// Its line in the CSV (the header is line 1).
    pub line: u64,
}

/// Reads the batch CSV at `path` and hands every solved row's bounds, and every timeout,
/// to `visit`; returns the rows read. Rows that prove nothing and spent no search
/// (labels, malformed lines' rows) are skipped; a row finale would not write is an error naming its line. A torn last row (a
/// batch killed while writing it) is not read: the batch that resumes drops it.
pub fn read_bounds(path: &Path, mut visit: impl FnMut(Proven) -> Result<()>) -> Result<u64> {
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = std::fs::File::open(path).map_err(io)?;
    let whole = crate::durable::torn_tail(&mut file).map_err(io)?.whole;
    std::io::Seek::rewind(&mut file).map_err(io)?;
    let mut r = csv::Reader::from_reader(file.take(whole));
    let csv_err = |source| Error::Csv {
        path: path.to_path_buf(),
        source,
    };
    if whole == 0 {
        return Ok(0);
    }
    if r.headers().map_err(csv_err)?.iter().ne(batch_header()) {
        return Err(BatchError::MergeHeader(path.to_path_buf()).into());
    }
    let mut rows = 0;
    let mut record = csv::StringRecord::new();
    while r.read_record(&mut record).map_err(csv_err)? {
        rows += 1;
        let line = record.position().map_or(0, |p| p.line());
        let row = read_batch_row(&record).map_err(|b| BatchError::BadValue {
            path: path.to_path_buf(),
            line: b.line,
            column: b.column,
        })?;
        let key = check_row(&row).map_err(|fault| BatchError::BadRow {
            path: path.to_path_buf(),
            line,
            column: fault.column.to_string(),
            what: fault.what,
        })?;
        let bounds = row_bounds(&row);
        if bounds.is_some() || row.1.status == "timeout" {
            let nodes = row.0.nodes.unwrap_or(0);
            visit(Proven {
                key,
                bounds,
                nodes,
                seconds: parse_seconds(row.0.time_s).unwrap_or(0.0),
                line,
            })?;
        }
    }
    Ok(rows)
}
