//! The `generate` command: reproducible random positions as OBF lines, for benchmark and
//! test sets.

use crate::board::random::{SplitMix64, random_position};
use crate::error::{Error, Result};
use std::io::Write;

/// Writes `count` positions reached by random play from the start (seeded by `seed`),
/// cycling through `min_empties..=max_empties` empty squares, one OBF line each.
pub fn run_generate(
    seed: u64,
    count: usize,
    min_empties: u32,
    max_empties: u32,
    out: &mut impl Write,
) -> Result<()> {
    if min_empties > max_empties || max_empties > 60 {
        return Err(Error::Invalid(format!(
            "empties {min_empties}-{max_empties}: expected A-B with A <= B <= 60"
        )));
    }
    let mut rng = SplitMix64::new(seed);
    let span = (max_empties - min_empties + 1) as usize;
    writeln!(
        out,
        "% finale generate --seed {seed} --count {count} --empties {min_empties}-{max_empties}"
    )
    .map_err(Error::Output)?;
    for i in 0..count {
        let empties = min_empties + (i % span) as u32;
        let pos = random_position(&mut rng, empties);
        writeln!(out, "{pos}").map_err(Error::Output)?;
    }
    out.flush().map_err(Error::Output)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse_obf_line;

    #[test]
    fn lines_parse_back_with_the_requested_empties() {
        let mut out = Vec::new();
        run_generate(3, 6, 10, 12, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let empties: Vec<u32> = text
            .lines()
            .filter_map(|l| parse_obf_line(l).unwrap())
            .map(|r| r.position.board.empty_count())
            .collect();
        assert_eq!(empties, vec![10, 11, 12, 10, 11, 12]);
        assert!(run_generate(3, 1, 12, 10, &mut Vec::new()).is_err());
    }
}
