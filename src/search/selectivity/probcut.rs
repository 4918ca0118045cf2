//! Multi-probcut at search time: a shallow evaluated search predicts a node's exact score,
//! and a prediction far enough beyond the window, by the error model's standard
//! deviations, cuts the node. The model's constants are in settings.rs, its fitting in
//! `train/mpc.rs`, the levels and their widths in `level.rs` (a width given in their place,
//! `ProbcutT`, is a search option: `options.rs`).

use crate::board::Board;
use crate::eval::{Evaluator, UNITS_PER_DISC};
use crate::search::kernel_dispatch::Entries;
use crate::search::state::Search;
use crate::settings::{MPC_MEAN, MPC_MODEL_MAX_DEPTH, MPC_MODEL_MAX_EMPTIES, MPC_SIGMA, mpc_depth};

/// The error model's two planes at `n` empties and a shallow search of depth `d` (`odd`
/// is 1 when `d` is odd, else 0): mean = `mean[0] + mean[1] n + mean[2] odd` (a search
/// that ends after the other side's move errs the other way), sigma = `sigma[0] +
/// sigma[1] n + sigma[2] d` (a deeper search errs less). The one formula of the model:
/// the search evaluates it in `f32` ([`mpc_error`]), training fits and reports it in `f64`
/// (`train::mpc::ProbcutModel`).
#[inline]
pub fn mpc_planes<T>(mean: [T; 3], sigma: [T; 3], n: T, d: T, odd: T) -> (T, T)
where
    T: Copy + std::ops::Add<Output = T> + std::ops::Mul<Output = T>,
{
    (
        mean[0] + mean[1] * n + mean[2] * odd,
        sigma[0] + sigma[1] * n + sigma[2] * d,
    )
}

/// The shipped error model at `n` empties: (mean, sigma) in discs at the depth
/// [`mpc_depth`]`(n)` (see [`MPC_MEAN`]), with `n` and the depth held to the ranges it was
/// fitted on ([`MPC_MODEL_MAX_EMPTIES`], [`MPC_MODEL_MAX_DEPTH`]).
pub fn mpc_error(n: u32) -> (f32, f32) {
    let depth = mpc_depth(n);
    let d = depth.min(MPC_MODEL_MAX_DEPTH) as f32;
    let m = n.min(MPC_MODEL_MAX_EMPTIES) as f32;
    let odd = (depth % 2) as f32;
    mpc_planes(MPC_MEAN, MPC_SIGMA, m, d, odd)
}

impl Search<'_> {
    /// Multi-probcut: a shallow search predicts the exact score; when the prediction lies
    /// beyond the window by more than the level's t standard deviations of its error, the
    /// node is taken to fail there.
    #[inline(always)]
    pub(crate) fn probcut<K: Entries>(
        &mut self,
        eval: &Evaluator,
        b: &Board,
        alpha: i32,
        beta: i32,
        n: u32,
    ) -> Option<i32> {
        if K::SAMPLES
            && let Some(samples) = &mut self.samples
        {
            samples.offer(b);
        }
        let d = mpc_depth(n);
        let t = match self.options.probcut_t {
            Some(t) if self.level == self.options.selectivity => t.sigmas(),
            _ => self
                .level
                .probcut_sigmas()
                .expect("probcut runs at a multi-probcut level"),
        };
        // The shallow value less its mean error predicts the exact score; a cut needs the
        // prediction t standard deviations beyond the window.
        let (mean, sigma) = mpc_error(n);
        let offset = (mean * UNITS_PER_DISC as f32).round() as i32;
        let margin = (t * sigma * UNITS_PER_DISC as f32) as i32;
        if beta < 64 {
            let bound = beta * UNITS_PER_DISC + offset + margin;
            if bound < 64 * UNITS_PER_DISC
                && self.search_evaluated_in::<K>(eval, *b, bound - 1, bound, d) >= bound
            {
                return Some(beta);
            }
        }
        if alpha > -64 {
            let bound = alpha * UNITS_PER_DISC + offset - margin;
            if bound > -64 * UNITS_PER_DISC
                && self.search_evaluated_in::<K>(eval, *b, bound, bound + 1, d) <= bound
            {
                return Some(alpha);
            }
        }
        None
    }
}
