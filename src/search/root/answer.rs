//! What a solve is asked for and what it answers: the mode, the result, each finished
//! pass, and the probable answer of a solve stopped early.

use super::window::Window;
use crate::board::Square;
use crate::search::selectivity::level::Level;
use std::fmt;
use std::time::Duration;

/// What to solve for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The exact final disc difference and a move reaching it (every such move when
    /// [`SearchOptions::ties`](crate::search::SearchOptions::ties)(crate::search::SearchOptions) is set).
    Exact,
    /// Only win, draw or loss (score -1, 0 or +1) and a move reaching it (every such move
    /// with ties).
    Wld,
    /// The exact score of every legal move.
    All,
    /// The exact score if it lies strictly inside the window, else a proven bound beyond
    /// the edge it lies past (see [`Window`]). Exact is the window -64,64; wld asks what
    /// the window -1,1 does, in its own terms.
    Window(Window),
}

impl Mode {
    /// A score in this mode's terms: its class in the mode's window ([`Window::class`]):
    /// for wld the sign only ([`Wld::of`]: -1, 0 or +1), in a window the score or the
    /// edge it lies beyond, else the score itself.
    pub fn class(self, score: i32) -> i32 {
        self.window().class(score)
    }

    /// The question the mode asks of the root's score, as a window.
    pub fn window(self) -> Window {
        match self {
            Mode::Exact | Mode::All => Window::FULL,
            Mode::Wld => Window::WLD,
            Mode::Window(w) => w,
        }
    }

    /// The same question after a pass, from the opponent's side.
    pub fn negated(self) -> Mode {
        match self {
            Mode::Window(w) => Mode::Window(w.negated()),
            m => m,
        }
    }

    /// `exact`, `wld`, `all` or `window`.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Exact => "exact",
            Mode::Wld => "wld",
            Mode::All => "all",
            Mode::Window(_) => "window",
        }
    }
}

/// One move of a principal variation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PvMove {
    /// A disc played on a square.
    Play(Square),
    /// The side to move had no legal move.
    Pass,
}

impl fmt::Display for PvMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PvMove::Play(sq) => sq.fmt(f),
            PvMove::Pass => f.write_str("pass"),
        }
    }
}

/// The answer to one solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveResult {
    /// Mode solved for.
    pub mode: Mode,
    /// Exact and all: final disc difference for the side to move, perfect play.
    /// Wld: -1 (loss), 0 (draw) or +1 (win). Window: the score's class
    /// ([`Window::class`]): the exact score inside the window, else the edge it lies
    /// beyond.
    pub score: i32,
    /// The proven lower bound of the final disc difference: `score` for an exact answer;
    /// for a bound, what the fail-soft search proved (a window's "at least beta" may prove
    /// more than beta; a wld win is at least +2).
    pub lower: i32,
    /// The proven upper bound, as `lower`: equal to it for an exact answer.
    pub upper: i32,
    /// Moves proven to reach `score` (in the mode's terms: any move when the answer is "at
    /// most alpha"), in search order: every one with
    /// [`SearchOptions::ties`](crate::search::SearchOptions::ties), else those the search met (at least one). Empty when the
    /// side to move must pass or the game is over.
    pub best_moves: Vec<Square>,
    /// Mode all: the exact score of every legal move, best first.
    pub move_scores: Vec<(Square, i32)>,
    /// A line of play from the position to the end of the game reaching `score`.
    pub pv: Vec<PvMove>,
    /// Positions examined, principal variation checks included.
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
    /// Selectivity reached: exact, or the multi-probcut level of a probable answer (see
    /// [`SearchOptions::selectivity`](crate::search::SearchOptions::selectivity)).
    pub selectivity: Level,
    /// Time from the start until the best move was settled: the end of the first pass
    /// from which on every pass chose one of `best_moves` (the whole time when no earlier
    /// pass did, zero when there is no move). The FFORUM tables compare programs by it.
    /// `None` when unknown (an answer read from an older binary's CSV).
    pub best_found: Option<Duration>,
}

impl SolveResult {
    /// Nodes per second.
    pub fn nps(&self) -> f64 {
        let s = self.time.as_secs_f64();
        if s > 0.0 { self.nodes as f64 / s } else { 0.0 }
    }

    /// The principal variation as space-separated moves.
    pub fn pv_string(&self) -> String {
        let v: Vec<String> = self.pv.iter().map(|m| m.to_string()).collect();
        v.join(" ")
    }
}

/// A game's outcome for the side to move: the one place a score is classed as a win, a
/// draw or a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wld {
    /// Score below zero (-1 in wld terms).
    Loss = -1,
    /// Score zero.
    Draw = 0,
    /// Score above zero (+1 in wld terms).
    Win = 1,
}

impl Wld {
    /// The outcome of final disc difference `score`.
    pub fn of(score: i32) -> Wld {
        match score.signum() {
            1 => Wld::Win,
            0 => Wld::Draw,
            _ => Wld::Loss,
        }
    }
}

/// One finished pass at the root of a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassReport {
    /// Its level: a multi-probcut level, the narrow first guess of an exact solve, or
    /// exact.
    pub level: Level,
    /// Empty squares of the position solved (whose level's promise may not have been
    /// checked at that many: [`Level::label`]).
    pub empties: u32,
    /// The score it found, for the side to move at the root.
    pub score: i32,
    /// Its best move (`None` when the root has no move).
    pub best: Option<Square>,
    /// The start of its principal variation, from the best move (or the pass) on, as far
    /// as the table remembers it, at most [`PASS_PV_MOVES`] moves: read from the table,
    /// not searched, so a probable pass's line is only likely.
    pub pv: Vec<PvMove>,
    /// Nodes searched since the solve started, every thread's.
    pub nodes: u64,
    /// Time since the solve started.
    pub time: Duration,
}

impl PassReport {
    /// Nodes per second since the solve started.
    pub fn nps(&self) -> f64 {
        self.nodes as f64 / self.time.as_secs_f64().max(1e-9)
    }
}

/// Moves in a pass line's principal variation.
pub const PASS_PV_MOVES: usize = 6;

/// A solve that reached its time limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimedOut {
    /// Nodes searched before giving up.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
    /// The last pass that finished before the limit, if any: a probable answer.
    pub last_pass: Option<PassReport>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_and_mode_terms_follow_the_sign_of_the_score() {
        assert_eq!(Wld::of(64), Wld::Win);
        assert_eq!(Wld::of(2), Wld::Win);
        assert_eq!(Wld::of(0), Wld::Draw);
        assert_eq!(Wld::of(-2), Wld::Loss);
        assert_eq!(Mode::Wld.class(-18), -1);
        assert_eq!(Mode::Wld.class(0), 0);
        assert_eq!(Mode::Wld.class(30), 1);
        assert_eq!(Mode::Exact.class(-18), -18);
        assert_eq!(Mode::All.class(30), 30);
    }
}
