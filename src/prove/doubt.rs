//! Selective checks of a proof's leaves. Before a leaf goes out for its exact window
//! solve, a probable solve of the same window at [`PROVE_CHECK_LEVEL`] says whether its
//! goal is likely to hold. A leaf whose check says it fails is a doubt: the plan tries
//! another move rather than pay for the exact refutation (on the drawn 36-empty proof,
//! 72 % of the leaf nodes went to leaves that failed their goal, each 1-20 G nodes; a
//! 73 % check of one costs about 1 M). A doubt proves nothing: it only orders the plan.
//! A check asks for the goal less [`PROVE_CHECK_MARGIN`] discs: a proof's principal
//! variation ends in leaves whose value is the goal, where a probable search errs
//! either way.
//!
//! Checks are kept in the folder (`checks.txt`, one line each, appended as they finish)
//! so that a resumed run does not search them again; they are not rows, and neither
//! the proof nor `--check` reads them as bounds.

use super::goal::Goal;
use crate::board::Position;
use crate::board::key::{key_hex, parse_key, position_key};
use crate::error::{Error, Result};
use crate::search::{Level, Mode, Solver, SolverOptions, Window};
use crate::settings::{PROVE_CHECK_LEVEL, PROVE_CHECK_MARGIN};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The checks file's first line.
const HEADER: &str = "% finale prove: probable window solves of leaves (key window lower upper percent nodes); they order the plan, they prove nothing";

/// Probable checks of leaves' goals, remembered and kept in a file.
pub struct Checker {
    path: PathBuf,
    options: SolverOptions,
    abort: Arc<AtomicBool>,
    solver: Option<Solver>,
    /// Probable bounds by position key, window and level (index in `MPC_LEVELS`).
    seen: HashMap<(u64, Window, usize), (i32, i32)>,
    /// Nodes of every check, the file's included.
    pub nodes: u64,
    /// The first write that failed, reported once the plan is done.
    failed: Option<Error>,
    /// Whether the file ends in a line cut off by a kill.
    torn: bool,
}

impl Checker {
    /// The checks kept in `path` (none when it does not exist); new ones are solved with
    /// `options` at [`PROVE_CHECK_LEVEL`], stopped by `abort`.
    pub fn open(path: &Path, options: SolverOptions, abort: Arc<AtomicBool>) -> Result<Checker> {
        let mut checker = Checker {
            path: path.to_path_buf(),
            options,
            abort,
            solver: None,
            seen: HashMap::new(),
            nodes: 0,
            failed: None,
            torn: false,
        };
        if path.exists() {
            checker.read()?;
        }
        Ok(checker)
    }

    /// The nodes of the checks kept in `path` (0 when it does not exist).
    pub fn read_nodes(path: &Path) -> Result<u64> {
        let abort = Arc::new(AtomicBool::new(false));
        Ok(Checker::open(path, SolverOptions::default(), abort)?.nodes)
    }

    /// Whether a probable solve at [`PROVE_CHECK_LEVEL`] says `goal` fails on `p`, a
    /// leaf, by more than the margin. `false` when a signal stopped the check.
    pub fn doubts(&mut self, p: &Position, goal: Goal) -> bool {
        // Asked with a margin: a leaf at the goal's very edge (a proof's principal
        // variation, where the goal is the value) is doubted only if the check misses
        // by more than the margin.
        let eased = match goal {
            Goal::AtLeast(b) => Goal::AtLeast(b - PROVE_CHECK_MARGIN),
            Goal::AtMost(a) => Goal::AtMost(a + PROVE_CHECK_MARGIN),
        };
        let Some(window) = eased.window() else {
            return false;
        };
        let goal = eased;
        let key = position_key(p);
        let level = PROVE_CHECK_LEVEL;
        let bounds = match self.seen.get(&(key, window, level)) {
            Some(&b) => b,
            None => match self.solve(p, window, level) {
                Some(b) => b,
                None => return false,
            },
        };
        goal.decided_by(bounds) == Some(false)
    }

    /// The first error writing the file, if any.
    pub fn take_error(&mut self) -> Result<()> {
        self.failed.take().map_or(Ok(()), Err)
    }

