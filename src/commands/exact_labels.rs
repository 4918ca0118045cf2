//! Exact answers read back from suite and batch CSVs as labels: `calibrate --labels` and
//! `train-mpc --from-labels` take them instead of solving again, so that deep labels are
//! made once, by a resumable (and shardable) `finale batch`.

use super::run_csv::RunCsv;
use crate::board::{Position, parse_obf_line};
use crate::error::{ExactLabelsError, Result};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One position's exact answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// The position's key (as the CSVs write it).
    pub key: String,
    /// The position.
    pub position: Position,
    /// The exact score.
    pub score: i32,
    /// The best moves it names, space-separated (one, unless solved with `--ties`).
    pub best_moves: String,
    /// Nodes of that solve.
    pub nodes: u64,
    /// Seconds of that solve.
    pub time_s: f64,
    /// Revision of the finale that solved it.
    pub git_rev: String,
}

/// The exact answers of the suite or batch CSVs `paths`, then those of `proofs` (each
/// read from a `finale prove` work folder, by `finale::prove::proof_label`), each position
/// once, in the order read: the solved rows of mode `exact` that name a best move
/// (timeouts, errors, other modes and positions without a move are skipped; a torn last
/// row is dropped). Two answers of one position with other scores are refused: one of
/// them is wrong.
pub fn read_labels(paths: &[PathBuf], proofs: &[(PathBuf, Label)]) -> Result<Vec<Label>> {
    let mut labels = Labels::default();
    for path in paths {
        let mut csv = RunCsv::open(path)?;
        csv.need(&[
            "key",
            "board",
            "side",
            "mode",
            "score",
            "best_moves",
            "nodes",
            "time_s",
        ])?;
        csv.for_each_solved(|r| {
            let row = &r.row;
            let Some(score) = row.score.filter(|_| row.mode == "exact") else {
                return Ok(());
            };
            if row.best_moves.is_empty() {
                return Ok(());
            }
            let bad = |what: String| ExactLabelsError::Bad {
                path: path.clone(),
                line: r.line,
                what,
            };
            let position = parse_obf_line(&format!("{} {}", row.board, row.side))
                .ok()
                .flatten()
                .ok_or_else(|| bad(format!("bad board or side: {} {}", row.board, row.side)))?
                .position;
            let label = Label {
                key: row.key.clone(),
                position,
                score,
                best_moves: row.best_moves.clone(),
                nodes: r.nodes()?,
                time_s: r.seconds()?,
                git_rev: row.git_rev.clone(),
            };
            labels.keep(label, path, r.line)
        })?;
    }
    for (dir, label) in proofs {
        labels.keep(label.clone(), dir, 0)?;
    }
    Ok(labels.list)
}

/// Labels read so far, each position once.
#[derive(Default)]
struct Labels {
    list: Vec<Label>,
    seen: HashMap<String, usize>,
}

impl Labels {
    /// Keeps `label`, read at `line` of `path`, unless its position has one: then their
    /// scores must agree.
    fn keep(&mut self, label: Label, path: &Path, line: u64) -> Result<()> {
        match self.seen.get(&label.key) {
            Some(&i) if self.list[i].score != label.score => Err(ExactLabelsError::Disagree {
                path: path.to_path_buf(),
                line,
                score: label.score,
                key: label.key,
                before: self.list[i].score,
            }
            .into()),
            Some(_) => Ok(()),
            None => {
                self.seen.insert(label.key.clone(), self.list.len());
                self.list.push(label);
                Ok(())
            }
        }
    }
}
