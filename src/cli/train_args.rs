//! The options of `finale train`: the self-play games, their labels, the fit and the
//! real positions trained on beside them.

use clap::{Args, ValueEnum};
use std::path::PathBuf;

#[derive(Args)]
pub(crate) struct TrainArgs {
    /// Seed of the self-play games.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Self-play games (each gives about one position per number of empties).
    #[arg(long, default_value_t = 100_000)]
    pub(crate) games: u32,
    /// Label positions with at most this many empties by an exact solve.
    #[arg(long, default_value_t = 12)]
    pub(crate) exact_max_empties: u32,
    /// Label the others by a search this many moves deep (at least 4).
    #[arg(long, default_value_t = 4)]
    pub(crate) label_depth: u32,
    /// Gradient steps per phase.
    #[arg(long, default_value_t = 200)]
    pub(crate) epochs: u32,
    /// L2 regularisation of the fit.
    #[arg(long, default_value_t = 8.0)]
    pub(crate) l2: f32,
    /// Fit mobility tables beside the patterns (each side's legal moves and potential
    /// mobility; a weight file of pattern set 3).
    #[arg(long)]
    pub(crate) mobility: bool,
    /// Fit each phase on its own positions only (default: with the phase before's).
    #[arg(long)]
    pub(crate) own_phase: bool,
    /// Worker threads (default: all cores; the weights do not depend on it).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub(crate) threads: Option<u64>,
    /// The weight file to write.
    #[arg(long, value_name = "PATH")]
    pub(crate) out: PathBuf,
    /// Replace --out if it exists.
    #[arg(long)]
    pub(crate) force: bool,
    /// Also write every labelled position to this CSV.
    #[arg(long, value_name = "CSV")]
    pub(crate) data: Option<PathBuf>,
    /// How the first generation's games are played (later generations: always by eval
    /// play with the generation before's weights).
    #[arg(long, value_enum, default_value = "random")]
    pub(crate) play: TrainPlayArg,
    /// Weights that play the first generation's games with `--play eval` (default: the
    /// built-in weights).
    #[arg(long, value_name = "PATH")]
    pub(crate) play_eval: Option<PathBuf>,
    /// How each phase's weights are fitted.
    #[arg(long, value_enum, default_value = "cg")]
    pub(crate) fit: FitArg,
    /// Generations: each after the first plays its games by eval play with the weights of
    /// the one before (kept as OUT.genK until the end, and reused by a rerun).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub(crate) generations: u32,
    /// No progress bar (it is shown on stderr only when stderr is a terminal).
    #[arg(long)]
    pub(crate) no_progress: bool,
    /// Also train on the positions of this OBF file (repeatable), e.g. real games' from
    /// `finale games`: a score given alone labels its position, the others are labelled
    /// as self-play positions are.
    #[arg(long, value_name = "OBF")]
    pub(crate) real: Vec<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum TrainPlayArg {
    /// Random openings, then fastest-first moves with a quarter of them random.
    Random,
    /// The games of `generate --play eval`: moves drawn by a shallow evaluation search.
    Eval,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum FitArg {
    /// A fixed number (--epochs) of Jacobi-style gradient steps (the weights shipped
    /// until 2026-11-24).
    Jacobi,
    /// Conjugate gradients, at most --epochs iterations, stopped where the error on the
    /// held-out games (numbered 9 mod 10) was lowest.
    Cg,
}
