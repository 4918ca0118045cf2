//! The batch output CSV: opened for appending after checking what an earlier run left,
//! locked against a second batch, written one whole, flushed row at a time, and synced to
//! disk every so often and at the end.
//!
//! A run killed while writing can leave only a partial last line (each row is a single
//! small write); reopening drops that fragment (`resume.rs` reads an existing output
//! back), so the file never holds a broken row.
//! A failed write (full disk) is cut back to the last whole row at once. Anything else
//! that does not parse stops the batch instead of being appended to.
//!
//! An output holds the rows of one mode (or label depth), one set of weights and one
//! selectivity: a run with other settings is refused before it changes anything
//! ([`RowSettings`]), so a resumed file never mixes them.

pub use super::options::RowSettings;
pub use super::resume::Resumed;
use super::resume::resume;
use crate::durable;
use crate::error::{BatchError, Error, Result};
use crate::results::{BatchRow, batch_header};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Seconds between two syncs of a batch output to disk (`batch --fsync-every`), which is
/// also synced at the end. Rows are flushed as they finish, so only a machine crash loses
/// rows, at most this many seconds of them (solved again on resume). A sync costs a few
/// milliseconds on a local disk, tens on network storage: every 10 s is well under 1 % of
/// a run, where a sync per row would slow batches of tiny positions several times over.
pub const BATCH_FSYNC_SECONDS: u64 = 10;

/// A batch checks at most this often, before writing a row, that its output's path still
/// names the file it writes (writes to a removed directory succeed, into nothing). A check
/// is one `stat`, about a microsecond: twice a second costs nothing.
pub const BATCH_OUTPUT_CHECK_MS: u64 = 500;

/// An output file open for appending rows.
pub struct BatchOut {
    path: PathBuf,
    file: File,
    /// A regular file: read back on resume, locked and synced. A device or pipe (e.g.
    /// `/dev/null`) is only written.
    regular: bool,
    /// Bytes of whole rows in the file: where a failed write is cut back to.
    len: u64,
    /// Rows are synced to disk at least this often (zero: after every row).
    sync_every: Duration,
    last_sync: Instant,
    /// Syncs made, for the tests of the interval.
    syncs: u64,
    /// Device and inode of the file, to notice it removed or replaced under the batch
    /// (writes to a deleted file succeed, into nothing).
    identity: Option<(u64, u64)>,
    last_check: Instant,
}

impl BatchOut {
    /// Opens `path`: creates it with a header, or checks an existing one (every row made
    /// with `settings`) and collects the keys it already holds a row of. The file stays locked (an advisory `flock`) until the
    /// `BatchOut` is dropped, so a second batch writing the same file is refused before it
    /// reads or changes anything. Rows are synced every
    /// [`BATCH_FSYNC_SECONDS`] unless
    /// [`BatchOut::sync_every`] says otherwise.
    pub fn open(path: &Path, settings: &RowSettings) -> Result<(BatchOut, Resumed)> {
        let io = |source| Error::Write {
            path: path.to_path_buf(),
            source,
        };
        let existed = std::fs::metadata(path);
        if existed.as_ref().is_ok_and(|m| !m.is_file()) {
            // Nothing to resume from or lock on a device or pipe (the CLI's guard refuses
            // them before this).
            let why = "not a regular file: nothing to resume from or lock";
            return Err(io(std::io::Error::other(why)));
        }
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(io)?;
        lock(path, &file)?;
        let meta = file.metadata().map_err(io)?;
        let len = meta.len();
        let mut out = BatchOut::new(path, file, true, len);
        out.identity = Some((meta.dev(), meta.ino()));
        let (resumed, keep) = resume(path, &mut out.file, settings)?;
        out.len = keep;
        if keep == 0 {
            out.write_record(&batch_header())?;
            // A new file: make its name, not only its header, survive a crash.
            out.sync()?;
            if existed.is_err() {
                let dir = durable::dir_of(path);
                durable::sync_dir(dir).map_err(|source| Error::Write {
                    path: dir.to_path_buf(),
                    source,
                })?;
            }
        }
        Ok((out, resumed))
    }

