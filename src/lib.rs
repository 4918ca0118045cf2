//! finale: an exact Othello endgame solver and benchmark harness.
//!
//! The library holds everything; the `finale` binary is a thin command-line layer.
//!
//! ```
//! use finale::{Board, search::{Mode, Solver, SolverOptions}};
//! let board = finale::board::parse_position(
//!     "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X", "doc",
//! ).unwrap().position.board;
//! let mut solver = Solver::new(SolverOptions { hash_mb: 16, ..Default::default() });
//! let r = solver.solve(board, Mode::Exact);
//! assert_eq!(r.score, 18); // FFO #1: G8 wins by 18
//! ```

pub mod batch;
pub mod board;
pub mod commands;
pub mod durable;
pub mod engines;
pub mod error;
pub mod eval;
pub mod games;
pub mod interrupt;
pub mod progress;
pub mod prove;
pub mod results;
pub mod search;
pub mod settings;
pub mod train;

pub use board::{Bitboard, Board, Color, Position, Square};
pub use error::{Error, Result};
