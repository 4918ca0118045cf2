//! The root: solving modes, ties between best moves, the principal variation.

use super::account::Band;
use super::answer::{Mode, PASS_PV_MOVES, PassReport, PvMove, SolveResult, TimedOut};
use super::endgame::{MoveList, scored_moves, select_next};
use super::level::Level;
use super::start_error::StartError;
use super::state::Search;
use super::threads::{cores, search_threads};
use super::{SearchOptions, TranspositionTable, local_table};
use crate::board::kernels::Portable;
use crate::board::{Board, Square};
use crate::settings::{
    DEFAULT_HASH_MB, GUESS_MIN_EMPTIES, LOCAL_TABLE_KB, MPC_GUESS_LEVEL, MPC_SCHEDULE_MIN_EMPTIES,
    MPC_SECOND_GUESS_LEVEL, MPC_SECOND_GUESS_MIN_EMPTIES, SPLIT_CUT_MARGIN,
};

use std::sync::Mutex;
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
    /// Threads working on one split node: the pool's, but no more than the cores.
    split_workers: usize,
    /// When set, every solve gives up as if its time limit had passed.
    abort: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
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
        let pool = match threads {
            1 => None,
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
        local_table::prepare().map_err(local)?;
        if let Some(pool) = &pool {
            pool.broadcast(|_| local_table::prepare())
                .into_iter()
                .collect::<std::io::Result<()>>()
                .map_err(local)?;
        }
        let tt =
            TranspositionTable::try_new(options.hash_mb).map_err(|source| StartError::Table {
                mb: options.hash_mb,
                source,
            })?;
        Ok(Solver {
            tt,
            options: SolverOptions { threads, ..options },
            pool,
            split_workers: threads.min(cores()),
            abort: None,
        })
    }

    /// Makes every later solve give up within a few thousand nodes of `flag` being set
    /// (by another thread), returning as [`Solver::solve_within`] does at a time limit.
    /// Searches without a flag do exactly the same work as before.
    pub fn set_abort(&mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) {
        self.abort = Some(flag);
    }

    /// Threads searching (see [`search_threads`]).
    pub fn threads(&self) -> usize {
        self.options.threads
    }

    /// Runs `f` on a fresh search: on the pool when there is one, else right here.
    fn run<R: Send>(
        &self,
        deadline: Option<Instant>,
        f: impl FnOnce(&mut Search) -> R + Send,
    ) -> (R, u64, bool) {
        let go = || {
            let mut s = Search::new(&self.tt, &self.options.search);
            s.split_workers = self.split_workers;
            if let Some(d) = deadline {
                s.set_deadline(d);
            }
            if let Some(a) = &self.abort {
                s.set_abort(a);
            }
            let r = f(&mut s);
            (r, s.nodes, s.stopped)
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
    }

    /// The fail-soft value of `board` within (`alpha`, `beta`) and the nodes searched,
    /// without the root's per-move bookkeeping or principal variation: a null-window
    /// test, or a kernel to benchmark.
    pub fn search(&mut self, board: Board, alpha: i32, beta: i32) -> (i32, u64) {
        let (v, nodes, _) = self.run(None, |s| s.search(board, alpha, beta, board.empty_count()));
        (v, nodes)
    }

    /// Whether the exact value of `board` (side to move first) is at least `score`: one
    /// exact null-window search, much cheaper than a solve. `None` when the abort flag
    /// ([`Solver::set_abort`]) stopped it.
    pub fn reaches(&mut self, board: Board, score: i32) -> Option<bool> {
        self.tt.new_search();
        let (v, _, stopped) = self.run(None, |s| {
            s.level = Level::EXACT;
            s.search(board, score - 1, score, board.empty_count())
        });
        (!stopped).then_some(v >= score)
    }

    /// Solves `board` (side to move first) in `mode`. Panics if the abort flag
    /// ([`Solver::set_abort`]) stops it: a solver with one uses [`Solver::solve_within`].
    pub fn solve(&mut self, board: Board, mode: Mode) -> SolveResult {
        match self.solve_within(board, mode, None) {
            Ok(r) => r,
            Err(_) => unreachable!("a solve without a time limit or abort flag always finishes"),
        }
    }

    /// Solves `board` exactly up to the pass at `selectivity` (the rising passes of a
    /// probable solve) and returns the boards of about one in `rate` of the nodes where
    /// probcut was tried: the positions whose error model matters (`finale train-mpc`).
    pub fn probcut_nodes(&mut self, board: Board, selectivity: Level, rate: u64) -> Vec<Board> {
        self.tt.new_search();
        let (samples, _, _) = self.run(None, |s| {
            s.probcut_samples = Some((rate.max(1), Vec::new()));
            let mut none = |_: &PassReport| {};
            let mut passes = Passes {
                start: Instant::now(),
                report: &mut none,
            };
            solve_root(s, board, Mode::Exact, selectivity, &mut passes);
            s.probcut_samples.take().map(|(_, v)| v).unwrap_or_default()
        });
        samples
    }

    /// Solves `board` in `mode`, giving up after `limit` (never without one).
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
        let (mut result, nodes, stopped) = self.run(limit.map(|l| start + l), |s| {
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
        });
        let time = start.elapsed();
        if stopped {
            return Err(TimedOut {
                nodes,
                time,
                last_pass,
            });
        }
        result.nodes = nodes;
        result.time = time;
        if result.best_found.is_none() {
            result.best_found = Some(settled(&bests, &result.best_moves, time));
        }
        Ok(result)
    }
}

