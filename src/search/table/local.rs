//! A small table per thread for the nodes nearest the end of the endgame band.
//!
//! Nodes of few empties are the most numerous and their subtrees the smallest, so a probe
//! of the shared table there (and ETC's probes of every child) costs a memory access that
//! the subtree cannot repay: with a table of hundreds of MB each one misses every cache.
//! Their transpositions are local (a few moves played in another order), so a table of a
//! few hundred KB per thread (`settings::LOCAL_TABLE_KB`), which stays in that core's L2
//! cache, finds most of them. The fewer nodes just above them (to
//! `settings::LOCAL_TABLE_MAX_EMPTIES`) repay a larger table, in L3, whose buckets the
//! parent prefetches ([`LocalTables`]).
//! Entries are facts about a board (bounds with their trust level), so a local table
//! gives the same scores as the shared one; it is emptied when the shared table it works
//! beside is cleared, so that one thread's node counts repeat.
//!
//! Only its thread reads and writes it, so unlike the shared table it needs no atomics
//! and no check against torn writes, and an entry is 16 bytes instead of 32: four to a
//! cache line, twice the entries in the same cache. The price is the key: a 64-bit hash
//! of the board (`board::key::board_key`) instead of the board itself. The bucket is
//! chosen by another hash, so a probe finds a foreign board only if its key equals one
//! of the bucket's four: with keys of unrelated boards equal with probability 2^-64, at
//! most 4 * 2^-64 a probe, about 2e-9 over the 10^10 probes of a solve of FFO 40-59.
//! Measured against the 32-byte entries at the same 256 KB, FFO 40-49 one thread:
//! see `settings::LOCAL_TABLE_KB`.

use super::entry::{Stored, TtHit, data, hit, merge, victim_rank};
use super::memory::{Zeroable, ZeroedSlice, prefetch};
use super::shared::TranspositionTable;
use crate::board::Board;
use crate::board::key::board_key;
use crate::settings::{LOCAL_LARGE_TABLE_KB, LOCAL_TABLE_KB};
use std::cell::{Cell, OnceCell};

/// Entries per bucket. A layout fact, not a threshold: four keys, then their four data
/// words, fill one 64-byte cache line (asserted below).
const ENTRIES_PER_BUCKET: usize = 4;

/// One cache line of entries. A data word's top byte is its entry's cost (log2 of the
/// nodes its search examined), for replacement; an entry whose data word is of another
/// generation (all zero: generation 0, never live) is empty.
#[repr(align(64))]
struct Bucket {
    keys: [Cell<u64>; ENTRIES_PER_BUCKET],
    data: [Cell<u64>; ENTRIES_PER_BUCKET],
}

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

// SAFETY: all zero is a bucket of empty entries.
unsafe impl Zeroable for Bucket {}

/// A thread's own table: buckets of four 16-byte entries.
pub(crate) struct DenseTable {
    buckets: ZeroedSlice<Bucket>,
    /// Entries of other generations count as empty: forgetting is one increment.
    generation: Cell<u8>,
}

impl DenseTable {
    /// A table of about `kb` kilobytes (at least one bucket).
    pub(crate) fn new_kb(kb: usize) -> std::io::Result<DenseTable> {
        let n = (kb.saturating_mul(1 << 10) / std::mem::size_of::<Bucket>()).max(1);
        Ok(DenseTable {
            buckets: ZeroedSlice::new(n)?,
            generation: Cell::new(1),
        })
    }

    /// Forgets every entry: O(1) except once every 255 calls, when the memory is zeroed
    /// so that an old generation cannot come back to life.
    pub(crate) fn forget(&self) {
        let g = self.generation.get();
        if g == u8::MAX {
            for bucket in self.buckets.iter() {
                for c in bucket.keys.iter().chain(&bucket.data) {
                    c.set(0);
                }
            }
            self.generation.set(1);
        } else {
            self.generation.set(g + 1);
        }
    }

    /// The bucket of `board` (by a hash independent of its key) and its key.
    #[inline(always)]
    fn bucket(&self, board: &Board) -> (&Bucket, u64) {
        let mut h = board.player.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ board.opponent.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        h ^= h >> 32;
        h = h.wrapping_mul(0x94D0_49BB_1331_11EB);
        let i = ((h as u128 * self.buckets.len() as u128) >> 64) as usize;
        (&self.buckets[i], board_key(board.player, board.opponent))
    }

