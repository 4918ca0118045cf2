//! Checks made on an output path before any work: a command never writes over one of its
//! own inputs (a CSV over the positions it reads, an SVG over the CSV it draws).

use crate::error::{RequestError, Result};
use std::path::Path;

/// Whether `a` and `b` name the same existing file (hard links and symlinks included).
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        #[cfg(unix)]
        (Ok(x), Ok(y)) => {
            use std::os::unix::fs::MetadataExt;
            x.dev() == y.dev() && x.ino() == y.ino()
        }
        #[cfg(not(unix))]
        (Ok(_), Ok(_)) => matches!(
            (a.canonicalize(), b.canonicalize()),
            (Ok(x), Ok(y)) if x == y
        ),
        _ => false,
    }
}

/// Refuses `out` (given with `flag`) when it is one of `inputs`: writing it would destroy
/// what the command reads.
pub fn refuse_input_as_output<'a>(
    flag: &'static str,
    out: &Path,
    inputs: impl IntoIterator<Item = &'a Path>,
) -> Result<()> {
    match inputs.into_iter().find(|i| same_file(i, out)) {
        Some(input) => Err(RequestError::OutputIsInput {
            flag,
            output: out.to_path_buf(),
            input: input.to_path_buf(),
        }
        .into()),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_the_same_file_and_others_are_not() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.obf");
        let b = dir.path().join("b.obf");
        std::fs::write(&a, "x").unwrap();
        std::fs::write(&b, "x").unwrap();
        let hard = dir.path().join("hard.obf");
        std::fs::hard_link(&a, &hard).unwrap();
        let dotted = dir.path().join(".").join("a.obf");
        assert!(same_file(&a, &hard));
        assert!(same_file(&a, &dotted));
        assert!(!same_file(&a, &b));
        assert!(!same_file(&a, &dir.path().join("missing")));
        let err = refuse_input_as_output("--csv", &hard, [b.as_path(), a.as_path()]);
        assert!(err.unwrap_err().to_string().contains("a.obf"));
        assert!(refuse_input_as_output("--csv", &b, [a.as_path()]).is_ok());
    }
}
