//! Another program's executable (an engine's, another finale's), checked before anything
//! runs: a regular file that may be executed, made absolute, so that running it never
//! looks a bare name up on `PATH` (a bare name is the file in the current directory).

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// Why a path is not an executable to run.
#[derive(Debug)]
pub enum Unusable {
    /// It cannot be read (no such file, no permission), or made absolute.
    Unreadable(std::io::Error),
    /// It is not a regular file (a directory, a device).
    NotAFile,
    /// A file that no one may execute.
    NotExecutable,
}

impl std::fmt::Display for Unusable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unusable::Unreadable(e) => write!(f, "{e}"),
            Unusable::NotAFile => write!(f, "not a file"),
            Unusable::NotExecutable => write!(f, "not executable"),
        }
    }
}

/// `path` as an absolute path to run, if it is an executable regular file (links
/// followed).
pub fn checked_executable(path: &Path) -> Result<PathBuf, Unusable> {
    let meta = std::fs::metadata(path).map_err(Unusable::Unreadable)?;
    if !meta.is_file() {
        return Err(Unusable::NotAFile);
    }
    if meta.permissions().mode() & 0o111 == 0 {
        return Err(Unusable::NotExecutable);
    }
    std::path::absolute(path).map_err(Unusable::Unreadable)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_that_cannot_run_are_told_apart() {
        let dir = tempfile::tempdir().expect("temp dir");
        let plain = dir.path().join("plain");
        std::fs::write(&plain, "x").expect("file");
        let missing = checked_executable(&dir.path().join("none"));
        assert!(matches!(missing, Err(Unusable::Unreadable(_))));
        assert!(matches!(
            checked_executable(dir.path()),
            Err(Unusable::NotAFile)
        ));
        let e = checked_executable(&plain).expect_err("no execute bit");
        assert_eq!(e.to_string(), "not executable");
        let sh = checked_executable(Path::new("/bin/sh")).expect("an executable");
        assert!(sh.is_absolute());
    }
}