/// The end of the first of `passes` (best move, end time) from which on every pass chose
/// one of `best` (`total` when the last pass did not, or there was none; zero when there
/// is no best move to find).
fn settled(passes: &[(Option<Square>, Duration)], best: &[Square], total: Duration) -> Duration {
    if best.is_empty() {
        return Duration::ZERO;
    }
    let mut found = total;
    for &(mv, time) in passes.iter().rev() {
        if !mv.is_some_and(|m| best.contains(&m)) {
            break;
        }
        found = time;
    }
    found
}

/// Where the root hands its finished passes.
struct Passes<'a> {
    start: Instant,
    report: &'a mut (dyn FnMut(&PassReport) + Send),
}

impl Passes<'_> {
    /// Reports the pass just finished over `root`, unless the search was stopped in it.
    fn finished(&mut self, s: &Search, root: &[RootMove]) {
        if s.stopped {
            return;
        }
        let Some(best) = root.iter().max_by_key(|m| m.lower) else {
            return;
        };
        let time = self.start.elapsed();
        let mut pv = vec![PvMove::Play(best.sq)];
        table_line(s, best.child, PASS_PV_MOVES - 1, &mut pv);
        (self.report)(&PassReport {
            level: s.level,
            empties: best.child.empty_count() + 1,
            score: best.lower,
            best: Some(best.sq),
            pv,
            nodes: s.nodes,
            time,
        });
    }
}

/// Appends to `pv` up to `max` moves from `b` on, each the best move the table holds for
/// the position reached (a pass where the side to move has none), stopping where the
/// table has no legal move. Reads only: no node is searched and nothing is stored.
fn table_line(s: &Search, mut b: Board, max: usize, pv: &mut Vec<PvMove>) {
    for _ in 0..max {
        let moves = b.moves();
        if moves == 0 {
            if b.pass().moves() == 0 {
                return;
            }
            pv.push(PvMove::Pass);
            b = b.pass();
            continue;
        }
        let n = b.empty_count();
        let Some(sq) = s.table(n).probe(&b).and_then(|h| h.best_move) else {
            return;
        };
        if moves & sq.bit() == 0 {
            return;
        }
        let Some(next) = b.play(sq) else { return };
        pv.push(PvMove::Play(sq));
        b = next;
    }
}

/// A null-window probe's answer `v` (fail-soft) against `beta`, in the mode's terms: a
/// lower bound when at least `beta`, else an upper bound. Every final disc difference is
/// even (64 discs; empty squares go to the winner), so in exact mode an odd bound, which
/// only a multi-probcut cut leaves (it answers with the window's edge), tightens to the
/// even score beyond it: "at least 3" is "at least 4". Without this a probable pass could
/// settle on a score no game ends with (`-1@73%` in exact mode).
fn probe_bound(mode: Mode, v: i32, beta: i32) -> i32 {
    let v = mode.class(v);
    if mode == Mode::Wld || v % 2 == 0 {
        v
    } else if v >= beta {
        v + 1
    } else {
        v - 1
    }
}

