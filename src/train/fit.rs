//! Fitting one phase's weights: sparse regularised least squares.
//!
//! The fit minimises the squared errors plus `l2` times the sum of squared weights, from
//! the weights it is given (the phase before's, so that neighbouring phases stay alike),
//! by one of two methods:
//! - Jacobi-style gradient steps (the shipped weights): each step moves every weight by
//!   the mean residual of the samples using it (less the L2 penalty), damped by the number
//!   of weights per sample; no tuning per pattern.
//! - Conjugate gradients on the normal equations (A'A + l2 I) w = A'y, stopped at the
//!   iteration where the error on the validation rows was lowest.
//!
//! Sums over rows run in fixed chunks added in order, so the result does not depend on
//! the number of threads.

use crate::eval::mobility::MOBILITY_TABLES;
use crate::eval::pattern::FEATURES;
use rayon::prelude::*;

/// One training sample: its weight indices (canonical) and its label in discs.
#[derive(Clone, Copy, Debug)]
pub struct FitRow {
    /// Canonical weight index of each pattern instance.
    pub features: [u32; FEATURES],
    /// Index of its bias weight.
    pub bias: u32,
    /// Target score in discs, side to move's view.
    pub target: f32,
    /// Weight indices of the mobility tables, the first `extras` of them used.
    pub extra: [u32; MOBILITY_TABLES],
    /// How many of `extra` are used: 0 (patterns only) or all.
    pub extras: u8,
}

impl FitRow {
    /// The row's weight indices but its bias: every pattern instance's, then the tables'.
    #[inline]
    fn indices(&self) -> impl Iterator<Item = &u32> {
        self.features
            .iter()
            .chain(&self.extra[..self.extras as usize])
    }
}

/// How the weights are fitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FitMethod {
    /// Jacobi-style gradient steps, a fixed number of them.
    Jacobi,
    /// Conjugate gradients, early-stopped on the validation rows.
    ConjugateGradient,
}

/// Settings of the fit.
#[derive(Clone, Copy, Debug)]
pub struct FitOptions {
    /// Steps (Jacobi) or iterations at most (conjugate gradients).
    pub epochs: u32,
    /// Jacobi step size (fraction of the mean residual applied per step).
    pub rate: f32,
    /// L2 regularisation: the fit minimises the squared errors plus this times the sum of
    /// squared weights, so that weights seen in few samples stay small.
    pub l2: f32,
    /// The method.
    pub method: FitMethod,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            epochs: 200,
            // Every sample moves FEATURES + 1 weights: a larger step overshoots (and
            // diverges) on samples that share all their features, as openings do.
            rate: 1.0 / (FEATURES + 1) as f32,
            l2: 8.0,
            method: FitMethod::Jacobi,
        }
    }
}

/// Rows per chunk of the sums over rows (fixed, so that sums do not depend on threads).
const CHUNK: usize = 1 << 15;

fn predict(w: &[f64], r: &FitRow) -> f64 {
    w[r.bias as usize] + r.indices().map(|&i| w[i as usize]).sum::<f64>()
}

/// A'v for per-row values `v`: each row adds its value to the weights it uses.
fn transpose_times(rows: &[FitRow], v: &[f64], n: usize) -> Vec<f64> {
    let parts: Vec<Vec<f64>> = rows
        .par_chunks(CHUNK)
        .zip(v.par_chunks(CHUNK))
        .map(|(rs, vs)| {
            let mut g = vec![0f64; n];
            for (r, &x) in rs.iter().zip(vs) {
                for &i in r.indices() {
                    g[i as usize] += x;
                }
                g[r.bias as usize] += x;
            }
            g
        })
        .collect();
    let mut g = vec![0f64; n];
    for p in parts {
        for (a, b) in g.iter_mut().zip(p) {
            *a += b;
        }
    }
    g
}

