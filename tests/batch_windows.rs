//! Batches of bounds: input lines that give their own window (`; window A,B;`), killed
//! and resumed, and merged with an exact run of the same positions. The values checked
//! against are the FFO files' published ones.

mod common;

use common::csv_rows::rows;
use common::run::{one_line_error, wait_for_lines};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_finale");

fn suite(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("suites")
        .join(name)
}

/// The positions of FFO #20-#39 (20 to 26 empties): each line and its published value.
fn ffo() -> Vec<(String, i32)> {
    std::fs::read_to_string(suite("fforum-20-39.obf"))
        .unwrap()
        .lines()
        .filter_map(|l| {
            let r = finale::board::parse_obf_line(l).unwrap()?;
            Some((l.trim().to_string(), r.expected_score().unwrap()))
        })
        .collect()
}

/// The three windows of issue 69 around the value `v`, kept within -64..64: one holding
/// it, one above it, one below it.
fn windows_around(v: i32) -> [(i32, i32); 3] {
    [
        ((v - 1).clamp(-64, 63), (v + 1).clamp(-63, 64)),
        ((v + 1).min(63), (v + 9).min(64)),
        ((v - 9).max(-64), (v - 1).max(-63)),
    ]
}

/// `line` asking for the window `(a, b)`.
fn with_window(line: &str, (a, b): (i32, i32)) -> String {
    format!("{line} window {a},{b};")
}

