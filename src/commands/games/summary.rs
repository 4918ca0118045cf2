//! What `finale games` did, for its summary on stderr.

use std::collections::BTreeMap;
use std::fmt;

/// Counts of games and positions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GamesSummary {
    /// Files read.
    pub files: usize,
    /// Games the files hold (a truncated WTHOR file: the games its header counts).
    pub games: u64,
    /// Games left out by `--years`, `--player` or `--tournament`.
    pub filtered: u64,
    /// Damaged games skipped, by kind ([`crate::games::Damage::kind`]).
    pub skipped: BTreeMap<&'static str, u64>,
    /// Games replayed whole.
    pub replayed: u64,
    /// Of those, games whose moves stop before neither side can move.
    pub unfinished: u64,
    /// Of the finished WTHOR games, those whose final position's score is not the record's
    /// real score (empty squares to the winner).
    pub real_differs: u64,
    /// Positions with the empties asked for, before duplicates are dropped.
    pub positions: u64,
    /// Positions dropped as already taken from an earlier game.
    pub duplicates: u64,
    /// Of those, positions whose theoretical score differs from the kept one's.
    pub score_conflicts: u64,
    /// Distinct positions left out of `--sample`.
    pub sampled_out: u64,
    /// Positions written.
    pub written: u64,
    /// Of those, positions written with a theoretical score.
    pub scored: u64,
}

impl GamesSummary {
    /// All damaged games skipped.
    pub fn skipped_total(&self) -> u64 {
        self.skipped.values().sum()
    }
}

impl fmt::Display for GamesSummary {
    /// Three or four lines: games, skipped ones by kind (when any), positions.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let files = if self.files == 1 { "file" } else { "files" };
        writeln!(
            f,
            "games: {} read from {} {files}, {} filtered out, {} skipped, {} replayed \
             ({} unfinished, {} finished with a final score other than the record's)",
            self.games,
            self.files,
            self.filtered,
            self.skipped_total(),
            self.replayed,
            self.unfinished,
            self.real_differs
        )?;
        if !self.skipped.is_empty() {
            let kinds: Vec<String> = self
                .skipped
                .iter()
                .map(|(k, n)| format!("{n} {k}"))
                .collect();
            writeln!(f, "skipped: {}", kinds.join(", "))?;
        }
        writeln!(
            f,
            "positions: {} written ({} with a theoretical score), {} duplicates dropped \
             ({} with another theoretical score), {} left out of the sample",
            self.written, self.scored, self.duplicates, self.score_conflicts, self.sampled_out
        )
    }
}
