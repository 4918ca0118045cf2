//! The `train-mpc` command: fits the multi-probcut error model (the spread of shallow
//! searches against exact scores, by empties and depth) and prints it as a CSV table with
//! the fitted plane, headed by the command that reproduces it.

use crate::board::{Board, read_obf_file};
use crate::error::{Error, Result};
use crate::eval::Evaluator;
use crate::train::mpc::{MpcOptions, SearchSampleOptions, fit_mpc, fit_mpc_on_search};
use std::io::Write;
use std::path::PathBuf;

/// Where the positions come from.
#[derive(Clone, Debug)]
pub enum Source {
    /// Positions of random games.
    Random(MpcOptions),
    /// Positions where a solve of each root of the OBF file tried probcut.
    Search(PathBuf, SearchSampleOptions),
}

/// Fits the model from `source` with `eval` (progress on stderr) and prints it to `out`.
pub fn run_train_mpc(source: &Source, eval: &Evaluator, out: &mut impl Write) -> Result<()> {
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
            fit_mpc(o, eval, &mut std::io::stderr())?,
        ),
        Source::Search(file, o) => {
            let roots: Vec<Board> = read_obf_file(file)?
                .iter()
                .map(|r| r.position.board)
                .collect();
            (
                format!(
                    "# finale train-mpc --from-search {} --selectivity {} --rate {} \
                     --per-empties {} --empties {}-{} --max-depth {} (weights {:08x})",
                    file.display(),
                    o.selectivity.percent(),
                    o.rate,
                    o.per_empties,
                    o.empties.0,
                    o.empties.1,
                    o.max_depth,
                    eval.checksum()
                ),
                fit_mpc_on_search(&roots, o, eval, &mut std::io::stderr())?,
            )
        }
    };
    let mut text = format!("{header}\nempties,depth,positions,mean,sigma\n");
    for c in &cells {
        text += &format!(
            "{},{},{},{:.3},{:.3}\n",
            c.empties, c.depth, c.count, c.mean, c.sigma
        );
    }
    if let Some(m) = plane {
        text += &format!(
            "# at the probcut depth, empties {}-{}: mean = {:.3} (even), {:.3} (odd); \
             sigma = {:.4} + {:.4} * empties\n",
            m.empties.0,
            m.empties.1,
            m.mean_by_parity[0],
            m.mean_by_parity[1],
            m.sigma[0],
            m.sigma[1]
        );
    }
    out.write_all(text.as_bytes()).map_err(Error::Output)
}
