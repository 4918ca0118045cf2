//! A proof's work folder: what it proves (`prove.txt`), the leaves of each round
//! (`round-001.obf`, lines that give their windows, with their moves from the root in a
//! comment), the rows that solve them (every `*.csv` in the folder, wherever they ran),
//! and the tree the last plan expanded (`tree.txt`), from which a check re-derives the
//! bounds. Every file is written beside its name and renamed over it once whole.

use super::plan::Leaf;
use crate::board::key::position_key;
use crate::board::{Position, Square, parse_obf_line};
use crate::durable::{Access, Existing, Replacement};
use crate::error::{Error, ProveError, Result};
use crate::search::Window;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What a folder proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The position.
    pub root: Position,
    /// Leaves have at most this many empties.
    pub frontier: u32,
    /// The window asked: the full one for an exact value.
    pub window: Window,
}

/// A work folder.
pub struct Folder {
    dir: PathBuf,
}

/// The description file's name.
const SPEC: &str = "prove.txt";
/// The tree file's name.
const TREE: &str = "tree.txt";
/// The root prediction's file name.
const PREDICTION: &str = "prediction.txt";
/// The leaves' probable checks' file name.
const CHECKS: &str = "checks.txt";

/// The root's predicted score, by a selective solve: it aims the first goals and proves
/// nothing. Kept in the folder so that a resumed run does not search it again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prediction {
    /// The probable score, in discs.
    pub score: i32,
    /// The selectivity of the solve, in percent.
    pub percent: u8,
    /// Its nodes.
    pub nodes: u64,
}

impl Folder {
    /// Whether `dir` holds a proof's description (a folder `finale prove` made).
    pub fn holds_proof(dir: &Path) -> bool {
        dir.join(SPEC).is_file()
    }

