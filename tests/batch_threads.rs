//! `finale batch --position-threads N`: several threads search each position together,
//! so that a few deep positions use every core. Scores are checked against the published
//! FFO values in the input (the `ok` column).

mod common;

use common::csv_rows::rows;
use common::run::one_line_error;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_finale");

fn batch(input: &Path, out: &Path, threads: &[&str]) -> Command {
    let mut c = Command::new(BIN);
    c.arg("batch")
        .arg(input)
        .arg("--out")
        .arg(out)
        .args(["--hash-mb", "16", "--no-progress"])
        .args(threads);
    c
}

/// The names of the threads of process `pid` (Linux's /proc), empty once it is gone.
fn thread_names(pid: u32) -> Vec<String> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .map(|name| name.trim().to_string())
        .collect()
}

/// FFO #40-#42 at `--threads 2 --position-threads 2`: one worker, whose solver runs a
/// second search thread while the batch runs (seen in /proc), every published value, and
/// rows that say two threads searched.
#[test]
fn two_threads_search_each_position_together() {
    let dir = tempfile::tempdir().unwrap();
    let ffo = Path::new(env!("CARGO_MANIFEST_DIR")).join("suites/fforum-40-59.obf");
    let text = std::fs::read_to_string(ffo).unwrap();
    let input = dir.path().join("in.obf");
    let lines: Vec<&str> = text.lines().take(3).collect();
    std::fs::write(&input, lines.join("\n") + "\n").unwrap();
    let out = dir.path().join("out.csv");
    let mut child = batch(&input, &out, &["--threads", "2", "--position-threads", "2"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut seen = Vec::new();
    while child.try_wait().unwrap().is_none() {
        seen.extend(thread_names(child.id()));
        std::thread::sleep(Duration::from_millis(2));
    }
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let workers = seen.iter().filter(|n| *n == "batch-1").count();
    assert_eq!(workers, 0, "two workers ran: {seen:?}");
    assert!(
        seen.iter().any(|n| n == "finale-search-1"),
        "no second search thread: {seen:?}"
    );
    let r = rows(&out);
    assert_eq!(r.len(), 3, "{r:?}");
    for row in &r {
        assert_eq!((row["ok"].as_str(), row["threads"].as_str()), ("true", "2"));
    }
}

/// More threads for a position than for the batch, or a labelling run (which searches
/// without a table), is refused in one line, exit 2, before any output is made.
#[test]
fn position_threads_beyond_the_batch_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("suites/fforum-1-19.obf");
    let out = dir.path().join("out.csv");
    let o = batch(&input, &out, &["--threads", "2", "--position-threads", "3"])
        .output()
        .unwrap();
    let err = one_line_error(&o);
    assert!(err.contains("--position-threads 3"), "{err}");
    assert_eq!(o.status.code(), Some(2));
    assert!(!out.exists());
    let o = batch(
        &input,
        &out,
        &["--position-threads", "2", "--label-depth", "2"],
    )
    .output()
    .unwrap();
    one_line_error(&o);
    assert_eq!(o.status.code(), Some(2));
    assert!(!out.exists());
}
