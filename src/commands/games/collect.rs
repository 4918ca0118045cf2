//! The positions of the games asked for: each game filtered, replayed, its positions with
//! the empties asked for kept once each (by key, the first game's), with the theoretical
//! score where the position has the file's P3 empties.

use super::options::GamesOptions;
use super::source::FileInfo;
use super::summary::GamesSummary;
use crate::board::Position;
use crate::board::key::position_key;
use crate::error::{GamesError, Result};
use crate::games::{Damaged, Game, Record, replay};
use std::collections::HashMap;

/// One distinct position and the game it was first taken from.
pub(super) struct Entry {
    /// The position.
    pub(super) position: Position,
    /// The theoretical score for the side to move, when its empties are the file's P3.
    pub(super) score: Option<i32>,
    /// Index of its file in the options' files.
    pub(super) file: usize,
    /// The game's number in its file.
    pub(super) game: usize,
    /// The game's record (WTHOR).
    pub(super) record: Option<Record>,
}

/// The positions gathered so far, and the counts.
pub(super) struct Collector<'o> {
    options: &'o GamesOptions,
    /// The filters in lower case.
    player: Option<String>,
    tournament: Option<String>,
    /// Index in `entries` of each key taken.
    seen: HashMap<u64, usize>,
    /// The distinct positions, in the order first met.
    pub(super) entries: Vec<Entry>,
    /// The counts.
    pub(super) summary: GamesSummary,
}

impl<'o> Collector<'o> {
    /// An empty collection for `options`.
    pub(super) fn new(options: &'o GamesOptions) -> Self {
        Collector {
            options,
            player: options.player.as_ref().map(|p| p.to_lowercase()),
            tournament: options.tournament.as_ref().map(|t| t.to_lowercase()),
            seen: HashMap::new(),
            entries: Vec::new(),
            summary: GamesSummary::default(),
        }
    }

    /// Takes the games of file `file` (`info` its facts); with `--strict` the first damaged
    /// one is an error.
    pub(super) fn add_file(
        &mut self,
        file: usize,
        info: &FileInfo,
        games: impl Iterator<Item = std::result::Result<Game, Damaged>>,
        promised: Option<u64>,
    ) -> Result<()> {
        self.summary.files += 1;
        let years = self.options.years;
        if let (Some((first, last)), Some(year)) = (years, info.year)
            && !(first..=last).contains(&year)
        {
            // The whole file is left out: its games are counted, not read.
            let n = promised.unwrap_or(0);
            self.summary.games += n;
            self.summary.filtered += n;
            return Ok(());
        }
        for item in games {
            self.options
                .stop
                .check("games", || self.options.nothing_written())?;
            match item {
                Ok(game) => {
                    self.summary.games += 1;
                    if self.selected(info, game.record.as_ref()) {
                        self.add_game(file, info, &game)?;
                    } else {
                        self.summary.filtered += 1;
                    }
                }
                Err(damaged) => {
                    self.summary.games += damaged.damage.games();
                    self.skip(info, damaged)?;
                }
            }
        }
        Ok(())
    }

    /// Whether the game passes `--player` and `--tournament` (lines of moves pass both:
    /// name filters on them are refused before).
    fn selected(&self, info: &FileInfo, record: Option<&Record>) -> bool {
        let Some(r) = record else {
            return true;
        };
        let holds =
            |name: Option<&str>, part: &str| name.is_some_and(|n| n.to_lowercase().contains(part));
        let names = &info.names;
        let player_ok = self
            .player
            .as_deref()
            .is_none_or(|p| holds(names.player(r.black), p) || holds(names.player(r.white), p));
        let tournament_ok = self
            .tournament
            .as_deref()
            .is_none_or(|t| holds(names.tournament(r.tournament), t));
        player_ok && tournament_ok
    }

    /// Counts a damaged game (unless the filters leave it out anyway), or refuses it.
    fn skip(&mut self, info: &FileInfo, damaged: Damaged) -> Result<()> {
        let games = damaged.damage.games();
        if !self.selected(info, damaged.record.as_ref()) {
            self.summary.filtered += games;
            return Ok(());
        }
        if self.options.strict {
            return Err(GamesError::Damaged {
                path: info.path.clone(),
                game: damaged.number,
                text: info.is_text,
                damage: damaged.damage,
            }
            .into());
        }
        *self
            .summary
            .skipped
            .entry(damaged.damage.kind())
            .or_default() += games;
        Ok(())
    }

    /// Replays a selected game and takes its positions with the empties asked for.
    fn add_game(&mut self, file: usize, info: &FileInfo, game: &Game) -> Result<()> {
        let played = match replay(&game.moves) {
            Ok(played) => played,
            Err(damage) => {
                let damaged = Damaged {
                    number: game.number,
                    record: game.record,
                    damage,
                };
                return self.skip(info, damaged);
            }
        };
        self.summary.replayed += 1;
        match (played.final_for_black(), game.record) {
            (None, _) => self.summary.unfinished += 1,
            (Some(score), Some(r)) if score != r.real_for_black() => self.summary.real_differs += 1,
            _ => {}
        }
        let (lo, hi) = self.empties(info);
        for &position in &played.positions {
            let empties = position.board.empty_count();
            if (lo..=hi).contains(&empties) {
                let score = theoretical(position, info, game.record.as_ref());
                self.take(position, score, file, game);
            }
        }
        Ok(())
    }

    /// The empties asked for: `--empties`, else the file's P3.
    fn empties(&self, info: &FileInfo) -> (u32, u32) {
        let depth = u32::from(info.depth.unwrap_or(0));
        self.options.empties.unwrap_or((depth, depth))
    }

    /// Keeps a position unless an earlier game gave it.
    fn take(&mut self, position: Position, score: Option<i32>, file: usize, game: &Game) {
        self.summary.positions += 1;
        let key = position_key(&position);
        if let Some(&kept) = self.seen.get(&key) {
            self.summary.duplicates += 1;
            if let (Some(a), Some(b)) = (self.entries[kept].score, score)
                && a != b
            {
                self.summary.score_conflicts += 1;
            }
            return;
        }
        self.seen.insert(key, self.entries.len());
        self.entries.push(Entry {
            position,
            score,
            file,
            game: game.number,
            record: game.record,
        });
    }
}

/// The theoretical score of `position` for its side to move, when it has the file's P3
/// empties: black's `2 t - 64`, negated when white is to move.
fn theoretical(position: Position, info: &FileInfo, record: Option<&Record>) -> Option<i32> {
    let r = record?;
    let depth = u32::from(info.depth?);
    if position.board.empty_count() != depth {
        return None;
    }
    let black = r.theoretical_for_black();
    Some(match position.side {
        crate::board::Color::Black => black,
        crate::board::Color::White => -black,
    })
}
