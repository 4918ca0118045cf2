//! Overnight batches: resumable, sharded solving of many positions into one CSV, and the
//! merging of several such CSVs.

/// Position keys (they live with the board; here for the batch's callers).
pub use crate::board::key;
pub mod merge;
pub mod output;
pub mod row_check;
pub mod run;
pub mod shard;

pub use crate::error::BatchError;
pub use key::{key_hex, position_key};
pub use merge::{MergeSummary, run_merge};
pub use output::BatchOut;
pub use run::{BatchOptions, BatchSummary, run_batch};
pub use shard::Shard;