    fn new(path: &Path, file: File, regular: bool, len: u64) -> BatchOut {
        BatchOut {
            path: path.to_path_buf(),
            file,
            regular,
            len,
            sync_every: Duration::from_secs(BATCH_FSYNC_SECONDS),
            last_sync: Instant::now(),
            syncs: 0,
            identity: None,
            last_check: Instant::now(),
        }
    }

    /// Syncs the rows to disk at least every `interval` (zero: after every row).
    pub fn sync_every(&mut self, interval: Duration) {
        self.sync_every = interval;
    }

    /// The file being written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes one row of the batch's columns (see [`BatchOut::write_record`]).
    pub fn write_row(&mut self, row: &BatchRow) -> Result<()> {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        w.serialize(row).map_err(|source| Error::Csv {
            path: self.path.clone(),
            source,
        })?;
        self.write_bytes(w)
    }

    /// Writes one row with a single write and flushes it; syncs it to disk when the sync
    /// interval has passed. A failed write is cut back to the last whole row, so the file
    /// stays a valid CSV to resume from.
    pub fn write_record<S: AsRef<str>>(&mut self, fields: &[S]) -> Result<()> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(fields.iter().map(|f| f.as_ref()))
            .map_err(|source| Error::Csv {
                path: self.path.clone(),
                source,
            })?;
        self.write_bytes(w)
    }

    fn write_bytes(&mut self, w: csv::Writer<Vec<u8>>) -> Result<()> {
        let bytes = w.into_inner().map_err(|e| Error::Write {
            path: self.path.clone(),
            source: e.into_error(),
        })?;
        if self.last_check.elapsed() >= Duration::from_millis(BATCH_OUTPUT_CHECK_MS) {
            self.check_identity()?;
        }
        if let Err(source) = self.file.write_all(&bytes).and_then(|()| self.file.flush()) {
            if self.regular {
                // Best effort: a torn row left here is dropped on resume anyway.
                let _ = durable::cut_back(&self.file, self.len);
            }
            return Err(Error::Write {
                path: self.path.clone(),
                source,
            });
        }
        self.len += bytes.len() as u64;
        if self.last_sync.elapsed() >= self.sync_every {
            self.sync()?;
        }
        Ok(())
    }

    /// Fails when the path no longer names the file being written (its directory was
    /// removed, or it was deleted, moved or replaced): the rows would be lost, and a rerun
    /// would not find them to resume from.
    fn check_identity(&mut self) -> Result<()> {
        self.last_check = Instant::now();
        let Some(id) = self.identity else {
            return Ok(());
        };
        let now = std::fs::metadata(&self.path).map(|m| (m.dev(), m.ino()));
        if now.as_ref().is_ok_and(|&n| n == id) {
            return Ok(());
        }
        let what = match now {
            Err(e) => e.to_string(),
            Ok(_) => "another file is there now".to_string(),
        };
        Err(BatchError::OutputReplaced {
            path: self.path.clone(),
            what,
        }
        .into())
    }

    /// Ends the writing: syncs the rows and checks that the path still names them.
    pub fn finish(&mut self) -> Result<()> {
        self.sync()?;
        self.check_identity()
    }

    /// Syncs every row written so far to disk (nothing to do for a device or pipe).
    pub fn sync(&mut self) -> Result<()> {
        self.last_sync = Instant::now();
        if !self.regular {
            return Ok(());
        }
        self.syncs += 1;
        durable::sync_appended(&self.file).map_err(|source| Error::Write {
            path: self.path.clone(),
            source,
        })
    }
}

