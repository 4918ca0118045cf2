//! A small table per thread for the nodes nearest the end of the endgame band.
//!
//! Nodes of few empties are the most numerous and their subtrees the smallest, so a probe
//! of the shared table there (and ETC's probes of every child) costs a memory access that
//! the subtree cannot repay: with a table of hundreds of MB each one misses every cache.
//! Their transpositions are local (a few moves played in another order), so a table of a
//! few hundred KB per thread (`settings::LOCAL_TABLE_KB`), which stays in that core's L2
//! cache, finds most of them.
//! Entries are facts about a board (full board as key, bounds with their trust level),
//! so a local table gives the same scores as the shared one; it is emptied when the
//! shared table it works beside is cleared, so that one thread's node counts repeat.

use super::TranspositionTable;
use crate::settings::LOCAL_TABLE_KB;
use std::cell::{Cell, OnceCell};

thread_local! {
    /// This thread's table, made on its first search and freed when the thread ends.
    static TABLE: OnceCell<TranspositionTable> = const { OnceCell::new() };
    /// The epoch of the shared table's contents the local table last worked beside.
    static SERVED: Cell<u64> = const { Cell::new(0) };
}

/// The calling thread's local table. Neither `Send` nor `Sync` (a raw pointer): it must
/// stay on the thread whose table it points to, which keeps that table alive.
#[derive(Clone, Copy)]
pub(crate) struct LocalTable {
    table: *const TranspositionTable,
}

/// Makes the calling thread's table now, so that a thread that cannot have its memory
/// says so before the search starts rather than failing inside it.
pub(crate) fn prepare() -> std::io::Result<()> {
    TABLE.with(|t| {
        if t.get().is_none() {
            let _ = t.set(TranspositionTable::new_kb(LOCAL_TABLE_KB)?);
        }
        Ok(())
    })
}

impl LocalTable {
    /// The calling thread's local table, emptied first if it last worked beside other
    /// contents than `shared`'s.
    pub(crate) fn of_this_thread(shared: &TranspositionTable) -> LocalTable {
        let table: *const TranspositionTable = TABLE.with(|t| {
            t.get_or_init(|| {
                // Made ahead by `prepare` on every thread of a solver made by
                // `Solver::try_new`; only a thread it did not see gets here.
                TranspositionTable::new_kb(LOCAL_TABLE_KB)
                    .expect("cannot allocate a search thread's local table")
            }) as *const _
        });
        let epoch = shared.epoch();
        if SERVED.with(|s| s.replace(epoch)) != epoch {
            // SAFETY: as in `get`.
            unsafe { &*table }.forget();
        }
        LocalTable { table }
    }

    /// The table.
    #[inline]
    pub(crate) fn get(&self) -> &TranspositionTable {
        // SAFETY: the pointer is to this thread's `TABLE`, which is initialised once and
        // lives until the thread ends; a `LocalTable` cannot leave the thread it was made
        // on (it is neither `Send` nor `Sync`), so it is gone before the table is.
        unsafe { &*self.table }
    }
}
