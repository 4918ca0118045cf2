//! Why a weight file cannot be used by this build.

use super::mobility::{MOBILITY_SET, PER_PHASE_MOBILITY};
use super::pattern::{PATTERN_SET, PER_PHASE, PHASES};
use super::weights_file::WeightFileError;

/// Why a weight file cannot be used by this build.
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// The file could not be read or is corrupt.
    #[error(transparent)]
    File(#[from] WeightFileError),
    /// The file is sound but made for another pattern set or phase count.
    #[error(
        "{origin}: weights for pattern set {found_set} ({found_phases} phases x {found_per_phase}), this build needs set {PATTERN_SET} ({PHASES} x {PER_PHASE}) or {MOBILITY_SET} ({PHASES} x {PER_PHASE_MOBILITY})"
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
