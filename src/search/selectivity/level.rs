//! The selectivity level of a search: how much of the tree it may leave out, and so how
//! far the bounds it finds, and stores in the table, can be trusted.

use crate::settings::{MPC_CHECKED_MAX_EMPTIES, MPC_LEVELS};
use std::fmt;

/// A search's selectivity, ordered by trust: the narrow first guess, then the
/// multi-probcut levels of [`MPC_LEVELS`] from the least sure (73 %) up, then exact.
///
/// A table entry made at one level serves every search at that level or below, which is
/// why the order is that of trust. The narrow search keeps only the first few moves of a
/// node; it promises nothing and is used only to find a first guess for an exact solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Level(u8);

impl Level {
    /// The narrow first-guess search (least trusted).
    pub const NARROW: Level = Level(0);
    /// An exact search.
    pub const EXACT: Level = Level(u8::MAX);

    /// The multi-probcut level `MPC_LEVELS[k]`.
    pub const fn probcut(k: usize) -> Level {
        assert!(k < MPC_LEVELS.len(), "no such multi-probcut level");
        Level(k as u8 + 1)
    }

    /// The level promising `percent` %: 100 or more is exact; a percentage between the
    /// multi-probcut levels rounds down to the level below, and one below the lowest
    /// level gives the lowest.
    pub fn from_percent(percent: u8) -> Level {
        if percent >= 100 {
            return Level::EXACT;
        }
        Level::probcut(
            MPC_LEVELS
                .iter()
                .rposition(|&(p, _)| p <= percent)
                .unwrap_or(0),
        )
    }

    /// Reads a selectivity as users give it: one of the multi-probcut percentages or 100,
    /// with or without `%`, or `exact`.
    pub fn parse(text: &str) -> Result<Level, String> {
        if text == "exact" {
            return Ok(Level::EXACT);
        }
        text.trim_end_matches('%')
            .parse::<u8>()
            .ok()
            .filter(|&p| p == 100 || MPC_LEVELS.iter().any(|l| l.0 == p))
            .map(Level::from_percent)
            .ok_or_else(|| {
                let levels: Vec<String> = MPC_LEVELS.iter().map(|l| l.0.to_string()).collect();
                format!(
                    "'{text}': expected a selectivity of {} or 100 (percent)",
                    levels.join(", ")
                )
            })
    }

    /// The index in [`MPC_LEVELS`] of a multi-probcut level.
    pub const fn probcut_index(self) -> Option<usize> {
        if self.is_probcut() {
            Some(self.0 as usize - 1)
        } else {
            None
        }
    }

    /// Whether this is a multi-probcut level.
    pub const fn is_probcut(self) -> bool {
        self.0 > Level::NARROW.0 && self.0 < Level::EXACT.0
    }

    /// Whether a search at this level gives exact answers.
    pub const fn is_exact(self) -> bool {
        self.0 == Level::EXACT.0
    }

    /// The percentage promised: that of a multi-probcut level, 100 for exact. The narrow
    /// search promises nothing; it counts as 100 because it only serves an exact solve,
    /// whose answer is what is reported.
    pub const fn percent(self) -> u8 {
        match self.probcut_index() {
            Some(k) => MPC_LEVELS[k].0,
            None => 100,
        }
    }

    /// The number of standard deviations beyond the window that a multi-probcut level's
    /// prediction needs to cut.
    pub const fn probcut_sigmas(self) -> Option<f32> {
        match self.probcut_index() {
            Some(k) => Some(MPC_LEVELS[k].1),
            None => None,
        }
    }

    /// Whether this level's promise was checked on held-out positions of `empties` empty
    /// squares ([`MPC_CHECKED_MAX_EMPTIES`]). Exact answers (and the narrow search, which
    /// only serves an exact solve) need no check.
    pub const fn checked_at(self, empties: u32) -> bool {
        match self.checked_max_empties() {
            Some(max) => empties <= max,
            None => true,
        }
    }

