//! The search's switches: what a search may use (table, ETC, stability, the evaluation,
//! kernels) and how selective it is, with the width a selective pass may be given.
//! Turning a switch off never changes a score.

use super::selectivity::level::Level;
use crate::board::kernels::Isa;
use crate::eval::Evaluator;

/// Switches that change search behaviour, for measuring their effect. Every one is on
/// by default; turning one off never changes a score, only the work done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Enhanced transposition cutoff.
    pub etc: bool,
    /// Stability cutoff.
    pub stability: bool,
    /// Probe and store the transposition table (off: no ETC either).
    pub tt: bool,
    /// The narrow first-guess search before exact solves of many empties.
    pub first_guess: bool,
    /// The second quick pass, at a wider probcut level, before exact solves of many
    /// empties (after the first guess's).
    pub second_guess: bool,
    /// The evaluation ordering deep moves and predicting for multi-probcut (none:
    /// fastest-first only, no probcut).
    pub eval: EvalRef,
    /// Selectivity: exact, or a multi-probcut level, whose pass gives a probable answer.
    /// The narrow level is only the first guess of an exact solve; asked for here it
    /// solves exactly.
    pub selectivity: Level,
    /// Find every best move (ties): each other root move is proven to reach the score or
    /// to fall short. Off, the solve proves the score and the best moves it met on the way
    /// (at least one), as the published engines do. Ties can cost far more than the score:
    /// at a wipe-out every other move needs its own proof that it falls short (FFO #59,
    /// +64: 5.5 G nodes with ties, a few million without).
    pub ties: bool,
    /// The move generation kernels the search runs on: a set this CPU has. Default
    /// [`Isa::chosen`]; never changes a score or a node count, only the time.
    pub kernels: Isa,
    /// A width for the pass of the level asked for (`selectivity`) in place of the
    /// level's own (other passes keep theirs): for choosing widths by measurement.
    pub probcut_t: Option<ProbcutT>,
}

/// A shared evaluation, or none. Compared by identity: two options are equal when they
/// use the same loaded weights.
#[derive(Clone, Default)]
pub struct EvalRef(pub Option<std::sync::Arc<Evaluator>>);

impl EvalRef {
    /// The shipped weights, or none when they cannot be used (see [`Evaluator::shipped`]).
    pub fn shipped() -> EvalRef {
        EvalRef(Evaluator::shipped_shared().ok().cloned())
    }
}

impl PartialEq for EvalRef {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => std::sync::Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

impl Eq for EvalRef {}

impl std::fmt::Debug for EvalRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Some(e) => write!(f, "EvalRef({:08x})", e.checksum()),
            None => f.write_str("EvalRef(none)"),
        }
    }
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            etc: true,
            stability: true,
            tt: true,
            first_guess: true,
            second_guess: true,
            eval: EvalRef::shipped(),
            selectivity: Level::EXACT,
            ties: false,
            kernels: Isa::chosen(),
            probcut_t: None,
        }
    }
}

/// A multi-probcut width in standard deviations of the error model, given in place of a
/// level's own (`--probcut-t`), for measuring other widths with `finale calibrate` or suite
/// variants; answers keep the level's name. Compared by value.
#[derive(Clone, Copy, Debug)]
pub struct ProbcutT(f32);

impl ProbcutT {
    /// Reads a width as users give it: a positive number of standard deviations.
    pub fn parse(text: &str) -> Result<ProbcutT, String> {
        text.parse::<f32>()
            .ok()
            .filter(|t| t.is_finite() && *t > 0.0 && *t <= 20.0)
            .map(ProbcutT)
            .ok_or_else(|| {
                format!(
                    "'{text}': expected a width of more than 0 and at most 20 (standard deviations)"
                )
            })
    }

    /// The width in standard deviations.
    pub const fn sigmas(self) -> f32 {
        self.0
    }
}

impl PartialEq for ProbcutT {
    fn eq(&self, other: &ProbcutT) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl Eq for ProbcutT {}
