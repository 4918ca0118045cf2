//! Fitting one phase's weights: sparse least squares by gradient steps.
//!
//! Each step moves every weight by the mean residual of the samples using it (less an L2
//! penalty), damped by the number of weights per sample: a Jacobi-style iteration on the
//! regularised normal equations that needs no tuning per pattern.

use crate::eval::pattern::{FEATURES, PER_PHASE};

/// One training sample: its weight indices (canonical) and its label in discs.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// Canonical weight index of each pattern instance.
    pub features: [u32; FEATURES],
    /// Index of its bias weight.
    pub bias: u32,
    /// Target score in discs, side to move's view.
    pub target: f32,
}

/// Settings of the fit.
#[derive(Clone, Copy, Debug)]
pub struct FitOptions {
    /// Gradient steps.
    pub epochs: u32,
    /// Step size (fraction of the mean residual applied per step).
    pub rate: f32,
    /// L2 regularisation: the fit minimises the squared errors plus this times the sum of
    /// squared weights, so that weights seen in few samples stay small.
    pub l2: f32,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            epochs: 200,
            // Every sample moves FEATURES + 1 weights: a larger step overshoots (and
            // diverges) on samples that share all their features, as openings do.
            rate: 1.0 / (FEATURES + 1) as f32,
            l2: 8.0,
        }
    }
}

/// Fits `w` (one phase, canonical indices; starts from its current values) to `rows`.
/// Returns the root mean square error on `rows` after fitting.
pub fn fit(w: &mut [f32], rows: &[Row], opt: FitOptions) -> f32 {
    assert_eq!(w.len(), PER_PHASE);
    if rows.is_empty() {
        return 0.0;
    }
    let mut count = vec![0f32; PER_PHASE];
    for r in rows {
        for &i in &r.features {
            count[i as usize] += 1.0;
        }
    }
    for r in rows {
        count[r.bias as usize] += 1.0;
    }
    let mut grad = vec![0f32; PER_PHASE];
    let predict = |w: &[f32], r: &Row| -> f32 {
        w[r.bias as usize] + r.features.iter().map(|&i| w[i as usize]).sum::<f32>()
    };
    for _ in 0..opt.epochs {
        grad.iter_mut().for_each(|g| *g = 0.0);
        for r in rows {
            let e = r.target - predict(w, r);
            for &i in &r.features {
                grad[i as usize] += e;
            }
            grad[r.bias as usize] += e;
        }
        for i in 0..PER_PHASE {
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

    #[test]
    fn recovers_planted_weights_from_noiseless_samples() {
        // Targets made from known weights on a few indices per pattern slot: the fit must
        // reproduce the targets closely (weights are not unique, predictions are).
        let mut rng = SplitMix64::new(9);
        let mut truth = vec![0f32; PER_PHASE];
        for t in truth.iter_mut().take(2000) {
            *t = (rng.below(200) as f32 - 100.0) / 10.0;
        }
        let rows: Vec<Row> = (0..3000)
            .map(|_| {
                let mut features = [0u32; FEATURES];
                for (k, f) in features.iter_mut().enumerate() {
                    // Slot k uses indices k*40 .. k*40+40: a sparse design like the patterns'.
                    *f = (k as u64 * 40 + rng.below(40)) as u32;
                }
                let target = features.iter().map(|&i| truth[i as usize]).sum::<f32>() + 3.0;
                Row {
                    features,
                    bias: (PER_PHASE - 1) as u32,
                    target,
                }
            })
            .collect();
        let spread = {
            let m = rows.iter().map(|r| r.target).sum::<f32>() / rows.len() as f32;
            (rows.iter().map(|r| (r.target - m).powi(2)).sum::<f32>() / rows.len() as f32).sqrt()
        };
        let mut w = vec![0f32; PER_PHASE];
        // Little regularisation: noiseless targets should be fitted almost exactly.
        let opt = FitOptions {
            epochs: 1000,
            l2: 0.01,
            ..Default::default()
        };
        let rmse = fit(&mut w, &rows, opt);
        assert!(spread > 20.0, "the targets vary: {spread}");
        assert!(rmse < 0.05 * spread, "rmse {rmse} against spread {spread}");
    }
}
