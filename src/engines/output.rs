//! What another engine answered for one position, as its adapter read it from the
//! engine's output, and the small readers the adapters share (moves, clock times, the
//! version an engine prints).

use crate::board::Square;
use crate::search::PvMove;
use std::time::Duration;

/// Another engine's answer to one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineAnswer {
    /// Final disc difference for the side to move.
    pub score: i32,
    /// The engine's line, its first move the best move (empty: no move).
    pub pv: Vec<PvMove>,
    /// Nodes the engine counted.
    pub nodes: u64,
    /// Search time the engine reported (`None`: it did not; the wall time is used).
    pub time: Option<Duration>,
    /// The engine's version, when its output names one.
    pub version: Option<String>,
}

/// A move as engines print it: a square in either case, or a pass (`ps`, `pa`, `pass`,
/// `--`).
pub fn engine_move(text: &str) -> Option<PvMove> {
    match text.to_ascii_lowercase().as_str() {
        "ps" | "pa" | "pass" | "--" => Some(PvMove::Pass),
        t => Square::parse(t).map(PvMove::Play),
    }
}

/// The moves of `words` up to the first word that is not a move.
pub fn engine_line<'a>(words: impl IntoIterator<Item = &'a str>) -> Vec<PvMove> {
    words.into_iter().map_while(engine_move).collect()
}

/// A clock time `[[H:]M:]S[.fff]` (`0:00.012`, `000:00:01.234`, `1.5`) as a duration.
pub fn clock_time(text: &str) -> Option<Duration> {
    let mut seconds = 0.0f64;
    let parts: Vec<&str> = text.trim().split(':').collect();
    if parts.len() > 3 || parts.iter().any(|p| p.is_empty()) {
        return None;
    }
    for (i, part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        if !last && !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let value: f64 = part
            .parse()
            .ok()
            .filter(|v: &f64| v.is_finite() && *v >= 0.0)?;
        seconds = seconds * 60.0 + value;
    }
    Duration::try_from_secs_f64(seconds).ok()
}

/// A score as engines print it: `+18`, `-04`, `0`, within -64..=64.
pub fn engine_score(text: &str) -> Option<i32> {
    text.trim_start_matches('+')
        .parse()
        .ok()
        .filter(|s: &i32| (-64..=64).contains(s))
}

/// The version `output` gives for the engine `name`: on the first line naming it (in any
/// case), the first later word of digits and dots with a dot (`4.4`, `7.4.0`), trimmed of
/// a leading `v`.
pub fn version_in(output: &str, name: &str) -> Option<String> {
    let name = name.to_ascii_lowercase();
    let line = output
        .lines()
        .find(|l| l.to_ascii_lowercase().contains(&name))?;
    let at = line.to_ascii_lowercase().find(&name)? + name.len();
    line[at..]
        .split_whitespace()
        .map(|w| {
            w.trim_start_matches(['v', 'V'])
                .trim_end_matches([',', ')'])
        })
        .find(|w| w.contains('.') && w.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
        .map(String::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_times_scores_and_versions_read() {
        let g8 = Square::parse("g8").expect("g8");
        assert_eq!(engine_move("G8"), Some(PvMove::Play(g8)));
        assert_eq!(engine_move("ps"), Some(PvMove::Pass));
        assert_eq!(engine_move("x9"), None);
        assert_eq!(engine_line("G8 ps h7 | 12".split_whitespace()).len(), 3);
        assert_eq!(clock_time("0:00.012"), Some(Duration::from_millis(12)));
        assert_eq!(
            clock_time("000:01:02.500"),
            Some(Duration::from_millis(62_500))
        );
        assert_eq!(clock_time("1:00:00"), Some(Duration::from_secs(3600)));
        for bad in ["", "a:00", "1:2:3:4", "-1", "1::2", "inf"] {
            assert_eq!(clock_time(bad), None, "{bad}");
        }
        assert_eq!(engine_score("+18"), Some(18));
        assert_eq!(engine_score("-04"), Some(-4));
        assert_eq!(engine_score("+66"), None);
        assert_eq!(
            version_in("x\nEdax version 4.4 (c) 1998", "edax").as_deref(),
            Some("4.4")
        );
        assert_eq!(
            version_in("Egaroucid for Console v7.4.0\n", "egaroucid").as_deref(),
            Some("7.4.0")
        );
        assert_eq!(version_in("scrZebra (c) 1997-2005", "zebra"), None);
    }
}