    /// Opens `dir` for the proof `asked`: creates it and its description when new; else
    /// reads the description and refuses a proof of another position, frontier or
    /// window. With `asked` none (a check, a resume without its arguments), the folder's
    /// own description is the proof.
    pub fn open(dir: &Path, asked: Option<Spec>) -> Result<(Folder, Spec)> {
        let folder = Folder {
            dir: dir.to_path_buf(),
        };
        let path = folder.path(SPEC);
        if !path.exists() {
            let Some(spec) = asked else {
                return Err(ProveError::NoPosition(dir.to_path_buf()).into());
            };
            std::fs::create_dir_all(dir).map_err(|source| Error::Write {
                path: dir.to_path_buf(),
                source,
            })?;
            folder.replace(&path, &spec_text(&spec))?;
            return Ok((folder, spec));
        }
        let found = read_spec(&path)?;
        if let Some(spec) = asked {
            let differs = |field, found: String, asked: String| {
                Err(ProveError::OtherProof {
                    path: path.clone(),
                    field,
                    found,
                    asked,
                }
                .into())
            };
            if spec.root != found.root {
                return differs(
                    "root",
                    position_text(&found.root),
                    position_text(&spec.root),
                );
            }
            if spec.frontier != found.frontier {
                return differs(
                    "frontier",
                    found.frontier.to_string(),
                    spec.frontier.to_string(),
                );
            }
            if spec.window != found.window {
                return differs("window", found.window.to_string(), spec.window.to_string());
            }
        }
        Ok((folder, found))
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Writes `text` as the file `path`, whole or not at all.
    fn replace(&self, path: &Path, text: &str) -> Result<()> {
        let write = |source| Error::Write {
            path: path.to_path_buf(),
            source,
        };
        let mut tmp = Replacement::beside(path, ".finale-prove-", Access::Plain).map_err(write)?;
        tmp.write_all(text.as_bytes()).map_err(write)?;
        tmp.commit(Existing::Replace).map_err(|e| write(e.source))
    }

    /// The folder's files ending in `suffix`, by name.
    fn files(&self, suffix: &str) -> Result<Vec<PathBuf>> {
        let entries = std::fs::read_dir(&self.dir).map_err(|source| Error::Io {
            path: self.dir.clone(),
            source,
        })?;
        let mut found: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.ends_with(suffix) && !n.starts_with('.'))
            })
            .collect();
        found.sort();
        Ok(found)
    }

    /// The file of the leaves' probable checks.
    pub fn checks_path(&self) -> PathBuf {
        self.path(CHECKS)
    }

    /// Every CSV of leaf rows.
    pub fn csvs(&self) -> Result<Vec<PathBuf>> {
        self.files(".csv")
    }

    /// The round files, in order.
    pub fn rounds(&self) -> Result<Vec<PathBuf>> {
        Ok(self
            .files(".obf")?
            .into_iter()
            .filter(|p| round_number(p).is_some())
            .collect())
    }

    /// The round file and rows of round `n`.
    pub fn round_paths(&self, n: usize) -> (PathBuf, PathBuf) {
        (
            self.path(&format!("round-{n:03}.obf")),
            self.path(&format!("round-{n:03}.csv")),
        )
    }

    /// The round that solves `leaves`: the last one when it holds them all (a resumed
    /// round), else a new one written with them. Returns its number and whether it is new.
    pub fn round_for(&self, leaves: &[Leaf]) -> Result<(usize, bool)> {
        let rounds = self.rounds()?;
        if let Some(last) = rounds.last() {
            let n = round_number(last).unwrap_or(0);
            let held = read_leaves(last)?;
            let has = |l: &Leaf| {
                held.iter().any(|h| {
                    position_key(&h.position) == position_key(&l.position) && h.window == l.window
                })
            };
            if leaves.iter().all(has) {
                return Ok((n, false));
            }
        }
        let n = rounds.last().and_then(|p| round_number(p)).unwrap_or(0) + 1;
        let mut text = format!(
            "% finale prove, round {n}: {} leaves, each with the window that decides it and its moves from the root\n",
            leaves.len()
        );
        for l in leaves {
            text += &format!(
                "{}; window {}; % path {}\n",
                position_text(&l.position),
                l.window,
                path_text(&l.path)
            );
        }
        self.replace(&self.round_paths(n).0, &text)?;
        Ok((n, true))
    }

    /// The root's prediction, when a run recorded one.
    pub fn read_prediction(&self) -> Result<Option<Prediction>> {
        let path = self.path(PREDICTION);
        if !path.exists() {
            return Ok(None);
        }
        let text = read_text(&path)?;
        let line = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('%'))
            .unwrap_or("");
        let words: Vec<&str> = line.split_whitespace().collect();
        let number = |i: usize| words.get(i).and_then(|w| w.parse::<i64>().ok());
        match (words.as_slice(), number(1), number(3), number(5)) {
            ([_, _, _, _, _, _], Some(score), Some(percent), Some(nodes))
                if words[0] == "score" && words[2] == "percent" && words[4] == "nodes" =>
            {
                Ok(Some(Prediction {
                    score: score.clamp(-64, 64) as i32,
                    percent: percent.clamp(0, 100) as u8,
                    nodes: nodes.max(0) as u64,
                }))
            }
            _ => Err(damaged(&path, 1, "not 'score S percent P nodes N'")),
        }
    }

    /// Records the root's prediction.
    pub fn write_prediction(&self, p: Prediction) -> Result<()> {
        let text = format!(
            "% finale prove: the root's score predicted by a selective solve (it aims the first goals, it proves nothing)\nscore {} percent {} nodes {}\n",
            p.score, p.percent, p.nodes
        );
        self.replace(&self.path(PREDICTION), &text)
    }

    /// Records the tree the last plan expanded.
    pub fn write_tree(&self, tree: &[Vec<Square>]) -> Result<()> {
        let mut lines: Vec<String> = tree.iter().map(|p| path_text(p)).collect();
        lines.sort();
        lines.dedup();
        let mut text = String::from(
            "% finale prove: the positions the last plan expanded, by their moves from the root (. the root)\n",
        );
        for l in lines {
            text += &l;
            text.push('\n');
        }
        self.replace(&self.path(TREE), &text)
    }

    /// The positions of the tree file, by their moves from the root.
    pub fn read_tree(&self) -> Result<Vec<Vec<Square>>> {
        let path = self.path(TREE);
        let text = read_text(&path)?;
        let mut tree = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('%') {
                continue;
            }
            tree.push(parse_path(line).ok_or_else(|| damaged(&path, i + 1, "not a path"))?);
        }
        Ok(tree)
    }
}

/// The leaves of a round file.
pub fn read_leaves(path: &Path) -> Result<Vec<Leaf>> {
    let text = read_text(path)?;
    let mut leaves = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let bad = |what: &str| damaged(path, i + 1, what);
        let Some(record) = parse_obf_line(line).map_err(|e| bad(&e.to_string()))? else {
            continue;
        };
        let window = record
            .window
            .and_then(|(a, b)| Window::new(a, b).ok())
            .ok_or_else(|| bad("a leaf without a window"))?;
        let moves = line
            .split_once("% path")
            .and_then(|(_, p)| parse_path(p.trim()))
            .ok_or_else(|| bad("a leaf without its path"))?;
        leaves.push(Leaf {
            position: record.position,
            window,
            path: moves,
        });
    }
    Ok(leaves)
}

