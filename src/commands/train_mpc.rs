//! The `train-mpc` command: fits the multi-probcut error model (the spread of shallow
//! searches against exact scores, by empties and depth) and prints it as a CSV table with
//! the fitted plane, headed by the command that reproduces it.

use crate::board::{Board, Color, Position, read_obf_file};
use crate::error::{Error, Result};
use crate::eval::Evaluator;
use crate::train::mpc::{
    Cell, MpcOptions, ProbcutModel, SearchSampleOptions, fit_mpc, fit_mpc_on_labels,
    fit_mpc_on_search, sample_probcut_nodes,
};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where the positions come from.
#[derive(Clone, Debug)]
pub enum Source {
    /// Positions of random games.
    Random(MpcOptions),
    /// Positions where a solve of each root of the OBF file tried probcut; with a second
    /// path, they are written there as OBF (for `finale batch` to label) instead.
    Search(PathBuf, Option<PathBuf>, SearchSampleOptions),
    /// The exact answers of batch or suite CSVs.
    Labels {
        /// The CSVs.
        csvs: Vec<PathBuf>,
        /// Shallow depths 0..=this.
        max_depth: u32,
        /// Worker threads.
        threads: usize,
    },
}

/// Writes `nodes` (side to move as X) as OBF, headed by `header`, to `file` (created
/// at `path` before the sampling, so that a path that cannot be written fails at once).
fn write_nodes(mut file: File, path: &Path, header: &str, nodes: &[Board]) -> Result<()> {
    let mut text = format!("% {header}\n");
    for &board in nodes {
        let pos = Position {
            board,
            side: Color::Black,
        };
        text += &format!("{pos}\n");
    }
    crate::durable::write_synced(&mut file, text.as_bytes()).map_err(|source| Error::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// Fits the model from `source` with `eval` (progress on stderr) and prints it to `out`.
pub fn run_train_mpc(source: &Source, eval: &Evaluator, out: &mut impl Write) -> Result<()> {
    let progress = &mut std::io::stderr();
    let (header, (cells, plane)) = match source {
        Source::Random(o) => (
            format!(
                "# finale train-mpc --seed {} --per-empties {} --empties {}-{} --max-depth {} \
                 (weights {:08x})",
                o.seed,
                o.per_empties,
                o.empties.0,
                o.empties.1,
                o.max_depth,
                eval.checksum()
            ),
            fit_mpc(o, eval, progress)?,
        ),
        Source::Search(file, dump, o) => {
            let roots: Vec<Board> = read_obf_file(file)?
                .iter()
                .map(|r| r.position.board)
                .collect();
            let command = format!(
                "finale train-mpc --from-search {} --selectivity {} --rate {} \
                 --per-empties {} --empties {}-{}",
                file.display(),
                o.selectivity.percent(),
                o.rate,
                o.per_empties,
                o.empties.0,
                o.empties.1,
            );
            if let Some(path) = dump {
                return dump_nodes(&roots, o, eval, &command, path, out);
            }
            (
                format!(
                    "# {command} --max-depth {} (weights {:08x})",
                    o.max_depth,
                    eval.checksum()
                ),
                fit_mpc_on_search(&roots, o, eval, progress)?,
            )
        }
        Source::Labels {
            csvs,
            max_depth,
            threads,
        } => from_labels(csvs, *max_depth, *threads, eval)?,
    };
    let text = fit_text(&header, &cells, plane.as_ref());
    out.write_all(text.as_bytes()).map_err(Error::Output)
}

/// Writes the probcut nodes of searches of `roots` to `path` as OBF (for `finale batch`
/// to label), headed by `command`, and says how many to `out`.
fn dump_nodes(
    roots: &[Board],
    o: &SearchSampleOptions,
    eval: &Evaluator,
    command: &str,
    path: &Path,
    out: &mut impl Write,
) -> Result<()> {
    let file = File::create(path).map_err(|source| Error::Write {
        path: path.to_path_buf(),
        source,
    })?;
    let nodes = sample_probcut_nodes(roots, o, &mut std::io::stderr())?;
    let header = format!(
        "{command} --dump-nodes {} (weights {:08x})",
        path.display(),
        eval.checksum()
    );
    write_nodes(file, path, &header, &nodes)?;
    writeln!(out, "{} nodes written to {}", nodes.len(), path.display()).map_err(Error::Output)
}

/// A fit: its cells, and the planes over them when there are enough.
type Fit = (Vec<Cell>, Option<ProbcutModel>);

/// The model fitted to the exact answers of `csvs`, headed by the command that refits it.
fn from_labels(
    csvs: &[PathBuf],
    max_depth: u32,
    threads: usize,
    eval: &Evaluator,
) -> Result<(String, Fit)> {
    let labelled: Vec<(Board, i32)> = super::exact_labels::read_labels(csvs, &[])?
        .iter()
        .map(|l| (l.position.board, l.score))
        .collect();
    let names: Vec<String> = csvs.iter().map(|p| p.display().to_string()).collect();
    let header = format!(
        "# finale train-mpc --from-labels {} --max-depth {max_depth} (weights {:08x}; {} \
         positions)",
        names.join(","),
        eval.checksum(),
        labelled.len()
    );
    Ok((
        header,
        fit_mpc_on_labels(&labelled, max_depth, threads, eval)?,
    ))
}

/// The fit as text: `header`, a CSV row per cell, and the planes over every cell.
fn fit_text(header: &str, cells: &[Cell], plane: Option<&ProbcutModel>) -> String {
    let mut text = format!("{header}\nempties,depth,positions,mean,sigma\n");
    for c in cells {
        text += &format!(
            "{},{},{},{:.3},{:.3}\n",
            c.empties, c.depth, c.count, c.mean, c.sigma
        );
    }
    if let Some(m) = plane {
        text += &format!(
            "# over every cell, empties {}-{}: mean = {:.4} + {:.4} * empties + {:.4} * [depth \
             odd]; sigma = {:.4} + {:.4} * empties + {:.4} * depth\n",
            m.empties.0,
            m.empties.1,
            m.mean[0],
            m.mean[1],
            m.mean[2],
            m.sigma[0],
            m.sigma[1],
            m.sigma[2]
        );
    }
    text
}
