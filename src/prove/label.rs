//! A proven folder as an exact label (`calibrate --labels DIR`): the root's value,
//! derived from the rows alone as `--check` derives it, and the root's moves the rows
//! prove reach it. A root too deep for one uninterrupted solve is labelled this way,
//! resumably.

use super::check::{Derive, expanded};
use super::doubt::Checker;
use super::folder::Folder;
use super::known::Known;
use crate::board::key::{key_hex, position_key};
use crate::board::{Position, Square};
use crate::commands::exact_labels::Label;
use crate::error::{ExactLabelsError, Result};
use std::path::Path;

/// What a finished proof answers, as an exact label: the root, its value, the root's
/// moves the rows prove reach it, and the work that proved it.
#[derive(Debug)]
pub struct ProofAnswer {
    /// The root.
    pub root: Position,
    /// Its value, when the rows prove it exactly; else its bounds.
    pub bounds: (i32, i32),
    /// The root's moves proven to reach the value (empty unless it is exact).
    pub best: Vec<Square>,
    /// Nodes of the leaf rows, the root's prediction and the leaves' checks.
    pub nodes: u64,
    /// Seconds of the leaf rows (predictions and checks keep no time).
    pub leaf_seconds: f64,
}

/// What the proof in `dir` answers, derived from its rows alone as `--check` does: a
/// move is proven best when the rows prove it reaches the root's exact value.
pub fn proof_answer(dir: &Path) -> Result<ProofAnswer> {
    let (folder, spec) = Folder::open(dir, None)?;
    let known = Known::read(&folder.csvs()?)?;
    let expanded = expanded(&folder, &spec)?;
    let mut derive = Derive::new(&known, &expanded);
    let bounds = derive.bounds(&spec.root, true);
    let best = match bounds.0 == bounds.1 {
        true => derive.proven_best(&spec.root, bounds.0),
        false => Vec::new(),
    };
    let prediction = folder.read_prediction()?.map_or(0, |p| p.nodes);
    let checks = Checker::read_nodes(&folder.checks_path())?;
    Ok(ProofAnswer {
        root: spec.root,
        bounds,
        best,
        nodes: known.nodes + prediction + checks,
        leaf_seconds: known.seconds,
    })
}

/// The label of the `finale prove` work folder `dir`: its root, the value its rows prove
/// and the moves they prove reach it; its nodes are the proof's, its time the leaf rows',
/// its revision `proof`. A proof whose rows only bound the value is refused.
pub fn proof_label(dir: &Path) -> Result<Label> {
    if !Folder::holds_proof(dir) {
        return Err(ExactLabelsError::NotProof(dir.to_path_buf()).into());
    }
    let a = proof_answer(dir)?;
    let (lower, upper) = a.bounds;
    if lower != upper || a.best.is_empty() {
        return Err(ExactLabelsError::Unproven {
            dir: dir.to_path_buf(),
            lower,
            upper,
        }
        .into());
    }
    let moves: Vec<String> = a.best.iter().map(|m| m.to_string()).collect();
    Ok(Label {
        key: key_hex(position_key(&a.root)),
        position: a.root,
        score: lower,
        best_moves: moves.join(" "),
        nodes: a.nodes,
        time_s: a.leaf_seconds,
        git_rev: "proof".into(),
    })
}
