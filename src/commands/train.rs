//! The `train` command: runs the training pipeline, prints the held-out error table and
//! writes the weight file (never over an existing one unless asked).
//!
//! Each generation before the last is saved beside the output as `OUT.genK` as soon as it
//! is trained, so that a run stopped later starts again from there (a saved generation is
//! used only if its recorded command line is the one this run would train); they are
//! removed once the output is written.

use crate::error::{Error, Result, TrainError};
use crate::eval::EvalError;
use crate::eval::weights_file::WeightFile;
use crate::train::{ErrorRow, TrainOptions, train_generations};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Where generation `k` of a run writing `out` is kept until the run ends.
pub fn generation_path(out: &Path, k: u32) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(format!(".gen{k}"));
    PathBuf::from(name)
}

/// Refuses, before any work, an `out` the weights could not be saved to: a place where no
/// file can be made. The weights are saved by a rename from a temporary file beside `out`,
/// so one is made there now. (An existing `out` without `--force`, a directory or a device
/// are the CLI's guard's to refuse.)
fn check_out(out: &Path) -> Result<()> {
    let unwritable = |why: String| {
        Error::from(TrainError::Unwritable {
            path: out.to_path_buf(),
            why,
        })
    };
    let dir = crate::durable::dir_of(out);
    tempfile::Builder::new()
        .prefix(".finale-train-check-")
        .tempfile_in(dir)
        .map(drop)
        .map_err(|e| unwritable(format!("cannot create a file in {} ({e})", dir.display())))
}

/// Trains with `options`, writes the weights to `out` (replacing an existing file) and, if
/// `data` is given, every labelled position to that CSV. The caller has checked the files
/// with [`crate::durable::guard`] (`--force`, no output over an input or a device).
pub fn run_train(
    options: &TrainOptions,
    out: &Path,
    data: Option<&Path>,
    stdout: &mut impl Write,
) -> Result<()> {
    check_out(out)?;
    let mut data_file = open_data(data)?;
    let mut log = std::io::stderr();
    let trained = train_generations(
        options,
        &mut log,
        data_file.as_mut().map(|w| w as &mut dyn Write),
        &mut |k, _| {
            WeightFile::load(&generation_path(out, k))
                .ok()
                .map(|(f, _)| f)
        },
        &mut |k, f| {
            let p = generation_path(out, k);
            f.save(&p).map(drop).map_err(|e| EvalError::File(e).into())
        },
    );
    // Also when stopped: the rows of the phases finished are whole, and kept.
    if let (Some(w), Some(p)) = (data_file, data) {
        finish_data(w, p)?;
    }
    let (file, table) = trained?;
    let checksum = file.save(out).map_err(EvalError::File)?;
    for k in 1..options.generations {
        // Only a leftover: the output holds the result.
        let _ = std::fs::remove_file(generation_path(out, k));
    }
    print_errors(stdout, &file, &table, out, checksum)
}

/// The `--data` CSV, created.
fn open_data(data: Option<&Path>) -> Result<Option<BufWriter<File>>> {
    let Some(p) = data else {
        return Ok(None);
    };
    let file = File::create(p).map_err(|source| Error::Write {
        path: p.to_path_buf(),
        source,
    })?;
    Ok(Some(BufWriter::new(file)))
}

/// Flushes the `--data` CSV `w` (at `p`); one stopped before the last generation began
/// gets its header, so it is still a CSV.
fn finish_data(mut w: BufWriter<File>, p: &Path) -> Result<()> {
    let write_err = |source| Error::Write {
        path: p.to_path_buf(),
        source,
    };
    w.flush().map_err(write_err)?;
    if w.get_ref().metadata().is_ok_and(|m| m.len() == 0) {
        writeln!(w, "{}", crate::train::LABEL_HEADER.join(",")).map_err(write_err)?;
        w.flush().map_err(write_err)?;
    }
    Ok(())
}

/// Prints the weights' command line, the held-out error by empties and what was written.
fn print_errors(
    stdout: &mut impl Write,
    file: &WeightFile,
    table: &[ErrorRow],
    out: &Path,
    checksum: u32,
) -> Result<()> {
    let o = |e| Error::Output(e);
    writeln!(stdout, "# {}", file.meta).map_err(o)?;
    writeln!(
        stdout,
        "empties,label,train,test,test_mae,test_rmse,train_rmse"
    )
    .map_err(o)?;
    for r in table {
        writeln!(
            stdout,
            "{},{},{},{},{:.2},{:.2},{:.2}",
            r.empties, r.label, r.train, r.test, r.test_mae, r.test_rmse, r.train_rmse
        )
        .map_err(o)?;
    }
    writeln!(
        stdout,
        "wrote {} ({} weights, checksum {:08x})",
        out.display(),
        file.weights.len(),
        checksum
    )
    .map_err(o)
}
