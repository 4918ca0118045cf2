//! The benchmark and command harness behind the `finale` binary: the suite runner, the
//! correctness check, the CSV, machine facts, and the `solve`, `perft` (timed, in
//! `timed_perft`; the count itself is [`crate::board::perft()`]) and `bench` commands.
//!
//! Everything here is library code so that tests can drive it without a process.

pub mod bench;
pub mod calibrate;
pub mod compare;
pub mod evaluate;
pub mod generate;
pub mod labels;
pub mod report;
pub mod run_csv;
pub mod solve;
pub mod suite;
pub mod switches;
pub mod timed_perft;
pub mod train;
pub mod train_mpc;
pub mod variant;

pub use crate::results::{
    CsvOut, CsvTarget, HEADER, MAX_HASH_MB, Row, Verdict, check, check_hash_mb, machine,
};
pub use bench::{BenchSummary, run_bench};
pub use compare::{Comparison, run_compare};
pub use generate::run_generate;
pub use report::run_report;
pub use solve::{SolveInput, SolveOutcome, SolveSettings, run_solve};
pub use suite::{SuiteOptions, Summary, run_suite};
pub use switches::{SearchSwitches, ThreadSwitches};
pub use timed_perft::{MAX_PERFT_DEPTH, run_perft};
pub use variant::{Variant, VariantKind};