/// Solves `board` in `mode` up to the pass at `selectivity`, reporting each finished pass
/// to `reports`: the root's moves, then every move's score (mode all) or the passes that
/// settle the best one.
fn solve_root(
    s: &mut Search,
    board: Board,
    mode: Mode,
    selectivity: Level,
    reports: &mut Passes,
) -> SolveResult {
    let moves = board.moves();
    s.count_node(Band::EndgameShared);
    if moves == 0 {
        return solve_without_moves(s, board, mode, selectivity, reports);
    }
    let mut root = root_moves(s, board, moves, mode);
    if mode == Mode::All {
        score_every_move(s, &mut root, board.empty_count());
    } else {
        run_passes(
            s,
            &mut root,
            board.empty_count(),
            mode,
            selectivity,
            reports,
        );
    }
    root_result(s, board, &root, mode)
}

/// The root without a move: the game's end, or the passes of the position after the pass,
/// reported from this side.
fn solve_without_moves(
    s: &mut Search,
    board: Board,
    mode: Mode,
    selectivity: Level,
    reports: &mut Passes,
) -> SolveResult {
    if board.pass().moves() == 0 {
        return SolveResult {
            mode,
            score: mode.class(board.final_score()),
            best_moves: Vec::new(),
            move_scores: Vec::new(),
            pv: Vec::new(),
            nodes: 0,
            time: Duration::ZERO,
            selectivity: Level::EXACT,
            best_found: Some(Duration::ZERO),
        };
    }
    let start = reports.start;
    let outer = &mut *reports.report;
    let mut flip = |p: &PassReport| {
        let mut pv = vec![PvMove::Pass];
        pv.extend(p.pv.iter().copied().take(PASS_PV_MOVES - 1));
        outer(&PassReport {
            score: -p.score,
            best: None,
            pv,
            ..p.clone()
        })
    };
    let mut inner = Passes {
        start,
        report: &mut flip,
    };
    let mut r = solve_root(s, board.pass(), mode, selectivity, &mut inner);
    r.score = -r.score;
    r.best_moves.clear();
    r.move_scores.clear();
    r.pv.insert(0, PvMove::Pass);
    r
}

/// The root's moves, best first by the table's move and fastest-first scoring, with the
/// mode's full window as their bounds.
fn root_moves(s: &mut Search, board: Board, moves: u64, mode: Mode) -> Vec<RootMove> {
    let tt_move = s.tt.probe(&board).and_then(|h| h.best_move);
    let mut list = MoveList::new();
    scored_moves::<Portable>(&board, moves, tt_move, None, &mut list);
    for i in 0..list.len() {
        select_next(&mut list, i);
    }
    let (lower, upper) = full_window(mode);
    list.iter()
        .map(|mv| RootMove {
            sq: Square::from_index(mv.sq as u32),
            child: mv.child,
            lower,
            upper,
            prior: None,
        })
        .collect()
}

/// The widest window of scores in `mode`.
fn full_window(mode: Mode) -> (i32, i32) {
    if mode == Mode::Wld {
        (-1, 1)
    } else {
        (-64, 64)
    }
}

/// Mode all: every move's exact score, each with a full window.
fn score_every_move(s: &mut Search, root: &mut [RootMove], n: u32) {
    for m in root.iter_mut() {
        let v = -s.search(m.child, -64, 64, n - 1);
        if s.stopped {
            break;
        }
        (m.lower, m.upper) = (v, v);
    }
}

/// The passes that settle the root's best score at `selectivity`, each reported.
fn run_passes(
    s: &mut Search,
    root: &mut [RootMove],
    n: u32,
    mode: Mode,
    selectivity: Level,
    reports: &mut Passes,
) {
    // The narrow search promises nothing: asked for, it solves exactly.
    let target = match selectivity {
        Level::NARROW => Level::EXACT,
        l => l,
    };
    if target.is_probcut()
        || (s.options.eval.0.is_some() && s.options.first_guess && n >= MPC_SCHEDULE_MIN_EMPTIES)
    {
        probcut_passes(s, root, n, mode, target, reports);
    } else {
        narrow_then_exact(s, root, n, mode, reports);
    }
}

