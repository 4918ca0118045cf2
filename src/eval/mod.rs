//! Pattern evaluation: a score estimate of a board from the side to move's view, trained by
//! finale itself (`finale train`), used to order moves and for multi-probcut.

mod error;
pub mod evaluator;
pub mod incremental;
pub mod mobility;
pub mod pattern;
pub mod weights_file;

pub use error::EvalError;
pub use evaluator::{Evaluator, UNITS_PER_DISC};
pub use incremental::FeatureState;
