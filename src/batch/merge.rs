//! `finale merge`: joins the outputs of several batch runs (shards, machines, reruns) into
//! one CSV with each position once per mode, and reports rows that disagree.

use super::row_check::check_row;
use crate::durable::{self, Access, Existing, Replacement, Step};
use crate::error::{BatchError, Error, Result};
use crate::interrupt::Interrupt;
use crate::results::batch_header;
use crate::results::csv_in::read_batch_row;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What a merge did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct MergeSummary {
    /// Rows read from all inputs.
    pub rows: u64,
    /// Rows written.
    pub written: u64,
    /// Rows dropped as repeats of an agreeing row.
    pub duplicates: u64,
    /// Solved rows that disagree with an earlier solved row of the same position and mode.
    pub conflicts: u64,
    /// Timeout or error rows replaced by a solved row found later.
    pub upgraded: u64,
}

/// The row chosen for one (key, mode).
struct Chosen {
    file: usize,
    row: u64,
    solved: bool,
    score: Option<i32>,
    line: u64,
}

/// A merge input open for reading, its header checked to be the batch header.
fn reader(path: &Path) -> Result<csv::Reader<std::fs::File>> {
    let mut r = csv::Reader::from_path(path).map_err(|source| Error::Csv {
        path: path.to_path_buf(),
        source,
    })?;
    let found = r.headers().map_err(|source| Error::Csv {
        path: path.to_path_buf(),
        source,
    })?;
    if found.iter().ne(batch_header()) {
        return Err(BatchError::MergeHeader(path.to_path_buf()).into());
    }
    Ok(r)
}

/// A score as the CSV writes it; empty when there is none.
fn score_text(score: Option<i32>) -> String {
    score.map(|s| s.to_string()).unwrap_or_default()
}

/// Merges `inputs` into `out`, writing conflict reports to `report`. `out` is replaced only
/// once the merged file is complete and synced to disk (through a temporary file beside
/// it, renamed over it), and an existing one only when `force`. The caller has checked
/// the files with [`durable::guard`] (`out` not an input, not a device).
///
/// Stopped by `stop` (SIGINT, SIGTERM), it removes its temporary file and leaves `out` as
/// it was.
pub fn run_merge(
    inputs: &[PathBuf],
    out: &Path,
    force: bool,
    stop: &Interrupt,
    report: &mut impl Write,
) -> Result<MergeSummary> {
    if inputs.is_empty() {
        return Err(BatchError::NoMergeInput.into());
    }
    let merged = Merged {
        inputs,
        keep: &[],
        out,
        stop,
    };
    let mut summary = MergeSummary::default();
    let (keep, conflicts) = choose_rows(&merged, &mut summary)?;
    let merged = Merged {
        keep: &keep,
        ..merged
    };
    merged.replace_file(force, &mut summary)?;
    for c in &conflicts {
        writeln!(report, "{c}").map_err(Error::Output)?;
    }
    writeln!(
        report,
        "rows {}  written {}  duplicates {}  upgraded {}  conflicts {}",
        summary.rows, summary.written, summary.duplicates, summary.upgraded, summary.conflicts
    )
    .map_err(Error::Output)?;
    Ok(summary)
}

/// Reads every input row, checks it, and chooses one row per position and mode: the
/// first, unless a later one solved what it did not. Returns, per input, the indices of
/// the rows kept (sorted), and a line per conflict (solved rows that disagree).
fn choose_rows(
    merged: &Merged,
    summary: &mut MergeSummary,
) -> Result<(Vec<Vec<u64>>, Vec<String>)> {
    let inputs = merged.inputs;
    let mut chosen: HashMap<(u64, String), Chosen> = HashMap::new();
    let mut conflicts = Vec::new();
    for (f, path) in inputs.iter().enumerate() {
        for (i, record) in reader(path)?.records().enumerate() {
            merged.stop_point()?;
            let record = record.map_err(|source| Error::Csv {
                path: path.clone(),
                source,
            })?;
            let line = record.position().map_or(0, |p| p.line());
            summary.rows += 1;
            let (key, mode, here) = read_row(path, &record, f, i as u64, line)?;
            match chosen.get_mut(&(key, mode.clone())) {
                None => {
                    chosen.insert((key, mode), here);
                }
                Some(c) if !c.solved && here.solved => {
                    *c = here;
                    summary.upgraded += 1;
                }
                Some(c) => {
                    summary.duplicates += 1;
                    if c.solved && here.solved && c.score != here.score {
                        summary.conflicts += 1;
                        conflicts.push(format!(
                            "conflict: position {} ({mode}): {}:{} says {}, {}:{} says {} (kept the first)",
                            crate::board::key::key_hex(key),
                            inputs[c.file].display(),
                            c.line,
                            score_text(c.score),
                            path.display(),
                            here.line,
                            score_text(here.score)
                        ));
                    }
                }
            }
        }
    }
    let mut keep: Vec<Vec<u64>> = vec![Vec::new(); inputs.len()];
    for c in chosen.values() {
        keep[c.file].push(c.row);
    }
    for rows in &mut keep {
        rows.sort_unstable();
    }
    Ok((keep, conflicts))
}

