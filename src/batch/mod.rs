//! Overnight batches: resumable, sharded solving (or labelling by a depth-limited search)
//! of many positions into one CSV, and the merging of several such CSVs.

pub mod bounds;
mod depth_label;
mod input;
pub mod merge;
mod options;
pub mod output;
mod resume;
pub mod row_check;
pub mod run;
pub mod shard;
mod summary;
mod worker;

pub use merge::{MergeSummary, run_merge};
pub use options::{BatchOptions, MAX_LABEL_DEPTH, label_mode};
pub use output::BatchOut;
pub use run::run_batch;
pub use shard::Shard;
pub use summary::BatchSummary;