fn read_text(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

fn damaged(path: &Path, line: usize, what: &str) -> Error {
    ProveError::Damaged {
        path: path.to_path_buf(),
        line,
        what: what.to_string(),
    }
    .into()
}

/// The number of a round file `round-007.obf`.
fn round_number(path: &Path) -> Option<usize> {
    let name = path.file_name()?.to_str()?;
    name.strip_prefix("round-")?
        .strip_suffix(".obf")?
        .parse()
        .ok()
}

/// A position as the first fields of an OBF line.
fn position_text(p: &Position) -> String {
    format!("{} {}", p.squares_string(), p.side.letter())
}

/// Moves as `F5 D6 C3`, `.` for none.
fn path_text(path: &[Square]) -> String {
    if path.is_empty() {
        return ".".into();
    }
    path.iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The moves of [`path_text`].
fn parse_path(text: &str) -> Option<Vec<Square>> {
    if text == "." {
        return Some(Vec::new());
    }
    text.split_whitespace().map(Square::parse).collect()
}

fn spec_text(s: &Spec) -> String {
    format!(
        "% finale prove: the work folder of one proof\nroot {}\nfrontier {}\nwindow {}\n",
        position_text(&s.root),
        s.frontier,
        s.window
    )
}

fn read_spec(path: &Path) -> Result<Spec> {
    let text = read_text(path)?;
    let (mut root, mut frontier, mut window) = (None, None, None);
    for (i, line) in text.lines().enumerate() {
        let bad = |what: &str| damaged(path, i + 1, what);
        let line = line.trim();
        if line.is_empty() || line.starts_with('%') {
            continue;
        }
        let (field, value) = line
            .split_once(' ')
            .ok_or_else(|| bad("not 'field value'"))?;
        match field {
            "root" => {
                let (squares, side) = value.split_once(' ').ok_or_else(|| bad("not a position"))?;
                root = Some(
                    Position::from_squares(squares, side).ok_or_else(|| bad("not a position"))?,
                );
            }
            "frontier" => frontier = Some(value.parse().map_err(|_| bad("not a number"))?),
            "window" => {
                let (a, b) = value.split_once(',').ok_or_else(|| bad("not a window"))?;
                let (a, b) = (a.parse(), b.parse());
                window = match (a, b) {
                    (Ok(a), Ok(b)) => Some(Window::new(a, b).map_err(|e| bad(&e.to_string()))?),
                    _ => return Err(bad("not a window")),
                };
            }
            _ => return Err(bad("unknown field")),
        }
    }
    match (root, frontier, window) {
        (Some(root), Some(frontier), Some(window)) => Ok(Spec {
            root,
            frontier,
            window,
        }),
        _ => Err(damaged(path, 1, "needs root, frontier and window")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder's description and round files read back as written; another proof in it
    /// is refused.
    #[test]
    fn a_folder_reads_back_what_it_wrote() {
        let dir = tempfile::tempdir().unwrap();
        let root = crate::board::parse_moves("f5d6c3d3c4").unwrap();
        let spec = Spec {
            root,
            frontier: 50,
            window: Window::new(-1, 1).unwrap(),
        };
        let (folder, got) = Folder::open(dir.path(), Some(spec)).unwrap();
        assert_eq!(got, spec);
        assert_eq!(Folder::open(dir.path(), None).unwrap().1, spec);
        let other = Spec {
            frontier: 49,
            ..spec
        };
        let err = Folder::open(dir.path(), Some(other))
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("proves frontier 50, this command asks 49"),
            "{err}"
        );
        let sq = |t: &str| Square::parse(t).unwrap();
        let leaf = Leaf {
            position: root.play(sq("F4")).unwrap(),
            window: Window::new(-1, 0).unwrap(),
            path: vec![sq("F4")],
        };
        assert_eq!(
            folder.round_for(std::slice::from_ref(&leaf)).unwrap(),
            (1, true)
        );
        assert_eq!(
            folder.round_for(std::slice::from_ref(&leaf)).unwrap(),
            (1, false)
        );
        assert_eq!(
            read_leaves(&folder.round_paths(1).0).unwrap(),
            vec![leaf.clone()]
        );
        folder.write_tree(&[vec![], vec![sq("F4")]]).unwrap();
        assert_eq!(folder.read_tree().unwrap(), vec![vec![], vec![sq("F4")]]);
    }
}
