//! Training the pattern evaluation (`finale train`): randomised self-play positions,
//! labelled by exact solves near the end and by shallow searches with the weights already
//! fitted further from the start, fitted phase by phase from the end of the game backwards.
//!
//! Everything is seeded and independent of the thread count: the same options give the
//! same weight file, byte for byte.

pub mod fit;
pub mod mpc;
mod options;
mod phase;
pub mod real;
mod sample_labels;
pub mod self_play;

use crate::error::{Error, Result, TrainError};
use crate::eval::Evaluator;
use crate::eval::mobility::{MOBILITY_SET, PER_PHASE_MOBILITY};
use crate::eval::pattern::{PATTERN_SET, PER_PHASE, PHASES, phase};
use crate::eval::weights_file::WeightFile;
pub use options::{TrainOptions, command_line, generation_options};
use options::{check_options, stopped};
pub use phase::ErrorRow;
use rayon::prelude::*;
pub use sample_labels::{LABEL_HEADER, LabelRow};
use self_play::{Sample, play_eval_game, play_game};
use std::io::Write;
use std::time::Instant;

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
    let by_empties = play_self_play_games(o, &pool, &bar)?;
    writeln!(
        log,
        "{} self-play games, {} positions ({:.1} s)",
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

/// Plays `o.games` self-play games on `pool` and returns their positions, and the real ones, by
/// empties.
fn play_self_play_games(
    o: &TrainOptions,
    pool: &rayon::ThreadPool,
    bar: &indicatif::ProgressBar,
) -> Result<Vec<Vec<Sample>>> {
    bar.set_message("self-play games played");
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
    // Numbered after the games, so that one real position in ten is held out too.
    let real = o.real.map_or(&[][..], |r| &r.samples[..]);
    for (i, s) in real.iter().enumerate() {
        let game = o.games.wrapping_add(i as u32);
        by_empties[s.board.empty_count() as usize].push(Sample { game, ..*s });
    }
    Ok(by_empties)
}
