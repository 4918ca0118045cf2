//! Exact endgame search: negamax alpha-beta in depth bands.
//!
//! | empties | band | file |
//! |---|---|---|
//! | 0-4 | specialised solvers | `last.rs` |
//! | 5..=`SHALLOW_MAX_EMPTIES` | no table, parity order | `shallow.rs` |
//! | above | table, ETC, stability, fastest-first, PVS | `endgame.rs` |
//!
//! The root (`root/`) runs the requested mode (exact, wld, every move, or a window) and
//! extracts the principal variation.
//! `evaluated.rs` is the shallow evaluated search (a few moves deep, the pattern
//! evaluation at its leaves) that orders deep moves, decides probcut and labels training
//! positions.

mod endgame;
mod error;
mod etc;
mod evaluated;
mod kernel_dispatch;
mod last;
pub mod measure;
mod move_list;
mod options;
pub mod ordering;
mod parallel;
mod root;
mod selectivity;
mod shallow;
mod solver;
pub mod stability;
mod state;
mod stop;
mod table;

pub use error::{StartError, TableFileError, WindowError};
pub use evaluated::{evaluated_value, evaluated_value_on};
pub use options::{EvalRef, ProbcutT, SearchOptions};
pub use parallel::threads::{Threads, cores, search_threads};
pub use root::answer::{Mode, PASS_PV_MOVES, PassReport, PvMove, SolveResult, TimedOut, Wld};
pub use root::window::Window;
pub use selectivity::level::Level;
pub use selectivity::probcut::{mpc_error, mpc_planes};
pub use solver::{Solver, SolverOptions, TABLE_TEMP_PREFIX, TableSaves};
pub use table::{SavedTable, TranspositionTable, deep_hash_mb, deep_hash_mb_within};
