//! Transposition table: bounds on the exact score of positions already searched.
//!
//! Entries hold the whole board (no hash collisions can give a foreign entry) and one data
//! word: lower and upper bound, best move, trust level, generation (entries of an older
//! generation are dead: clearing is one increment) and date (the search that wrote it:
//! older searches' entries are replaced first). The rest of each 64-byte bucket holds each
//! entry's cost, log2 of the nodes its search examined, and among entries of the same
//! search the cheapest is replaced. Measured at one thread, nodes, against replacing the
//! entry with fewest empties: FFO 50-52 (26-27 empties) with an 8 MB table, where the
//! table is as full as 256 MB is at 30+ empties: 1 065.5 M against 1 088.3 M (-2.1 %);
//! with 256 MB: 985.4 M against 989.6 M; FFO 40-49 with 256 MB: 747.3 M against 741.8 M
//! (+0.7 %; the table is never full there). A second best move per entry (the previous
//! best, searched right after the first) was measured too and left out: 749.5 M on FFO
//! 40-49, and no change on FFO 50-52 at 8 or 256 MB. The table is
//! built from atomics so one table can later be shared by all search threads; each entry
//! is written as three words, the board words xored with a well-mixed hash of the data
//! word (see `check`), so a reader that sees words of two different writes rejects the
//! entry instead of trusting it.
//!
//! Why a hash and not the data word itself: a torn entry (board words of one write, data
//! word of another) checks against the board words xored with the xor of the two data
//! words. With the raw data word that xor is a sparse pattern on fixed squares (the
//! bound and move fields differ), and the board with exactly those squares' discs
//! swapped, which is a legal and likely sibling position, would be given the other
//! write's bounds. With the hash the xor is a pseudo-random 64-bit value per pair of
//! writes, so a foreign board passes only if it differs from the stored one by that value
//! in both words.

use super::entry::{Stored, TtHit, data, hit, merge, victim_rank};
use super::memory::{Zeroable, ZeroedSlice};
use crate::board::Board;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

#[derive(Default)]
struct Entry {
    player_x: AtomicU64,
    opponent_x: AtomicU64,
    data: AtomicU64,
}

/// Entries per bucket. A layout fact, not a threshold: two 24-byte entries and their two
/// costs fill one 64-byte cache line (asserted below); other layouts were not measured.
const ENTRIES_PER_BUCKET: usize = 2;

/// Two entries on one 64-byte cache line, and in the rest of the line the cost of each
/// entry's search (log2 of its nodes) for replacement. The cost is not covered by the
/// check: a torn or stale cost only changes which entry is replaced.
#[repr(align(64))]
#[derive(Default)]
struct Bucket {
    entries: [Entry; ENTRIES_PER_BUCKET],
    costs: [AtomicU64; ENTRIES_PER_BUCKET],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// Words of a bucket in a table file: each entry's three, then each entry's cost.
pub(super) const WORDS_PER_BUCKET: usize = 4 * ENTRIES_PER_BUCKET;
const _: () = assert!(8 * WORDS_PER_BUCKET == std::mem::size_of::<Bucket>());

// SAFETY: a bucket is atomics only; all zero is an empty bucket (generation 0 is never live).
unsafe impl Zeroable for Bucket {}

/// What the board words are xored with when an entry holds data word `d`: a bijective
/// multiply-xorshift mix (the SplitMix64 finaliser), so that two different data words
/// give check words that differ in about half their bits, on no particular squares.
#[inline]
const fn check(d: u64) -> u64 {
    let mut z = d;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A fixed-size table of buckets indexed by a hash of the board.
pub struct TranspositionTable {
    buckets: ZeroedSlice<Bucket>,
    /// Entries of other generations count as empty: `clear` is one increment.
    generation: AtomicU64,
    /// Number of the current search (wrapping): replacement prefers older searches' entries.
    date: AtomicU64,
    /// Changes whenever the table's contents are forgotten, and differs between tables:
    /// a thread's local table (`local_table.rs`) is emptied when the epoch it last served
    /// is no longer this.
    epoch: AtomicU64,
}

/// Source of epochs: process-wide, so that no two tables or clears share one.
static NEXT_EPOCH: AtomicU64 = AtomicU64::new(1);

fn new_epoch() -> u64 {
    NEXT_EPOCH.fetch_add(1, Relaxed)
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket). Panics if the system refuses
    /// the memory; [`TranspositionTable::try_new`] says why instead.
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable::try_new(mb).expect("cannot allocate the transposition table")
    }

