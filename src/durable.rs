//! Files that survive a crash whole. Every file finale replaces is written beside its
//! destination and renamed over it only once complete and on disk ([`Replacement`]), so a
//! full disk, a kill or a power cut leaves the old file (or none), never half of one.
//! Every file finale appends rows to (the batch output, the calibration CSV) can end in a
//! torn last row, the one being written when a run died: [`torn_tail`] finds it so that a
//! resumed run cuts it off, and [`is_torn_row`] tells it apart when a CSV is only read.
//! One run at a time appends to such a file: [`lock_exclusive`].
//!
//! Before any of that, [`guard`] checks what each command declares it reads and writes: no
//! output over an input, a device or a pipe.
//!
//! Only `std::io` errors come out of here, each caller saying what failed in its own words,
//! but for the guard's refusals ([`GuardError`]).

mod error;
pub mod guard;

pub use error::GuardError;

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// The directory holding `path` (`.` for a bare file name): where its replacement is
/// written, so that the rename stays within one file system and is atomic.
pub fn dir_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Syncs the directory `dir`, so that a file created or renamed in it keeps its name
/// after a crash, not only its data.
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Takes the advisory lock (an exclusive `flock`) that lets one finale run at a time
/// append to `file`: `Ok(false)` when another run holds it. The lock goes with the open
/// file, so a killed run never leaves a stale one behind.
pub fn lock_exclusive(file: &File) -> io::Result<bool> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock only reads the descriptor, which `file` keeps open.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return Ok(true);
    }
    let e = io::Error::last_os_error();
    match e.raw_os_error() == Some(libc::EWOULDBLOCK) {
        true => Ok(false),
        false => Err(e),
    }
}

/// Writes all of `bytes` to `file` and syncs them, data and metadata, to disk.
pub fn write_synced(file: &mut File, bytes: &[u8]) -> io::Result<()> {
    file.write_all(bytes)?;
    file.sync_all()
}

/// Syncs the rows appended to `file` so far to disk (their data, and the length that
/// reading them back needs).
pub fn sync_appended(file: &File) -> io::Result<()> {
    file.sync_data()
}

/// Who may read a replacement once it is the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// As any file created plainly would be (0o666 less the umask).
    Plain,
    /// The owner only (0o600), as `finale eval --csv` has always written its files.
    Private,
}

/// What committing a replacement does to a file already at its destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Existing {
    /// Replaces it.
    Replace,
    /// Refuses it (even one that appeared while the replacement was written), with an
    /// error of kind [`io::ErrorKind::AlreadyExists`].
    Refuse,
}

/// The step of [`Replacement::commit`] that failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Syncing the replacement's data to disk; nothing was replaced.
    Sync,
    /// Renaming it over the destination; nothing was replaced.
    Rename,
    /// Syncing the directory after the rename: the file is in place, but its name may not
    /// survive a crash.
    SyncDir,
}

/// A failed [`Replacement::commit`]: the step, and its cause.
#[derive(Debug)]
pub struct CommitError {
    /// What failed.
    pub step: Step,
    /// Why.
    pub source: io::Error,
}

/// A file being written beside its destination, which it replaces only at
/// [`commit`](Replacement::commit), complete and on disk. Dropped uncommitted (on any
/// error), it is removed and the destination is as it was.
#[derive(Debug)]
pub struct Replacement {
    temp: tempfile::NamedTempFile,
    dest: PathBuf,
}

