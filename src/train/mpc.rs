//! Fitting the multi-probcut error model (`finale train-mpc`): on self-play positions,
//! the standard deviation of (shallow search value) minus (exact score) by number of
//! empties and shallow depth, and a least-squares plane through it.

use super::games::play_game;
use crate::board::Board;
use crate::error::{Error, Result};
use crate::eval::{Evaluator, UNITS_PER_DISC};
use crate::search::{Solver, SolverOptions, midgame_value};
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

/// Measures the table and fits `sigma = a + b * empties + c * depth`; returns the cells
/// and `[a, b, c]`.
pub fn fit_mpc(
    o: &MpcOptions,
    eval: &Evaluator,
    log: &mut dyn Write,
) -> Result<(Vec<Cell>, [f64; 3])> {
    let (lo, hi) = o.empties;
    if lo > hi || hi > 40 || o.per_empties < 2 {
        return Err(Error::Invalid(format!(
            "train-mpc: empties {lo}-{hi} with {} positions each: need A <= B <= 40 and at least 2",
            o.per_empties
        )));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(o.threads.max(1))
        .build()
        .map_err(|e| Error::Invalid(format!("cannot start {} threads: {e}", o.threads)))?;
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
        let rows: Vec<(i32, Vec<i32>)> = pool.install(|| {
            boards
                .par_iter()
                .map_init(
                    || {
                        Solver::new(SolverOptions {
                            hash_mb: 64,
                            ..Default::default()
                        })
                    },
                    |solver, b| {
                        solver.clear();
                        let exact = solver.search(*b, -64, 64).0;
                        let shallow = (0..=o.max_depth.min(n))
                            .map(|d| midgame_value(eval, *b, d).0)
                            .collect();
                        (exact, shallow)
                    },
                )
                .collect()
        });
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
    Ok((cells.clone(), plane(&cells)))
}

/// Settings of a fit on the nodes where a search tries probcut (`--from-search`).
#[derive(Clone, Debug)]
pub struct SearchSampleOptions {
    /// Selectivity of the solves whose probcut nodes are sampled.
    pub selectivity: u8,
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

/// Measures the error table on positions where probcut is really tried: every board of
/// `roots` is solved up to the pass at `o.selectivity`, about one in `o.rate` of its
/// probcut nodes is recorded, and `o.per_empties` of those per number of empties are
/// solved exactly and searched shallowly. Game positions understate the error: a search
/// tree is full of the lopsided positions bad moves lead to, which self-play rarely
/// reaches (results/selectivity/).
pub fn fit_mpc_on_search(
    roots: &[Board],
    o: &SearchSampleOptions,
    eval: &Evaluator,
    log: &mut dyn Write,
) -> Result<(Vec<Cell>, [f64; 3])> {
    let (lo, hi) = o.empties;
    if lo > hi || hi > 40 || o.per_empties < 2 {
        return Err(Error::Invalid(format!(
            "train-mpc: empties {lo}-{hi} with {} positions each: need A <= B <= 40 and at least 2",
            o.per_empties
        )));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(o.threads.max(1))
        .build()
        .map_err(|e| Error::Invalid(format!("cannot start {} threads: {e}", o.threads)))?;
    let options = |hash_mb| SolverOptions {
        hash_mb,
        search: crate::search::SearchOptions {
            eval: crate::search::EvalRef(None),
            ..Default::default()
        },
        ..Default::default()
    };
    let start = std::time::Instant::now();
    let sampled: Vec<Vec<Board>> = pool.install(|| {
        roots
            .par_iter()
            .map_init(
                || {
                    Solver::new(SolverOptions {
                        hash_mb: 64,
                        ..Default::default()
                    })
                },
                |solver, b| {
                    solver.clear();
                    solver.probcut_nodes(*b, o.selectivity, o.rate)
                },
            )
            .collect()
    });
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
        "{} roots searched at {} % ({:.1} s); labelling {} positions",
        roots.len(),
        o.selectivity,
        start.elapsed().as_secs_f64(),
        kept.len()
    )
    .map_err(Error::Output)?;
    let labelled: Vec<(Board, i32, Vec<i32>)> = pool.install(|| {
        kept.par_iter()
            .map_init(
                // Exact labels without the evaluation: fastest-first only, no passes.
                || Solver::new(options(64)),
                |solver, b| {
                    solver.clear();
                    let exact = solver.search(*b, -64, 64).0;
                    let n = b.empty_count();
                    let shallow = (0..=o.max_depth.min(n))
                        .map(|d| midgame_value(eval, *b, d).0)
                        .collect();
                    (*b, exact, shallow)
                },
            )
            .collect()
    });
    let mut cells = Vec::new();
    for n in lo..=hi {
        let rows: Vec<&(Board, i32, Vec<i32>)> =
            labelled.iter().filter(|r| r.0.empty_count() == n).collect();
        if rows.len() < 2 {
            continue;
        }
        for d in 0..=o.max_depth.min(n) {
            let errs: Vec<f64> = rows
                .iter()
                .map(|(_, e, s)| s[d as usize] as f64 / UNITS_PER_DISC as f64 - *e as f64)
                .collect();
            cells.push(cell(n, d, &errs));
        }
    }
    writeln!(log, "labelled in {:.1} s", start.elapsed().as_secs_f64()).map_err(Error::Output)?;
    Ok((cells.clone(), plane(&cells)))
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

/// Least squares `sigma = a + b * empties + c * depth` over the cells (normal equations).
fn plane(cells: &[Cell]) -> [f64; 3] {
    let mut m = [[0f64; 4]; 3];
    for c in cells {
        let x = [1.0, c.empties as f64, c.depth as f64];
        for i in 0..3 {
            for j in 0..3 {
                m[i][j] += x[i] * x[j];
            }
            m[i][3] += x[i] * c.sigma;
        }
    }
    // Gauss-Jordan elimination with partial pivoting.
    for col in 0..3 {
        let p = (col..3)
            .max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))
            .unwrap_or(col);
        m.swap(col, p);
        let d = m[col][col];
        if d.abs() < 1e-12 {
            return [0.0; 3];
        }
        for x in m[col].iter_mut() {
            *x /= d;
        }
        let pivot = m[col];
        for (r, row) in m.iter_mut().enumerate() {
            if r != col {
                let f = row[col];
                for (x, p) in row.iter_mut().zip(pivot) {
                    *x -= f * p;
                }
            }
        }
    }
    [m[0][3], m[1][3], m[2][3]]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plane_recovers_an_exact_plane() {
        let cells: Vec<Cell> = (14..20)
            .flat_map(|n| (0..4).map(move |d| (n, d)))
            .map(|(n, d)| Cell {
                empties: n,
                depth: d,
                count: 1,
                mean: 0.0,
                sigma: 2.0 + 0.25 * n as f64 - 0.5 * d as f64,
            })
            .collect();
        let p = plane(&cells);
        assert!(
            (p[0] - 2.0).abs() < 1e-9 && (p[1] - 0.25).abs() < 1e-9 && (p[2] + 0.5).abs() < 1e-9,
            "{p:?}"
        );
    }
}
