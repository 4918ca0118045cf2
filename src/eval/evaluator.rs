//! The evaluator: the weights of every phase and the sum of a board's pattern weights.

use super::error::EvalError;
use super::incremental::FeatureState;
use super::mobility::{
    MOBILITY_SET, MOBILITY_TABLES, MOBILITY_WEIGHTS, PER_PHASE_MOBILITY, mobility_indices,
};
use super::pattern::{FEATURES, PATTERN_SET, PER_PHASE, PHASES, bias, features, phase};
use super::weights_file::WeightFile;
use crate::board::Board;
use std::path::Path;
use std::sync::OnceLock;

/// Evaluation units per disc of final score: weights are fractions of a disc.
pub const UNITS_PER_DISC: i32 = 128;

/// The weight file shipped in the repository (weights/eval.bin), built into the binary so
/// that it runs anywhere without the repository.
static SHIPPED: &[u8] = include_bytes!("../../weights/eval.bin");

/// A pattern evaluation with its weights.
pub struct Evaluator {
    /// The patterns' weights and biases, `PER_PHASE` a phase.
    weights: Vec<i16>,
    /// The mobility tables, `MOBILITY_WEIGHTS` a phase, if the weights have them
    /// ([`MOBILITY_SET`]).
    mobility: Option<Vec<i16>>,
    checksum: u32,
    meta: String,
}

impl std::fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Evaluator(weights {:08x})", self.checksum)
    }
}

impl Evaluator {
    /// Uses the weights of a file's bytes, checked to match this build's patterns;
    /// `origin` names them in errors.
    pub fn from_bytes(bytes: &[u8], origin: &str) -> Result<Evaluator, EvalError> {
        let (file, checksum) = WeightFile::from_bytes(bytes, origin)?;
        Evaluator::from_file(file, checksum, origin)
    }

    fn from_file(file: WeightFile, checksum: u32, origin: &str) -> Result<Evaluator, EvalError> {
        let shape = (
            file.pattern_set,
            file.phases as usize,
            file.per_phase as usize,
        );
        if shape != (PATTERN_SET, PHASES, PER_PHASE)
            && shape != (MOBILITY_SET, PHASES, PER_PHASE_MOBILITY)
        {
            return Err(EvalError::Mismatch {
                origin: origin.to_string(),
                found_set: file.pattern_set,
                found_phases: file.phases,
                found_per_phase: file.per_phase,
            });
        }
        let mut e = Evaluator::from_weights(file.weights);
        e.checksum = checksum;
        e.meta = file.meta;
        Ok(e)
    }

    /// Weights made in memory (training): `weights` holds `PHASES * PER_PHASE` values
    /// ([`PATTERN_SET`]) or `PHASES * PER_PHASE_MOBILITY` ([`MOBILITY_SET`]).
    pub fn from_weights(weights: Vec<i16>) -> Evaluator {
        let (weights, mobility) = if weights.len() == PHASES * PER_PHASE_MOBILITY {
            let (mut patterns, mut tables) = (Vec::new(), Vec::new());
            for phase in weights.chunks(PER_PHASE_MOBILITY) {
                patterns.extend_from_slice(&phase[..PER_PHASE]);
                tables.extend_from_slice(&phase[PER_PHASE..]);
            }
            (patterns, Some(tables))
        } else {
            assert_eq!(weights.len(), PHASES * PER_PHASE);
            (weights, None)
        };
        Evaluator {
            weights,
            mobility,
            checksum: 0,
            meta: String::from("in memory"),
        }
    }

    /// Loads a weight file.
    pub fn load(path: &Path) -> Result<Evaluator, EvalError> {
        let (file, checksum) = WeightFile::load(path)?;
        Evaluator::from_file(file, checksum, &path.display().to_string())
    }

    /// The shipped weights, decoded once per process.
    pub fn shipped() -> Result<&'static Evaluator, &'static EvalError> {
        Self::shipped_shared().map(|e| &**e)
    }