/// A quick pass at the guess level (MPC_GUESS_LEVEL) gives the first guess and fills the
/// table with best moves; then the pass at the level asked for, or, before an exact pass,
/// from MPC_SECOND_GUESS_MIN_EMPTIES a second quick pass, and the exact one.
fn probcut_passes(
    s: &mut Search,
    root: &mut [RootMove],
    n: u32,
    mode: Mode,
    target: Level,
    reports: &mut Passes,
) {
    let (lo, hi) = full_window(mode);
    let mut guess = 0;
    let passes = match target.probcut_index() {
        Some(k) if k > MPC_GUESS_LEVEL => vec![MPC_GUESS_LEVEL, k],
        Some(_) => vec![MPC_GUESS_LEVEL],
        None if n >= MPC_SECOND_GUESS_MIN_EMPTIES => {
            vec![MPC_GUESS_LEVEL, MPC_SECOND_GUESS_LEVEL]
        }
        None => vec![MPC_GUESS_LEVEL],
    };
    for k in passes {
        s.level = Level::probcut(k);
        for m in root.iter_mut() {
            m.reset(lo, hi);
        }
        probe_until_exact(s, root, n, mode, guess);
        reports.finished(s, root);
        guess = root.iter().map(|m| m.lower).max().unwrap_or(0);
        if s.stopped {
            break;
        }
    }
    if target == Level::EXACT {
        s.level = Level::EXACT;
        for m in root.iter_mut() {
            m.reset(lo, hi);
        }
        probe_until_exact(s, root, n, mode, guess);
        reports.finished(s, root);
    }
}

/// Without an evaluation (or its first guess): a narrow search gives a first guess and
/// fills the table with good moves, then the exact pass.
fn narrow_then_exact(
    s: &mut Search,
    root: &mut [RootMove],
    n: u32,
    mode: Mode,
    reports: &mut Passes,
) {
    let mut guess = 0;
    if n >= GUESS_MIN_EMPTIES && s.options.first_guess {
        s.level = Level::NARROW;
        probe_until_exact(s, root, n, mode, 0);
        reports.finished(s, root);
        guess = root.iter().map(|m| m.lower).max().unwrap_or(0);
        s.level = Level::EXACT;
        let (lo, hi) = full_window(mode);
        for m in root.iter_mut() {
            m.reset(lo, hi);
        }
    }
    probe_until_exact(s, root, n, mode, guess);
    reports.finished(s, root);
}

/// The answer the root's bounds give: the best score, every move reaching it, the scores
/// of all moves in mode all, and the principal variation when the search finished.
fn root_result(s: &mut Search, board: Board, root: &[RootMove], mode: Mode) -> SolveResult {
    let score = root
        .iter()
        .map(|m| m.lower)
        .max()
        .expect("at least one move");
    let best_moves: Vec<Square> = root
        .iter()
        .filter(|m| m.lower == score)
        .map(|m| m.sq)
        .collect();
    let mut move_scores = Vec::new();
    if mode == Mode::All {
        move_scores = root.iter().map(|m| (m.sq, m.lower)).collect();
        move_scores.sort_by_key(|&(_, v)| -v);
    }
    let pv = if s.stopped {
        Vec::new()
    } else {
        principal_variation(s, board, best_moves[0], score, mode)
    };
    SolveResult {
        mode,
        score,
        best_moves,
        move_scores,
        pv,
        nodes: 0,
        time: Duration::ZERO,
        selectivity: s.level,
        best_found: None,
    }
}

/// A root move and what is proven about its score (in the mode's terms).
struct RootMove {
    sq: Square,
    child: Board,
    lower: i32,
    upper: i32,
    /// The move's value as the last pass left it (its proven lower bound, else its upper
    /// bound), if that pass proved anything about it: orders the moves and predicts which
    /// may reach beta.
    prior: Option<i32>,
}

