//! Fitting the multi-probcut error model (`finale train-mpc`): on self-play positions,
//! the standard deviation of (shallow search value) minus (exact score) by number of
//! empties and shallow depth, and the model the search uses fitted to it ([`ProbcutModel`]).

use super::games::play_game;
use crate::board::Board;
use crate::error::{Error, Result, TrainError};
use crate::eval::{Evaluator, UNITS_PER_DISC};
use crate::search::{Level, Solver, SolverOptions, evaluated_value};
use rayon::prelude::*;
use std::io::Write;

/// Settings of the fit.
#[derive(Clone, Debug)]
pub struct MpcOptions {
    /// Seed of the self-play games the positions come from.
    pub seed: u64,
    /// Positions per number of empties.
    pub per_empties: usize,
    /// Empties range, inclusive.
    pub empties: (u32, u32),
    /// Shallow depths 0..=this.
    pub max_depth: u32,
    /// Worker threads (the result does not depend on them).
    pub threads: usize,
}

/// One cell of the error table.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Empty squares.
    pub empties: u32,
    /// Shallow search depth.
    pub depth: u32,
    /// Positions.
    pub count: usize,
    /// Mean of shallow minus exact, in discs.
    pub mean: f64,
    /// Standard deviation of shallow minus exact, in discs.
    pub sigma: f64,
}

/// `f` over `items` on `pool`, each thread with one solver of `options`, cleared before
/// every item so that results do not depend on the order.
fn with_solvers<T: Sync, R: Send>(
    pool: &rayon::ThreadPool,
    items: &[T],
    options: SolverOptions,
    f: impl Fn(&mut Solver, &T) -> R + Sync,
) -> Vec<R> {
    pool.install(|| {
        items
            .par_iter()
            .map_init(
                || Solver::new(options.clone()),
                |solver, item| {
                    solver.clear();
                    f(solver, item)
                },
            )
            .collect()
    })
}

/// Checks a fit's empties range and positions per empties count, and starts its threads.
fn checked_pool(
    (lo, hi): (u32, u32),
    per_empties: usize,
    threads: usize,
) -> Result<rayon::ThreadPool> {
    if lo == 0 || lo > hi || hi > 40 || per_empties < 2 {
        return Err(TrainError::MpcRange {
            lo,
            hi,
            per_empties,
        }
        .into());
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| {
            TrainError::Threads {
                threads,
                why: e.to_string(),
            }
            .into()
        })
}

/// Measures the table on self-play positions and fits the search's error model to it
/// ([`probcut_model`]); returns the cells and the model.
pub fn fit_mpc(
    o: &MpcOptions,
    eval: &Evaluator,
    log: &mut dyn Write,
) -> Result<(Vec<Cell>, Option<ProbcutModel>)> {
    let (lo, hi) = o.empties;
    let pool = checked_pool(o.empties, o.per_empties, o.threads)?;
    let mut cells = Vec::new();
    for n in lo..=hi {
        // One position with n empties from each game, in game order.
        let mut boards: Vec<Board> = Vec::new();
        let mut g = 0;
        while boards.len() < o.per_empties {
            if let Some(s) = play_game(o.seed, g)
                .into_iter()
                .find(|s| s.board.empty_count() == n)
            {
                boards.push(s.board);
            }
            g += 1;
        }
        let start = std::time::Instant::now();
        let rows: Vec<(i32, Vec<i32>)> = with_solvers(
            &pool,
            &boards,
            SolverOptions {
                hash_mb: 64,
                ..Default::default()
            },
            |solver, b| {
                let exact = solver.search(*b, -64, 64).0;
                let shallow = (0..=o.max_depth.min(n))
                    .map(|d| evaluated_value(eval, *b, d).0)
                    .collect();
                (exact, shallow)
            },
        );
        for d in 0..=o.max_depth.min(n) {
            let errs: Vec<f64> = rows
                .iter()
                .map(|(e, s)| s[d as usize] as f64 / UNITS_PER_DISC as f64 - *e as f64)
                .collect();
            cells.push(cell(n, d, &errs));
        }
        writeln!(
            log,
            "empties {n}: {} positions solved ({:.1} s)",
            rows.len(),
            start.elapsed().as_secs_f64()
        )
        .map_err(Error::Output)?;
    }
    let model = probcut_model(&cells);
    Ok((cells, model))
}