/// Takes the advisory lock on the output ([`durable::lock_exclusive`]), or says who holds
/// it.
fn lock(path: &Path, file: &File) -> Result<()> {
    match durable::lock_exclusive(file) {
        Ok(true) => Ok(()),
        Ok(false) => Err(BatchError::Locked(path.to_path_buf()).into()),
        Err(cause) => Err(BatchError::Lock {
            path: path.to_path_buf(),
            cause,
        }
        .into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::board::key::{key_hex, line_key, position_key};
    use std::collections::HashSet;

    /// Sets column `name` of `fields` to `value`.
    fn set(fields: &mut [String], name: &str, value: String) {
        fields[batch_header().iter().position(|&h| h == name).unwrap()] = value;
    }

    /// A solved row of the position after `moves` in `mode`, with the values a resume
    /// checks, and its key.
    fn row_of(moves: &str, mode: &str) -> (Vec<String>, u64) {
        let p = crate::board::parse_moves(moves).unwrap();
        let key = position_key(&p);
        let mut r = vec![String::new(); batch_header().len()];
        set(&mut r, "side", p.side.letter().to_string());
        set(&mut r, "mode", mode.into());
        set(&mut r, "score", "+2".into());
        set(&mut r, "time_s", "0.001000".into());
        set(&mut r, "key", key_hex(key));
        set(&mut r, "board", p.squares_string());
        set(&mut r, "status", "solved".into());
        set(&mut r, "line", "1".into());
        (r, key)
    }

    /// An exact row of the position after `moves`.
    fn row(moves: &str) -> Vec<String> {
        row_of(moves, "exact").0
    }

    /// The task of the exact row of the position after `moves`: its key (an exact row
    /// answers the full window).
    fn exact_task(moves: &str) -> u64 {
        row_of(moves, "exact").1
    }

    #[test]
    fn creates_resumes_and_drops_a_torn_row() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        {
            let (mut out, r) = BatchOut::open(&path, &exact()).unwrap();
            assert!(r.done.is_empty());
            out.write_record(&row("f5")).unwrap();
        }
        // A second row cut off half way, as if the process died mid-write.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"1,x.obf,20,X,exact,+4").unwrap();
        drop(f);
        let (mut out, r) = BatchOut::open(&path, &exact()).unwrap();
        assert_eq!(r.done, HashSet::from([exact_task("f5")]));
        assert_eq!(r.dropped_bytes, 21);
        out.write_record(&row("f5d6")).unwrap();
        drop(out);
        let (_, r) = BatchOut::open(&path, &exact()).unwrap();
        assert_eq!(
            r.done,
            HashSet::from([exact_task("f5"), exact_task("f5d6")])
        );
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 3);
    }

    /// A run's settings of which only the mode is set (the columns a run leaves empty
    /// are not compared).
    fn exact() -> RowSettings {
        mode("exact")
    }

    fn mode(mode: &str) -> RowSettings {
        RowSettings {
            mode: mode.into(),
            ..RowSettings::default()
        }
    }

    /// Every row is done; a malformed line's row (no mode) belongs to any run. A row of
    /// another mode, label depth, weights or selectivity refuses the run, naming the
    /// column and both values.
    #[test]
    fn rows_of_other_settings_refuse_the_run() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        let (mut label, d) = row_of("f5d6c3", "depth8");
        set(&mut label, "variant", "eval 0000abcd".into());
        // A malformed line's row: no mode, no side, its text's key.
        let text = "not a position";
        let c = line_key(text);
        let mut error = vec![String::new(); batch_header().len()];
        set(&mut error, "key", key_hex(c));
        set(&mut error, "board", text.into());
        set(&mut error, "status", "error: in.obf:1: bad".into());
        set(&mut error, "line", "1".into());
        {
            let (mut out, _) = BatchOut::open(&path, &mode("depth8")).unwrap();
            out.write_record(&label).unwrap();
            out.write_record(&error).unwrap();
        }
        let same = RowSettings {
            mode: "depth8".into(),
            variant: "eval 0000abcd".into(),
            selectivity: None,
        };
        let (_, r) = BatchOut::open(&path, &same).unwrap();
        assert_eq!(r.done, HashSet::from([d, c]));
        for (run, column, found, theirs) in [
            (mode("depth10"), "mode", "depth8", "depth10"),
            (mode("exact"), "mode", "depth8", "exact"),
            (
                RowSettings {
                    variant: "eval 12345678".into(),
                    ..same.clone()
                },
                "variant",
                "eval 0000abcd",
                "eval 12345678",
            ),
        ] {
            let err = BatchOut::open(&path, &run).err().unwrap().to_string();
            assert!(
                err.contains(&format!(
                    ":2: its {column} is '{found}', this run's is '{theirs}'"
                )),
                "{err}"
            );
        }
        // A solve's selectivity, too.
        let solved = dir.path().join("solved.csv");
        let (mut r100, _) = row_of("f5", "exact");
        set(&mut r100, "selectivity", "100".into());
        BatchOut::open(&solved, &exact())
            .unwrap()
            .0
            .write_record(&r100)
            .unwrap();
        let other = RowSettings {
            selectivity: Some(95),
            ..exact()
        };
        let err = BatchOut::open(&solved, &other).err().unwrap().to_string();
        assert!(
            err.contains("its selectivity is '100', this run's is '95'"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&solved).unwrap().lines().count(), 2);
    }

    #[test]
    fn refuses_foreign_or_damaged_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("other.csv");
        std::fs::write(&path, "a,b,c\n1,2,3\n").unwrap();
        let err = BatchOut::open(&path, &exact()).err().unwrap().to_string();
        assert!(err.contains("other.csv:1"), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a,b,c\n1,2,3\n");

        // A foreign file whose last line has no newline keeps that line.
        let path = dir.path().join("notes.csv");
        std::fs::write(&path, "a,b\n1,2").unwrap();
        assert!(BatchOut::open(&path, &exact()).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a,b\n1,2");
        let path = dir.path().join("oneline.txt");
        std::fs::write(&path, "precious").unwrap();
        assert!(BatchOut::open(&path, &exact()).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "precious");

        let path = dir.path().join("damaged.csv");
        let mut text = batch_header().join(",") + "\n";
        text += "short,row\n";
        std::fs::write(&path, &text).unwrap();
        let err = BatchOut::open(&path, &exact()).err().unwrap().to_string();
        assert!(err.contains("damaged.csv:2"), "{err}");

        // A value that is not of its column's type: not a row a finale wrote.
        let path = dir.path().join("bad-value.csv");
        let mut fields = row("f5d6");
        set(&mut fields, "nodes", "12x".into());
        let text = batch_header().join(",")
            + "\n"
            + &row("f5").join(",")
            + "\n"
            + &fields.join(",")
            + "\n";
        std::fs::write(&path, &text).unwrap();
        let err = BatchOut::open(&path, &exact()).err().unwrap().to_string();
        assert!(
            err.ends_with(
                "bad-value.csv:3: bad nodes; not appending to a file that may be damaged"
            ),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);

        // A last row whose final newline is inside quotes would swallow appended rows.
        let path = dir.path().join("open-quote.csv");
        let mut fields = row("f5");
        *fields.last_mut().unwrap() = "\"F4".into();
        let text = batch_header().join(",") + "\n" + &fields.join(",") + "\n";
        std::fs::write(&path, &text).unwrap();
        let err = BatchOut::open(&path, &exact()).err().unwrap().to_string();
        assert!(
            err.contains("open-quote.csv:2: the last row ends inside a quoted"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }

    #[test]
    fn syncs_at_the_interval() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        let (mut out, _) = BatchOut::open(&path, &exact()).unwrap();
        assert_eq!(out.syncs, 1, "a new file is synced with its header");
        out.sync_every(Duration::ZERO);
        for moves in ["f5", "f5d6", "f5d6c3"] {
            out.write_record(&row(moves)).unwrap();
        }
        assert_eq!(out.syncs, 4, "zero: every row");
        out.sync_every(Duration::from_secs(1));
        out.write_record(&row("f5d6c3d3")).unwrap();
        assert_eq!(out.syncs, 4, "not before the interval");
        std::thread::sleep(Duration::from_millis(1100));
        out.write_record(&row("f5d6c3d3c4")).unwrap();
        assert_eq!(out.syncs, 5, "once it has passed");
    }

    #[test]
    fn one_writer_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.csv");
        let (first, _) = BatchOut::open(&path, &exact()).unwrap();
        let err = BatchOut::open(&path, &exact()).err().unwrap().to_string();
        assert!(
            err.starts_with(&format!("{}: another finale batch", path.display())),
            "{err}"
        );
        drop(first);
        assert!(
            BatchOut::open(&path, &exact()).is_ok(),
            "the lock goes with the file"
        );
    }
}
