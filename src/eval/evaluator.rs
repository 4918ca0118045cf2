//! The evaluator: the weights of every phase and the sum of a board's pattern weights.

use super::incremental::FeatureState;
use super::pattern::{FEATURES, PATTERN_SET, PER_PHASE, PHASES, bias, features, phase};
use super::weights_file::{WeightFile, WeightFileError};
use crate::board::Board;
use std::path::Path;
use std::sync::OnceLock;

/// Evaluation units per disc of final score: weights are fractions of a disc.
pub const UNITS_PER_DISC: i32 = 128;

/// The weight file shipped in the repository (weights/eval.bin), built into the binary so
/// that it runs anywhere without the repository.
static SHIPPED: &[u8] = include_bytes!("../../weights/eval.bin");

/// Why a weight file cannot be used by this build.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// The file could not be read or is corrupt.
    #[error(transparent)]
    File(#[from] WeightFileError),
    /// The file is sound but made for another pattern set or phase count.
    #[error(
        "{origin}: weights for pattern set {found_set} ({found_phases} phases x {found_per_phase}), this build needs set {PATTERN_SET} ({PHASES} x {PER_PHASE})"
    )]
    Mismatch {
        /// Where the weights came from.
        origin: String,
        /// The file's pattern set.
        found_set: u32,
        /// The file's phase count.
        found_phases: u32,
        /// The file's weights per phase.
        found_per_phase: u32,
    },
}

/// A pattern evaluation with its weights.
pub struct Evaluator {
    weights: Vec<i16>,
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
        if file.pattern_set != PATTERN_SET
            || file.phases as usize != PHASES
            || file.per_phase as usize != PER_PHASE
        {
            return Err(EvalError::Mismatch {
                origin: origin.to_string(),
                found_set: file.pattern_set,
                found_phases: file.phases,
                found_per_phase: file.per_phase,
            });
        }
        Ok(Evaluator {
            weights: file.weights,
            checksum,
            meta: file.meta,
        })
    }

    /// Weights made in memory (training): `weights` holds `PHASES * PER_PHASE` values.
    pub fn from_weights(weights: Vec<i16>) -> Evaluator {
        assert_eq!(weights.len(), PHASES * PER_PHASE);
        Evaluator {
            weights,
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

    /// Every weight, phase by phase.
    pub fn weights(&self) -> &[i16] {
        &self.weights
    }

    /// Estimated final disc difference of `b` for the side to move, in
    /// [`UNITS_PER_DISC`] units. The board should not be over (the caller scores those).
    #[inline]
    pub fn evaluate(&self, b: &Board) -> i32 {
        let mut f = [0u32; FEATURES];
        features(b, &mut f);
        self.evaluate_features(&f, b.empty_count())
    }

    /// [`Evaluator::evaluate`] of the board with `empties` empty squares whose pattern
    /// indices (as [`features`] reads them) are `f`.
    #[inline]
    pub fn evaluate_features(&self, f: &[u32; FEATURES], empties: u32) -> i32 {
        let w = &self.weights[phase(empties) * PER_PHASE..][..PER_PHASE];
        let mut sum = w[bias(empties)] as i32;
        for &i in f {
            sum += w[i as usize] as i32;
        }
        sum
    }

    /// [`Evaluator::evaluate`] of the board whose state is `s` and which has `empties`
    /// empty squares: a sum of weights, the indices being up to date.
    #[inline]
    pub fn evaluate_incremental(&self, s: &FeatureState, empties: u32) -> i32 {
        self.evaluate_features(s.indices(), empties)
    }
}
