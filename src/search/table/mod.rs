//! The tables a search keeps bounds in: the shared transposition table (`shared.rs`),
//! each thread's own small tables for boards of few empties (`local.rs`), the memory they
//! live in (`memory.rs`), the entry format both share (`entry.rs`), the size a deep
//! solve's table gets (`size.rs`) and the shared table on disk (`snapshot.rs`). [`Tables`] holds a
//! thread's tables, and [`choice`] is the one rule of which table a board of `n` empties
//! uses.

mod entry;
mod local;
mod memory;
mod shared;
mod size;
mod snapshot;

pub(crate) use entry::Stored;
pub use entry::TtHit;
pub(crate) use local::prepare;
pub use shared::TranspositionTable;
pub use size::{deep_hash_mb, deep_hash_mb_within};
pub use snapshot::SavedTable;

use crate::board::Board;
use crate::settings::{LOCAL_SMALL_MAX_EMPTIES, LOCAL_TABLE_MAX_EMPTIES};
use local::{DenseTable, LocalTable};

/// Which table a board uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Choice {
    /// This thread's small table, in the core's own cache.
    Small,
    /// This thread's large table.
    Large,
    /// The shared table.
    Shared,
}

/// The one table-choice rule: a board of `n` empties uses this thread's small table up to
/// `LOCAL_SMALL_MAX_EMPTIES`, its large one up to `LOCAL_TABLE_MAX_EMPTIES` with one or two
/// threads, and the shared one above. With `many_threads` (`SPLIT_MANY_THREADS` or more),
/// a board one thread stored in its large table is lost to the others, whose subtrees
/// reach it by another order of moves, and the large tables of 16 threads (64 MB) no
/// longer fit in a shared L3 cache anyway.
#[inline(always)]
pub(crate) fn choice(n: u32, many_threads: bool) -> Choice {
    if n <= LOCAL_SMALL_MAX_EMPTIES {
        Choice::Small
    } else if n <= LOCAL_TABLE_MAX_EMPTIES && !many_threads {
        Choice::Large
    } else {
        Choice::Shared
    }
}

/// The tables one thread's search uses: the shared one, and this thread's own (none when
/// the search uses no table, where every board goes to the shared one, never probed).
pub(crate) struct Tables<'a> {
    /// The table all threads share.
    pub(crate) shared: &'a TranspositionTable,
    local: Option<LocalTable>,
}

impl<'a> Tables<'a> {
    /// The calling thread's tables beside `shared` (its own only when `local`).
    pub(crate) fn of_this_thread(shared: &'a TranspositionTable, local: bool) -> Tables<'a> {
        Tables {
            shared,
            local: local.then(|| LocalTable::of_this_thread(shared)),
        }
    }

    /// The table for boards of `n` empties ([`choice`]).
    #[inline(always)]
    pub(crate) fn for_board(&self, n: u32, many_threads: bool) -> Table<'_> {
        match (&self.local, choice(n, many_threads)) {
            (Some(local), Choice::Small) => Table::Local(&local.get().small),
            (Some(local), Choice::Large) => Table::Local(&local.get().large),
            _ => Table::Shared(self.shared),
        }
    }

    /// True when boards of `n` empties use this thread's own tables.
    #[inline]
    pub(crate) fn is_local(&self, n: u32, many_threads: bool) -> bool {
        self.local.is_some() && choice(n, many_threads) != Choice::Shared
    }

    /// True when boards of `n` empties use a table that stays in the core's cache, where
    /// a prefetch only queues behind the loads it would hide (see `search_rest`).
    #[inline]
    pub(crate) fn is_cached(&self, n: u32) -> bool {
        self.local.is_some() && choice(n, false) == Choice::Small
    }
}

/// The table a node probes and stores in: the shared one or this thread's local one.
#[derive(Clone, Copy)]
pub(crate) enum Table<'a> {
    Shared(&'a TranspositionTable),
    Local(&'a DenseTable),
}

impl Table<'_> {
    /// Starts loading the bucket of `board` into the cache.
    #[inline(always)]
    pub(crate) fn prefetch(self, board: &Board) {
        match self {
            Table::Shared(t) => t.prefetch(board),
            Table::Local(t) => t.prefetch(board),
        }
    }

    /// Bounds stored for `board`, if any.
    #[inline(always)]
    pub(crate) fn probe(self, board: &Board) -> Option<TtHit> {
        match self {
            Table::Shared(t) => t.probe(board),
            Table::Local(t) => t.probe(board),
        }
    }

    /// Records what a search of `board` found.
    #[inline(always)]
    pub(crate) fn store(self, board: &Board, stored: Stored) {
        match self {
            Table::Shared(t) => t.store(board, stored),
            Table::Local(t) => t.store(board, stored),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_large_local_table_serves_one_or_two_threads_only() {
        let tt = TranspositionTable::new(1);
        let tables = Tables::of_this_thread(&tt, true);
        let is_local = |n, many| matches!(tables.for_board(n, many), Table::Local(_));
        for many in [false, true] {
            for n in LOCAL_SMALL_MAX_EMPTIES + 1..=LOCAL_TABLE_MAX_EMPTIES {
                assert_eq!(tables.is_local(n, many), !many, "many {many}, {n}");
                assert_eq!(is_local(n, many), !many, "many {many}, {n}");
            }
            // The small table is every thread count's; above the large one, the shared.
            assert!(tables.is_local(LOCAL_SMALL_MAX_EMPTIES, many) && is_local(4, many));
            assert!(tables.is_cached(4) && !tables.is_cached(LOCAL_SMALL_MAX_EMPTIES + 1));
            let above = LOCAL_TABLE_MAX_EMPTIES + 1;
            assert!(!tables.is_local(above, many) && !is_local(above, many));
        }
        // Without tables of its own, every board goes to the shared one.
        let none = Tables::of_this_thread(&tt, false);
        assert!(matches!(none.for_board(4, false), Table::Shared(_)));
        assert!(!none.is_local(4, false) && !none.is_cached(4));
    }
}