    /// Solves the check of `p` with `window` at `MPC_LEVELS[index]` and keeps it.
    fn solve(&mut self, p: &Position, window: Window, index: usize) -> Option<(i32, i32)> {
        let level = Level::probcut(index);
        let solver = self.solver.get_or_insert_with(|| {
            let mut s = Solver::new(self.options.clone());
            s.set_abort(self.abort.clone());
            s
        });
        solver.set_search(crate::search::SearchOptions {
            selectivity: level,
            ..self.options.search.clone()
        });
        let r = solver
            .solve_within(p.board, Mode::Window(window), None)
            .ok()?;
        let bounds = (r.lower, r.upper);
        self.nodes += r.nodes;
        self.seen.insert((position_key(p), window, index), bounds);
        let line = format!(
            "{} {window} {} {} {} {}\n",
            key_hex(position_key(p)),
            r.lower,
            r.upper,
            level.percent(),
            r.nodes
        );
        if let Err(e) = self.append(&line) {
            self.failed.get_or_insert(e);
        }
        Some(bounds)
    }

    /// Appends `line` to the file, with the header first when the file is new.
    fn append(&mut self, line: &str) -> Result<()> {
        let write = |source| Error::Write {
            path: self.path.clone(),
            source,
        };
        let fresh = !self.path.exists();
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .map_err(write)?;
        // A last line cut off by a kill is ended first; reading skips it (a check that
        // does not parse is searched again: checks prove nothing).
        let text = if fresh {
            format!("{HEADER}\n{line}")
        } else if self.torn {
            format!("\n{line}")
        } else {
            line.to_string()
        };
        f.write_all(text.as_bytes()).map_err(write)?;
        self.torn = false;
        Ok(())
    }

    /// Reads the file; a last line cut off by a kill is left out (and written again).
    fn read(&mut self) -> Result<()> {
        let text = std::fs::read_to_string(&self.path).map_err(|source| Error::Io {
            path: self.path.clone(),
            source,
        })?;
        let whole = text.rfind('\n').map_or("", |end| &text[..end]);
        for line in whole.lines() {
            if line.starts_with('%') || line.trim().is_empty() {
                continue;
            }
            let Some((key, window, bounds, level, nodes)) = parse_line(line) else {
                continue;
            };
            self.seen.insert((key, window, level), bounds);
            self.nodes += nodes;
        }
        self.torn = !text.is_empty() && !text.ends_with('\n');
        Ok(())
    }
}

/// A check's line: key, window, probable bounds, level, nodes.
type CheckLine = (u64, Window, (i32, i32), usize, u64);

/// One line: key, window, probable lower and upper bounds, level (its index in
/// `MPC_LEVELS`, from the percent), nodes.
fn parse_line(line: &str) -> Option<CheckLine> {
    let f: Vec<&str> = line.split_whitespace().collect();
    let [key, window, lower, upper, percent, nodes] = f[..] else {
        return None;
    };
    let bounds = (lower.parse().ok()?, upper.parse().ok()?);
    if !(-64..=64).contains(&bounds.0) || !(-64..=64).contains(&bounds.1) {
        return None;
    }
    let level = Level::parse(percent).ok()?.probcut_index()?;
    Some((
        parse_key(key)?,
        Window::parse(window).ok()?,
        bounds,
        level,
        nodes.parse().ok()?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_lines_read_back_and_bad_ones_are_refused() {
        let w = Window::new(-1, 0).unwrap();
        assert_eq!(
            parse_line("00000000000000ff -1,0 -64 -2 73 1234"),
            Some((255, w, (-64, -2), 0, 1234))
        );
        assert_eq!(
            parse_line("00000000000000ff -1,0 0 64 87 5"),
            Some((255, w, (0, 64), 1, 5))
        );
        assert_eq!(parse_line("00000000000000ff -1,0 -64 -2 100 1"), None);
        assert_eq!(parse_line("00000000000000ff -1,0 -64 -2 80 1"), None);
        assert_eq!(parse_line("00000000000000ff -1,0 -64 -2 73"), None);
        assert_eq!(parse_line("00000000000000ff -1,0 -66 -2 73 1"), None);
        assert_eq!(parse_line("zz -1,0 -64 -2 73 1"), None);
    }
}