/// Settings of a fit on the nodes where a search tries probcut (`--from-search`).
#[derive(Clone, Debug)]
pub struct SearchSampleOptions {
    /// Selectivity of the solves whose probcut nodes are sampled.
    pub selectivity: Level,
    /// About one probcut node in this many is recorded.
    pub rate: u64,
    /// Positions kept per number of empties (the first by board hash).
    pub per_empties: usize,
    /// Empties range of the kept positions, inclusive.
    pub empties: (u32, u32),
    /// Shallow depths 0..=this.
    pub max_depth: u32,
    /// Worker threads (the result does not depend on them).
    pub threads: usize,
}

/// Measures the error table on positions where probcut is really tried:
/// [`sample_probcut_nodes`] of `roots`, each solved exactly and searched shallowly
/// ([`fit_mpc_on_labels`]). Game positions understate the error: a search tree is full
/// of the lopsided positions bad moves lead to, which self-play rarely reaches
/// (results/selectivity/).
pub fn fit_mpc_on_search(
    roots: &[Board],
    o: &SearchSampleOptions,
    eval: &Evaluator,
    log: &mut dyn Write,
) -> Result<(Vec<Cell>, Option<ProbcutModel>)> {
    let pool = checked_pool(o.empties, o.per_empties, o.threads)?;
    let kept = sample_probcut_nodes(roots, o, log)?;
    let start = std::time::Instant::now();
    // Exact labels without the evaluation: fastest-first only, no passes.
    let labels = SolverOptions {
        hash_mb: 64,
        search: crate::search::SearchOptions {
            eval: crate::search::EvalRef(None),
            ..Default::default()
        },
        ..Default::default()
    };
    let labelled: Vec<(Board, i32)> = with_solvers(&pool, &kept, labels, |solver, b| {
        (*b, solver.search(*b, -64, 64).0)
    });
    writeln!(log, "labelled in {:.1} s", start.elapsed().as_secs_f64()).map_err(Error::Output)?;
    fit_mpc_on_labels(&labelled, o.max_depth, o.threads, eval)
}

/// The probcut nodes of solves of `roots`: every board is solved up to the pass at
/// `o.selectivity`, about one in `o.rate` of its probcut nodes is recorded, and the first
/// `o.per_empties` of those (by board hash) per number of empties in `o.empties` are kept.
/// Their exact scores may be costly (a node of 30 empties takes minutes): `finale
/// train-mpc --dump-nodes` writes them for a resumable `finale batch` to label.
pub fn sample_probcut_nodes(
    roots: &[Board],
    o: &SearchSampleOptions,
    log: &mut dyn Write,
) -> Result<Vec<Board>> {
    let (lo, hi) = o.empties;
    let pool = checked_pool(o.empties, o.per_empties, o.threads)?;
    let start = std::time::Instant::now();
    let sampled: Vec<Vec<Board>> = with_solvers(
        &pool,
        roots,
        // The search as users run it: with the evaluation, so probcut is tried.
        SolverOptions {
            hash_mb: 64,
            ..Default::default()
        },
        |solver, b| solver.probcut_nodes(*b, o.selectivity, o.rate),
    );
    let mut by_empties: Vec<Vec<Board>> = vec![Vec::new(); 61];
    for b in sampled.into_iter().flatten() {
        by_empties[b.empty_count() as usize].push(b);
    }
    let mut kept: Vec<Board> = Vec::new();
    for (n, v) in by_empties.iter_mut().enumerate() {
        v.sort_by_key(|b| (b.hash64(), b.player, b.opponent));
        v.dedup();
        if (lo..=hi).contains(&(n as u32)) {
            writeln!(log, "empties {n}: {} probcut nodes sampled", v.len())
                .map_err(Error::Output)?;
            kept.extend(v.iter().take(o.per_empties));
        }
    }
    writeln!(
        log,
        "{} roots searched at {} % ({:.1} s); {} positions kept",
        roots.len(),
        o.selectivity.percent(),
        start.elapsed().as_secs_f64(),
        kept.len()
    )
    .map_err(Error::Output)?;
    Ok(kept)
}

/// The error table of boards with their exact scores (`labelled`): the shallow search
/// values at depths 0..=`max_depth` against the exact score, by empties and depth, and the
/// model fitted to it. Cells need two boards.
pub fn fit_mpc_on_labels(
    labelled: &[(Board, i32)],
    max_depth: u32,
    threads: usize,
    eval: &Evaluator,
) -> Result<(Vec<Cell>, Option<ProbcutModel>)> {
    let pool = checked_pool((1, 40), 2, threads)?;
    let rows: Vec<(Board, i32, Vec<i32>)> = pool.install(|| {
        labelled
            .par_iter()
            .map(|&(b, exact)| {
                let shallow = (0..=max_depth.min(b.empty_count()))
                    .map(|d| evaluated_value(eval, b, d).0)
                    .collect();
                (b, exact, shallow)
            })
            .collect()
    });
    let mut cells = Vec::new();
    for n in 1..=60 {
        let at: Vec<&(Board, i32, Vec<i32>)> =
            rows.iter().filter(|r| r.0.empty_count() == n).collect();
        if at.len() < 2 {
            continue;
        }
        for d in 0..=max_depth.min(n) {
            let errs: Vec<f64> = at
                .iter()
                .map(|(_, e, s)| s[d as usize] as f64 / UNITS_PER_DISC as f64 - *e as f64)
                .collect();
            cells.push(cell(n, d, &errs));
        }
    }
    let model = probcut_model(&cells);
    Ok((cells, model))
}

