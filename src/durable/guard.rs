//! One guard for every command's files. A command declares every file it reads and every
//! file it writes ([`Files`]), and [`Files::check`] refuses, before any work:
//! - an output that is one of the inputs (by path, symlink or hard link), or another output;
//! - an output that exists and is not a regular file (a device, a pipe, a directory), but
//!   `-` for standard output where the command offers it;
//! - an output that is the file the process's standard output or error already goes to
//!   (`--out o.csv > o.csv`, `--out /dev/stdout > o.csv`): the command's own lines would
//!   mix into it, or go to a file renamed away; and an input read whole that is that file
//!   (`solve --file a.obf >> a.obf`: the lines would go into the input);
//! - an existing output that may be replaced only with `--force`, without it;
//! - an input read whole that is not a regular file (`/dev/zero`, a pipe: endless), and a
//!   directory input that is not a directory.
//!
//! A missing input is left to the command, whose reader names it in its own words.

use super::error::GuardError;
use std::fs::FileType;
use std::path::{Path, PathBuf};

/// How a command writes an output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Write {
    /// Replaced whole (a temporary file renamed over it).
    Replace,
    /// Replaced whole, but an existing file only when `force` (`--force`).
    ReplaceIfForced {
        /// `--force` was given.
        force: bool,
    },
    /// Rows appended, or resumed from (`batch --out`, `calibrate --csv`).
    Append,
}

/// What a declared path is to its command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A file read whole.
    Read,
    /// A directory whose files are read.
    ReadDirectory,
    /// A file written.
    Write,
}

/// How a command reads an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Read {
    /// Read whole (or twice): a regular file.
    Whole,
    /// A directory whose files are read.
    Directory,
    /// A directory the command reads and writes in, made when missing.
    Work,
}

#[derive(Clone, Debug)]
struct Input {
    label: String,
    path: PathBuf,
    read: Read,
}

#[derive(Clone, Debug)]
struct Output {
    label: String,
    path: PathBuf,
    write: Write,
    stdout: bool,
}

/// The files one command reads and writes, each under the flag (or the name) that gave
/// it: what [`Files::check`] judges.
#[derive(Clone, Debug)]
pub struct Files {
    command: &'static str,
    inputs: Vec<Input>,
    outputs: Vec<Output>,
}

/// The path that stands for standard output where a command offers it.
pub const STDOUT: &str = "-";

/// Whether `path` is `-`, standard output.
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == STDOUT
}

impl Files {
    /// The files of `command` (named in messages): none yet.
    pub fn of(command: &'static str) -> Files {
        Files {
            command,
            inputs: Vec::new(),
            outputs: Vec::new(),
        }
    }