    /// Starts loading the bucket of `board` into the cache.
    #[inline(always)]
    pub(crate) fn prefetch(&self, board: &Board) {
        prefetch(self.bucket(board).0);
    }

    /// Bounds stored for `board`, if any.
    #[inline(always)]
    pub(crate) fn probe(&self, board: &Board) -> Option<TtHit> {
        let (bucket, key) = self.bucket(board);
        let generation = self.generation.get();
        for k in 0..ENTRIES_PER_BUCKET {
            if bucket.keys[k].get() == key {
                let d = bucket.data[k].get();
                if data::generation(d) == generation {
                    return Some(hit(d));
                }
            }
        }
        None
    }

    /// As [`TranspositionTable::store`].
    #[inline(always)]
    pub(crate) fn store(&self, board: &Board, stored: Stored) {
        let (mut lower, mut upper) = stored.bounds();
        let generation = self.generation.get();
        let (bucket, key) = self.bucket(board);
        let mut best = stored.best();
        let mut victim = 0;
        let mut victim_rank_min = u32::MAX;
        for k in 0..ENTRIES_PER_BUCKET {
            let d = bucket.data[k].get();
            if bucket.keys[k].get() == key && data::generation(d) == generation {
                let Some(merged) = merge(d, &stored) else {
                    return;
                };
                (lower, upper, best) = merged;
                victim = k;
                break;
            }
            let rank = victim_rank(d, d >> 56, generation, 0);
            if rank < victim_rank_min {
                victim_rank_min = rank;
                victim = k;
            }
        }
        let d = data::pack(lower, upper, best, generation, stored.level.to_bits(), 0)
            | stored.cost() << 56;
        bucket.keys[victim].set(key);
        bucket.data[victim].set(d);
    }
}

/// A thread's two tables: a small one for the most numerous nodes, which stays in the
/// core's L2 cache, and a larger one for the fewer, costlier nodes above them, whose
/// buckets the parent prefetches (`settings::LOCAL_SMALL_MAX_EMPTIES`).
pub(crate) struct LocalTables {
    /// Boards of up to `LOCAL_SMALL_MAX_EMPTIES` empties.
    pub(crate) small: DenseTable,
    /// Boards of more empties, up to `LOCAL_TABLE_MAX_EMPTIES`.
    pub(crate) large: DenseTable,
}

impl LocalTables {
    fn new() -> std::io::Result<LocalTables> {
        Ok(LocalTables {
            small: DenseTable::new_kb(LOCAL_TABLE_KB)?,
            large: DenseTable::new_kb(LOCAL_LARGE_TABLE_KB)?,
        })
    }

    fn forget(&self) {
        self.small.forget();
        self.large.forget();
    }
}

thread_local! {
    /// This thread's tables, made on its first search and freed when the thread ends.
    static TABLE: OnceCell<LocalTables> = const { OnceCell::new() };
    /// The epoch of the shared table's contents the local table last worked beside.
    static SERVED: Cell<u64> = const { Cell::new(0) };
}

/// The calling thread's local tables. Neither `Send` nor `Sync` (a raw pointer): it must
/// stay on the thread whose tables it points to, which keeps them alive.
#[derive(Clone, Copy)]
pub(crate) struct LocalTable {
    table: *const LocalTables,
}

/// Makes the calling thread's table now, so that a thread that cannot have its memory
/// says so before the search starts rather than failing inside it.
pub(crate) fn prepare() -> std::io::Result<()> {
    TABLE.with(|t| {
        if t.get().is_none() {
            let _ = t.set(LocalTables::new()?);
        }
        Ok(())
    })
}

impl LocalTable {
    /// The calling thread's local table, emptied first if it last worked beside other
    /// contents than `shared`'s.
    pub(crate) fn of_this_thread(shared: &TranspositionTable) -> LocalTable {
        let table: *const LocalTables = TABLE.with(|t| {
            t.get_or_init(|| {
                // Made ahead by `prepare` on every thread of a solver made by
                // `Solver::try_new`; only a thread it did not see gets here.
                LocalTables::new().expect("cannot allocate a search thread's local tables")
            }) as *const _
        });
        let epoch = shared.epoch();
        if SERVED.with(|s| s.replace(epoch)) != epoch {
            // SAFETY: as in `get`.
            unsafe { &*table }.forget();
        }
        LocalTable { table }
    }

