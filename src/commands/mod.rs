//! The library side of each `finale` subcommand, one module per command: [`solve`],
//! [`suite`] (with its [`variant`]s, which may be other engines from [`crate::engines`]),
//! [`bench`](mod@bench), [`evaluate`] (`finale eval`), [`compare`], [`report`],
//! [`calibrate`], [`generate`], [`games`] (real games as positions), [`train`], [`train_mpc`] and [`timed_perft`] (`finale
//! perft`; the count itself is [`crate::board::perft()`]). Beside them what several commands share: the
//! search and thread flags ([`switches`]), the reading of run CSVs back ([`run_csv`]) and
//! of exact answers as labels ([`exact_labels`]). `finale batch` and `finale merge` live in
//! [`crate::batch`]; the CSV rows and their checks in [`crate::results`].
//!
//! Everything here is library code so that tests can drive it without a process; the
//! binary only turns flags into these modules' options.

pub mod bench;
pub mod calibrate;
pub mod compare;
pub mod evaluate;
pub mod exact_labels;
pub mod games;
pub mod generate;
pub mod report;
pub mod run_csv;
pub mod solve;
pub mod suite;
pub mod switches;
pub mod timed_perft;
pub mod train;
pub mod train_mpc;
pub mod variant;

pub use bench::{BenchSummary, run_bench};
pub use compare::{Comparison, run_compare};
pub use games::{GamesOptions, run_games};
pub use generate::run_generate;
pub use report::run_report;
pub use solve::{SolveInput, SolveOutcome, SolveSettings, run_solve};
pub use suite::{SuiteOptions, Summary, run_suite};
pub use switches::{SearchSwitches, ThreadSwitches};
pub use timed_perft::{MAX_PERFT_DEPTH, run_perft};
pub use variant::{Variant, VariantKind};