/// The cell of the errors `errs` (discs) at `n` empties and depth `d`.
fn cell(n: u32, d: u32, errs: &[f64]) -> Cell {
    let mean = errs.iter().sum::<f64>() / errs.len() as f64;
    let var = errs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (errs.len() - 1) as f64;
    Cell {
        empties: n,
        depth: d,
        count: errs.len(),
        mean,
        sigma: var.sqrt(),
    }
}

/// The probcut error model of settings.rs ([`crate::settings::mpc_error`]) fitted to a
/// table: only the cells at the depth the search uses at each empties count
/// ([`crate::settings::mpc_depth`]) count; the mean is pooled by parity of the empties
/// (weighted by positions) and sigma is a least-squares line in the empties.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbcutModel {
    /// Mean error at even and odd empties, discs.
    pub mean_by_parity: [f64; 2],
    /// sigma = `sigma[0] + sigma[1] * empties`, discs.
    pub sigma: [f64; 2],
    /// Lowest and highest empties of the cells used.
    pub empties: (u32, u32),
}

/// Fits [`ProbcutModel`] to `cells` (None when no cell lies at the search's depth).
pub fn probcut_model(cells: &[Cell]) -> Option<ProbcutModel> {
    let used: Vec<&Cell> = cells
        .iter()
        .filter(|c| c.depth == crate::settings::mpc_depth(c.empties))
        .collect();
    let lo = used.iter().map(|c| c.empties).min()?;
    let hi = used.iter().map(|c| c.empties).max()?;
    let mut mean_by_parity = [0.0; 2];
    for (parity, mean) in mean_by_parity.iter_mut().enumerate() {
        let (w, sum) = used
            .iter()
            .filter(|c| c.empties as usize % 2 == parity)
            .fold((0.0, 0.0), |(w, s), c| {
                (w + c.count as f64, s + c.count as f64 * c.mean)
            });
        *mean = if w > 0.0 { sum / w } else { 0.0 };
    }
    let k = used.len() as f64;
    let mx = used.iter().map(|c| c.empties as f64).sum::<f64>() / k;
    let my = used.iter().map(|c| c.sigma).sum::<f64>() / k;
    let sxx: f64 = used.iter().map(|c| (c.empties as f64 - mx).powi(2)).sum();
    let sxy: f64 = used
        .iter()
        .map(|c| (c.empties as f64 - mx) * (c.sigma - my))
        .sum();
    let slope = if sxx > 0.0 { sxy / sxx } else { 0.0 };
    Some(ProbcutModel {
        mean_by_parity,
        sigma: [my - slope * mx, slope],
        empties: (lo, hi),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_uses_the_search_depth_pools_parity_and_fits_a_line() {
        // Cells at the search's depth follow sigma = 10 - 0.25 n exactly and have means
        // +1 (even) and -3 (odd); cells at other depths are far off and must be ignored.
        let cells: Vec<Cell> = (8..20)
            .flat_map(|n| (0..4).map(move |d| (n, d)))
            .map(|(n, d)| {
                let used = d == crate::settings::mpc_depth(n);
                Cell {
                    empties: n,
                    depth: d,
                    count: 5,
                    mean: match (used, n % 2) {
                        (false, _) => 50.0,
                        (true, 0) => 1.0,
                        (true, _) => -3.0,
                    },
                    sigma: if used { 10.0 - 0.25 * n as f64 } else { 99.0 },
                }
            })
            .collect();
        let m = probcut_model(&cells).unwrap();
        assert!((m.mean_by_parity[0] - 1.0).abs() < 1e-9, "{m:?}");
        assert!((m.mean_by_parity[1] + 3.0).abs() < 1e-9, "{m:?}");
        assert!((m.sigma[0] - 10.0).abs() < 1e-9, "{m:?}");
        assert!((m.sigma[1] + 0.25).abs() < 1e-9, "{m:?}");
        assert_eq!(m.empties, (8, 19));
        assert_eq!(probcut_model(&[]), None);
    }
}
