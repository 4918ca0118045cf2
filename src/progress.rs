//! Progress bars on stderr, for the long-running commands (train, suite, batch): drawn only
//! when asked and stderr is a terminal, so that logs and pipes get the output alone.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// A bar of `len` steps drawn with the indicatif `template` if `wanted` and stderr is a
/// terminal, else a hidden one (every call on it does nothing).
pub fn bar(wanted: bool, len: u64, template: &str) -> ProgressBar {
    if !(wanted && std::io::stderr().is_terminal()) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    // Redrawn twice a second even while one long position is solved, so that the elapsed
    // time and the current pass stay live.
    bar.enable_steady_tick(std::time::Duration::from_millis(500));
    bar
}

/// Growth of a position's solve time per empty square, for the suite bar's ETA only: a
/// log-linear fit of time against empties over FFO 40-59 exact at 2 threads, 40 solves
/// (results/eval/2026-11-24-ffo-40-59-2t-new-weights-side-by-side.csv).
pub const SUITE_ETA_GROWTH_PER_EMPTY: f64 = 1.29;

/// The bar's work units for one solve of a position with `empties` empty squares: its
/// expected time relative to a 20-empty one, in thousandths (growth per empty:
/// [`SUITE_ETA_GROWTH_PER_EMPTY`]).
pub fn work_of(empties: u32) -> u64 {
    let g = SUITE_ETA_GROWTH_PER_EMPTY;
    (g.powi(empties as i32 - 20) * 1000.0).ceil().max(1.0) as u64
}