impl RootMove {
    /// Forgets the bounds for a new pass within (`lo`, `hi`), keeping what they said as
    /// the prior.
    fn reset(&mut self, lo: i32, hi: i32) {
        if self.lower > lo {
            self.prior = Some(self.lower);
        } else if self.upper < hi {
            self.prior = Some(self.upper);
        }
        (self.lower, self.upper) = (lo, hi);
    }

    /// True when the last pass put this move within `SPLIT_CUT_MARGIN` of `beta`.
    fn may_reach(&self, beta: i32) -> bool {
        self.upper >= beta && self.prior.is_some_and(|p| p >= beta - SPLIT_CUT_MARGIN)
    }
}

/// MTD(f) at the root with bounds kept per move: null-window probes "is the score at least
/// beta?" starting from `guess`, until the root value is known and every move is known to
/// reach it or to fall short. Null windows are much cheaper than a full window, and the
/// per-move bounds mean the final tie check re-searches only moves whose last bound was
/// exactly the value.
fn probe_until_exact(s: &mut Search, root: &mut [RootMove], n: u32, mode: Mode, guess: i32) {
    let (mut lo, mut hi) = if mode == Mode::Wld {
        (-1, 1)
    } else {
        (-64, 64)
    };
    let mut g = guess;
    while lo < hi {
        let beta = g.clamp(lo + 1, hi);
        let Some(failed_high) = probe_root(s, root, n, mode, beta) else {
            return;
        };
        if failed_high {
            lo = root.iter().map(|m| m.lower).max().unwrap_or(lo);
            g = lo + 1;
        } else {
            hi = root.iter().map(|m| m.upper).max().unwrap_or(hi);
            g = hi;
        }
    }
    if s.options.ties {
        settle_ties(s, root, n, mode, lo);
    }
}

/// One null-window probe of the root: "does a move reach `beta`?", most promising move
/// first, each move's bound kept. `None` when the search was stopped.
fn probe_root(
    s: &mut Search,
    root: &mut [RootMove],
    n: u32,
    mode: Mode,
    beta: i32,
) -> Option<bool> {
    // Most promising first: best proven lower bound, then best upper bound.
    root.sort_by_key(|m| (-m.lower, -m.upper, -m.prior.unwrap_or(-65)));
    let mut searched = false;
    for k in 0..root.len() {
        if root[k].upper < beta {
            continue;
        }
        if root[k].lower >= beta {
            return Some(true);
        }
        if searched && s.can_split(n, 2) && !root[k..].iter().any(|m| m.may_reach(beta)) {
            // The first move fell short, and the last pass expects no other to reach
            // beta: the others go to every thread. (One that may reach it is searched
            // alone first: a helper's work on the others would be wasted.)
            let failed_high = probe_shared(s, &mut root[k..], n, mode, beta);
            return (!s.stopped).then_some(failed_high);
        }
        let m = &mut root[k];
        let r = probe_bound(mode, -s.search(m.child, -beta, -(beta - 1), n - 1), beta);
        if s.stopped {
            return None;
        }
        searched = true;
        if r >= beta {
            m.lower = r;
            return Some(true);
        }
        m.upper = r;
    }
    Some(false)
}

/// The root's value is `lo`. A move whose upper bound is `lo` may tie: one null-window
/// probe each says whether it reaches `lo` (on every thread when the root may split).
fn settle_ties(s: &mut Search, root: &mut [RootMove], n: u32, mode: Mode, lo: i32) {
    if s.can_split(n, 2) {
        let ties: Vec<usize> = (0..root.len())
            .filter(|&k| root[k].upper == lo && root[k].lower < lo)
            .collect();
        let children: Vec<Board> = ties.iter().map(|&k| root[k].child).collect();
        let results = Mutex::new(Vec::new());
        if !s.share_out(children.len(), |h, i| {
            let r = probe_bound(mode, -h.search(children[i], -lo, -(lo - 1), n - 1), lo);
            if !h.stopped {
                results.lock().expect("no panics").push((ties[i], r));
            }
            false
        }) {
            return;
        }
        for (k, r) in results.into_inner().expect("no panics") {
            if r >= lo {
                root[k].lower = lo;
            } else {
                root[k].upper = r;
            }
        }
        return;
    }
    for m in root.iter_mut() {
        if m.upper == lo && m.lower < lo {
            let r = probe_bound(mode, -s.search(m.child, -lo, -(lo - 1), n - 1), lo);
            if s.stopped {
                return;
            }
            if r >= lo {
                m.lower = lo;
            } else {
                m.upper = r;
            }
        }
    }
}

