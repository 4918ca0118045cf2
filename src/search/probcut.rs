//! Multi-probcut at search time: a shallow evaluated search predicts a node's exact score,
//! and a prediction far enough beyond the window, by the error model's standard
//! deviations, cuts the node. The model's constants are in settings.rs, its fitting in
//! `train/mpc.rs`, the levels and their widths in `level.rs` (a width given in their place,
//! `ProbcutT`, is a search option: `options.rs`).

use super::entry::Entries;
use super::state::Search;
use crate::board::Board;
use crate::eval::{Evaluator, UNITS_PER_DISC};
use crate::settings::{MPC_MEAN, MPC_MODEL_MAX_DEPTH, MPC_MODEL_MAX_EMPTIES, MPC_SIGMA, mpc_depth};

/// The error model at `n` empties: (mean, sigma) in discs at the depth
/// [`mpc_depth`]`(n)` (see [`MPC_MEAN`]).
pub fn mpc_error(n: u32) -> (f32, f32) {
    let depth = mpc_depth(n);
    let d = depth.min(MPC_MODEL_MAX_DEPTH) as f32;
    let m = n.min(MPC_MODEL_MAX_EMPTIES) as f32;
    let odd = (depth % 2) as f32;
    (
        MPC_MEAN[0] + MPC_MEAN[1] * m + MPC_MEAN[2] * odd,
        MPC_SIGMA[0] + MPC_SIGMA[1] * m + MPC_SIGMA[2] * d,
    )
}

impl Search<'_> {
    /// Multi-probcut: a shallow search predicts the exact score; when the prediction lies
    /// beyond the window by more than the level's t standard deviations of its error, the
    /// node is taken to fail there.
    #[inline(always)]
    pub(super) fn probcut<K: Entries>(
        &mut self,
        eval: &Evaluator,
        b: &Board,
        alpha: i32,
        beta: i32,
        n: u32,
    ) -> Option<i32> {
        if let Some((rate, v)) = &mut self.probcut_samples
            && b.hash64().is_multiple_of(*rate)
        {
            v.push(*b);
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