/// One input row read and checked (a row finale would not write is refused before
/// anything is written): its position key, its mode, and what choosing it needs.
fn read_row(
    path: &Path,
    record: &csv::StringRecord,
    file: usize,
    row: u64,
    line: u64,
) -> Result<(u64, String, Chosen)> {
    // By position: the header is the batch header, checked by `reader`.
    let read = read_batch_row(record).map_err(|b| {
        Error::from(BatchError::BadValue {
            path: path.to_path_buf(),
            line: b.line,
            column: b.column,
        })
    })?;
    let key = check_row(&read).map_err(|fault| {
        Error::from(BatchError::BadRow {
            path: path.to_path_buf(),
            line,
            column: fault.column.to_string(),
            what: fault.what,
        })
    })?;
    let (row_read, batch) = read;
    let chosen = Chosen {
        file,
        row,
        solved: batch.status == "solved",
        score: row_read.score,
        line,
    };
    Ok((key, row_read.mode.to_string(), chosen))
}

/// The merged output: the inputs and the rows kept of each.
struct Merged<'a> {
    inputs: &'a [PathBuf],
    keep: &'a [Vec<u64>],
    out: &'a Path,
    stop: &'a Interrupt,
}

impl Merged<'_> {
    /// An error once a stop was asked for: nothing is written then.
    fn stop_point(&self) -> Result<()> {
        let out = self.out.display();
        Ok(self
            .stop
            .check("merge", || format!("nothing written, {out} as it was"))?)
    }

    fn write_err(&self, source: std::io::Error) -> Error {
        Error::Write {
            path: self.out.to_path_buf(),
            source,
        }
    }

    fn csv_err(&self, e: csv::Error) -> Error {
        match e.into_kind() {
            csv::ErrorKind::Io(source) => self.write_err(source),
            // Rows come from readers of the same shape: nothing else should fail.
            kind => BatchError::MergeWrite {
                path: self.out.to_path_buf(),
                kind: format!("{kind:?}"),
            }
            .into(),
        }
    }

    /// Writes the header and the kept rows to `sink`, input by input in their order.
    fn write_rows(&self, sink: &mut dyn Write, summary: &mut MergeSummary) -> Result<()> {
        let mut w = csv::Writer::from_writer(sink);
        w.write_record(batch_header())
            .map_err(|e| self.csv_err(e))?;
        for (f, path) in self.inputs.iter().enumerate() {
            let rows = &self.keep[f];
            let mut next = 0;
            // Rows are copied as they are, not rewritten from their fields: a merge joins
            // files, it does not reformat them.
            for (i, record) in reader(path)?.records().enumerate() {
                self.stop_point()?;
                if next < rows.len() && rows[next] == i as u64 {
                    let record = record.map_err(|source| Error::Csv {
                        path: path.clone(),
                        source,
                    })?;
                    w.write_record(&record).map_err(|e| self.csv_err(e))?;
                    summary.written += 1;
                    next += 1;
                }
            }
        }
        w.flush().map_err(|e| self.write_err(e))
    }

    /// Writes the rows beside `out` and renames them over it once complete and on disk:
    /// a full disk, a kill or a crash leaves the old `out` (or none), never half a file.
    /// A symlink's file is replaced, not the link.
    fn replace_file(&self, force: bool, summary: &mut MergeSummary) -> Result<()> {
        let out = self.out;
        let is_link = std::fs::symlink_metadata(out).is_ok_and(|m| m.is_symlink());
        let dest = match is_link.then(|| out.canonicalize()) {
            Some(Ok(target)) => target,
            _ => out.to_path_buf(),
        };
        let mut tmp = Replacement::beside(&dest, ".finale-merge-", Access::Plain)
            .map_err(|e| self.write_err(e))?;
        self.write_rows(&mut tmp, summary)?;
        self.stop_point()?;
        // Without force, refuses a file that appeared while merging, too.
        let existing = if force {
            Existing::Replace
        } else {
            Existing::Refuse
        };
        tmp.commit(existing).map_err(|e| match e.step {
            Step::SyncDir => Error::Write {
                path: durable::dir_of(&dest).to_path_buf(),
                source: e.source,
            },
            Step::Sync | Step::Rename => self.write_err(e.source),
        })
    }
}
