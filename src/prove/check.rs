//! `finale prove --check DIR`: the root's bounds derived again from the leaf rows alone,
//! by a plain minimax of bounds over the tree the folder records, with none of the
//! planner's goals: a position's lower bound is the best of its moves' negated upper
//! bounds, its upper bound the best of their negated lower bounds; a leaf's bounds are
//! its rows'; a finished game's its score; anything the tree does not expand -64..64,
//! or what its rows say. A position that has rows and is expanded too (its solve gave
//! up at a time limit, and the proof went one move deeper) takes both, intersected.
//! A sample of leaves can be solved again, each with its window, to agree with its rows.

use super::folder::{Folder, Spec, read_leaves};
use super::known::Known;
use super::tree::{Node, follow, node};
use crate::board::key::{key_hex, position_key};
use crate::board::{Position, Square};
use crate::error::{Error, ProveError, Result};
use crate::search::{Mode, SearchOptions, Solver, SolverOptions};
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::Path;

/// What a check found.
#[derive(Debug, PartialEq, Eq)]
pub struct CheckSummary {
    /// The root's bounds, from the rows alone.
    pub bounds: (i32, i32),
    /// True when they answer the folder's window.
    pub answered: bool,
    /// Positions the tree expands.
    pub tree: usize,
    /// Leaves solved again (all agreed).
    pub resolved: usize,
}

/// Checks the proof in `dir`, solving `sample` of its leaves again (one thread each,
/// `hash_mb` tables, `search` switches); prints the result and, last, `bounds L U`.
pub fn run_check(
    dir: &Path,
    sample: usize,
    hash_mb: usize,
    search: &SearchOptions,
    out: &mut impl Write,
) -> Result<CheckSummary> {
    let (folder, spec) = Folder::open(dir, None)?;
    let known = Known::read(&folder.csvs()?)?;
    let expanded = expanded(&folder, &spec)?;
    let mut derive = Derive::new(&known, &expanded);
    let bounds = derive.bounds(&spec.root, true);
    let resolved = resolve_sample(&folder, &known, sample, hash_mb, search)?;
    let answered = spec.window.answered_by(bounds.0, bounds.1);
    writeln!(
        out,
        "check  tree {}  leaf positions {}  re-solved {resolved} (agree)  {}",
        expanded.len(),
        known.positions(),
        if answered { "proven" } else { "not proven" }
    )
    .map_err(Error::Output)?;
    let best = match bounds.0 == bounds.1 {
        true => derive.proven_best(&spec.root, bounds.0),
        false => Vec::new(),
    };
    if !best.is_empty() {
        let moves: Vec<String> = best.iter().map(|m| m.to_string()).collect();
        writeln!(out, "best moves {}", moves.join(" ")).map_err(Error::Output)?;
    }
    writeln!(out, "bounds {} {}", bounds.0, bounds.1).map_err(Error::Output)?;
    Ok(CheckSummary {
        bounds,
        answered,
        tree: expanded.len(),
        resolved,
    })
}

/// The positions the folder's tree expands (a position after a forced pass with the
/// position before it: reached by another way, the same discs and side, it is the same
/// node).
pub(super) fn expanded(folder: &Folder, spec: &Spec) -> Result<HashSet<u64>> {
    let mut expanded = HashSet::new();
    for path in folder.read_tree()? {
        if let Some(p) = follow(&spec.root, &path) {
            expanded.insert(position_key(&p));
            if let Node::Pass(q) = node(&p) {
                expanded.insert(position_key(&q));
            }
        }
    }
    Ok(expanded)
}

/// The minimax of bounds.
pub(super) struct Derive<'a> {
    known: &'a Known,
    expanded: &'a HashSet<u64>,
    memo: HashMap<(u64, bool), (i32, i32)>,
}

impl Derive<'_> {
    /// The minimax over `known`'s rows and the `expanded` tree.
    pub(super) fn new<'a>(known: &'a Known, expanded: &'a HashSet<u64>) -> Derive<'a> {
        Derive {
            known,
            expanded,
            memo: HashMap::new(),
        }
    }

    /// The moves of `root` whose rows prove they reach `value`, its proven value: those
    /// whose negated upper bound is `value` (none when it must pass).
    pub(super) fn proven_best(&mut self, root: &Position, value: i32) -> Vec<Square> {
        let Node::Moves(moves) = node(root) else {
            return Vec::new();
        };
        let mut best = Vec::new();
        for (sq, q) in moves {
            let child = self.expanded.contains(&position_key(&q));
            if -self.bounds(&q, child).1 == value {
                best.push(sq);
            }
        }
        best
    }

    /// The bounds on `p`'s value for its side to move; `open` when the tree expands it
    /// (a position after a forced pass is expanded with the position before it).
    pub(super) fn bounds(&mut self, p: &Position, open: bool) -> (i32, i32) {
        let key = position_key(p);
        if let Some(&b) = self.memo.get(&(key, open)) {
            return b;
        }
        let rows = self.known.get(key).unwrap_or((-64, 64));
        let b = match node(p) {
            Node::Over(score) => (score, score),
            _ if !open => rows,
            Node::Pass(q) => both(rows, negated(self.bounds(&q, true))),
            Node::Moves(moves) => {
                let mut best = (-64, -64);
                for (_, q) in moves {
                    let child = self.expanded.contains(&position_key(&q));
                    let (l, u) = negated(self.bounds(&q, child));
                    best = (best.0.max(l), best.1.max(u));
                }
                both(rows, best)
            }
        };
        self.memo.insert((key, open), b);
        b
    }
}

/// What two proofs of one value's bounds prove together. (Crossed bounds would mean a
/// wrong row, which solving the leaves again finds.)
fn both((l, u): (i32, i32), (l2, u2): (i32, i32)) -> (i32, i32) {
    (l.max(l2), u.min(u2))
}

/// Bounds on minus a value.
fn negated((l, u): (i32, i32)) -> (i32, i32) {
    (-u, -l)
}

/// Solves `sample` leaves (spread over the rounds by a fixed stride) again and checks
/// that each new answer's bounds meet its rows'; returns how many were solved.
fn resolve_sample(
    folder: &Folder,
    known: &Known,
    sample: usize,
    hash_mb: usize,
    search: &SearchOptions,
) -> Result<usize> {
    if sample == 0 {
        return Ok(0);
    }
    let mut leaves = Vec::new();
    for round in folder.rounds()? {
        leaves.extend(read_leaves(&round)?);
    }
    leaves.retain(|l| known.get(position_key(&l.position)).is_some());
    let stride = (leaves.len() / sample.min(leaves.len()).max(1)).max(1);
    let mut solver = Solver::new(SolverOptions {
        hash_mb,
        search: search.clone(),
        threads: 1,
        oversubscribe: false,
    });
    let mut solved = 0;
    // A fixed stride through the list: spread over the rounds, the same on every run.
    for leaf in leaves.iter().step_by(stride).take(sample) {
        solver.clear();
        let r = solver.solve(leaf.position.board, Mode::Window(leaf.window));
        let key = position_key(&leaf.position);
        let (lower, upper) = known.get(key).unwrap_or((-64, 64));
        if r.lower > upper || r.upper < lower {
            return Err(ProveError::Resolved {
                key: key_hex(key),
                window: leaf.window.to_string(),
                lower,
                upper,
                again_lower: r.lower,
                again_upper: r.upper,
            }
            .into());
        }
        solved += 1;
    }
    Ok(solved)
}