fn run(args: &[&str]) -> std::process::Output {
    Command::new(BIN)
        .args(args)
        .args(["--hash-mb", "16", "--no-progress"])
        .output()
        .expect("finale runs")
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// What a row proves on its position's value: (lower, upper).
fn bounds(r: &HashMap<String, String>) -> (i32, i32) {
    (r["lower"].parse().unwrap(), r["upper"].parse().unwrap())
}

/// Every FFO #20-#39 position with each of its three windows, and a few with a fourth
/// line repeating one window (solved once): killed once rows are written, then resumed
/// with two threads, the output holds one row per position and window, each answering
/// its window as the published value says; merged with an exact run of the same
/// positions there is no conflict, and each position's bounds are its value.
#[test]
fn per_line_windows_resume_and_merge_with_an_exact_run() {
    let dir = tempfile::tempdir().unwrap();
    let ffo = ffo();
    let mut lines = Vec::new();
    for (line, v) in &ffo {
        for w in windows_around(*v) {
            lines.push(with_window(line, w));
        }
    }
    for (line, v) in ffo.iter().take(3) {
        lines.push(with_window(line, windows_around(*v)[1]));
    }
    let input = dir.path().join("windows.obf");
    std::fs::write(&input, lines.join("\n") + "\n").unwrap();
    let out = dir.path().join("windows.csv");
    let (in_s, out_s) = (path_str(&input), path_str(&out));

    let mut child = Command::new(BIN)
        .args(["batch", in_s, "--out", out_s, "--threads", "1"])
        .args(["--hash-mb", "16", "--no-progress"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();

    wait_for_lines(&out, 6);
    child.kill().unwrap();
    child.wait().unwrap();
    let before = rows(&out).len();
    assert!(before < 59, "the kill came before the end ({before} rows)");
    let o = run(&["batch", in_s, "--out", out_s, "--threads", "2"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains(&format!("already done  {before}")),
        "{stdout}"
    );

    let value: HashMap<String, i32> = ffo.iter().map(|(l, v)| (key_of(l), *v)).collect();
    let expected: HashSet<_> = ffo
        .iter()
        .flat_map(|(l, v)| windows_around(*v).map(|(a, b)| (key_of(l), a, b)))
        .collect();
    let all = rows(&out);
    // FFO #26's +64 makes two of its windows one (63,64).
    assert_eq!(all.len(), expected.len(), "one row per position and window");
    let mut tasks = HashSet::new();
    for r in &all {
        let (a, b): (i32, i32) = (r["alpha"].parse().unwrap(), r["beta"].parse().unwrap());
        assert!(tasks.insert((r["key"].clone(), a, b)), "twice: {r:?}");
        assert_eq!(
            (r["mode"].as_str(), r["status"].as_str()),
            ("window", "solved")
        );
        assert_eq!(r["ok"], "true", "{r:?}");
        let v = value[&r["key"]];
        let (l, u) = bounds(r);
        assert!(l <= v && v <= u, "{a},{b}: bounds {l}..{u}, value {v}");
        if a < v && v < b {
            assert_eq!((l, u), (v, v), "inside {a},{b}");
        } else if v <= a {
            assert!(u <= a, "below {a},{b}: upper {u}");
        } else {
            assert!(l >= b, "above {a},{b}: lower {l}");
        }
    }
    assert_eq!(tasks, expected);

    // An exact run of the same positions, merged: no conflict, one row per position, the
    // row that proves its value.
    let exact = dir.path().join("exact.csv");
    let o = run(&[
        "batch",
        path_str(&suite("fforum-20-39.obf")),
        "--out",
        path_str(&exact),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let merged = dir.path().join("merged.csv");
    let o = merge(&[&out, &exact], &merged);
    let report = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{report}");
    assert!(report.contains("conflicts 0"), "{report}");
    let kept = rows(&merged);
    assert_eq!(kept.len(), 20, "{report}");
    for r in &kept {
        assert_eq!(bounds(r), (value[&r["key"]], value[&r["key"]]), "{r:?}");
    }

    // The window rows alone: each position's bounds narrow to its value, from the row
    // holding it.
    let alone = dir.path().join("alone.csv");
    let o = merge(&[&out], &alone);
    assert_eq!(o.status.code(), Some(0));
    let kept = rows(&alone);
    assert_eq!(kept.len(), 20);
    assert!(kept.iter().all(|r| bounds(r).0 == bounds(r).1));
}

/// A row whose bounds cannot hold beside another's is one conflict (exit 1), named by
/// position and both files; an upper bound and a lower bound of the same position join
/// into two rows, narrowed.
#[test]
fn contradicting_bounds_are_a_conflict_and_two_half_bounds_join() {
    let dir = tempfile::tempdir().unwrap();
    let ffo = ffo();
    let (line, v) = &ffo[0];
    let [_, above, below] = windows_around(*v);
    let input = dir.path().join("two.obf");
    let text = format!(
        "{}\n{}\n",
        with_window(line, above),
        with_window(line, below)
    );
    std::fs::write(&input, text).unwrap();
    let out = dir.path().join("two.csv");
    let o = run(&["batch", path_str(&input), "--out", path_str(&out)]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let merged = dir.path().join("merged.csv");
    let o = merge(&[&out], &merged);
    let report = String::from_utf8_lossy(&o.stdout);
    assert!(report.contains("narrowed 1  conflicts 0"), "{report}");
    let kept = rows(&merged);
    assert_eq!(kept.len(), 2);
    let (lo, up) = kept.iter().fold((-64, 64), |(lo, up), r| {
        (lo.max(bounds(r).0), up.min(bounds(r).1))
    });
    assert!(
        v - 1 <= lo && lo <= *v && *v <= up && up <= v + 1,
        "{lo}..{up}"
    );

    // An exact row forged to say v+2 (score and bounds, as a solver that got it wrong
    // would write them) contradicts the upper bound.
    let single = dir.path().join("one.obf");
    std::fs::write(&single, format!("{line}\n")).unwrap();
    let exact = dir.path().join("exact.csv");
    let o = run(&["batch", path_str(&single), "--out", path_str(&exact)]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&exact).unwrap();
    let mut rows_text: Vec<String> = text.lines().map(String::from).collect();
    let header: Vec<&str> = rows_text[0].split(',').collect();
    let at = |c: &str| header.iter().position(|h| *h == c).unwrap();
    let mut fields: Vec<String> = rows_text[1].split(',').map(String::from).collect();
    for column in ["score", "lower", "upper"] {
        fields[at(column)] = (v + 2).to_string();
    }
    rows_text[1] = fields.join(",");
    let forged = dir.path().join("forged.csv");
    std::fs::write(&forged, rows_text.join("\n") + "\n").unwrap();
    let o = merge(&[&out, &forged], &dir.path().join("m2.csv"));
    let report = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{report}");
    let conflicts: Vec<&str> = report
        .lines()
        .filter(|l| l.starts_with("conflict"))
        .collect();
    assert_eq!(conflicts.len(), 1, "{report}");
    assert!(conflicts[0].contains("two.csv") && conflicts[0].contains("forged.csv"));
    assert!(report.contains("conflicts 1"), "{report}");
}

/// Resume keeps each line's window: a line whose window changed is a new task (solved,
/// beside the old row), and the lines that kept theirs are done.
#[test]
fn a_changed_window_is_a_new_row_and_labels_refuse_windows() {
    let dir = tempfile::tempdir().unwrap();
    let ffo = ffo();
    let write = |windows: &[(i32, i32)]| {
        let text: Vec<String> = ffo
            .iter()
            .take(2)
            .zip(windows)
            .map(|((l, _), &w)| with_window(l, w))
            .collect();
        let input = dir.path().join("in.obf");
        std::fs::write(&input, text.join("\n") + "\n").unwrap();
        input
    };
    let out = dir.path().join("out.csv");
    let input = write(&[(-1, 1), (-1, 1)]);
    let o = run(&["batch", path_str(&input), "--out", path_str(&out)]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let input = write(&[(-1, 1), (-64, 64)]);
    let o = run(&["batch", path_str(&input), "--out", path_str(&out)]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("already done  1"), "{stdout}");
    assert!(stdout.contains("solved        1"), "{stdout}");
    let windows: Vec<(String, String)> = rows(&out)
        .iter()
        .map(|r| (r["alpha"].clone(), r["beta"].clone()))
        .collect();
    assert_eq!(windows.len(), 3);
    assert_eq!(windows[2], ("-64".to_string(), "64".to_string()));

    // Labels answer no window: a window line in a label run is one error line, naming
    // the file and line, and writes nothing.
    let labels = dir.path().join("labels.csv");
    let o = run(&[
        "batch",
        path_str(&input),
        "--out",
        path_str(&labels),
        "--label-depth",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = one_line_error(&o);
    assert!(
        err.contains("in.obf:1: a window line in a label run"),
        "{err}"
    );
}

/// The position key of an OBF line, as the CSV's `key` column writes it.
fn key_of(line: &str) -> String {
    let r = finale::board::parse_obf_line(line).unwrap().unwrap();
    finale::board::key::key_hex(finale::board::key::position_key(&r.position))
}

fn merge(inputs: &[&Path], out: &Path) -> std::process::Output {
    Command::new(BIN)
        .arg("merge")
        .args(inputs)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}