impl Replacement {
    /// Creates the temporary file `PREFIX…XXXXXX.tmp` in the directory of `dest`. Naming
    /// it after its writer (`prefix`) tells whose a file left by a crash was.
    pub fn beside(dest: &Path, prefix: impl AsRef<OsStr>, access: Access) -> io::Result<Self> {
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        if access == Access::Plain {
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        Ok(Replacement {
            temp: builder.tempfile_in(dir_of(dest))?,
            dest: dest.to_path_buf(),
        })
    }

    /// The temporary file's path (for messages).
    pub fn path(&self) -> &Path {
        self.temp.path()
    }

    /// The temporary file itself: its write errors do not repeat its path, as those of
    /// `Replacement`'s own [`Write`] do.
    pub fn file_mut(&mut self) -> &mut File {
        self.temp.as_file_mut()
    }

    /// Syncs the data to disk, renames the file over the destination (or refuses an
    /// existing one, by `existing`) and syncs the directory. The data is on disk before
    /// the rename makes it the file, so a crash cannot leave the name on empty blocks.
    pub fn commit(self, existing: Existing) -> Result<(), CommitError> {
        let fail = |step| move |source| CommitError { step, source };
        self.temp.as_file().sync_all().map_err(fail(Step::Sync))?;
        let renamed = match existing {
            Existing::Replace => self.temp.persist(&self.dest),
            Existing::Refuse => self.temp.persist_noclobber(&self.dest),
        };
        renamed.map_err(|e| fail(Step::Rename)(e.error))?;
        sync_dir(dir_of(&self.dest)).map_err(fail(Step::SyncDir))
    }
}

/// Writes through the temporary file; errors name its path.
impl Write for Replacement {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.temp.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.temp.flush()
    }
}

/// Where the whole lines of a file being appended to end, and where the file ends: any
/// bytes between are a torn last row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tail {
    /// Bytes up to and including the last newline (0 when there is none).
    pub whole: u64,
    /// Bytes in the file.
    pub len: u64,
}

impl Tail {
    /// Bytes of the torn last row (0 when the file ends in a newline).
    pub fn torn_bytes(&self) -> u64 {
        self.len - self.whole
    }

    /// Cuts the torn last row off `file`, so that the rows appended next follow a whole
    /// one. Nothing changes when there is none.
    pub fn drop_torn(&self, file: &File) -> io::Result<()> {
        if self.whole < self.len {
            cut_back(file, self.whole)?;
        }
        Ok(())
    }
}

/// Finds the torn last row of `file` by reading backwards from its end (a resumed output
/// of millions of rows costs only its last line). Leaves the file's position anywhere.
pub fn torn_tail(file: &mut File) -> io::Result<Tail> {
    let len = file.metadata()?.len();
    let mut end = len;
    let mut chunk = vec![0u8; 64 * 1024];
    while end > 0 {
        let start = end.saturating_sub(chunk.len() as u64);
        let part = &mut chunk[..(end - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(part)?;
        if let Some(i) = part.iter().rposition(|&b| b == b'\n') {
            return Ok(Tail {
                whole: start + i as u64 + 1,
                len,
            });
        }
        end = start;
    }
    Ok(Tail { whole: 0, len })
}

/// Cuts `file` back to its first `whole` bytes: drops a torn row, or a row whose write
/// failed part way (a full disk).
pub fn cut_back(file: &File, whole: u64) -> io::Result<()> {
    file.set_len(whole)
}

/// Whether a row of a CSV only read (a run's output given to compare or report) is a torn
/// last row, to be read without: the last row, cut short, with fewer fields than the
/// header's `columns`, or all of them but not the newline that ends every row written
/// whole. A row like it anywhere else is damage, not a tear.
pub fn is_torn_row(last: bool, fields: usize, columns: usize, newline_after: bool) -> bool {
    last && (fields < columns || fields == columns && !newline_after)
}

/// A reader that remembers the last byte it gave, so that its reader can tell whether the
/// text ends in a newline (see [`is_torn_row`]).
#[derive(Debug)]
pub struct LastByte<R> {
    inner: R,
    last: Option<u8>,
}

impl<R> LastByte<R> {
    /// Reads through `inner`.
    pub fn new(inner: R) -> Self {
        LastByte { inner, last: None }
    }

    /// Whether the last byte read so far is a newline.
    pub fn ends_in_newline(&self) -> bool {
        self.last == Some(b'\n')
    }
}

impl<R: Read> Read for LastByte<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n > 0 {
            self.last = Some(buf[n - 1]);
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests;
