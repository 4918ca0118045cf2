//! What the leaf rows prove: every solved row of the work folder's CSVs, intersected by
//! position, and the positions whose solve gave up at its time limit (a timeout row),
//! which the proof splits. Rows that cannot all hold stop the proof with a conflict.

use crate::batch::bounds::{Proven, read_bounds};
use crate::board::key::key_hex;
use crate::error::{ProveError, Result};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The bounds proven so far, by position key.
#[derive(Default)]
pub struct Known {
    bounds: HashMap<u64, (i32, i32)>,
    /// Positions with a timeout row.
    gave_up: HashSet<u64>,
    /// Solved rows read.
    pub rows: u64,
    /// Their nodes.
    pub nodes: u64,
    /// Their seconds.
    pub seconds: f64,
    /// The most nodes of one row.
    pub largest: u64,
}

impl Known {
    /// The rows of every CSV in `csvs`, in order.
    pub fn read(csvs: &[PathBuf]) -> Result<Known> {
        let mut known = Known::default();
        for path in csvs {
            read_bounds(path, |p| known.add(path, p))?;
        }
        Ok(known)
    }

    /// What the rows prove about the position `key`.
    pub fn get(&self, key: u64) -> Option<(i32, i32)> {
        self.bounds.get(&key).copied()
    }

    /// Positions with a row.
    pub fn positions(&self) -> usize {
        self.bounds.len()
    }

    /// Whether a solve of the position `key` gave up at its time limit: the proof goes
    /// one move deeper there instead of asking it again.
    pub fn gave_up(&self, key: u64) -> bool {
        self.gave_up.contains(&key)
    }

    /// Adds the row `p` of `path`.
    fn add(&mut self, path: &Path, p: Proven) -> Result<()> {
        self.rows += 1;
        self.nodes += p.nodes;
        self.seconds += p.seconds;
        self.largest = self.largest.max(p.nodes);
        let Some((l, u)) = p.bounds else {
            self.gave_up.insert(p.key);
            return Ok(());
        };
        let entry = self.bounds.entry(p.key).or_insert((-64, 64));
        let (lo, up) = (entry.0.max(l), entry.1.min(u));
        if lo > up {
            return Err(ProveError::Conflict {
                path: path.to_path_buf(),
                line: p.line,
                key: key_hex(p.key),
                lower: l,
                upper: u,
                known_lower: entry.0,
                known_upper: entry.1,
            }
            .into());
        }
        *entry = (lo, up);
        Ok(())
    }
}
