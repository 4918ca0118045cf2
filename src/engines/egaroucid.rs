//! The Egaroucid adapter: `Egaroucid_for_Console -solve FILE -t THREADS -hash HASH_BITS
//! -l 60`, run in its own directory (where it finds its `resources`).
//!
//! Its answer is a table row `| level | depth@% | move | score | time | nodes | nps |`,
//! e.g. `| 60 | 20@100% | g8 | +18 | 000:00:00.012 | 123456 | 10288000 |`, after a header
//! row of those names.

use super::output::{EngineAnswer, clock_time, engine_line, engine_score, version_in};
use crate::board::Position;
use std::path::Path;
use std::process::Command;

/// Bytes assumed per table entry, for `-hash BITS` (2^BITS entries).
pub const ENTRY_BYTES: u64 = 16;

/// The problem file of one position: `BOARD SIDE`.
pub fn problem(position: &Position) -> String {
    format!("{position}\n")
}

/// The command solving the positions of `file`.
pub fn command(bin: &Path, file: &Path, threads: usize, hash_bits: u32) -> Command {
    super::process::solve_command(bin, file, ("-t", threads), ("-hash", hash_bits))
}

/// Reads the last data row of the table on `stdout`.
pub fn parse(stdout: &str) -> Result<EngineAnswer, String> {
    let row: Vec<&str> = stdout
        .lines()
        .rev()
        .filter(|l| l.trim_start().starts_with('|'))
        .map(|l| l.split('|').map(str::trim).collect::<Vec<_>>())
        // Fields: "", level, depth, move, score, time, nodes, nps, "".
        .find(|f| f.len() >= 8 && f[6].bytes().all(|b| b.is_ascii_digit()) && !f[6].is_empty())
        .ok_or(
            "no result row ('| level | depth | move | score | time | nodes | nps |') on stdout",
        )?;
    let bad = |what: &str| format!("result row '{}': bad {what}", row.join(" | ").trim());
    let score = engine_score(row[4]).ok_or_else(|| bad("score"))?;
    let time = clock_time(row[5]).ok_or_else(|| bad("time"))?;
    let nodes = row[6].parse::<u64>().map_err(|_| bad("nodes"))?;
    let pv = engine_line([row[3]]);
    if pv.is_empty() {
        return Err(bad("move"));
    }
    Ok(EngineAnswer {
        score,
        pv,
        nodes,
        time: Some(time),
        version: version_in(stdout, "egaroucid"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_result_row_reads() {
        let out = "Egaroucid for Console 7.4.0\n| Level | Depth | Move | Score | Time | Nodes | NPS |\n\
                   | 60 | 20@100% | g8 | +18 | 000:00:01.500 | 123456 | 82304 |\n";
        let a = parse(out).expect("reads");
        assert_eq!((a.score, a.nodes, a.pv.len()), (18, 123_456, 1));
        assert_eq!(a.time, Some(Duration::from_millis(1500)));
        assert_eq!(a.version.as_deref(), Some("7.4.0"));
        assert!(parse("| Level | Depth | Move | Score | Time | Nodes | NPS |\n").is_err());
        assert!(parse("| 60 | 20@100% | g8 | +99 | 0:01 | 5 | 5 |\n").is_err());
    }
}
