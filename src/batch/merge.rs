//! `finale merge`: joins the outputs of several batch runs (shards, machines, reruns) into
//! one CSV, and reports rows that disagree.
//!
//! A position's solves, of any mode and window, prove bounds on one value, its exact
//! score: merge intersects them. It keeps the earliest row that proves the intersection's
//! lower bound and the earliest that proves its upper (one row when one proves both, as
//! an exact row does: an exact row settles every bound row), and drops the rest as
//! implied. Rows whose bounds cannot both hold are a conflict. Labels keep one row per
//! position and depth, and disagree when their scores differ.

use super::row_check::{check_row, row_bounds, row_window};
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
    /// Rows dropped as implied by the rows kept (repeats, looser bounds, bounds a later row
    /// narrowed), or in conflict.
    pub duplicates: u64,
    /// Solved rows that contradict the rows kept of the same position (bounds that cannot
    /// both hold; labels of one depth with other scores).
    pub conflicts: u64,
    /// Solved rows that narrowed the bounds of their position.
    pub narrowed: u64,
    /// Timeout or error rows replaced by a solved row found later.
    pub upgraded: u64,
}

/// A row read from one input, as choosing needs it.
#[derive(Clone, Copy)]
struct Held {
    file: usize,
    row: u64,
    line: u64,
    solved: bool,
    score: Option<i32>,
    /// The bounds it proves on its position's value (solves only).
    bounds: Option<(i32, i32)>,
}

/// The rows kept for one group (a position's solves, or one label depth): one row, or
/// two when one proves the lower bound and another the upper.
struct Chosen {
    rows: Vec<Held>,
}

impl Chosen {
    /// The bounds the kept rows prove together, if they are solves.
    fn bounds(&self) -> Option<(i32, i32)> {
        self.rows.iter().try_fold((-64, 64), |(lo, up), h| {
            h.bounds.map(|(l, u)| (lo.max(l), up.min(u)))
        })
    }
}

/// What one more row did to its group.
enum Joined {
    /// It solved what the kept row (a timeout) did not, and replaces it.
    Upgraded,
    /// It narrowed the group's bounds (and is kept), leaving this many kept rows
    /// implied (dropped).
    Narrowed(u64),
    /// It proves alone what the kept rows proved together, and replaces these many.
    Settled(u64),
    /// It adds nothing to the kept rows (dropped).
    Duplicate,
    /// It contradicts the kept rows (dropped), with what they said.
    Conflict(String),
}

/// Joins row `here` into `group`: solves intersect their bounds, keeping the earliest row
/// that proves both, else the earliest that proves each (until one row proves both);
/// anything else keeps its first solved row.
fn join(group: &mut Chosen, here: Held) -> Joined {
    let first = group.rows[0];
    if !first.solved && here.solved {
        group.rows = vec![here];
        return Joined::Upgraded;
    }
    let (Some((lo, up)), Some((l, u))) = (group.bounds(), here.bounds) else {
        return if first.solved && here.solved && first.score != here.score {
            Joined::Conflict(score_text(first.score))
        } else {
            Joined::Duplicate
        };
    };
    if l > up || u < lo {
        return Joined::Conflict(format!("bounds {lo}..{up}"));
    }
    let (lo2, up2) = (lo.max(l), up.min(u));
    if (lo2, up2) == (lo, up) {
        // A row that proves alone what two kept rows prove together replaces them.
        if group.rows.len() > 1 && here.bounds == Some((lo, up)) {
            let dropped = group.rows.len() as u64;
            group.rows = vec![here];
            return Joined::Settled(dropped);
        }
        return Joined::Duplicate;
    }
    let before = group.rows.len() as u64;
    let mut all = group.rows.clone();
    all.push(here);
    // One row that proves both bounds (an exact row) settles the rest; else the earliest
    // row proving each.
    let both = all.iter().copied().find(|h| h.bounds == Some((lo2, up2)));
    let low = all
        .iter()
        .copied()
        .find(|h| h.bounds.is_some_and(|(l, _)| l == lo2));
    let high = all
        .iter()
        .copied()
        .find(|h| h.bounds.is_some_and(|(_, u)| u == up2));
    group.rows = match (both, low, high) {
        (Some(one), _, _) => vec![one],
        (None, Some(a), Some(b)) => vec![a, b],
        // Each bound is some row's, so this is never taken; keeping every row loses nothing.
        _ => all,
    };
    Joined::Narrowed(before + 1 - group.rows.len() as u64)
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
        "rows {}  written {}  duplicates {}  upgraded {}  narrowed {}  conflicts {}",
        summary.rows,
        summary.written,
        summary.duplicates,
        summary.upgraded,
        summary.narrowed,
        summary.conflicts
    )
    .map_err(Error::Output)?;
    Ok(summary)
}

/// Reads every input row, checks it, and chooses the rows to keep: for each position, the
/// solves whose bounds together give everything its rows prove (one row, or two), and
/// one row per label depth; a solved row replaces a timeout. Returns, per input, the
/// indices of the rows kept (sorted), and a line per conflict (rows that contradict).
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
            let (key, group, here) = read_row(path, &record, f, i as u64, line)?;
            let Some(c) = chosen.get_mut(&(key, group.clone())) else {
                chosen.insert((key, group), Chosen { rows: vec![here] });
                continue;
            };
            let kept = c.rows[0];
            match join(c, here) {
                Joined::Upgraded => summary.upgraded += 1,
                Joined::Narrowed(dropped) => {
                    summary.narrowed += 1;
                    summary.duplicates += dropped;
                }
                Joined::Duplicate => summary.duplicates += 1,
                Joined::Settled(dropped) => summary.duplicates += dropped,
                Joined::Conflict(said) => {
                    summary.duplicates += 1;
                    summary.conflicts += 1;
                    conflicts.push(format!(
                        "conflict: position {} ({group}): {}:{} says {said}, {}:{} says {} (kept the first)",
                        crate::board::key::key_hex(key),
                        inputs[kept.file].display(),
                        kept.line,
                        path.display(),
                        here.line,
                        said_by(&here),
                    ));
                }
            }
        }
    }
    let mut keep: Vec<Vec<u64>> = vec![Vec::new(); inputs.len()];
    for h in chosen.values().flat_map(|c| &c.rows) {
        keep[h.file].push(h.row);
    }
    for rows in &mut keep {
        rows.sort_unstable();
    }
    Ok((keep, conflicts))
}

/// What a row says, for a conflict's line: its bounds, or its score.
fn said_by(h: &Held) -> String {
    match h.bounds {
        Some((l, u)) => format!("bounds {l}..{u}"),
        None => score_text(h.score),
    }
}

/// The group of a position's solves, of any mode and window, whose bounds join.
const SOLVES: &str = "solves";

/// One input row read and checked (a row finale would not write is refused before
/// anything is written): its position key, its group ([`SOLVES`], else its mode: a label
/// depth, or none for a malformed line), and what choosing it needs.
fn read_row(
    path: &Path,
    record: &csv::StringRecord,
    file: usize,
    row: u64,
    line: u64,
) -> Result<(u64, String, Held)> {
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
    let held = Held {
        file,
        row,
        line,
        solved: read.1.status == "solved",
        score: read.0.score,
        bounds: row_bounds(&read),
    };
    let group = if row_window(&read.0).is_some() {
        SOLVES.to_string()
    } else {
        read.0.mode.to_string()
    };
    Ok((key, group, held))
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
