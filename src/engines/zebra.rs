//! The Zebra adapter: Gunnar Andersson's console `scrzebra`, driven as its script mode
//! is driven by hand (`scrzebra -e 0 -h BITS -b 0 -line 1 -script POS.scr OUT.txt`, run in
//! its own directory, where it reads its data files).
//!
//! Its answer: the first line of OUT.txt that is not a `%` comment, `51 - 13   a2 b1 ...`
//! (black discs, white discs, the line of moves); on stdout, `Total nodes: N` and
//! `Maximum time for solve: S s`. One search thread always.

use super::output::{EngineAnswer, engine_line};
use crate::board::{Color, Position};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// Bytes of one table entry: Zebra stores 16-byte entries (four 32-bit words), and
/// `-h BITS` asks for 2^BITS of them.
pub const ENTRY_BYTES: u64 = 16;

/// The data file Zebra reads from its directory (its evaluation coefficients).
pub const DATA_FILE: &str = "coeffs2.bin";

/// The script file of one position: `BOARD SIDE`.
pub fn script(position: &Position) -> String {
    format!("{position}\n")
}

/// The command solving the position of `script` into `out`, with a 2^`hash_bits`-entry
/// table and no book.
pub fn command(bin: &Path, script: &Path, out: &Path, hash_bits: u32) -> Command {
    let mut c = super::process::command_in_its_directory(bin);
    c.args([
        "-e",
        "0",
        "-h",
        &hash_bits.to_string(),
        "-b",
        "0",
        "-line",
        "1",
    ])
    .arg("-script")
    .arg(script)
    .arg(out);
    c
}

/// Reads Zebra's answer: `stdout` and the text of its OUT file; `side` is the side to
/// move, for whom the score is given. An error says what was missing.
pub fn parse(stdout: &str, out_file: &str, side: Color) -> Result<EngineAnswer, String> {
    let line = out_file
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('%'))
        .ok_or("no result line in its output file")?;
    let words: Vec<&str> = line.split_whitespace().collect();
    let discs = |w: Option<&&str>| {
        w.and_then(|w| w.parse::<i32>().ok())
            .filter(|d| (0..=64).contains(d))
    };
    let (Some(black), Some("-"), Some(white)) = (
        discs(words.first()),
        words.get(1).copied(),
        discs(words.get(2)),
    ) else {
        return Err(format!("result line '{line}' is not 'BLACK - WHITE MOVES'"));
    };
    if black + white > 64 {
        return Err(format!("result line '{line}' has more than 64 discs"));
    }
    let score = match side {
        Color::Black => black - white,
        Color::White => white - black,
    };
    let field = |name: &str| {
        stdout
            .lines()
            .find(|l| l.trim_start().starts_with(name))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
    };
    let nodes = field("Total nodes")
        .and_then(|v| v.replace(' ', "").parse::<f64>().ok())
        .filter(|n| n.is_finite() && *n >= 0.0 && *n < u64::MAX as f64)
        .ok_or("no 'Total nodes' count on stdout")? as u64;
    let time = field("Maximum time for solve")
        .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or("no 'Maximum time for solve' on stdout")?;
    Ok(EngineAnswer {
        score,
        pv: engine_line(words[3..].iter().copied()),
        nodes,
        time: Some(time),
        version: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_result_line_and_counts_read() {
        let stdout = "\nscrZebra (c) 1997-2005\nTotal nodes:              1234567\n\
                      Maximum time for solve:   0.250 s\n";
        let a = parse(stdout, "% comment\n41 - 23   g8 h7\n", Color::Black).expect("reads");
        assert_eq!((a.score, a.nodes, a.pv.len()), (18, 1_234_567, 2));
        assert_eq!(a.time, Some(Duration::from_millis(250)));
        let a = parse(stdout, "41 - 23   g8\n", Color::White).expect("reads");
        assert_eq!(a.score, -18);
        assert!(parse(stdout, "% only\n", Color::Black).is_err());
        assert!(parse(stdout, "garbage here\n", Color::Black).is_err());
        assert!(parse("", "41 - 23 g8\n", Color::Black).is_err());
    }
}
