//! Running the finale binary from tests.

use std::path::Path;
use std::time::{Duration, Instant};

/// The standard output of a `finale` run with `args` that must succeed (its stderr in the
/// failure message otherwise).
pub fn finale_ok<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> String {
    let out = assert_cmd::cargo::cargo_bin_cmd!("finale")
        .args(args)
        .output()
        .expect("finale runs");
    assert!(
        out.status.success(),
        "finale failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

/// Waits until `out` has at least `lines` lines (header included).
pub fn wait_for_lines(out: &Path, lines: usize) {
    let start = Instant::now();
    loop {
        let written = std::fs::read_to_string(out)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if written >= lines {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "batch made no progress"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The single line of stderr of a failed run, checked to be one line.
pub fn one_line_error(o: &std::process::Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr).trim().to_string();
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("error: "), "{err}");
    err
}
