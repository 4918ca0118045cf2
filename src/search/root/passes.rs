//! The pass schedule of a solve: the root's moves, then passes of rising selectivity (a
//! quick multi-probcut pass or the narrow first guess, then the pass asked for), each
//! reported as it finishes, and the answer their bounds give.

use super::answer::{Mode, PASS_PV_MOVES, PassReport, PvMove, SolveResult};
use super::probes::{RootMove, full_window, probe_until_exact, root_bounds, root_moves};
use super::pv::{principal_variation, table_line};
use super::window::Window;
use crate::board::{Board, Square};
use crate::search::measure::account::Band;
use crate::search::selectivity::level::Level;
use crate::search::state::Search;
use crate::settings::{
    GUESS_MIN_EMPTIES, MPC_GUESS_LEVEL, MPC_SCHEDULE_MIN_EMPTIES, MPC_SECOND_GUESS_LEVEL,
    MPC_SECOND_GUESS_MIN_EMPTIES,
};
use std::time::{Duration, Instant};

/// The end of the first of `passes` (best move, end time) from which on every pass chose
/// one of `best` (`total` when the last pass did not, or there was none; zero when there
/// is no best move to find).
pub(crate) fn settled(
    passes: &[(Option<Square>, Duration)],
    best: &[Square],
    total: Duration,
) -> Duration {
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
pub(crate) struct Passes<'a> {
    pub(crate) start: Instant,
    pub(crate) report: &'a mut (dyn FnMut(&PassReport) + Send),
}

impl Passes<'_> {
    /// Reports the pass just finished over `root`, unless the search was stopped in it.
    pub(crate) fn finished(&mut self, s: &mut Search, root: &[RootMove], mode: Mode) {
        if s.stop.stopped {
            return;
        }
        s.measure.span.pass_finished(s.level, s.nodes);
        let Some(best) = root.iter().max_by_key(|m| m.lower) else {
            return;
        };
        let time = self.start.elapsed();
        let mut pv = vec![PvMove::Play(best.sq)];
        table_line(s, best.child, PASS_PV_MOVES - 1, &mut pv);
        (self.report)(&PassReport {
            level: s.level,
            empties: best.child.empty_count() + 1,
            score: mode.class(best.lower),
            best: Some(best.sq),
            pv,
            nodes: s.nodes,
            time,
        });
    }
}

/// Solves `board` in `mode` up to the pass at `selectivity`, reporting each finished pass
/// to `reports`: the root's moves, then every move's score (mode all) or the passes that
/// settle the best one.
pub(crate) fn solve_root(
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
        let end = board.final_score();
        return SolveResult {
            mode,
            score: mode.class(end),
            lower: end,
            upper: end,
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
    let mut r = solve_root(s, board.pass(), mode.negated(), selectivity, &mut inner);
    r.mode = mode;
    r.score = -r.score;
    (r.lower, r.upper) = (-r.upper, -r.lower);
    r.best_moves.clear();
    r.move_scores.clear();
    r.pv.insert(0, PvMove::Pass);
    r
}

/// Mode all: every move's exact score, each with a full window.
fn score_every_move(s: &mut Search, root: &mut [RootMove], n: u32) {
    for m in root.iter_mut() {
        let v = -s.search(m.child, -64, 64, n - 1);
        if s.stop.stopped {
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
        None if n >= MPC_SECOND_GUESS_MIN_EMPTIES && s.options.second_guess => {
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
        reports.finished(s, root, mode);
        guess = root.iter().map(|m| m.lower).max().unwrap_or(0);
        if s.stop.stopped {
            break;
        }
    }
    if target == Level::EXACT {
        s.level = Level::EXACT;
        for m in root.iter_mut() {
            m.reset(lo, hi);
        }
        probe_until_exact(s, root, n, mode, guess);
        reports.finished(s, root, mode);
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
        reports.finished(s, root, mode);
        guess = root.iter().map(|m| m.lower).max().unwrap_or(0);
        s.level = Level::EXACT;
        let (lo, hi) = full_window(mode);
        for m in root.iter_mut() {
            m.reset(lo, hi);
        }
    }
    probe_until_exact(s, root, n, mode, guess);
    reports.finished(s, root, mode);
}

/// The answer the root's bounds give: the score in the mode's terms, the proven bounds
/// in discs, every move reaching the score, the scores of all moves in mode all, and the
/// principal variation when the search finished with an exact score.
fn root_result(s: &mut Search, board: Board, root: &[RootMove], mode: Mode) -> SolveResult {
    let (lower, upper) = root_bounds(root);
    let score = mode.class(lower);
    let best_moves: Vec<Square> = root
        .iter()
        .filter(|m| mode.class(m.lower) == score)
        .map(|m| m.sq)
        .collect();
    let mut move_scores = Vec::new();
    if mode == Mode::All {
        move_scores = root.iter().map(|m| (m.sq, m.lower)).collect();
        move_scores.sort_by_key(|&(_, v)| -v);
    }
    let exact = match mode {
        Mode::Window(_) => lower == upper,
        _ => true,
    };
    let pv = if s.stop.stopped || !exact {
        Vec::new()
    } else {
        principal_variation(s, board, best_moves[0], score, mode)
    };
    let (lower, upper) = disc_bounds(mode, lower, upper);
    SolveResult {
        mode,
        score,
        lower,
        upper,
        best_moves,
        move_scores,
        pv,
        nodes: 0,
        time: Duration::ZERO,
        selectivity: s.level,
        best_found: None,
    }
}

/// Bounds in the mode's terms as bounds on the final disc difference: wld keeps only
/// the class of its bounds ([`Window::bounds_of`]); the other modes bound the disc
/// difference already.
fn disc_bounds(mode: Mode, lower: i32, upper: i32) -> (i32, i32) {
    if mode != Mode::Wld {
        return (lower, upper);
    }
    (
        Window::WLD.bounds_of(lower).0,
        Window::WLD.bounds_of(upper).1,
    )
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
