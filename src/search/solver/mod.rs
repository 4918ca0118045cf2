//! The solver: its table, its thread pool and the public ways to solve; `saves.rs`, the
//! saves of its table while it solves.

mod saves;

use saves::Saver;
pub use saves::{TABLE_TEMP_PREFIX, TableSaves};

use super::parallel::busy::Busy;
use super::root::answer::{Mode, PassReport, SolveResult, TimedOut};
use super::selectivity::level::Level;
use super::selectivity::samples::ProbcutSamples;

use super::error::{StartError, TableFileError};
use super::measure::span::{self, Span, SpanReport};
use super::options::SearchOptions;
use super::parallel::pool::Pool;
use super::parallel::threads::search_threads;
use super::root::passes::{Passes, settled, solve_root};
use super::state::Search;
use super::table;
use super::table::{SavedTable, TranspositionTable};
use crate::board::Board;
use crate::settings::{DEFAULT_HASH_MB, LOCAL_TABLE_KB, SPLIT_MANY_THREADS};
use std::io;
use std::time::{Duration, Instant};

/// Solver settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolverOptions {
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Search switches.
    pub search: SearchOptions,
    /// Search threads sharing the table. 1 searches on the calling thread, in a
    /// deterministic order (node counts repeat exactly); more use Young Brothers Wait
    /// splitting on a pool of this many threads, but no more than the cores the process
    /// may use unless `oversubscribe` is set. Scores and best moves never depend on it.
    pub threads: usize,
    /// Run every requested thread even beyond the cores. Slower: the threads take turns on
    /// the cores, and each searches speculative moves the others would have made
    /// unnecessary (FFO 40-49, 8 threads on 2 cores against 2 threads: +40 % nodes, x1.40
    /// time). For tests and measurements.
    pub oversubscribe: bool,
}

impl Default for SolverOptions {
    fn default() -> Self {
        SolverOptions {
            hash_mb: DEFAULT_HASH_MB,
            search: SearchOptions::default(),
            threads: 1,
            oversubscribe: false,
        }
    }
}

/// Stack of each pool thread: a waiting thread runs stolen subtrees on top of its own, so
/// recursion can nest several searches deep. Only touched pages cost memory.
const POOL_STACK_BYTES: usize = 64 << 20;

/// Solves positions; owns the transposition table, which persists between solves
/// until [`Solver::clear`], and the thread pool when there is more than one thread.
pub struct Solver {
    tt: TranspositionTable,
    options: SolverOptions,
    pool: Option<rayon::ThreadPool>,
    /// The solver's own pool instead, with many threads (`pool.rs`).
    many: Option<Pool>,
    /// Threads working on one split node: every thread of the pool. Oversubscribed too, so
    /// that a run of P threads on fewer cores searches the speculative work of P (until
    /// 2026-11-27 it was capped at the cores, and such a run split like one of 2 threads).
    split_workers: usize,
    /// When set, every solve gives up as if its time limit had passed.
    abort: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// When set, every solve gives up after about this many nodes.
    node_budget: Option<u64>,
    /// The last finished solve's work and span (a span build's only).
    last_span: Option<SpanReport>,
    /// Where and how often solves save their table, and what a loaded one carries.
    saver: Saver,
}

impl Solver {
    /// A solver with a table of `options.hash_mb` MB and
    /// [`search_threads`]`(options.threads, options.oversubscribe)` threads.
    /// Panics if the system cannot start the threads or map the tables; commands use
    /// [`Solver::try_new`], which says why instead.
    pub fn new(options: SolverOptions) -> Solver {
        Solver::try_new(options).unwrap_or_else(|e| panic!("{e}"))
    }

