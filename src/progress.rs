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
    bar
}
