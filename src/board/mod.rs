//! Bitboards, squares, move generation, flips and parsing.

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
pub mod error;
pub mod kernels;
pub mod key;
pub mod last_flip;
pub mod moves;
pub mod parse;
pub mod perft;
pub mod position;
pub mod random;
mod rays;
pub mod square;

pub use error::{KernelsError, MovesError, ObfError, ReadError};
pub use parse::{ObfReader, ObfRecord, parse_moves, parse_obf_line, parse_position, read_obf_file};
pub use perft::perft;
pub use position::{Board, Color, Position};
pub use square::{Bitboard, Square};
