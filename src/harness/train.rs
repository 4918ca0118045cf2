//! The `train` command: runs the training pipeline, prints the held-out error table and
//! writes the weight file (never over an existing one unless asked).

use crate::error::{Error, Result};
use crate::train::{TrainOptions, train};
use std::io::Write;
use std::path::Path;

/// Trains with `options`, writes the weights to `out` (refusing to replace an existing file
/// unless `force`) and, if `data` is given, every labelled position to that CSV.
pub fn run_train(
    options: &TrainOptions,
    out: &Path,
    force: bool,
    data: Option<&Path>,
    stdout: &mut impl Write,
) -> Result<()> {
    if out.exists() && !force {
        return Err(Error::Invalid(format!(
            "{}: already exists (use --force to replace it)",
            out.display()
        )));
    }
    let mut data_file = match data {
        Some(p) => Some(std::io::BufWriter::new(std::fs::File::create(p).map_err(
            |source| Error::Write {
                path: p.to_path_buf(),
                source,
            },
        )?)),
        None => None,
    };
    let mut log = std::io::stderr();
    let (file, table) = train(
        options,
        &mut log,
        data_file.as_mut().map(|w| w as &mut dyn Write),
    )?;
    if let (Some(mut w), Some(p)) = (data_file, data) {
        w.flush().map_err(|source| Error::Write {
            path: p.to_path_buf(),
            source,
        })?;
    }
    file.save(out).map_err(|e| Error::Invalid(e.to_string()))?;
    let o = |e| Error::Output(e);
    writeln!(stdout, "# {}", crate::train::command_line(options)).map_err(o)?;
    writeln!(
        stdout,
        "empties,label,train,test,test_mae,test_rmse,train_rmse"
    )
    .map_err(o)?;
    for r in &table {
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
        file.checksum()
    )
    .map_err(o)
}
