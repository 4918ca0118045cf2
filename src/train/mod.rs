//! Training the pattern evaluation (`finale train`): randomised self-play positions,
//! labelled by exact solves near the end and by shallow searches with the weights already
//! fitted further from the start, fitted phase by phase from the end of the game backwards.
//!
//! Everything is seeded and independent of the thread count: the same options give the
//! same weight file, byte for byte.

pub mod fit;
pub mod games;
pub mod mpc;
mod phase;

use crate::board::Board;
use crate::error::{Error, Result, TrainError};
use crate::eval::Evaluator;
use crate::eval::UNITS_PER_DISC;
use crate::eval::mobility::{MOBILITY_SET, MOBILITY_TABLES, PER_PHASE_MOBILITY, mobility_indices};
use crate::eval::pattern::{FEATURES, PATTERN_SET, PER_PHASE, PHASES, bias, features, phase};
use crate::eval::weights_file::WeightFile;
use crate::search::Solver;
use fit::{FitOptions, FitRow};
use games::{Sample, play_eval_game, play_game};
use rayon::prelude::*;
use std::io::Write;
use std::time::Instant;

/// Settings of a training run.
#[derive(Clone, Debug)]
pub struct TrainOptions<'a> {
    /// Seed of the self-play games.
    pub seed: u64,
    /// Number of games (about one position per number of empties each).
    pub games: u32,
    /// Positions with at most this many empties are labelled by an exact solve.
    pub exact_max_empties: u32,
    /// The others by a search this many moves deep (at least 4, one phase, so that it
    /// evaluates only phases already fitted).
    pub label_depth: u32,
    /// Gradient fit settings.
    pub fit: FitOptions,
    /// Fit mobility tables beside the patterns (pattern set
    /// [`MOBILITY_SET`]).
    pub mobility: bool,
    /// Fit each phase on its own positions only; without, on its own and the phase
    /// before's (smoother phases, the shipped weights' recipe).
    pub own_phase: bool,
    /// Games of the first generation played by eval play with these weights (see
    /// [`games::eval_play_choice`]); without, randomised fastest-first games.
    pub play_eval: Option<&'a Evaluator>,
    /// Generations (at least 1; [`train`] runs one): each after the first plays its games
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

/// One line of the held-out error table.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorRow {
    /// Empty squares.
    pub empties: u32,
    /// Training positions.
    pub train: usize,
    /// Held-out positions (games numbered 9 mod 10).
    pub test: usize,
    /// `exact` or `depth N`.
    pub label: String,
    /// Mean absolute error of the evaluation on held-out positions, in discs.
    pub test_mae: f64,
    /// Root mean square error on held-out positions, in discs.
    pub test_rmse: f64,
    /// Root mean square error on the training positions, in discs.
    pub train_rmse: f64,
}

/// A labelled position.
#[derive(Clone, Copy, Debug)]
struct Labelled {
    sample: Sample,
    /// Label in evaluation units.
    label: i32,
}

