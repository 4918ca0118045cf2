//! The Edax adapter: `edax -solve FILE.obf -n THREADS -h HASH_BITS -l 60`, run in its own
//! directory (where it finds its evaluation data).
//!
//! Its result table has a row per position, ` 1|   20   +18     0:00.012   123456
//! 10288000  G8 H7 ...`: number, depth, score, time, nodes, speed, principal variation.

use super::output::{EngineAnswer, clock_time, engine_line, engine_score, version_in};
use crate::board::Position;
use std::path::Path;
use std::process::Command;

/// Bytes assumed per table entry, for `-h BITS` (2^BITS entries): a 64-bit key and
/// 64 bits of data.
pub const ENTRY_BYTES: u64 = 16;

/// The OBF file of one position.
pub fn obf(position: &Position) -> String {
    format!("{position};\n")
}

/// The command solving the positions of `obf`.
pub fn command(bin: &Path, obf: &Path, threads: usize, hash_bits: u32) -> Command {
    super::process::solve_command(bin, obf, ("-n", threads), ("-h", hash_bits))
}

/// Reads the last result row of `stdout`.
pub fn parse(stdout: &str) -> Result<EngineAnswer, String> {
    let row = stdout
        .lines()
        .rev()
        .filter_map(|l| {
            let (number, rest) = l.split_once('|')?;
            let number = number.trim();
            (!number.is_empty() && number.bytes().all(|b| b.is_ascii_digit())).then_some(rest)
        })
        .next()
        .ok_or("no result row ('N|  depth  score  time  nodes ...') on stdout")?;
    let words: Vec<&str> = row.split_whitespace().collect();
    let bad = |what: &str| format!("result row '{}': bad {what}", row.trim());
    let score = words
        .get(1)
        .and_then(|w| engine_score(w))
        .ok_or_else(|| bad("score"))?;
    let time = words
        .get(2)
        .and_then(|w| clock_time(w))
        .ok_or_else(|| bad("time"))?;
    let nodes = words
        .get(3)
        .and_then(|w| w.parse::<u64>().ok())
        .ok_or_else(|| bad("nodes"))?;
    Ok(EngineAnswer {
        score,
        pv: engine_line(words.iter().skip(5).copied()),
        nodes,
        time: Some(time),
        version: version_in(stdout, "edax"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_result_row_reads() {
        let out = "Edax version 4.4\n # | depth|score|  time   |  nodes |   N/s  | principal variation\n  \
                   1|   20   +18     0:00.012   123456  10288000  G8 H7 a8\n";
        let a = parse(out).expect("reads");
        assert_eq!((a.score, a.nodes, a.pv.len()), (18, 123_456, 3));
        assert_eq!(a.time, Some(Duration::from_millis(12)));
        assert_eq!(a.version.as_deref(), Some("4.4"));
        assert!(parse("nothing\n").is_err());
        assert!(parse(" 1|   20   +x18  0:00.012  5 5 G8\n").is_err());
    }
}