/// One probe "is the score at least `beta`?" over `moves` (those of the root still in
/// question, in order, the first of which fell short) on every thread: the first to reach
/// beta cancels the rest. Records every finished answer in the moves' bounds; returns
/// true when one reached beta.
fn probe_shared(s: &mut Search, moves: &mut [RootMove], n: u32, mode: Mode, beta: i32) -> bool {
    let todo: Vec<usize> = (0..moves.len())
        .filter(|&k| moves[k].upper >= beta)
        .collect();
    let children: Vec<Board> = todo.iter().map(|&k| moves[k].child).collect();
    let results = Mutex::new(Vec::new());
    s.share_out(children.len(), |h, i| {
        let r = probe_bound(
            mode,
            -h.search(children[i], -beta, -(beta - 1), n - 1),
            beta,
        );
        if h.stopped {
            return false;
        }
        results.lock().expect("no panics").push((todo[i], r));
        r >= beta
    });
    let mut failed_high = false;
    for (k, r) in results.into_inner().expect("no panics") {
        if r >= beta {
            moves[k].lower = r;
            failed_high = true;
        } else {
            moves[k].upper = r;
        }
    }
    failed_high
}

/// A line from `board` starting with `first`, every move of which keeps the score at
/// `value` (in `mode`'s terms), checked by a narrow search at each step.
fn principal_variation(
    s: &mut Search,
    board: Board,
    first: Square,
    value: i32,
    mode: Mode,
) -> Vec<PvMove> {
    let mut pv = vec![PvMove::Play(first)];
    let mut b = board.play(first).expect("best move is legal");
    let mut v = -value;
    loop {
        let moves = b.moves();
        if moves == 0 {
            if b.pass().moves() == 0 {
                break;
            }
            pv.push(PvMove::Pass);
            b = b.pass();
            v = -v;
            continue;
        }
        let n = b.empty_count();
        let tt_move = s.tt.probe(&b).and_then(|h| h.best_move);
        let mut list = MoveList::new();
        scored_moves::<Portable>(&b, moves, tt_move, None, &mut list);
        let mut found = None;
        for i in 0..list.len() {
            select_next(&mut list, i);
            let mv = list[i];
            let w = if mode == Mode::Wld {
                mode.class(-s.search(mv.child, -1, 1, n - 1))
            } else {
                -s.search(mv.child, -(v + 1), -(v - 1), n - 1)
            };
            if w == v {
                found = Some(mv);
                break;
            }
        }
        let Some(mv) = found else {
            // Unreachable when the search is exact and correct; a selective search may
            // disagree with itself. Stop rather than print a wrong line.
            debug_assert!(s.level < Level::EXACT, "no move keeps the value {v}");
            break;
        };
        pv.push(PvMove::Play(Square::from_index(mv.sq as u32)));
        b = mv.child;
        v = -v;
    }
    pv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_move_is_settled_where_the_passes_stop_changing_their_minds() {
        let sq = |s: &str| Square::parse(s).expect("square");
        let ms = Duration::from_millis;
        let passes = [
            (Some(sq("a1")), ms(1)),
            (Some(sq("b2")), ms(2)),
            (Some(sq("a1")), ms(3)),
            (Some(sq("a1")), ms(4)),
        ];
        // A1 from the third pass on (chosen first at 1 ms, but dropped at 2 ms).
        assert_eq!(settled(&passes, &[sq("a1")], ms(9)), ms(3));
        // Either of two tied best moves counts.
        assert_eq!(settled(&passes, &[sq("b2"), sq("a1")], ms(9)), ms(1));
        // The last pass chose another move: only the end settles it.
        assert_eq!(settled(&passes, &[sq("c3")], ms(9)), ms(9));
        assert_eq!(settled(&[], &[sq("a1")], ms(9)), ms(9));
        // No move to find.
        assert_eq!(settled(&passes, &[], ms(9)), ms(0));
    }
}
