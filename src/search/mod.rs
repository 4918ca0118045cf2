//! Exact endgame search: negamax alpha-beta in depth bands.
//!
//! | empties | band | file |
//! |---|---|---|
//! | 0-4 | specialised solvers | `last.rs` |
//! | 5..=`SHALLOW_MAX_EMPTIES` | no table, parity order | `shallow.rs` |
//! | above | table, ETC, stability, fastest-first, PVS | `endgame.rs` |
//!
//! The root (`root.rs`) runs the requested mode and extracts the principal variation.
//! `evaluated.rs` is the shallow evaluated search (a few moves deep, the pattern
//! evaluation at its leaves) that orders deep moves, decides probcut and labels training
//! positions.

pub mod account;
mod answer;
mod busy;
mod endgame;
mod entry;
mod etc;
mod evaluated;
mod last;
mod level;
mod move_list;
mod node_type;
mod options;
pub mod ordering;
mod parallel;
mod passes;
mod pool;
mod probcut;
mod pv;
mod root;
mod shallow;
mod solver;
pub mod span;
mod split_point;
pub mod stability;
mod start_error;
mod state;
mod table;
mod threads;

pub use answer::{Mode, PASS_PV_MOVES, PassReport, PvMove, SolveResult, TimedOut, Wld};
pub use evaluated::{evaluated_value, evaluated_value_on};
pub use level::Level;
pub use options::{EvalRef, ProbcutT, SearchOptions};
pub use probcut::{mpc_error, mpc_planes};
pub use solver::{Solver, SolverOptions};
pub use start_error::StartError;
pub use table::TranspositionTable;
pub use threads::Threads;
pub use threads::{cores, search_threads};