    /// The command's name.
    pub fn command(&self) -> &'static str {
        self.command
    }

    /// An input read whole, given by `label` (a flag such as `--eval`, or a name).
    pub fn read(mut self, label: impl Into<String>, path: &Path) -> Files {
        self.inputs.push(Input {
            label: label.into(),
            path: path.to_path_buf(),
            read: Read::Whole,
        });
        self
    }

    /// Inputs read whole, each given by `label`.
    pub fn read_all<'a>(mut self, label: &str, paths: impl IntoIterator<Item = &'a Path>) -> Files {
        for p in paths {
            self = self.read(label, p);
        }
        self
    }

    /// An input read whole when given.
    pub fn read_opt(self, label: &str, path: Option<&Path>) -> Files {
        match path {
            Some(p) => self.read(label, p),
            None => self,
        }
    }

    /// A directory whose files the command reads (it must be one).
    pub fn directory(mut self, label: impl Into<String>, path: &Path) -> Files {
        self.inputs.push(Input {
            label: label.into(),
            path: path.to_path_buf(),
            read: Read::Directory,
        });
        self
    }

    /// A work directory, whose files the command reads and writes (it must be one, or not
    /// exist yet: the command makes it).
    pub fn work_directory(mut self, label: impl Into<String>, path: &Path) -> Files {
        self.inputs.push(Input {
            label: label.into(),
            path: path.to_path_buf(),
            read: Read::Work,
        });
        self
    }

    /// An output, written as `write` says.
    pub fn write(mut self, label: impl Into<String>, path: &Path, write: Write) -> Files {
        self.outputs.push(Output {
            label: label.into(),
            path: path.to_path_buf(),
            write,
            stdout: false,
        });
        self
    }

    /// An output that may also be `-`, standard output.
    pub fn write_or_stdout(self, label: impl Into<String>, path: &Path, write: Write) -> Files {
        let mut files = self.write(label, path, write);
        if let Some(o) = files.outputs.last_mut() {
            o.stdout = true;
        }
        files
    }

    /// An output that may be `-` when given.
    pub fn write_or_stdout_opt(self, label: &str, path: Option<&Path>, write: Write) -> Files {
        match path {
            Some(p) => self.write_or_stdout(label, p, write),
            None => self,
        }
    }

    /// An output when given.
    pub fn write_opt(self, label: &str, path: Option<&Path>, write: Write) -> Files {
        match path {
            Some(p) => self.write(label, p, write),
            None => self,
        }
    }

    /// Every path declared, inputs then outputs, with its label and role (for the test
    /// that every file flag is declared).
    pub fn declared(&self) -> Vec<(&str, &Path, Role)> {
        let inputs = self.inputs.iter().map(|i| {
            let role = match i.read {
                Read::Whole => Role::Read,
                Read::Directory | Read::Work => Role::ReadDirectory,
            };
            (i.label.as_str(), i.path.as_path(), role)
        });
        let outputs = self
            .outputs
            .iter()
            .map(|o| (o.label.as_str(), o.path.as_path(), Role::Write));
        inputs.chain(outputs).collect()
    }

    /// Refuses what the command must not do (see the module's doc), before any work.
    pub fn check(&self) -> Result<(), GuardError> {
        for input in &self.inputs {
            self.check_input(input)?;
        }
        for (i, output) in self.outputs.iter().enumerate() {
            self.check_output(output)?;
            if let Some(other) = self.outputs[..i]
                .iter()
                .find(|o| !is_stdout(&o.path) && same_place(&o.path, &output.path))
            {
                return Err(GuardError::OutputTwice {
                    command: self.command,
                    first: other.label.clone(),
                    second: output.label.clone(),
                    path: output.path.clone(),
                });
            }
        }
        Ok(())
    }

    fn check_input(&self, input: &Input) -> Result<(), GuardError> {
        let meta = std::fs::metadata(&input.path);
        let refuse = |what: String| GuardError::Input {
            command: self.command,
            label: input.label.clone(),
            path: input.path.clone(),
            what,
        };
        match (input.read, meta) {
            (Read::Whole, Ok(m)) if !m.is_file() => Err(refuse(format!(
                "not a regular file ({}); it is read whole: save it to a file first",
                kind(m.file_type())
            ))),
            (Read::Whole, Ok(m)) => match standard_stream_of(&m) {
                Some(stream) => Err(refuse(format!(
                    "also this command's standard {stream} (redirected to it: `>` has \
                     emptied it, `>>` would add the command's lines): redirect it elsewhere"
                ))),
                None => Ok(()),
            },
            (Read::Directory | Read::Work, Ok(m)) if !m.is_dir() => {
                Err(refuse(format!("not a directory ({})", kind(m.file_type()))))
            }
            (Read::Directory, Err(_)) => Err(refuse("no such directory".into())),
            _ => Ok(()),
        }
    }

    fn check_output(&self, output: &Output) -> Result<(), GuardError> {
        let refuse = |what: String| GuardError::Output {
            command: self.command,
            label: output.label.clone(),
            path: output.path.clone(),
            what,
        };
        if is_stdout(&output.path) {
            return match output.stdout {
                true => Ok(()),
                false => Err(refuse(
                    "standard output is not offered here: give a file path".into(),
                )),
            };
        }
        if let Some(input) = self
            .inputs
            .iter()
            .find(|i| same_place(&i.path, &output.path))
        {
            return Err(GuardError::OutputIsInput {
                command: self.command,
                label: output.label.clone(),
                path: output.path.clone(),
                input_label: input.label.clone(),
                input: input.path.clone(),
            });
        }
        let Ok(meta) = std::fs::metadata(&output.path) else {
            return Ok(());
        };
        if !meta.is_file() {
            let or_stdout = if output.stdout {
                ", or - for standard output"
            } else {
                ""
            };
            return Err(refuse(format!(
                "not a regular file ({}); give a file path{or_stdout}",
                kind(meta.file_type())
            )));
        }
        if let Some(stream) = standard_stream_of(&meta) {
            return Err(refuse(format!(
                "also this command's standard {stream} (redirected to it); its lines would \
                 mix into the file: give another path{}",
                if output.stdout { ", or -" } else { "" }
            )));
        }
        match output.write {
            Write::ReplaceIfForced { force: false } => {
                Err(refuse("the file exists (--force replaces it)".into()))
            }
            _ => Ok(()),
        }
    }
}

/// What a file that is not a regular one is, for messages.
fn kind(t: FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if t.is_file() {
        "a file"
    } else if t.is_dir() {
        "a directory"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_fifo() {
        "a named pipe"
    } else if t.is_socket() {
        "a socket"
    } else {
        "neither file nor directory"
    }
}

/// Which of the process's standard output and error (`output`, `error`) is redirected to
/// the file of `meta`.
fn standard_stream_of(meta: &std::fs::Metadata) -> Option<&'static str> {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let is = |fd: std::os::fd::BorrowedFd| {
        // A duplicate of the descriptor, for its metadata; a closed stream is no file.
        let stream = std::fs::File::from(fd.try_clone_to_owned().ok()?);
        let m = stream.metadata().ok()?;
        Some(m.is_file() && m.dev() == meta.dev() && m.ino() == meta.ino())
    };
    if is(std::io::stdout().as_fd()) == Some(true) {
        Some("output")
    } else if is(std::io::stderr().as_fd()) == Some(true) {
        Some("error")
    } else {
        None
    }
}

