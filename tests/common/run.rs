//! Running the finale binary from tests.

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