    /// The tables.
    #[inline]
    pub(crate) fn get(&self) -> &LocalTables {
        // SAFETY: the pointer is to this thread's `TABLE`, which is initialised once and
        // lives until the thread ends; a `LocalTable` cannot leave the thread it was made
        // on (it is neither `Send` nor `Sync`), so it is gone before the table is.
        unsafe { &*self.table }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::board::random::SplitMix64;
    use crate::search::selectivity::level::Level;
    const EXACT: Level = Level::EXACT;

    fn random_board(rng: &mut SplitMix64) -> Board {
        let a = rng.next_u64();
        let b = rng.next_u64() & !a;
        Board::new(a, b)
    }

    #[test]
    fn store_probe_merge_and_forget() {
        let t = DenseTable::new_kb(16).unwrap();
        let b = Board::START;
        assert_eq!(t.probe(&b), None);
        t.store(
            &b,
            Stored::new((-10, 10), 12, Some(Square::from_index(19)), EXACT, 1000),
        );
        let h = t.probe(&b).unwrap();
        assert_eq!((h.lower, h.upper), (12, 64));
        assert_eq!(h.best_move, Some(Square::from_index(19)));
        // A second search narrows the bounds and keeps the best move it did not replace.
        t.store(&b, Stored::new((11, 13), 12, None, EXACT, 1000));
        let h = t.probe(&b).unwrap();
        assert_eq!((h.lower, h.upper), (12, 12));
        assert_eq!(h.best_move, Some(Square::from_index(19)));
        // A less trusted result does not overwrite exact bounds.
        t.store(&b, Stored::new((-10, 10), -20, None, Level::NARROW, 1000));
        assert_eq!(t.probe(&b).unwrap().lower, 12);
        // The same discs with the other side to move are another board.
        assert_eq!(t.probe(&b.pass()), None);
        t.forget();
        assert_eq!(t.probe(&b), None);
        // Past 255 generations the memory is zeroed; entries still come and go.
        for _ in 0..600 {
            t.store(&b, Stored::new((-1, 1), 0, None, EXACT, 1));
            assert!(t.probe(&b).is_some());
            t.forget();
            assert_eq!(t.probe(&b), None);
        }
    }

    #[test]
    fn a_probe_finds_only_its_own_board() {
        // A one-bucket table under 20 000 random boards, each stored once with bounds of
        // its own: whatever a probe finds must be what was stored for that board.
        let t = DenseTable::new_kb(0).unwrap();
        let mut rng = SplitMix64::new(77);
        let mut hits = 0;
        for i in 0..20_000 {
            let b = random_board(&mut rng);
            let score = (b.player % 129) as i32 - 64;
            t.store(
                &b,
                Stored::new((score - 1, score + 1), score, None, EXACT, i),
            );
            let h = t.probe(&b).expect("the board just stored");
            assert_eq!((h.lower, h.upper), (score, score));
            let other = random_board(&mut rng);
            if let Some(h) = t.probe(&other) {
                let s = (other.player % 129) as i32 - 64;
                assert_eq!((h.lower, h.upper), (s, s));
                hits += 1;
            }
        }
        assert_eq!(hits, 0, "random boards were never stored");
    }

    #[test]
    fn replacement_keeps_the_costliest_entries() {
        // One bucket of four: the fifth board replaces the one whose search was cheapest.
        let t = DenseTable::new_kb(0).unwrap();
        let mut rng = SplitMix64::new(5);
        let boards: Vec<Board> = (0..5).map(|_| random_board(&mut rng)).collect();
        for (b, nodes) in boards.iter().zip([1 << 20, 1 << 3, 1 << 12, 1 << 16]) {
            t.store(b, Stored::new((-1, 1), 0, None, EXACT, nodes));
        }
        t.store(&boards[4], Stored::new((-1, 1), 0, None, EXACT, 1 << 10));
        let present: Vec<bool> = boards.iter().map(|b| t.probe(b).is_some()).collect();
        assert_eq!(present, [true, false, true, true, true]);
    }
}
