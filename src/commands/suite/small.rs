//! Small positions solved several at once, one thread each, where that beats every
//! thread splitting each one.

use super::SuiteOptions;
use crate::board::ObfRecord;
use crate::commands::variant::{Variant, VariantKind};
use crate::interrupt::Interrupt;
use crate::search::{Mode, SolveResult, Solver, TimedOut};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// With several threads, runs of positions with fewer empties than this are solved
/// several at once, one thread each, instead of split: small trees have too few big nodes
/// to keep the threads busy
/// ([results/parallel/2026-11-23-positions-at-once.md](../../../results/parallel/2026-11-23-positions-at-once.md)).
pub const POSITIONS_AT_ONCE_MAX_EMPTIES: u32 = 19;

/// At most this many small positions are handed out at once: enough to keep every thread
/// busy, few enough that rows still appear steadily. Not measured.
pub const SUITE_SMALL_RUN_MAX: usize = 256;

/// How many of `records` (from the first) to solve at once, each on one thread, rather
/// than one after the other with every thread splitting each: the leading run of
/// positions with fewer than [`POSITIONS_AT_ONCE_MAX_EMPTIES`] empties, when the variant
/// is this binary's and more than one thread may search.
pub(super) fn small_run(records: &[ObfRecord], v: &Variant, options: &SuiteOptions) -> usize {
    let threads = v.threads(options.threads).running;
    if threads < 2 || !matches!(v.kind, VariantKind::Flags(_)) {
        return 0;
    }
    records
        .iter()
        .take(SUITE_SMALL_RUN_MAX)
        .take_while(|r| r.position.board.empty_count() < POSITIONS_AT_ONCE_MAX_EMPTIES)
        .count()
}

/// Solves `records` on one thread per solver, each with a cleared table, taking them in
/// order; returns the answers in the records' order (`Err` for those `interrupt` stopped).
pub(super) fn solve_at_once(
    solvers: &mut [Solver],
    records: &[ObfRecord],
    mode: Mode,
    interrupt: &Interrupt,
) -> Vec<std::result::Result<SolveResult, TimedOut>> {
    let next = AtomicUsize::new(0);
    type Found = (usize, std::result::Result<SolveResult, TimedOut>);
    let mut found: Vec<Found> = std::thread::scope(|scope| {
        let handles: Vec<_> = solvers
            .iter_mut()
            .map(|solver| {
                let next = &next;
                scope.spawn(move || {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Relaxed);
                        let Some(r) = records.get(i) else { break };
                        solver.clear();
                        solver.set_abort(interrupt.flag());
                        mine.push((i, solver.solve_within(r.position.board, mode, None)));
                    }
                    mine
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a solver thread panicked"))
            .collect()
    });
    found.sort_by_key(|&(i, _)| i);
    found.into_iter().map(|(_, r)| r).collect()
}
