//! What a table holds about a board, in the format both tables share: lower and upper
//! bound, best move, trust level, generation and date packed in one data word
//! ([`data`]); what a probe gives back ([`TtHit`]); what a search hands a table to store
//! ([`Stored`]); and the rules both tables follow: which bounds a store proves, how they
//! merge with a live entry of the same board, and which entry a store replaces.

use crate::board::Square;
use crate::search::selectivity::level::Level;

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// The exact score is at least this.
    pub lower: i32,
    /// The exact score is at most this.
    pub upper: i32,
    /// Best move found, if any (square index).
    pub best_move: Option<Square>,
    /// How far the bounds can be trusted: searches at this level or below may use them.
    pub level: Level,
}

/// What a search of a board found, as a table stores it: the search's window, the
/// fail-soft score it returned, the move that produced it, its trust level and the nodes
/// it examined (the entry's cost, for replacement).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stored {
    /// (alpha, beta) of the search.
    pub(crate) window: (i32, i32),
    /// What it returned.
    pub(crate) score: i32,
    /// The move that produced it, if any.
    pub(crate) best_move: Option<Square>,
    /// How far its result can be trusted.
    pub(crate) level: Level,
    /// Positions it examined.
    pub(crate) nodes: u64,
}

impl Stored {
    /// A search with window `window` that returned `score`.
    pub(crate) const fn new(
        window: (i32, i32),
        score: i32,
        best_move: Option<Square>,
        level: Level,
        nodes: u64,
    ) -> Stored {
        Stored {
            window,
            score,
            best_move,
            level,
            nodes,
        }
    }

    /// The bounds the search proves.
    #[inline(always)]
    pub(super) fn bounds(&self) -> (i32, i32) {
        let (alpha, beta) = self.window;
        bounds(alpha, beta, self.score)
    }

    /// The best move as the data word holds it ([`NO_MOVE`] for none).
    #[inline(always)]
    pub(super) fn best(&self) -> u64 {
        self.best_move.map_or(NO_MOVE, |m| m.index() as u64)
    }

    /// Log2 of the nodes examined: the entry's cost.
    #[inline(always)]
    pub(super) fn cost(&self) -> u64 {
        64 - self.nodes.leading_zeros() as u64
    }
}

/// The best move of a data word that has none.
pub(super) const NO_MOVE: u64 = 64;

/// Data word layout (bits 56-63 are free: the local table keeps its entries' costs there).
pub(super) mod data {
    pub const fn pack(
        lower: i32,
        upper: i32,
        best: u64,
        generation: u8,
        level: u8,
        date: u8,
    ) -> u64 {
        ((lower + 64) as u64)
            | (((upper + 64) as u64) << 8)
            | (best << 16)
            | ((generation as u64) << 32)
            | ((level as u64) << 40)
            | ((date as u64) << 48)
    }
    pub const fn date(d: u64) -> u8 {
        ((d >> 48) & 0xFF) as u8
    }
    pub const fn level(d: u64) -> u8 {
        ((d >> 40) & 0xFF) as u8
    }
    pub const fn lower(d: u64) -> i32 {
        (d & 0xFF) as i32 - 64
    }
    pub const fn upper(d: u64) -> i32 {
        ((d >> 8) & 0xFF) as i32 - 64
    }
    pub const fn best(d: u64) -> u64 {
        (d >> 16) & 0xFF
    }
    pub const fn generation(d: u64) -> u8 {
        ((d >> 32) & 0xFF) as u8
    }
}

/// The bounds a search with window (`alpha`, `beta`) that returned `score` proves.
#[inline(always)]
fn bounds(alpha: i32, beta: i32, score: i32) -> (i32, i32) {
    if score <= alpha {
        (-64, score)
    } else if score >= beta {
        (score, 64)
    } else {
        (score, score)
    }
}

/// What to store over a live entry of the same board (data word `old`): its bounds
/// merged with those `stored` proves, and its best move when `stored` has none; `None`
/// when the stored bounds are of a more trusted level and stay.
#[inline(always)]
pub(super) fn merge(old: u64, stored: &Stored) -> Option<(i32, i32, u64)> {
    let old_level = Level::from_bits(data::level(old));
    if old_level > stored.level {
        return None;
    }
    let (mut lower, mut upper) = stored.bounds();
    if old_level == stored.level {
        lower = lower.max(data::lower(old));
        upper = upper.min(data::upper(old));
    }
    if lower > upper {
        // Cannot happen with exact searches; trust the newer result.
        (lower, upper) = stored.bounds();
    }
    let best = match stored.best() {
        NO_MOVE => data::best(old),
        best => best,
    };
    Some((lower, upper, best))
}

/// Replacement order of a bucket's entries (lowest first): dead entries, then older
/// searches' entries, then the one whose search cost fewest nodes (log2 `cost`, cheapest
/// to redo).
#[inline(always)]
pub(super) fn victim_rank(d: u64, cost: u64, generation: u8, date: u8) -> u32 {
    if data::generation(d) != generation {
        0
    } else if data::date(d) != date {
        1 + cost as u32
    } else {
        100 + cost as u32
    }
}

/// The hit a live entry's data word gives.
#[inline(always)]
pub(super) fn hit(d: u64) -> TtHit {
    let best = data::best(d);
    TtHit {
        lower: data::lower(d),
        upper: data::upper(d),
        best_move: (best != NO_MOVE).then(|| Square::from_index(best as u32)),
        level: Level::from_bits(data::level(d)),
    }
}
