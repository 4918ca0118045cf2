//! The symmetry reduction: a pattern reads a board and its mirror image into two indices
//! that the training gives one weight, so of each phase only the weights of canonical
//! indices are stored and the reader copies each to its mirror images. This build knows
//! the mirrors of its own pattern sets only; weights of any other shape are stored whole.

use super::WeightFileError;
use crate::eval::mobility::{MOBILITY_SET, PER_PHASE_MOBILITY, canonical_indices_with_mobility};
use crate::eval::pattern::{PATTERN_SET, PER_PHASE, canonical_indices};
use std::sync::OnceLock;

/// For a pattern set and its weights per phase, the index whose weight each index
/// shares ([`canonical_indices`]), or `None` when every weight is stored. A map has
/// `per_phase` entries; entry `i` is at most `i` and an index that maps to itself.
/// A parameter of reading and writing so that tests can tie small pattern sets.
pub(super) type Ties = fn(u32, u32) -> Option<&'static [u32]>;

/// The mirrors this build knows: those of its own pattern set, with and without the
/// mobility tables.
pub(super) fn build_ties(pattern_set: u32, per_phase: u32) -> Option<&'static [u32]> {
    static CANON: OnceLock<Vec<u32>> = OnceLock::new();
    static CANON_MOBILITY: OnceLock<Vec<u32>> = OnceLock::new();
    match (pattern_set, per_phase as usize) {
        (PATTERN_SET, PER_PHASE) => Some(CANON.get_or_init(canonical_indices).as_slice()),
        (MOBILITY_SET, PER_PHASE_MOBILITY) => Some(
            CANON_MOBILITY
                .get_or_init(canonical_indices_with_mobility)
                .as_slice(),
        ),
        _ => None,
    }
}

/// Weights a phase stores under the ties `canon`: one per canonical index.
pub(super) fn kept_per_phase(canon: &[u32]) -> usize {
    canon
        .iter()
        .enumerate()
        .filter(|&(i, &c)| c as usize == i)
        .count()
}

/// The weights of canonical indices, phase by phase, or the first weight that differs
/// from its canonical index's. `weights` fills whole phases of `canon.len()`.
pub(super) fn reduce(
    weights: &[i16],
    canon: &[u32],
    origin: &str,
) -> Result<Vec<i16>, WeightFileError> {
    let mut kept = Vec::with_capacity(weights.len() / canon.len() * kept_per_phase(canon));
    for (phase, w) in weights.chunks_exact(canon.len()).enumerate() {
        for (index, (&value, &c)) in w.iter().zip(canon).enumerate() {
            let mirror = c as usize;
            if mirror == index {
                kept.push(value);
            } else if w[mirror] != value {
                return Err(WeightFileError::Untied {
                    origin: origin.to_owned(),
                    phase,
                    index,
                    value,
                    mirror,
                    mirror_value: w[mirror],
                });
            }
        }
    }
    Ok(kept)
}

/// The whole table of `phases` back from the weights [`reduce`] kept, which are
/// `kept_per_phase(canon)` a phase: an index whose canonical index is smaller
/// copies that one's weight, already in place.
pub(super) fn expand(stored: &[i16], phases: usize, canon: &[u32]) -> Vec<i16> {
    let mut weights = Vec::with_capacity(phases * canon.len());
    let mut stored = stored.iter();
    for _ in 0..phases {
        let base = weights.len();
        for (i, &c) in canon.iter().enumerate() {
            let w = match c as usize {
                c if c == i => stored.next().copied().unwrap_or_default(),
                c => weights[base + c],
            };
            weights.push(w);
        }
    }
    weights
}
