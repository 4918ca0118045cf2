//! Settings of a training run, checked before any work; the command line that reproduces
//! a run (recorded in the weight file) and the options of each of its generations.

use super::fit::{self, FitOptions};
use crate::error::{Result, TrainError};
use crate::eval::Evaluator;

/// Most empties `train --exact-max-empties` takes. A game gives about one position per
/// count of empties, and one-thread exact solves average 3.3 s at 20-24 empties (FFO 40-49)
/// and grow about x3 per extra empty square: thousands of positions of more than 30
/// empties would never finish labelling; 61 (more squares than a board has) is a typo.
pub const TRAIN_EXACT_MAX_EMPTIES: u32 = 30;

/// Settings of a training run.
#[derive(Clone, Debug)]
pub struct TrainOptions<'a> {
    /// Seed of the self-play games.
    pub seed: u64,
    /// Number of self-play games (about one position per number of empties each).
    pub games: u32,
    /// Positions with at most this many empties are labelled by an exact solve.
    pub exact_max_empties: u32,
    /// The others by a search this many moves deep (at least 4, one phase, so that it
    /// evaluates only phases already fitted).
    pub label_depth: u32,
    /// Gradient fit settings.
    pub fit: FitOptions,
    /// Fit mobility tables beside the patterns (pattern set
    /// [`MOBILITY_SET`](crate::eval::mobility::MOBILITY_SET)).
    pub mobility: bool,
    /// Fit each phase on its own positions only; without, on its own and the phase
    /// before's (smoother phases, the shipped weights' recipe).
    pub own_phase: bool,
    /// Games of the first generation played by eval play with these weights (see
    /// [`self_play::eval_play_choice`](super::self_play::eval_play_choice)); without, randomised fastest-first games.
    pub play_eval: Option<&'a Evaluator>,
    /// Real positions trained on beside the self-play ones, in every generation.
    pub real: Option<&'a super::real::RealPositions>,
    /// Generations (at least 1; [`train`](super::train()) runs one): each after the first plays its games
    /// by eval play with the weights of the one before.
    pub generations: u32,
    /// Worker threads (the result does not depend on them).
    pub threads: usize,
    /// Show a progress bar on stderr (games played, then positions labelled per phase)
    /// when stderr is a terminal.
    pub progress: bool,
    /// Stops the run at the next game, position or phase once set (SIGINT, SIGTERM): it
    /// then returns [`TrainError::Stopped`], and `data` holds whole rows of the phases
    /// finished before.
    pub interrupt: crate::interrupt::Interrupt,
}

/// The command line that reproduces a run (recorded in the weight file).
pub fn command_line(o: &TrainOptions) -> String {
    let play = match o.play_eval {
        Some(e) => format!(" --play eval (weights {:08x})", e.checksum()),
        None => " --play random".into(),
    };
    let fit = match o.fit.method {
        fit::FitMethod::Jacobi => "jacobi",
        fit::FitMethod::ConjugateGradient => "cg",
    };
    // Flags off by default are named only when on, so that older recipes keep their line.
    let mobility = if o.mobility { " --mobility" } else { "" };
    let own_phase = if o.own_phase { " --own-phase" } else { "" };
    let real = match o.real {
        Some(r) => format!(
            " --real {} ({} positions)",
            r.files.join(" --real "),
            r.samples.len()
        ),
        None => String::new(),
    };
    format!(
        "finale train --seed {} --games {} --exact-max-empties {} --label-depth {} --epochs {} --l2 {} --fit {fit}{mobility}{own_phase}{real} --generations {}{play}",
        o.seed, o.games, o.exact_max_empties, o.label_depth, o.fit.epochs, o.fit.l2, o.generations
    )
}

/// The options of generation `k` (from 1) of a run of `o.generations`: one generation,
/// played by `o.play_eval` for the first and by `previous` (the weights of generation
/// `k - 1`) after.
pub fn generation_options<'a>(
    o: &TrainOptions<'a>,
    k: u32,
    previous: Option<&'a Evaluator>,
) -> TrainOptions<'a> {
    TrainOptions {
        play_eval: if k <= 1 { o.play_eval } else { previous },
        generations: 1,
        ..o.clone()
    }
}

/// Refuses options no generation can train with, before any work or output.
pub(super) fn check_options(o: &TrainOptions) -> Result<()> {
    if o.label_depth < 4 {
        return Err(TrainError::LabelDepth(o.label_depth).into());
    }
    if o.exact_max_empties > TRAIN_EXACT_MAX_EMPTIES {
        return Err(
            TrainError::ExactMaxEmpties(o.exact_max_empties, TRAIN_EXACT_MAX_EMPTIES).into(),
        );
    }
    if !(o.fit.l2.is_finite() && o.fit.l2 >= 0.0) {
        return Err(TrainError::L2(o.fit.l2).into());
    }
    if o.games == 0 {
        return Err(TrainError::NoGames.into());
    }
    if o.generations == 0 {
        return Err(TrainError::NoGenerations.into());
    }
    Ok(())
}

/// [`TrainError::Stopped`] once the interrupt is set.
pub(super) fn stopped(o: &TrainOptions) -> Result<()> {
    match o.interrupt.cause() {
        Some(cause) => Err(TrainError::Stopped(cause).into()),
        None => Ok(()),
    }
}