    /// As [`Solver::new`], or why the system refused the threads or the tables' memory.
    /// Every thread's local table is made here, so a solve cannot run out of it later.
    pub fn try_new(options: SolverOptions) -> Result<Solver, StartError> {
        super::stability::init();
        let threads = search_threads(options.threads, options.oversubscribe);
        // A span build searches on this thread and only accounts for the others.
        let own = threads >= SPLIT_MANY_THREADS && !cfg!(feature = "span");
        let pool = match threads {
            1 => None,
            _ if cfg!(feature = "span") || own => None,
            _ => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .stack_size(POOL_STACK_BYTES)
                    .thread_name(|i| format!("finale-search-{i}"))
                    .build()
                    .map_err(|e| StartError::Threads {
                        threads,
                        why: e.to_string(),
                    })?,
            ),
        };
        let local = |source| StartError::LocalTable {
            kb: LOCAL_TABLE_KB,
            threads,
            source,
        };
        table::prepare().map_err(local)?;
        if let Some(pool) = &pool {
            pool.broadcast(|_| table::prepare())
                .into_iter()
                .collect::<std::io::Result<()>>()
                .map_err(local)?;
        }
        let many = if own {
            Some(
                Pool::start(threads - 1, POOL_STACK_BYTES, table::prepare)
                    .map_err(|why| StartError::Threads { threads, why })?,
            )
        } else {
            None
        };
        let tt =
            TranspositionTable::try_new(options.hash_mb).map_err(|source| StartError::Table {
                mb: options.hash_mb,
                source,
            })?;
        Ok(Solver {
            tt,
            options: SolverOptions { threads, ..options },
            pool,
            many,
            split_workers: threads,
            abort: None,
            node_budget: None,
            last_span: None,
            saver: Saver::default(),
        })
    }

    /// Makes every later solve give up within a few thousand nodes of `flag` being set
    /// (by another thread), returning as [`Solver::solve_within`] does at a time limit.
    /// Searches without a flag do exactly the same work as before.
    pub fn set_abort(&mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) {
        self.abort = Some(flag);
    }

    /// Makes every later solve ([`Solver::solve_within`], [`Solver::solve_reporting`])
    /// give up once it has searched about `nodes` nodes (`None`: never), as it does at a
    /// time limit. At one thread the same budget stops the same solve at the same node,
    /// on any machine, which a time limit cannot do.
    pub fn set_node_budget(&mut self, nodes: Option<u64>) {
        self.node_budget = nodes;
    }

    /// Makes every later solve save its table to `saves.path` every `saves.every`, and
    /// once more when it gives up (`None`: never). A solve that finishes does not save:
    /// its answer is what its caller keeps. A failed save does not stop the solve; it is
    /// kept for [`Solver::take_save_error`].
    pub fn set_table_saves(&mut self, saves: Option<TableSaves>) {
        self.saver.set(saves);
    }

    /// The first save of the table that failed since the last call, with its file.
    pub fn take_save_error(&mut self) -> Option<(std::path::PathBuf, io::Error)> {
        self.saver.take_error()
    }

    /// Replaces the table with the table file at `path`, saved by a solve of `root` with
    /// a table of this size; the next solve of `root` goes on from what it had learnt, and
    /// its saves record the work the file carries plus its own. On an error the table is
    /// empty. Returns the work the file carries (its solve's nodes and time are its own).
    pub fn load_table(
        &mut self,
        path: &std::path::Path,
        root: &Board,
    ) -> Result<SavedTable, TableFileError> {
        self.saver.load(&mut self.tt, path, root)
    }

    /// The work and span of the last finished solve: `None` unless finale was built with
    /// the `span` feature (see `search/measure/span.rs`).
    pub fn last_span(&self) -> Option<&SpanReport> {
        self.last_span.as_ref()
    }

    /// Threads searching (see [`search_threads`]).
    pub fn threads(&self) -> usize {
        self.options.threads
    }

    /// Runs `f` on a fresh search: on the pool when there is one, else right here.
    /// Returns its result, nodes, whether it was stopped, and its span account.
    fn run<R: Send>(
        &self,
        deadline: Option<Instant>,
        budget: Option<u64>,
        f: impl FnOnce(&mut Search) -> R + Send,
    ) -> (R, u64, bool, Span) {
        let go = || {
            let busy = Busy::new();
            let mut s = Search::new(&self.tt, &self.options.search);
            s.split.workers = self.split_workers;
            s.split.busy = Some(&busy);
            s.split.pool = self.many.as_ref();
            #[cfg(feature = "span")]
            {
                s.measure.span.in_turn = self.split_workers > 1;
            }
            if let Some(d) = deadline {
                s.set_deadline(d);
            }
            if let Some(a) = &self.abort {
                s.set_abort(a);
            }
            if let Some(count) = self.saver.progress() {
                s.set_progress(count);
            }
            if let Some(n) = budget {
                s.set_node_budget(n);
            }
            let r = f(&mut s);
            (r, s.nodes, s.stop.stopped, s.measure.span)
        };
        match &self.pool {
            Some(pool) => pool.install(go),
            None => go(),
        }
    }

    /// The move generation kernels the solves run on.
    pub fn kernels(&self) -> crate::board::kernels::Isa {
        self.options.search.kernels
    }

    /// Changes the search switches of the next solves (the table and threads stay).
    pub fn set_search(&mut self, search: SearchOptions) {
        self.options.search = search;
    }

    /// Forgets everything learnt so that the next solve's node count is reproducible.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.saver.forget();
    }

    /// The fail-soft value of `board` within (`alpha`, `beta`) and the nodes searched,
    /// without the root's per-move bookkeeping or principal variation: a null-window
    /// test, or a kernel to benchmark.
    pub fn search(&mut self, board: Board, alpha: i32, beta: i32) -> (i32, u64) {
        let (v, nodes, _, _) = self.run(None, None, |s| {
            s.search(board, alpha, beta, board.empty_count())
        });
        (v, nodes)
    }

    /// Whether the exact value of `board` (side to move first) is at least `score`: one
    /// exact null-window search, much cheaper than a solve. `None` when the abort flag
    /// ([`Solver::set_abort`]) stopped it.
    pub fn reaches(&mut self, board: Board, score: i32) -> Option<bool> {
        self.tt.new_search();
        let (v, _, stopped, _) = self.run(None, None, |s| {
            s.level = Level::EXACT;
            s.search(board, score - 1, score, board.empty_count())
        });
        (!stopped).then_some(v >= score)
    }

    /// Solves `board` (side to move first) in `mode`. Panics if the abort flag
    /// ([`Solver::set_abort`]) or the node budget ([`Solver::set_node_budget`]) stops it:
    /// a solver with one uses [`Solver::solve_within`].
    pub fn solve(&mut self, board: Board, mode: Mode) -> SolveResult {
        match self.solve_within(board, mode, None) {
            Ok(r) => r,
            Err(_) => unreachable!(
                "a solve without a time limit, node budget or abort flag always finishes"
            ),
        }
    }

    /// Solves `board` exactly up to the pass at `selectivity` (the rising passes of a
    /// probable solve) and returns the boards of about one in `rate` of the nodes where
    /// probcut was tried: the positions whose error model matters (`finale train-mpc`).
    pub fn probcut_nodes(&mut self, board: Board, selectivity: Level, rate: u64) -> Vec<Board> {
        self.tt.new_search();
        let (samples, _, _, _) = self.run(None, None, |s| {
            s.samples = Some(ProbcutSamples::one_in(rate));
            let mut none = |_: &PassReport| {};
            let mut passes = Passes {
                start: Instant::now(),
                report: &mut none,
            };
            solve_root(s, board, Mode::Exact, selectivity, &mut passes);
            s.samples
                .take()
                .map(ProbcutSamples::into_boards)
                .unwrap_or_default()
        });
        samples
    }

    /// Solves `board` in `mode`, giving up after `limit` (never without one) or the node
    /// budget ([`Solver::set_node_budget`]).
    pub fn solve_within(
        &mut self,
        board: Board,
        mode: Mode,
        limit: Option<Duration>,
    ) -> Result<SolveResult, TimedOut> {
        self.solve_reporting(board, mode, limit, &mut |_| {})
    }

    /// [`Solver::solve_within`], handing `on_pass` each pass at the root as it finishes
    /// (the probable passes of rising selectivity, then the exact one); a solve stopped at
    /// the time limit keeps the last finished pass in [`TimedOut::last_pass`].
    pub fn solve_reporting(
        &mut self,
        board: Board,
        mode: Mode,
        limit: Option<Duration>,
        on_pass: &mut (dyn FnMut(&PassReport) + Send),
    ) -> Result<SolveResult, TimedOut> {
        let start = Instant::now();
        self.tt.new_search();
        let mut last_pass: Option<PassReport> = None;
        // Each pass's best move and end time, to find when the final one was settled.
        let mut bests = Vec::new();
        let mut report = |p: &PassReport| {
            bests.push((p.best, p.time));
            last_pass = Some(p.clone());
            on_pass(p);
        };
        let selectivity = self.options.search.selectivity;
        let ((mut result, nodes, stopped, span), save_error) =
            self.saver.saving(&self.tt, (board, start), || {
                self.run(limit.map(|l| start + l), self.node_budget, |s| {
                    solve_root(
                        s,
                        board,
                        mode,
                        selectivity,
                        &mut Passes {
                            start,
                            report: &mut report,
                        },
                    )
                })
            });
        let time = start.elapsed();
        self.saver
            .after(&self.tt, board, (stopped, time, nodes), save_error);
        if stopped {
            return Err(TimedOut {
                nodes,
                time,
                last_pass,
            });
        }
        result.nodes = nodes;
        result.time = time;
        self.last_span = span.report(board.empty_count(), nodes);
        span::record(self.last_span.clone());
        if result.best_found.is_none() {
            result.best_found = Some(settled(&bests, &result.best_moves, time));
        }
        Ok(result)
    }
}