    /// A table of about `mb` megabytes (at least one bucket), or the system's reason why
    /// its memory cannot be had.
    pub fn try_new(mb: usize) -> std::io::Result<TranspositionTable> {
        TranspositionTable::new_kb(mb.saturating_mul(1 << 10))
    }

    /// A table of about `kb` kilobytes (at least one bucket).
    pub(crate) fn new_kb(kb: usize) -> std::io::Result<TranspositionTable> {
        let n = (kb.saturating_mul(1 << 10) / std::mem::size_of::<Bucket>()).max(1);
        Ok(TranspositionTable {
            buckets: ZeroedSlice::new(n)?,
            generation: AtomicU64::new(1),
            date: AtomicU64::new(0),
            epoch: AtomicU64::new(new_epoch()),
        })
    }

    /// Identifies the table's current contents (see the field).
    pub(crate) fn epoch(&self) -> u64 {
        self.epoch.load(Relaxed)
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Forgets every entry. O(1) except once every 255 calls, when the memory is zeroed
    /// so that an old generation number cannot come back to life.
    pub fn clear(&mut self) {
        let g = self.generation.load(Relaxed) + 1;
        if g > 255 {
            self.buckets.zero();
            self.generation.store(1, Relaxed);
        } else {
            self.generation.store(g, Relaxed);
        }
        self.epoch.store(new_epoch(), Relaxed);
    }

    /// Buckets in the table.
    pub(super) fn buckets_len(&self) -> usize {
        self.buckets.len()
    }

    /// The generation and date counters (see the fields), for a table file.
    pub(super) fn counters(&self) -> (u64, u64) {
        (self.generation.load(Relaxed), self.date.load(Relaxed))
    }

    /// Restores the counters of a loaded table file; its contents are new to every
    /// thread's local table.
    pub(super) fn set_counters(&mut self, generation: u64, date: u64) {
        self.generation.store(generation, Relaxed);
        self.date.store(date, Relaxed);
        self.epoch.store(new_epoch(), Relaxed);
    }

    /// Empties the table entirely (a table file that failed to load half wrote it).
    pub(super) fn forget_all(&mut self) {
        self.buckets.zero();
        self.set_counters(1, 0);
    }

    /// Appends the eight words of each bucket of `range`: both entries' board and data
    /// words, then both costs.
    pub(super) fn read_words(&self, range: std::ops::Range<usize>, out: &mut Vec<u64>) {
        for b in &self.buckets[range] {
            for e in &b.entries {
                out.extend([&e.player_x, &e.opponent_x, &e.data].map(|w| w.load(Relaxed)));
            }
            out.extend(b.costs.iter().map(|c| c.load(Relaxed)));
        }
    }

    /// Writes the buckets from `start` on from `words`, as [`Self::read_words`] gave them.
    pub(super) fn write_words(&mut self, start: usize, words: &[u64]) {
        for (b, w) in self.buckets[start..]
            .iter()
            .zip(words.chunks_exact(WORDS_PER_BUCKET))
        {
            for (k, e) in b.entries.iter().enumerate() {
                e.player_x.store(w[3 * k], Relaxed);
                e.opponent_x.store(w[3 * k + 1], Relaxed);
                e.data.store(w[3 * k + 2], Relaxed);
            }
            for (k, c) in b.costs.iter().enumerate() {
                c.store(w[3 * ENTRIES_PER_BUCKET + k], Relaxed);
            }
        }
    }

    /// Marks the start of a new search: entries written before stay usable but are the
    /// first to be replaced.
    pub fn new_search(&self) {
        self.date.fetch_add(1, Relaxed);
    }

    #[inline]
    fn current_generation(&self) -> u8 {
        self.generation.load(Relaxed) as u8
    }

    #[inline]
    fn bucket(&self, b: &Board) -> &Bucket {
        let mut h = b.player.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ b.opponent.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        h ^= h >> 32;
        h = h.wrapping_mul(0x94D0_49BB_1331_11EB);
        let i = ((h as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Starts loading `board`'s bucket into the cache, so that a probe issued a little
    /// later does not wait for memory.
    #[inline]
    pub fn prefetch(&self, board: &Board) {
        super::memory::prefetch(self.bucket(board));
    }

    /// Bounds stored for `board`, if any. Always inlined: into a kernel set's entry it is
    /// compiled with that set's CPU features (`search/kernel_dispatch.rs`).
    #[inline(always)]
    pub fn probe(&self, board: &Board) -> Option<TtHit> {
        let generation = self.current_generation();
        for e in &self.bucket(board).entries {
            let d = e.data.load(Relaxed);
            let c = check(d);
            if e.player_x.load(Relaxed) ^ c == board.player
                && e.opponent_x.load(Relaxed) ^ c == board.opponent
                && data::generation(d) == generation
            {
                return Some(hit(d));
            }
        }
        None
    }

    /// Records what a search of `board` found (`stored`). Bounds of a more trusted level
    /// already stored for the board are kept.
    #[inline(always)]
    pub(crate) fn store(&self, board: &Board, stored: Stored) {
        let (mut lower, mut upper) = stored.bounds();
        let generation = self.current_generation();
        let date = self.date.load(Relaxed) as u8;
        let bucket = self.bucket(board);
        let mut best = stored.best();

        // The same position: merge the bounds, keep the old best move if none is new.
        let mut victim = None;
        let mut victim_rank_min = u32::MAX;
        for (k, e) in bucket.entries.iter().enumerate() {
            let d = e.data.load(Relaxed);
            let c = check(d);
            if data::generation(d) == generation
                && e.player_x.load(Relaxed) ^ c == board.player
                && e.opponent_x.load(Relaxed) ^ c == board.opponent
            {
                let Some(merged) = merge(d, &stored) else {
                    return;
                };
                (lower, upper, best) = merged;
                victim = Some(k);
                break;
            }
            let rank = victim_rank(d, bucket.costs[k].load(Relaxed), generation, date);
            if rank < victim_rank_min {
                victim_rank_min = rank;
                victim = Some(k);
            }
        }
        let Some(k) = victim else { return };
        let e = &bucket.entries[k];
        let d = data::pack(lower, upper, best, generation, stored.level.to_bits(), date);
        e.player_x.store(board.player ^ check(d), Relaxed);
        e.opponent_x.store(board.opponent ^ check(d), Relaxed);
        e.data.store(d, Relaxed);
        bucket.costs[k].store(stored.cost(), Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::search::selectivity::level::Level;
    const EXACT: Level = Level::EXACT;

    fn sq(index: u32) -> Square {
        Square::from_index(index)
    }

    #[test]
    fn store_probe_merge_and_clear() {
        let mut tt = TranspositionTable::new(1);
        let b = Board::START;
        assert_eq!(tt.probe(&b), None);
        tt.store(&b, Stored::new((-10, 10), 12, Some(sq(19)), EXACT, 1000));
        let h = tt.probe(&b).unwrap();
        assert_eq!((h.lower, h.upper, h.best_move), (12, 64, Some(sq(19))));
        tt.store(&b, Stored::new((11, 13), 12, None, EXACT, 1000));
        let h = tt.probe(&b).unwrap();
        assert_eq!((h.lower, h.upper, h.best_move), (12, 12, Some(sq(19))));
        // A less trusted result does not overwrite exact bounds; a more trusted one does.
        tt.store(&b, Stored::new((-10, 10), -20, None, Level::NARROW, 1000));
        assert_eq!(tt.probe(&b).unwrap().lower, 12);
        let c = b.pass();
        tt.store(
            &c,
            Stored::new((-10, 10), -20, Some(sq(3)), Level::NARROW, 1000),
        );
        assert_eq!(tt.probe(&c).unwrap().level, Level::NARROW);
        tt.store(&c, Stored::new((-10, 10), 4, Some(sq(5)), EXACT, 1000));
        let h = tt.probe(&c).unwrap();
        assert_eq!(
            (h.lower, h.upper, h.best_move, h.level),
            (4, 4, Some(sq(5)), EXACT)
        );
        tt.clear();
        assert_eq!(tt.probe(&b), None);
        assert_eq!(tt.probe(&c), None);
    }

    #[test]
    fn replacement_prefers_old_searches_then_cheap_entries() {
        // A one-bucket table: every board competes for the same two slots.
        let tt = TranspositionTable::new(0);
        let costly = Board::START;
        let cheap1 = Board::new(0x0000_00FF_FFFF_FFFF, 0xFF00_0000_0000_0000);
        let cheap2 = Board::new(0x0000_01FF_FFFF_FFFF, 0xFF00_0000_0000_0000);
        tt.store(&costly, Stored::new((-1, 1), 0, None, EXACT, 1 << 30));
        tt.store(&cheap1, Stored::new((-1, 1), 0, None, EXACT, 100));
        // Same search: the entry that cost fewer nodes goes.
        tt.store(&cheap2, Stored::new((-1, 1), 0, None, EXACT, 1000));
        assert!(tt.probe(&costly).is_some());
        assert!(tt.probe(&cheap1).is_none());
        assert!(tt.probe(&cheap2).is_some());
        // Now cheap2 (1000 nodes) is cheaper than costly, whatever the empties.
        tt.store(&cheap1, Stored::new((-1, 1), 0, None, EXACT, 5000));
        assert!(tt.probe(&costly).is_some() && tt.probe(&cheap2).is_none());
        // A new search: the older entries go first, even a costly one.
        tt.new_search();
        tt.store(&cheap2, Stored::new((-1, 1), 0, None, EXACT, 1));
        tt.store(
            &Board::START.pass(),
            Stored::new((-1, 1), 0, None, EXACT, 1),
        );
        assert!(tt.probe(&cheap2).is_some());
        assert!(tt.probe(&Board::START.pass()).is_some());
        assert!(tt.probe(&costly).is_none() && tt.probe(&cheap1).is_none());
    }

    /// A torn entry (board words of one write, data word of a second write of the same
    /// slot) must not be taken for a board that differs from the first write's board by
    /// the xor of the two data words. With the board words xored with the raw data word
    /// that board passed, with the second write's bounds: here it is the stored board with
    /// a few discs' colours swapped, a legal position in the same bucket.
    #[test]
    fn torn_entry_is_not_taken_for_a_board_differing_by_the_data_pattern() {
        let tt = TranspositionTable::new(1);
        assert!(
            tt.buckets.len() > 1000,
            "the bucket must be found, not forced"
        );
        // Two writes of the same search and level that differ in bounds and move. The
        // other fields are equal, so the xor of the data words depends only on these.
        let (v1, m1, v2, m2) = (12, 19u8, -4, 37u8);
        let pack = |v: i32, m: u8| data::pack(v, v, m as u64, 1, EXACT.to_bits(), 0);
        let pattern = pack(v1, m1) ^ pack(v2, m2);
        assert!(
            pattern != 0 && pattern < 1 << 24,
            "only the low 24 bits differ"
        );
        // Board A: squares 0..32 all occupied (so swapping the colours of the pattern's
        // squares gives a legal board B), a varying upper half to find an A whose B has
        // the same bucket.
        let low_player = 0x0F0F_0F0F_u64;
        let low_opponent = 0xF0F0_F0F0_u64;
        let (a, b) = (1..1u64 << 32)
            .map(|k| {
                let a = Board::new(low_player | k << 32, low_opponent);
                let b = Board::new(a.player ^ pattern, a.opponent ^ pattern);
                (a, b)
            })
            .find(|(a, b)| std::ptr::eq(tt.bucket(a), tt.bucket(b)))
            .unwrap();
        assert_eq!(b.player & b.opponent, 0);
        assert_ne!(a, b);
        assert_eq!(a.empty_count(), b.empty_count());

        tt.store(
            &a,
            Stored::new((-65, 65), v1, Some(sq(m1.into())), EXACT, 1000),
        );
        let h = tt.probe(&a).unwrap();
        assert_eq!(
            (h.lower, h.upper, h.best_move),
            (v1, v1, Some(sq(m1.into())))
        );
        assert_eq!(tt.probe(&b), None);
        // The second write's data word has landed, its board words not yet.
        let slot = &tt.bucket(&a).entries[0];
        let d1 = slot.data.load(Relaxed);
        let d2 = data::pack(
            v2,
            v2,
            m2 as u64,
            data::generation(d1),
            EXACT.to_bits(),
            data::date(d1),
        );
        assert_eq!(d1 ^ d2, pattern, "the torn words differ by the pattern");
        slot.data.store(d2, Relaxed);
        assert_eq!(tt.probe(&b), None, "B taken with the other write's data");
        assert_eq!(tt.probe(&a), None, "A taken with the other write's data");
        // Once the second write's data word is gone again, A's entry is whole.
        slot.data.store(d1, Relaxed);
        assert_eq!(tt.probe(&a), Some(h));
    }

    /// Many threads store and probe a few boards that all compete for the same buckets.
    /// Each board is always stored with the same bounds and move, so any hit that differs
    /// from them would be a torn or foreign entry taken as valid.
    #[test]
    fn concurrent_stores_never_give_torn_or_foreign_entries() {
        use std::sync::atomic::AtomicU64;
        // Boards with disjoint random discs; value and move derived from the index.
        let mut x = 0x5EED_u64;
        let mut next = || {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let boards: Vec<Board> = (0..24)
            .map(|_| {
                let (a, b) = (next(), next());
                Board::new(a & !b, b & !a)
            })
            .collect();
        let value = |i: usize| (i as i32 * 11) % 129 - 64;
        let best = |i: usize| sq((i * 7 % 64) as u32);
        // One bucket: every write lands where the readers look. Writers only store,
        // readers only probe, so reads overlap writes as often as possible.
        for (tt, n) in [
            (TranspositionTable::new(0), 3),
            (TranspositionTable::new(1), 24),
        ] {
            // Stored once first, so that readers hit even if the writers run last.
            for (i, b) in boards[..n].iter().enumerate() {
                tt.store(
                    b,
                    Stored::new((-65, 65), value(i), Some(best(i)), EXACT, 1000),
                );
            }
            let hits = AtomicU64::new(0);
            std::thread::scope(|scope| {
                for t in 0..4usize {
                    let (tt, boards, hits) = (&tt, &boards[..n], &hits);
                    scope.spawn(move || {
                        let mut local = 0;
                        for k in 0..1_000_000usize {
                            let i = (k + t) % n;
                            if t % 2 == 0 {
                                tt.store(
                                    &boards[i],
                                    Stored::new((-65, 65), value(i), Some(best(i)), EXACT, 1000),
                                );
                            } else if let Some(h) = tt.probe(&boards[i]) {
                                local += 1;
                                assert_eq!(
                                    (h.lower, h.upper, h.best_move, h.level),
                                    (value(i), value(i), Some(best(i)), EXACT),
                                    "board {i}"
                                );
                            }
                        }
                        hits.fetch_add(local, Relaxed);
                    });
                }
            });
            assert!(hits.load(Relaxed) > 1000, "too few hits to test anything");
        }
    }
}
