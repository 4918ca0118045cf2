//! Fitting the multi-probcut error model (`finale train-mpc`): on self-play positions,
//! the standard deviation of (shallow search value) minus (exact score) by number of
//! empties and shallow depth, and the model the search uses fitted to it ([`ProbcutModel`]).

use super::self_play::play_game;
use crate::board::Board;
use crate::error::{Error, Result, TrainError};
use crate::eval::{Evaluator, UNITS_PER_DISC};
use crate::search::{Level, Solver, SolverOptions, evaluated_value, mpc_planes};
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

/// The probcut error model of settings.rs ([`crate::search::mpc_error`]) fitted to a
/// table, over every cell (each weighted by its positions): the planes of
/// [`mpc_planes`] in the empties n and the shallow depth d (as Edax's model is in both
/// depths). Fitting every depth, not only the one the search uses at each n, uses all the
/// labels and separates the two terms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbcutModel {
    /// Mean error: constant, per empty square, when the depth is odd; discs.
    pub mean: [f64; 3],
    /// Standard deviation: constant, per empty square, per ply of depth; discs.
    pub sigma: [f64; 3],
    /// Lowest and highest empties of the cells.
    pub empties: (u32, u32),
}

impl ProbcutModel {
    /// (mean, sigma) at `n` empties and depth `d`, discs.
    pub fn at(&self, n: u32, d: u32) -> (f64, f64) {
        let odd = f64::from(d % 2);
        mpc_planes(self.mean, self.sigma, f64::from(n), f64::from(d), odd)
    }
}

/// Fits [`ProbcutModel`] to `cells` (None when they cannot determine it: fewer than
/// three cells, or all at one empties count or one depth).
pub fn probcut_model(cells: &[Cell]) -> Option<ProbcutModel> {
    let lo = cells.iter().map(|c| c.empties).min()?;
    let hi = cells.iter().map(|c| c.empties).max()?;
    let w = |c: &Cell| c.count as f64;
    let n = |c: &Cell| f64::from(c.empties);
    let mean = weighted_least_squares(
        &cells
            .iter()
            .map(|c| ([1.0, n(c), f64::from(c.depth % 2)], c.mean, w(c)))
            .collect::<Vec<_>>(),
    )?;
    let sigma = weighted_least_squares(
        &cells
            .iter()
            .map(|c| ([1.0, n(c), f64::from(c.depth)], c.sigma, w(c)))
            .collect::<Vec<_>>(),
    )?;
    Some(ProbcutModel {
        mean,
        sigma,
        empties: (lo, hi),
    })
}

/// The coefficients minimising the weighted squared error of `rows` (features, value,
/// weight), by the normal equations; None when they are singular.
fn weighted_least_squares<const K: usize>(rows: &[([f64; K], f64, f64)]) -> Option<[f64; K]> {
    let mut a = [[0.0; K]; K];
    let mut b = [0.0; K];
    for (x, y, w) in rows {
        for i in 0..K {
            b[i] += w * x[i] * y;
            for j in 0..K {
                a[i][j] += w * x[i] * x[j];
            }
        }
    }
    // Gauss-Jordan elimination with partial pivoting.
    for i in 0..K {
        let p = (i..K).max_by(|&r, &s| a[r][i].abs().total_cmp(&a[s][i].abs()))?;
        if a[p][i].abs() < 1e-9 {
            return None;
        }
        a.swap(i, p);
        b.swap(i, p);
        for r in 0..K {
            if r != i {
                let f = a[r][i] / a[i][i];
                let pivot = a[i];
                for (x, p) in a[r].iter_mut().zip(pivot) {
                    *x -= f * p;
                }
                b[r] -= f * b[i];
            }
        }
    }
    Some(std::array::from_fn(|i| b[i] / a[i][i]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_recovers_the_planes_the_cells_were_made_from() {
        // Cells made from mean = 2 - 0.25 n + 1.5 [d odd] and sigma = 8 + 0.1 n - 0.5 d,
        // with unequal weights, must give those coefficients back.
        let cells: Vec<Cell> = (8..24)
            .flat_map(|n| (0..6).map(move |d| (n, d)))
            .map(|(n, d)| Cell {
                empties: n,
                depth: d,
                count: 2 + (n * d) as usize % 7,
                mean: 2.0 - 0.25 * n as f64 + 1.5 * (d % 2) as f64,
                sigma: 8.0 + 0.1 * n as f64 - 0.5 * d as f64,
            })
            .collect();
        let m = probcut_model(&cells).unwrap();
        for (got, want) in m.mean.iter().zip([2.0, -0.25, 1.5]) {
            assert!((got - want).abs() < 1e-9, "{m:?}");
        }
        for (got, want) in m.sigma.iter().zip([8.0, 0.1, -0.5]) {
            assert!((got - want).abs() < 1e-9, "{m:?}");
        }
        assert_eq!(m.empties, (8, 23));
        let (mean, sigma) = m.at(20, 3);
        assert!((mean - (2.0 - 5.0 + 1.5)).abs() < 1e-9 && (sigma - 8.5).abs() < 1e-9);
        assert_eq!(probcut_model(&[]), None);
        // One depth only: the depth terms are not determined.
        let flat: Vec<Cell> = cells.iter().filter(|c| c.depth == 2).cloned().collect();
        assert_eq!(probcut_model(&flat), None);
    }
}