fn rmse(w: &[f64], rows: &[FitRow]) -> f64 {
    if rows.is_empty() {
        return 0.0;
    }
    let se: f64 = rows
        .par_chunks(CHUNK)
        .map(|rs| {
            rs.iter()
                .map(|r| (r.target as f64 - predict(w, r)).powi(2))
                .sum::<f64>()
        })
        .collect::<Vec<f64>>()
        .iter()
        .sum();
    (se / rows.len() as f64).sqrt()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Fits `w` (one phase, canonical indices; starts from its current values) to `rows` by
/// `opt.method`; conjugate gradients stop where the error on `valid` was lowest (if
/// `valid` is not empty). Returns the root mean square error on `rows` and the steps kept.
pub fn fit(w: &mut [f32], rows: &[FitRow], valid: &[FitRow], opt: FitOptions) -> (f32, u32) {
    match opt.method {
        FitMethod::Jacobi => (fit_jacobi(w, rows, opt), opt.epochs),
        FitMethod::ConjugateGradient => fit_cg(w, rows, valid, opt),
    }
}

fn fit_cg(w: &mut [f32], rows: &[FitRow], valid: &[FitRow], opt: FitOptions) -> (f32, u32) {
    let n = w.len();
    if rows.is_empty() {
        return (0.0, 0);
    }
    let l2 = opt.l2 as f64;
    let mut x: Vec<f64> = w.iter().map(|&v| v as f64).collect();
    // Only weights some row uses take part; the others keep their values.
    let mut used = vec![false; n];
    for r in rows {
        for &i in r.indices() {
            used[i as usize] = true;
        }
        used[r.bias as usize] = true;
    }
    let residuals = |x: &[f64]| -> Vec<f64> {
        rows.par_iter()
            .map(|r| r.target as f64 - predict(x, r))
            .collect()
    };
    // r = A'(y - Ax) - l2 x, on the used weights.
    let mut r = transpose_times(rows, &residuals(&x), n);
    for i in 0..n {
        r[i] = if used[i] { r[i] - l2 * x[i] } else { 0.0 };
    }
    let mut p = r.clone();
    let mut rs = dot(&r, &r);
    let mut best = (rmse(&x, valid), x.clone(), 0u32);
    for it in 1..=opt.epochs {
        if rs == 0.0 {
            break;
        }
        let ap_rows: Vec<f64> = rows.par_iter().map(|row| predict(&p, row)).collect();
        let mut ap = transpose_times(rows, &ap_rows, n);
        for i in 0..n {
            if used[i] {
                ap[i] += l2 * p[i];
            }
        }
        let alpha = rs / dot(&p, &ap);
        for i in 0..n {
            x[i] += alpha * p[i];
            r[i] -= alpha * ap[i];
        }
        let rs_new = dot(&r, &r);
        let beta = rs_new / rs;
        for i in 0..n {
            p[i] = r[i] + beta * p[i];
        }
        rs = rs_new;
        if !valid.is_empty() {
            let v = rmse(&x, valid);
            if v < best.0 {
                best = (v, x.clone(), it);
            }
        }
    }
    let kept = if valid.is_empty() {
        opt.epochs
    } else {
        x = best.1;
        best.2
    };
    for (a, b) in w.iter_mut().zip(&x) {
        *a = *b as f32;
    }
    (rmse(&x, rows) as f32, kept)
}

fn fit_jacobi(w: &mut [f32], rows: &[FitRow], opt: FitOptions) -> f32 {
    let n = w.len();
    if rows.is_empty() {
        return 0.0;
    }
    let mut count = vec![0f32; n];
    for r in rows {
        for &i in r.indices() {
            count[i as usize] += 1.0;
        }
    }
    for r in rows {
        count[r.bias as usize] += 1.0;
    }
    let mut grad = vec![0f32; n];
    let predict = |w: &[f32], r: &FitRow| -> f32 {
        w[r.bias as usize] + r.indices().map(|&i| w[i as usize]).sum::<f32>()
    };
    for _ in 0..opt.epochs {
        grad.iter_mut().for_each(|g| *g = 0.0);
        for r in rows {
            let e = r.target - predict(w, r);
            for &i in r.indices() {
                grad[i as usize] += e;
            }
            grad[r.bias as usize] += e;
        }
        for i in 0..n {
            if count[i] > 0.0 {
                w[i] += opt.rate * (grad[i] - opt.l2 * w[i]) / (count[i] + opt.l2);
            }
        }
    }
    let se: f64 = rows
        .iter()
        .map(|r| {
            let e = (r.target - predict(w, r)) as f64;
            e * e
        })
        .sum();
    (se / rows.len() as f64).sqrt() as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::random::SplitMix64;
    use crate::eval::mobility::{MOBILITY_ENTRIES, PER_PHASE_MOBILITY};
    use crate::eval::pattern::PER_PHASE;

    /// Rows whose targets are sums of known weights on a few indices per pattern slot (a
    /// sparse design like the patterns'), plus `noise` times a uniform number in [-1, 1].
    fn planted(seed: u64, n: usize, noise: f32) -> Vec<FitRow> {
        planted_with(seed, n, noise, false)
    }

    /// [`planted`], with mobility-table indices too if `tables`.
    fn planted_with(seed: u64, n: usize, noise: f32, tables: bool) -> Vec<FitRow> {
        let mut rng = SplitMix64::new(9);
        let mut truth = vec![0f32; PER_PHASE_MOBILITY];
        for t in truth.iter_mut().take(2000) {
            *t = (rng.below(200) as f32 - 100.0) / 10.0;
        }
        for t in truth.iter_mut().skip(PER_PHASE) {
            *t = (rng.below(200) as f32 - 100.0) / 10.0;
        }
        let mut rng = SplitMix64::new(seed);
        (0..n)
            .map(|_| {
                let mut features = [0u32; FEATURES];
                for (k, f) in features.iter_mut().enumerate() {
                    // Slot k uses indices k*40 .. k*40+40.
                    *f = (k as u64 * 40 + rng.below(40)) as u32;
                }
                let mut extra = [0u32; MOBILITY_TABLES];
                for (k, x) in extra.iter_mut().enumerate() {
                    let entry = rng.below(MOBILITY_ENTRIES as u64) as usize;
                    *x = (PER_PHASE + k * MOBILITY_ENTRIES + entry) as u32;
                }
                let extras = if tables { MOBILITY_TABLES as u8 } else { 0 };
                let e = noise * (rng.below(2001) as f32 / 1000.0 - 1.0);
                let target = features
                    .iter()
                    .chain(&extra[..extras as usize])
                    .map(|&i| truth[i as usize])
                    .sum::<f32>()
                    + 3.0
                    + e;
                FitRow {
                    features,
                    bias: (PER_PHASE - 1) as u32,
                    target,
                    extra,
                    extras,
                }
            })
            .collect()
    }

    fn spread(rows: &[FitRow]) -> f32 {
        let m = rows.iter().map(|r| r.target).sum::<f32>() / rows.len() as f32;
        (rows.iter().map(|r| (r.target - m).powi(2)).sum::<f32>() / rows.len() as f32).sqrt()
    }

    #[test]
    fn both_methods_recover_planted_weights_from_noiseless_samples() {
        // The fit must reproduce the targets closely (weights are not unique, predictions
        // are). Little regularisation: noiseless targets should be fitted almost exactly.
        for (tables, len) in [(false, PER_PHASE), (true, PER_PHASE_MOBILITY)] {
            let rows = planted_with(1, 3000, 0.0, tables);
            recovers(&rows, len);
        }
    }

    fn recovers(rows: &[FitRow], len: usize) {
        assert!(spread(rows) > 20.0, "the targets vary: {}", spread(rows));
        for method in [FitMethod::Jacobi, FitMethod::ConjugateGradient] {
            let mut w = vec![0f32; len];
            let opt = FitOptions {
                epochs: 1000,
                l2: 0.01,
                method,
                ..Default::default()
            };
            let (rmse, _) = fit(&mut w, rows, &[], opt);
            assert!(
                rmse < 0.05 * spread(rows),
                "{method:?}, {len} weights: rmse {rmse} against spread {}",
                spread(rows)
            );
        }
    }

    #[test]
    fn conjugate_gradients_stop_where_the_validation_error_is_lowest() {
        // Few noisy rows for many weights: fitted to the end, the noise is learnt and the
        // error on fresh rows grows; the early-stopped fit must do better on fresh rows
        // than the full fit, and keep fewer iterations than it ran.
        let train = planted(2, 600, 30.0);
        let valid = planted(3, 600, 30.0);
        let fresh = planted(4, 2000, 30.0);
        let opt = FitOptions {
            epochs: 300,
            l2: 0.01,
            method: FitMethod::ConjugateGradient,
            ..Default::default()
        };
        let rms = |w: &[f32], rows: &[FitRow]| {
            let w: Vec<f64> = w.iter().map(|&x| x as f64).collect();
            rmse(&w, rows)
        };
        let mut full = vec![0f32; PER_PHASE];
        let (train_full, _) = fit(&mut full, &train, &[], opt);
        let mut early = vec![0f32; PER_PHASE];
        let (train_early, kept) = fit(&mut early, &train, &valid, opt);
        assert!(kept < opt.epochs, "kept {kept} of {}", opt.epochs);
        assert!(
            train_early > train_full,
            "{train_early} against {train_full}"
        );
        assert!(
            rms(&early, &fresh) < rms(&full, &fresh),
            "fresh rows: early {} against full {}",
            rms(&early, &fresh),
            rms(&full, &fresh)
        );
    }
}