    /// [`Evaluator::shipped`] as a shared handle, for [`crate::search::EvalRef`].
    pub fn shipped_shared() -> Result<&'static std::sync::Arc<Evaluator>, &'static EvalError> {
        static EVAL: OnceLock<Result<std::sync::Arc<Evaluator>, EvalError>> = OnceLock::new();
        EVAL.get_or_init(|| {
            Evaluator::from_bytes(SHIPPED, "built-in weights/eval.bin").map(std::sync::Arc::new)
        })
        .as_ref()
    }

    /// The CRC32 stored in the weight file, a short identity of the weights (0 when made
    /// in memory).
    pub fn checksum(&self) -> u32 {
        self.checksum
    }

    /// How the weights were made, as recorded in the file.
    pub fn meta(&self) -> &str {
        &self.meta
    }

    /// The patterns' weights and biases, phase by phase.
    pub fn weights(&self) -> &[i16] {
        &self.weights
    }

    /// Whether the weights have mobility tables: then a leaf needs the board itself, not
    /// only its pattern indices ([`Evaluator::evaluate_leaf`]).
    #[inline]
    pub fn has_mobility(&self) -> bool {
        self.mobility.is_some()
    }

    /// The mobility tables' share of the evaluation of a board with `empties` empty
    /// squares whose table indices are `m` (0 without tables).
    #[inline]
    pub fn mobility_term(&self, m: &[u32; MOBILITY_TABLES], empties: u32) -> i32 {
        match &self.mobility {
            Some(t) => {
                let t = &t[phase(empties) * MOBILITY_WEIGHTS..][..MOBILITY_WEIGHTS];
                m.iter().map(|&i| t[i as usize] as i32).sum()
            }
            None => 0,
        }
    }

    /// Estimated final disc difference of `b` for the side to move, in
    /// [`UNITS_PER_DISC`] units. The board should not be over (the caller scores those).
    #[inline]
    pub fn evaluate(&self, b: &Board) -> i32 {
        let mut f = [0u32; FEATURES];
        features(b, &mut f);
        let n = b.empty_count();
        let v = self.evaluate_features(&f, n);
        if self.has_mobility() {
            v + self.mobility_term(&mobility_indices(b), n)
        } else {
            v
        }
    }

    /// The patterns' share of [`Evaluator::evaluate`] (all of it without mobility tables)
    /// of the board with `empties` empty squares whose pattern indices (as [`features`]
    /// reads them) are `f`.
    #[inline]
    pub fn evaluate_features(&self, f: &[u32; FEATURES], empties: u32) -> i32 {
        let w = &self.weights[phase(empties) * PER_PHASE..][..PER_PHASE];
        let mut sum = w[bias(empties)] as i32;
        for &i in f {
            sum += w[i as usize] as i32;
        }
        sum
    }

    /// [`Evaluator::evaluate`] of `b` whose pattern indices are `f`, its side to move
    /// having the legal moves `own` and the opponent `theirs` (read only with mobility
    /// tables; a search generates them with its own kernels).
    #[inline(always)]
    pub fn evaluate_leaf(&self, b: &Board, f: &[u32; FEATURES], own: u64, theirs: u64) -> i32 {
        let n = b.empty_count();
        let v = self.evaluate_features(f, n);
        if self.has_mobility() {
            v + self.mobility_term(&super::mobility::mobility_indices_of(b, own, theirs), n)
        } else {
            v
        }
    }

    /// [`Evaluator::evaluate`] of the board `b` whose state is `s`: a sum of weights, the
    /// indices being up to date.
    #[inline]
    pub fn evaluate_incremental(&self, s: &FeatureState, b: &Board) -> i32 {
        let n = b.empty_count();
        let v = self.evaluate_features(s.indices(), n);
        if self.has_mobility() {
            v + self.mobility_term(&mobility_indices(b), n)
        } else {
            v
        }
    }
}