fn held_out(s: &Sample) -> bool {
    s.game % 10 == 9
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
    format!(
        "finale train --seed {} --games {} --exact-max-empties {} --label-depth {} --epochs {} --l2 {} --fit {fit}{mobility}{own_phase} --generations {}{play}",
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

/// Runs every generation of `o` and returns the last one's weight file (its metadata is
/// the whole run's command line) and error table. Before generation `k < o.generations`
/// is trained, `saved(k, meta)` may hand back a file already made by the same options
/// (its metadata equal to `meta`), which is used instead; `trained(k, file)` receives each
/// earlier generation trained, so that a caller can keep it. `data` receives the last
/// generation's labelled positions.
pub fn train_generations(
    o: &TrainOptions,
    log: &mut dyn Write,
    data: Option<&mut dyn Write>,
    saved: &mut dyn FnMut(u32, &str) -> Option<WeightFile>,
    trained: &mut dyn FnMut(u32, &WeightFile) -> Result<()>,
) -> Result<(WeightFile, Vec<ErrorRow>)> {
    check_options(o)?;
    let mut previous: Option<Evaluator> = None;
    for k in 1..o.generations {
        let g = generation_options(o, k, previous.as_ref());
        let meta = command_line(&g);
        let file = match saved(k, &meta).filter(|f| f.meta == meta) {
            Some(f) => {
                writeln!(log, "generation {k} of {}: kept from before", o.generations)
                    .map_err(Error::Output)?;
                f
            }
            None => {
                writeln!(log, "generation {k} of {}", o.generations).map_err(Error::Output)?;
                let (f, _) = train(&g, log, None)?;
                trained(k, &f)?;
                f
            }
        };
        previous = Some(Evaluator::from_weights(file.weights));
    }
    let last = generation_options(o, o.generations, previous.as_ref());
    if o.generations > 1 {
        writeln!(log, "generation {0} of {0}", o.generations).map_err(Error::Output)?;
    }
    let (mut file, table) = train(&last, log, data)?;
    file.meta = match last.play_eval {
        Some(e) if o.generations > 1 => format!(
            "{} (generation {} played by weights {:08x})",
            command_line(o),
            o.generations,
            e.checksum()
        ),
        _ => command_line(o),
    };
    Ok((file, table))
}

/// Refuses options no generation can train with, before any work or output.
fn check_options(o: &TrainOptions) -> Result<()> {
    if o.label_depth < 4 {
        return Err(TrainError::LabelDepth(o.label_depth).into());
    }
    if o.exact_max_empties > crate::settings::TRAIN_EXACT_MAX_EMPTIES {
        return Err(TrainError::ExactMaxEmpties(o.exact_max_empties).into());
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

/// The columns of `train --data`, in [`LabelRow`] order.
pub const LABEL_HEADER: [&str; 5] = ["game", "empties", "board", "label", "set"];

/// One labelled position of `train --data`.
#[derive(Debug, serde::Serialize)]
pub struct LabelRow {
    /// Number of its game.
    pub game: u32,
    /// Empty squares.
    pub empties: u32,
    /// The 64 squares, `X` the side to move.
    pub board: String,
    /// Its label, discs for the side to move.
    pub label: String,
    /// `train` or `test` (held out).
    pub set: &'static str,
}

/// Runs one generation (whatever `o.generations` says) and returns the weight file and
/// the held-out error table. Progress lines go to `log`; `data`, if given, receives every labelled position as CSV.
pub fn train(
    o: &TrainOptions,
    log: &mut dyn Write,
    data: Option<&mut dyn Write>,
) -> Result<(WeightFile, Vec<ErrorRow>)> {
    check_options(o)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(o.threads.max(1))
        .build()
        .map_err(|e| TrainError::Threads {
            threads: o.threads,
            why: e.to_string(),
        })?;
    let start = Instant::now();
    let bar = crate::progress::bar(
        o.progress,
        o.games as u64,
        "{bar:40} {pos}/{len} {msg}  {elapsed}  ETA {eta}",
    );
    let by_empties = play_games(o, &pool, &bar)?;
    writeln!(
        log,
        "{} games, {} positions ({:.1} s)",
        o.games,
        by_empties.iter().map(Vec::len).sum::<usize>(),
        start.elapsed().as_secs_f64()
    )
    .map_err(Error::Output)?;
    let mut data = phase::DataOut::new(data)?;
    let mut fitting = phase::Fitting::new(o);
    let mut table = Vec::new();
    for ph in 0..PHASES {
        let phase_start = Instant::now();
        let empties: Vec<u32> = (0..=60).filter(|&e| phase(e) == ph).collect();
        fitting.label(o, &pool, &bar, &empties, &by_empties)?;
        let labels_s = phase_start.elapsed().as_secs_f64();
        let fitted = fitting.fit(o, &pool, &bar, ph, &empties);
        let fit_s = phase_start.elapsed().as_secs_f64() - labels_s;
        for &e in &empties {
            if let Some(row) = fitting.error_row(o, e) {
                table.push(row);
                data.write(fitting.rows_of(e))?;
            }
        }
        writeln!(
            log,
            "phase {ph:2} (empties {}-{}): {} positions, fit rmse {:.2} discs after {} iterations (labels {labels_s:.1} s, fit {fit_s:.1} s; {:.1} s in all)",
            empties[0],
            empties[empties.len() - 1],
            fitted.positions,
            fitted.rmse,
            fitted.iterations,
            start.elapsed().as_secs_f64()
        )
        .map_err(Error::Output)?;
    }
    bar.finish_and_clear();
    data.finish()?;
    let (pattern_set, per_phase) = if o.mobility {
        (MOBILITY_SET, PER_PHASE_MOBILITY)
    } else {
        (PATTERN_SET, PER_PHASE)
    };
    let file = WeightFile {
        pattern_set,
        phases: PHASES as u32,
        per_phase: per_phase as u32,
        meta: command_line(o),
        weights: fitting.into_weights(),
    };
    Ok((file, table))
}

/// Plays `o.games` games on `pool` and returns their positions by empties.
fn play_games(
    o: &TrainOptions,
    pool: &rayon::ThreadPool,
    bar: &indicatif::ProgressBar,
) -> Result<Vec<Vec<Sample>>> {
    bar.set_message("games played");
    let stop = &o.interrupt;
    let samples: Vec<Sample> = pool.install(|| {
        (0..o.games)
            .into_par_iter()
            .flat_map_iter(|g| {
                if stop.requested() {
                    return Vec::new();
                }
                bar.inc(1);
                match o.play_eval {
                    Some(e) => play_eval_game(o.seed, g, e),
                    None => play_game(o.seed, g),
                }
            })
            .collect()
    });
    stopped(o)?;
    let mut by_empties: Vec<Vec<Sample>> = vec![Vec::new(); 61];
    for s in samples {
        by_empties[s.board.empty_count() as usize].push(s);
    }
    Ok(by_empties)
}

/// [`TrainError::Stopped`] once the interrupt is set.
fn stopped(o: &TrainOptions) -> Result<()> {
    match o.interrupt.cause() {
        Some(cause) => Err(TrainError::Stopped(cause).into()),
        None => Ok(()),
    }
}

/// The exact score of `b` by null-window probes (MTD(f) from 0), the table carrying each
/// probe's work to the next: the same value as one full-window search, in fewer nodes
/// once the positions have more than a few empties.
fn exact_value(solver: &mut Solver, b: Board) -> i32 {
    let (mut lo, mut hi) = (-64, 64);
    let mut beta = 1;
    while lo < hi {
        beta = beta.clamp(lo + 1, hi);
        let (v, _) = solver.search(b, beta - 1, beta);
        if v >= beta {
            lo = v;
            beta = v + 1;
        } else {
            hi = v;
            beta = v;
        }
    }
    lo
}

fn to_fit_row(l: &Labelled, canon: &[u32], mobility: bool) -> FitRow {
    let mut f = [0u32; FEATURES];
    features(&l.sample.board, &mut f);
    for x in f.iter_mut() {
        *x = canon[*x as usize];
    }
    let mut extra = mobility_indices(&l.sample.board);
    for x in extra.iter_mut() {
        *x += PER_PHASE as u32;
    }
    FitRow {
        features: f,
        bias: bias(l.sample.board.empty_count()) as u32,
        target: l.label as f32 / UNITS_PER_DISC as f32,
        extra,
        extras: if mobility { MOBILITY_TABLES as u8 } else { 0 },
    }
}

/// The board as 64 characters, `X` for the side to move, `O` for the other, `-` empty.
fn board_string(b: &Board) -> String {
    (0..64)
        .map(|i| {
            if b.player >> i & 1 != 0 {
                'X'
            } else if b.opponent >> i & 1 != 0 {
                'O'
            } else {
                '-'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::random::{SplitMix64, random_position};
    use crate::search::SolverOptions;

    /// The null-window driver finds what one full-window search finds (the search itself
    /// is checked against plain minimax in tests/solver.rs), on positions of 10-14 empties.
    #[test]
    fn exact_value_matches_a_full_window_search() {
        let mut rng = SplitMix64::new(7);
        let mut solver = Solver::new(SolverOptions {
            hash_mb: 4,
            ..Default::default()
        });
        for k in 0..40 {
            let b = random_position(&mut rng, 10 + k % 5).board;
            let full = solver.search(b, -64, 64).0;
            solver.clear();
            assert_eq!(exact_value(&mut solver, b), full, "{}", board_string(&b));
            solver.clear();
        }
    }

    #[test]
    fn the_label_row_has_the_header_columns_in_order() {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(LabelRow {
            game: 3,
            empties: 12,
            board: "-".repeat(64),
            label: "-0.5".into(),
            set: "test",
        })
        .unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some(LABEL_HEADER.join(",").as_str()));
        assert_eq!(
            lines.next(),
            Some(format!("3,12,{},-0.5,test", "-".repeat(64)).as_str())
        );
    }
}