    /// The most empties at which a multi-probcut level's promise was checked
    /// ([`MPC_CHECKED_MAX_EMPTIES`]); `None` for exact and narrow.
    pub const fn checked_max_empties(self) -> Option<u32> {
        match self.probcut_index() {
            Some(k) => Some(MPC_CHECKED_MAX_EMPTIES[k]),
            None => None,
        }
    }

    /// The level as an answer from a position of `empties` empties reports it: as its
    /// [`Display`](fmt::Display) (`95%`, `exact`), with `?` added where the promise was
    /// not checked at that many empties (`95%?`).
    pub fn label(self, empties: u32) -> String {
        if self.checked_at(empties) {
            self.to_string()
        } else {
            format!("{self}?")
        }
    }

    /// The byte the table stores (order preserved).
    pub(crate) const fn to_bits(self) -> u8 {
        self.0
    }

    /// The level of a byte the table stored.
    pub(crate) const fn from_bits(bits: u8) -> Level {
        Level(bits)
    }
}

impl Default for Level {
    /// Exact: finale solves exactly unless asked otherwise.
    fn default() -> Level {
        Level::EXACT
    }
}

impl fmt::Display for Level {
    /// `narrow`, a multi-probcut level's percentage (`73%`), or `exact`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.probcut_index() {
            Some(k) => write!(f, "{}%", MPC_LEVELS[k].0),
            None if self.is_exact() => f.write_str("exact"),
            None => f.write_str("narrow"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_ordered_by_trust() {
        let mut levels = vec![Level::NARROW];
        levels.extend((0..MPC_LEVELS.len()).map(Level::probcut));
        levels.push(Level::EXACT);
        assert!(levels.windows(2).all(|w| w[0] < w[1]), "{levels:?}");
        for l in &levels {
            assert_eq!(Level::from_bits(l.to_bits()), *l);
        }
    }

    #[test]
    fn percentages_name_levels_and_round_down() {
        // The published levels (settings::MPC_LEVELS): 73, 87, 95, 98, 99.
        for (p, want) in [
            (100, "exact"),
            (99, "99%"),
            (96, "95%"),
            (95, "95%"),
            (73, "73%"),
        ] {
            assert_eq!(Level::from_percent(p).to_string(), want, "{p}");
        }
        assert_eq!(Level::from_percent(50), Level::probcut(0));
        assert_eq!(Level::from_percent(95).percent(), 95);
        assert_eq!(Level::EXACT.percent(), 100);
        assert_eq!(Level::NARROW.percent(), 100);
        assert_eq!(Level::NARROW.to_string(), "narrow");
        assert_eq!(Level::probcut(2).probcut_sigmas(), Some(4.0));
        assert_eq!(Level::EXACT.probcut_sigmas(), None);
    }

    #[test]
    fn levels_beyond_their_checked_empties_say_so() {
        let deepest = MPC_CHECKED_MAX_EMPTIES[0];
        let l = Level::probcut(0);
        assert_eq!(l.label(deepest), "73%");
        assert_eq!(l.label(deepest + 1), "73%?");
        assert_eq!(l.label(8), "73%");
        assert_eq!(Level::EXACT.label(60), "exact");
        assert_eq!(Level::NARROW.label(60), "narrow");
        assert!(!l.checked_at(60) && Level::EXACT.checked_at(60));
    }

    #[test]
    fn only_the_levels_parse() {
        for (text, want) in [
            ("95", "95%"),
            ("73%", "73%"),
            ("100", "exact"),
            ("exact", "exact"),
        ] {
            assert_eq!(
                Level::parse(text).map(|l| l.to_string()),
                Ok(want.to_string())
            );
        }
        for text in ["90", "50", "101", "", "narrow", "-5"] {
            let e = Level::parse(text).expect_err(text);
            assert_eq!(
                e,
                format!("'{text}': expected a selectivity of 73, 87, 95, 98, 99 or 100 (percent)")
            );
        }
    }
}
