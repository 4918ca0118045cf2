//! The solver's table saves (`Solver::set_table_saves`): while a solve runs, a second
//! thread saves the table every so often, and once more when the solve gives up; a
//! resumed solve loads the last save back (`Solver::load_table`) and carries its work on.

use crate::board::Board;
use crate::durable::{Access, Existing, Replacement};
use crate::search::error::TableFileError;
use crate::search::table::{SavedTable, TranspositionTable};
use std::io::{self, BufReader, BufWriter};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Where a solve saves its table while it runs, so that a solve stopped by a restart can
/// resume from it ([`super::Solver::load_table`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSaves {
    /// The table file, replaced whole at each save.
    pub path: PathBuf,
    /// Time between saves; a solve that gives up (a limit, the abort flag) saves once more.
    pub every: Duration,
}

/// How the temporary file of a table save begins (`NAME.tmp` follows): a kill during a
/// save leaves one, which the next run may remove.
pub const TABLE_TEMP_PREFIX: &str = ".finale-table-";

/// A solver's saving state.
#[derive(Default)]
pub(super) struct Saver {
    /// Where and how often, if the solver saves.
    saves: Option<TableSaves>,
    /// The first failed save since [`Saver::take_error`].
    error: Option<io::Error>,
    /// The running solve's node count, published by its search for the saves.
    progress: AtomicU64,
    /// The work of earlier runs the loaded table carries, added to what a save records.
    carried: SavedTable,
}

impl Saver {
    /// Saves to `saves` from the next solve on (`None`: never).
    pub(super) fn set(&mut self, saves: Option<TableSaves>) {
        self.saves = saves;
    }

    /// The first failed save since the last call, with its file.
    pub(super) fn take_error(&mut self) -> Option<(PathBuf, io::Error)> {
        let e = self.error.take()?;
        let path = self
            .saves
            .as_ref()
            .map(|s| s.path.clone())
            .unwrap_or_default();
        Some((path, e))
    }

    /// Loads `tt` from the table file at `path` (saved solving `root`) and carries its
    /// work on; returns that work.
    pub(super) fn load(
        &mut self,
        tt: &mut TranspositionTable,
        path: &Path,
        root: &Board,
    ) -> Result<SavedTable, TableFileError> {
        let file = std::fs::File::open(path)?;
        self.carried = tt.load_from(BufReader::with_capacity(1 << 20, file), root)?;
        Ok(self.carried)
    }

    /// The table was cleared: no work is carried any more.
    pub(super) fn forget(&mut self) {
        self.carried = SavedTable::default();
    }

    /// Where the search publishes its node count: only when the solver saves.
    pub(super) fn progress(&self) -> Option<&AtomicU64> {
        self.saves.as_ref().map(|_| &self.progress)
    }

    /// The work a save records: the loaded table's, and this solve's `nodes` in `time`.
    fn work_with(&self, time: Duration, nodes: u64) -> SavedTable {
        SavedTable {
            seconds: self.carried.seconds + time.as_secs_f64(),
            nodes: self.carried.nodes + nodes,
        }
    }

    /// Runs `f`, a solve of `root` started at `start`, while a second thread saves `tt`
    /// every `saves.every` (when the solver saves); returns `f`'s result and the first
    /// failed save.
    pub(super) fn saving<R>(
        &self,
        tt: &TranspositionTable,
        (root, start): (Board, Instant),
        f: impl FnOnce() -> R,
    ) -> (R, Option<io::Error>) {
        self.progress.store(0, Relaxed);
        let Some(saves) = &self.saves else {
            return (f(), None);
        };
        let (wake, sleep) = channel::<()>();
        std::thread::scope(|scope| {
            let saver = std::thread::Builder::new()
                .name("finale-table-saver".into())
                .spawn_scoped(scope, move || {
                    while let Err(RecvTimeoutError::Timeout) = sleep.recv_timeout(saves.every) {
                        let nodes = self.progress.load(Relaxed);
                        let work = self.work_with(start.elapsed(), nodes);
                        if let Err(e) = save_table(tt, &saves.path, &root, work) {
                            return Some(e);
                        }
                    }
                    None
                });
            let r = f();
            drop(wake);
            let error = match saver {
                Ok(h) => h
                    .join()
                    .unwrap_or_else(|_| Some(io::Error::other("the table saver panicked"))),
                Err(e) => Some(e),
            };
            (r, error)
        })
    }

    /// After a solve of `root` that `stopped` (or not) after `time` and `nodes`, with
    /// `failed` the saver's first failed save: saves `tt` once more if it gave up, and
    /// keeps the first failure for [`Saver::take_error`].
    pub(super) fn after(
        &mut self,
        tt: &TranspositionTable,
        root: Board,
        (stopped, time, nodes): (bool, Duration, u64),
        failed: Option<io::Error>,
    ) {
        let failed = match (&self.saves, stopped, failed) {
            (Some(saves), true, None) => {
                save_table(tt, &saves.path, &root, self.work_with(time, nodes)).err()
            }
            (_, _, e) => e,
        };
        if self.error.is_none() {
            self.error = failed;
        }
    }
}

/// Saves `tt` to `path` for a solve of `root` that has done `work`: written beside it
/// and renamed over it once whole and on disk, so a kill leaves the last save.
fn save_table(
    tt: &TranspositionTable,
    path: &Path,
    root: &Board,
    work: SavedTable,
) -> io::Result<()> {
    let mut file = Replacement::beside(path, TABLE_TEMP_PREFIX, Access::Plain)?;
    tt.save_to(BufWriter::with_capacity(1 << 20, &mut file), root, work)?;
    file.commit(Existing::Replace).map_err(|e| e.source)
}
