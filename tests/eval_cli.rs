//! `finale eval` end to end, against a plain negamax over the from-scratch evaluation
//! written here (the command searches with alpha-beta and incremental evaluation), and its
//! bad-input paths: one `error:` line, exit code 2, nothing replaced that is not a file.

use assert_cmd::cargo::cargo_bin_cmd;
use finale::board::{Board, Square, parse_obf_line};
use finale::eval::{Evaluator, UNITS_PER_DISC};
use predicates::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;
use tempfile::TempDir;

fn suite(name: &str) -> String {
    format!("{}/suites/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Plain negamax, `depth` moves ahead: a forced pass is not counted, a finished game
/// scores its exact disc difference, the leaves are evaluated from scratch.
fn negamax(e: &Evaluator, b: &Board, depth: u32) -> i32 {
    if depth == 0 {
        return e.evaluate(b);
    }
    let children: Vec<Board> = (0..64u8)
        .filter_map(|i| b.play(Square::new(i).unwrap()))
        .collect();
    if children.is_empty() {
        let passed = b.pass();
        if (0..64u8).all(|i| passed.play(Square::new(i).unwrap()).is_none()) {
            return b.final_score() * UNITS_PER_DISC;
        }
        return -negamax(e, &passed, depth);
    }
    children
        .iter()
        .map(|c| -negamax(e, c, depth - 1))
        .max()
        .unwrap()
}

/// Each legal move's value for the side to move: the child `depth - 1` moves ahead.
fn move_values(e: &Evaluator, b: &Board, depth: u32) -> BTreeMap<String, i32> {
    (0..64u8)
        .filter_map(|i| {
            let sq = Square::new(i).unwrap();
            b.play(sq)
                .map(|c| (sq.to_string(), -negamax(e, &c, depth.saturating_sub(1))))
        })
        .collect()
}

fn units(discs: &str) -> i32 {
    (discs.parse::<f64>().unwrap() * UNITS_PER_DISC as f64).round() as i32
}

/// Runs `finale eval ARGS --csv` and returns the CSV rows (header checked).
fn eval_csv(args: &[&str], dir: &Path) -> Vec<csv::StringRecord> {
    let path = dir.join("eval.csv");
    cargo_bin_cmd!("finale")
        .arg("eval")
        .args(args)
        .arg("--csv")
        .arg(&path)
        .assert()
        .success();
    let mut r = csv::Reader::from_path(&path).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        header,
        [
            "index",
            "source",
            "board",
            "side",
            "empties",
            "depth",
            "eval",
            "best_move",
            "move_evals",
            "nodes"
        ]
    );
    r.records().map(Result::unwrap).collect()
}

fn check_rows(rows: &[csv::StringRecord], depth: u32) {
    let e = Evaluator::shipped().unwrap();
    for row in rows {
        let line = format!("{} {}", &row[2], &row[3]);
        let board = parse_obf_line(&line).unwrap().unwrap().position.board;
        assert_eq!(row[4].parse::<u32>().unwrap(), board.empty_count());
        assert_eq!(row[5].parse::<u32>().unwrap(), depth);
        assert_eq!(units(&row[6]), negamax(e, &board, depth), "{line}");
        let expected = move_values(e, &board, depth);
        let got: BTreeMap<String, i32> = row[8]
            .split(' ')
            .filter(|s| !s.is_empty())
            .map(|p| {
                let (sq, v) = p.split_once(':').unwrap();
                (sq.to_string(), units(v))
            })
            .collect();
        assert_eq!(got, expected, "{line}");
        let best = expected.values().max().unwrap();
        assert_eq!(expected[&row[7]], *best, "{line}: best_move");
        if depth > 0 {
            assert_eq!(
                units(&row[6]),
                *best,
                "{line}: the position is its best move"
            );
        }
    }
}

#[test]
fn depth_2_matches_plain_negamax_on_ffo_40_59() {
    let dir = TempDir::new().unwrap();
    let rows = eval_csv(
        &["--file", &suite("fforum-40-59.obf"), "--depth", "2"],
        dir.path(),
    );
    assert_eq!(rows.len(), 20);
    check_rows(&rows, 2);
}

#[test]
fn static_and_depth_3_match_plain_negamax_on_a_move_sequence() {
    let dir = TempDir::new().unwrap();
    for depth in [0, 3] {
        let d = depth.to_string();
        let rows = eval_csv(
            &["--moves", "f5d6c3d3c4f4f6f3e6e7", "--depth", &d],
            dir.path(),
        );
        assert_eq!(rows.len(), 1);
        assert_eq!(&rows[0][1], "--moves");
        check_rows(&rows, depth);
    }
}

#[test]
fn the_report_names_the_value_and_the_moves() {
    cargo_bin_cmd!("finale")
        .args(["eval", "--moves", "f5", "--depth", "1"])
        .assert()
        .success()
        .stdout(predicate::str::contains("depth     1 (1 moves ahead)"))
        .stdout(predicate::str::contains("eval      "))
        .stdout(predicate::str::contains("moves     "));
}

#[test]
fn bad_input_is_one_error_line_and_exit_2() {
    let dir = TempDir::new().unwrap();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["--bogus".into()], "--bogus"),
        (
            vec!["--moves".into(), "f5".into(), "--depth".into(), "13".into()],
            "depth",
        ),
        (vec!["--moves".into(), "f5f5".into()], "--moves"),
        (
            vec!["--file".into(), "/no/such/file.obf".into()],
            "/no/such/file.obf",
        ),
        (vec!["XXOO X".into()], "64"),
        (
            vec![
                "--moves".into(),
                "f5".into(),
                "--csv".into(),
                "/no/such/dir/e.csv".into(),
            ],
            "/no/such/dir/e.csv",
        ),
        (
            vec![
                "--moves".into(),
                "f5".into(),
                "--eval".into(),
                dir.path().join("missing.bin").display().to_string(),
            ],
            "missing.bin",
        ),
    ];
    for (args, names) in cases {
        let out = cargo_bin_cmd!("finale")
            .arg("eval")
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("error:") && err.contains(names),
            "{args:?}: {err}"
        );
    }
}

/// A device is never an output (a rename would replace it): refused before any work, and
/// left as it was; `-` is standard output.
#[test]
fn a_device_is_refused_and_stays_a_device() {
    use std::os::unix::fs::FileTypeExt;
    if !Path::new("/dev/full").exists() {
        return;
    }
    // Through a link of the test's own: a guard that failed would replace the link, not
    // the machine's /dev/full.
    let dir = TempDir::new().unwrap();
    let link = dir.path().join("full");
    std::os::unix::fs::symlink("/dev/full", &link).unwrap();
    let out = cargo_bin_cmd!("finale")
        .args(["eval", "--moves", "f5", "--csv", link.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("/full: not a regular file (a character device)")
            && err.contains("or - for standard output"),
        "{err}"
    );
    assert!(
        std::fs::symlink_metadata(&link).unwrap().is_symlink(),
        "the link was replaced"
    );
    let kind = std::fs::metadata("/dev/full").unwrap().file_type();
    assert!(kind.is_char_device(), "/dev/full was replaced");
}

/// An existing CSV is replaced whole, not appended to or half rewritten.
#[test]
fn an_existing_csv_is_replaced_whole() {
    let dir = TempDir::new().unwrap();
    let rows = eval_csv(&["--file", &suite("fforum-40-59.obf")], dir.path());
    assert_eq!(rows.len(), 20);
    let rows = eval_csv(&["--moves", "f5"], dir.path());
    assert_eq!(rows.len(), 1);
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["eval.csv"], "no temporary file left behind");
}
