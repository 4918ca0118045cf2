//! The batch's input: OBF files streamed line by line (twice: to count, then to solve),
//! each line a position or, with `--skip-bad`, a malformed line to record; and the values
//! that repeats of a position give, to be held against its one solve.

use crate::board::key::{line_key, position_key};
use crate::board::parse::OBF_MAX_LINE_BYTES;
use crate::board::{ObfRecord, Square, parse_obf_line};
use crate::error::{BatchError, Error, Result};
use crate::search::{Mode, Window};
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

impl Item {
    /// The task this item is in a run of mode `run`; `labels` for a label run, whose rows
    /// have no window.
    pub(super) fn task(&self, run: Mode, labels: bool) -> Task {
        match self {
            Item::Position { key, record, .. } if !labels => {
                task(*key, Some(line_mode(record, run).window()))
            }
            Item::Position { key, .. } | Item::Bad { key, .. } => *key,
        }
    }
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

/// What one row of a batch answers: a position (by key) and the window its solve was
/// asked for, as one number ([`task`]). A position given with two windows is two tasks,
/// solved and resumed apart.
pub(super) type Task = u64;

/// The task of the position `key` solved in `window` (none for labels and malformed
/// lines): the key itself for no window or the full one, else the key mixed with the
/// window, so that sets of tasks cost what sets of keys did (8 bytes each; a batch keeps
/// three, of millions). Two tasks share a number with probability 2^-64, as two keys do.
pub(super) fn task(key: u64, window: Option<Window>) -> Task {
    match window {
        None => key,
        Some(w) if w == Window::FULL => key,
        Some(w) => {
            let edges = ((w.alpha() + 64) as u64) << 8 | (w.beta() + 64) as u64;
            crate::board::key::board_key(key, edges | 1 << 16)
        }
    }
}

/// The mode a line is solved in: the window it gives (`; window -3,3;`), else the run's
/// mode. The parser has checked the window as [`Window::new`] does (two scores in
/// -64..64, the first below the second), so none is dropped here.
pub(super) fn line_mode(record: &ObfRecord, run: Mode) -> Mode {
    match record.window.and_then(|(a, b)| Window::new(a, b).ok()) {
        Some(w) => Mode::Window(w),
        None => run,
    }
}

/// The values that repeats of a task give (`MOVE:SCORE` pairs, or a score alone, on a
/// later line of the same position and window), to be checked against the one solve. Only repeats that give
/// values and are to be solved in this run are kept, so a batch of millions of distinct
/// positions keeps nothing here.
pub(super) type Repeats = HashMap<Task, Vec<Repeat>>;

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

#[cfg(test)]
mod tests {
    use super::*;

    /// A task is its key for no window or the full one; every other window of the same
    /// position is a task of its own.
    #[test]
    fn each_window_of_a_position_is_its_own_task() {
        let key = 0x0123_4567_89ab_cdef;
        assert_eq!(task(key, None), key);
        assert_eq!(task(key, Some(Window::FULL)), key);
        let mut seen = std::collections::HashSet::from([key]);
        for a in -64..64 {
            for b in a + 1..=64 {
                let w = Window::new(a, b).unwrap();
                assert!(seen.insert(task(key, Some(w))) || w == Window::FULL, "{w}");
            }
        }
        assert_eq!(seen.len(), 129 * 128 / 2);
    }

    /// A line's window is the mode it is solved in; without one, the run's.
    #[test]
    fn a_line_window_replaces_the_run_mode() {
        let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
        let plain = crate::board::parse_obf_line(line).unwrap().unwrap();
        assert_eq!(line_mode(&plain, Mode::Wld), Mode::Wld);
        for (a, b) in [(-64, 64), (-3, 3), (63, 64), (-64, -63)] {
            let r = crate::board::parse_obf_line(&format!("{line}; window {a},{b};"))
                .unwrap()
                .unwrap();
            let w = Window::new(a, b).unwrap();
            assert_eq!(line_mode(&r, Mode::Exact), Mode::Window(w));
        }
    }
}
