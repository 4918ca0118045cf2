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
            let mean = errs.iter().sum::<f64>() / errs.len() as f64;
            let var =
                errs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (errs.len() - 1) as f64;
            cells.push(Cell {
                empties: n,
                depth: d,
                count: errs.len(),
                mean,
                sigma: var.sqrt(),
            });
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
