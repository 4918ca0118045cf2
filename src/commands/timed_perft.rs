//! The `perft` command: leaf counts from the start position, timed.

use crate::board::{Board, perft};
use crate::error::{Error, RequestError, Result};
use std::io::Write;
use std::time::Instant;

/// Deepest perft accepted: depth 14 already takes minutes (depth 12 has 1.9e9 leaves).
pub const MAX_PERFT_DEPTH: u32 = 14;

/// Counts the leaves `depth` plies below the start position and prints the count and time.
pub fn run_perft(depth: u32, out: &mut impl Write) -> Result<u64> {
    if depth > MAX_PERFT_DEPTH {
        return Err(RequestError::PerftDepth {
            depth,
            max: MAX_PERFT_DEPTH,
        }
        .into());
    }
    let start = Instant::now();
    let leaves = perft(Board::START, depth);
    let secs = start.elapsed().as_secs_f64();
    writeln!(out, "perft {depth}: {leaves} leaves in {secs:.3} s")
        .and_then(|()| out.flush())
        .map_err(Error::Output)?;
    Ok(leaves)
}