/// Whether `a` and `b` name the same existing file (hard links and symlinks included).
pub fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

/// Whether `a` and `b` are the same file, or, where either does not exist yet, the same
/// name in the same directory (two outputs that a run would create).
pub fn same_place(a: &Path, b: &Path) -> bool {
    if same_file(a, b) {
        return true;
    }
    if a.exists() && b.exists() {
        return false;
    }
    let place = |p: &Path| {
        let dir = super::dir_of(p).canonicalize().ok()?;
        Some((dir, p.file_name()?.to_owned()))
    };
    matches!((place(a), place(b)), (Some(x), Some(y)) if x == y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn refused(files: &Files) -> String {
        files.check().unwrap_err().to_string()
    }

    #[test]
    fn an_output_is_never_an_input_by_any_name() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.obf");
        fs::write(&a, "x").unwrap();
        let hard = dir.path().join("hard.obf");
        fs::hard_link(&a, &hard).unwrap();
        let soft = dir.path().join("soft.obf");
        std::os::unix::fs::symlink(&a, &soft).unwrap();
        let dotted = dir.path().join(".").join("a.obf");
        for out in [&a, &hard, &soft, &dotted] {
            let files = Files::of("suite")
                .read("FILE", &a)
                .write("--csv", out, Write::Replace);
            let err = refused(&files);
            assert!(
                err.starts_with("suite: --csv ") && err.contains("is also an input (FILE "),
                "{err}"
            );
        }
        let b = dir.path().join("b.csv");
        let files = Files::of("suite")
            .read("FILE", &a)
            .write("--csv", &b, Write::Replace);
        assert!(files.check().is_ok());
        fs::write(&b, "old").unwrap();
        assert!(
            files.check().is_ok(),
            "an existing regular file is replaced"
        );
    }

    #[test]
    fn two_outputs_are_never_one_file_even_before_they_exist() {
        let dir = tempfile::tempdir().unwrap();
        let w = dir.path().join("w.bin");
        let dotted = dir.path().join(".").join("w.bin");
        let files = Files::of("train").write("--out", &w, Write::Replace).write(
            "--data",
            &dotted,
            Write::Replace,
        );
        assert!(refused(&files).contains("--out and --data are the same file"));
        let other = dir.path().join("d.csv");
        let files = Files::of("train").write("--out", &w, Write::Replace).write(
            "--data",
            &other,
            Write::Replace,
        );
        assert!(files.check().is_ok());
    }

    #[test]
    fn devices_pipes_and_directories_are_refused_as_outputs_and_inputs() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let null = Path::new("/dev/null");
        for (bad, what) in [
            (fifo.as_path(), "a named pipe"),
            (dir.path(), "a directory"),
            (null, "a character device"),
        ] {
            let out = Files::of("games").write("--out", bad, Write::Replace);
            let err = refused(&out);
            assert!(
                err.contains(&format!("not a regular file ({what})")),
                "{err}"
            );
            assert!(!err.contains("standard output"), "{err}");
            let out = Files::of("games").write_or_stdout("--out", bad, Write::Replace);
            assert!(refused(&out).ends_with("or - for standard output"));
            let input = Files::of("games").read("FILE", bad);
            assert!(refused(&input).contains("it is read whole"));
        }
        assert!(null.exists() && !null.is_file(), "/dev/null is as it was");
    }

    #[test]
    fn standard_output_only_where_offered() {
        let dash = Path::new("-");
        let offered = Files::of("eval").write_or_stdout("--csv", dash, Write::Replace);
        assert!(offered.check().is_ok());
        let not = Files::of("batch").write("--out", dash, Write::Append);
        assert!(refused(&not).contains("standard output is not offered here"));
    }

    #[test]
    fn force_and_directories() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("m.csv");
        fs::write(&f, "x").unwrap();
        let without =
            Files::of("merge").write("--out", &f, Write::ReplaceIfForced { force: false });
        assert!(refused(&without).ends_with("the file exists (--force replaces it)"));
        let with = Files::of("merge").write("--out", &f, Write::ReplaceIfForced { force: true });
        assert!(with.check().is_ok());
        let names = Files::of("games").directory("--names", &f);
        assert!(refused(&names).ends_with("m.csv: not a directory (a file)"));
        let missing = Files::of("games").directory("--names", &dir.path().join("none"));
        assert!(refused(&missing).ends_with("none: no such directory"));
        assert!(
            Files::of("games")
                .directory("--names", dir.path())
                .check()
                .is_ok()
        );
        // A missing input is the reader's to name.
        let gone = Files::of("solve").read("--file", &dir.path().join("none.obf"));
        assert!(gone.check().is_ok());
    }
}
