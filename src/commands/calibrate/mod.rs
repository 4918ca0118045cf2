//! The `calibrate` command: what a probable answer is worth. Solves positions exactly and
//! at each selectivity level, and tabulates per level and band of empties how often the
//! probable score is exact, how often the probable move is a best move, the mean score
//! error, and the work against the exact solve.
//!
//! Rows go to a CSV as they finish, one per position and level; running the same command
//! again reuses the rows already there (a torn last row is dropped), so a calibration can
//! be stopped and resumed, and the exact solves of one run serve later runs of other
//! levels or another build (remove the probable rows to measure them again).

mod options;
mod rows;
mod table;
mod worker;

pub use options::CalibrateOptions;
pub use rows::{CalRow, HEADER, parse_rows};
pub use table::{CalLine, calibration_table, format_table};

use crate::board::{ObfRecord, read_obf_file};
use crate::commands::exact_labels::read_labels;
use crate::durable;
use crate::error::{CalibrateError, Error, Result};
use crate::search::Level;
use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use worker::Known;

/// Solves every position of `files` exactly and at each of `o.levels` (skipping rows the
/// CSV already has), prints the table to `out`, and returns it with every row.
pub fn run_calibrate(
    files: &[PathBuf],
    o: &CalibrateOptions,
    out: &mut impl Write,
) -> Result<(Vec<CalLine>, Vec<CalRow>)> {
    check_request(o)?;
    let records = read_positions(files)?;
    // Read before the CSV is made, so that a bad label file leaves none behind.
    let labels = read_labels(&o.labels, &o.proofs)?;
    let mut file = open_locked(&o.csv)?;
    let old = rows::resume_rows(&mut file, &o.csv)?;
    let known = Known::new(labels, &old);
    let levels = level_percents(&o.levels);
    let mut writer = writer_of(file, &o.csv)?;
    let (new_rows, finished) = worker::solve_all(&records, &known, &levels, o, &mut writer)?;
    writer.flush().map_err(|source| Error::Write {
        path: o.csv.clone(),
        source,
    })?;
    if let Some(cause) = o.interrupt.cause() {
        return Err(CalibrateError::Stopped {
            cause,
            finished,
            total: records.len(),
            path: o.csv.clone(),
        }
        .into());
    }
    let rows = wanted_rows(&records, &levels, old, new_rows);
    let table = calibration_table(&rows);
    write!(out, "{}", format_table(&table)).map_err(Error::Output)?;
    Ok((table, rows))
}

/// Refuses tables that do not fit in memory together and the narrow level (it promises
/// nothing to calibrate).
fn check_request(o: &CalibrateOptions) -> Result<()> {
    let total = (o.workers as u64).saturating_mul(o.hash_mb as u64);
    crate::results::check_hash_mb(total).map_err(|why| CalibrateError::Tables {
        workers: o.workers,
        hash_mb: o.hash_mb,
        why,
    })?;
    if let Some(&l) = o.levels.iter().find(|&&l| l == Level::NARROW) {
        return Err(CalibrateError::NoLevel(l).into());
    }
    Ok(())
}

/// The positions of `files` with a move to play, each once, beside the file's name.
fn read_positions(files: &[PathBuf]) -> Result<Vec<(String, ObfRecord)>> {
    let mut records = Vec::new();
    let mut seen = HashSet::new();
    for f in files {
        for r in read_obf_file(f)? {
            if r.position.board.moves() != 0 && seen.insert(r.position) {
                records.push((f.display().to_string(), r));
            }
        }
    }
    Ok(records)
}

/// The probable levels asked for, as percentages (as the rows hold them), each once.
fn level_percents(levels: &[Level]) -> Vec<u8> {
    let mut percents: Vec<u8> = levels
        .iter()
        .filter(|l| l.is_probcut())
        .map(|l| l.percent())
        .collect();
    percents.sort_unstable();
    percents.dedup();
    percents
}

/// The CSV opened (made when missing) for reading and appending, and locked against a
/// second calibrate appending to it too.
fn open_locked(path: &Path) -> Result<File> {
    let io = |source| Error::Write {
        path: path.to_path_buf(),
        source,
    };
    let file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .map_err(io)?;
    match durable::lock_exclusive(&file).map_err(io)? {
        true => Ok(file),
        false => Err(CalibrateError::Locked(path.to_path_buf()).into()),
    }
}

/// The writer of rows after the resumed ones, with the header only when the file is new.
fn writer_of(file: File, path: &Path) -> Result<csv::Writer<File>> {
    let len = file.metadata().map_err(|source| Error::Write {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(csv::WriterBuilder::new()
        .has_headers(len.len() == 0)
        .from_writer(file))
}

/// The rows the table covers: the positions and levels of this command only, in input
/// order.
fn wanted_rows(
    records: &[(String, ObfRecord)],
    levels: &[u8],
    old: Vec<CalRow>,
    new_rows: Vec<CalRow>,
) -> Vec<CalRow> {
    let wanted: HashSet<String> = records
        .iter()
        .map(|(_, r)| worker::key_of(&r.position))
        .collect();
    let mut rows: Vec<CalRow> = old
        .into_iter()
        .chain(new_rows)
        .filter(|r| {
            wanted.contains(&r.key) && (r.selectivity == 100 || levels.contains(&r.selectivity))
        })
        .collect();
    rows.sort_by(|a, b| (&a.file, a.line, a.selectivity).cmp(&(&b.file, b.line, b.selectivity)));
    rows
}
