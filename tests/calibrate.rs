//! `finale calibrate` end to end: its exact rows and its verdicts on probable answers are
//! checked against the naive reference solver; a second run resumes instead of solving
//! again, a torn last row is dropped and solved again, and a file that is not a
//! calibration CSV is refused and left untouched, and so is a CSV another calibrate is
//! appending to.

mod common;

use assert_cmd::cargo::cargo_bin_cmd;
use common::csv_rows::rows;
use common::reference as r;
use std::fs;
use tempfile::TempDir;

/// Eval-play positions of 11 and 12 empties, so that the reference solves them quickly
/// while probcut (from 8 empties) is tried in every probable solve.
fn positions(dir: &TempDir) -> std::path::PathBuf {
    let out = cargo_bin_cmd!("finale")
        .args([
            "generate",
            "--play",
            "eval",
            "--seed",
            "77",
            "--count",
            "8",
            "--empties",
            "11-12",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let path = dir.path().join("set.obf");
    fs::write(&path, &out.stdout).unwrap();
    path
}

fn calibrate(obf: &std::path::Path, csv: &std::path::Path) -> String {
    calibrate_with(obf, csv, &[])
}

/// The standard output of `cmd`, which must succeed.
fn succeed(cmd: &mut assert_cmd::Command) -> String {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn calibrate_with(obf: &std::path::Path, csv: &std::path::Path, more: &[&str]) -> String {
    succeed(
        cargo_bin_cmd!("finale")
            .args([
                "calibrate",
                "--levels",
                "73,99",
                "--threads",
                "2",
                "--hash-mb",
                "4",
            ])
            .args(more)
            .arg(obf)
            .arg("--csv")
            .arg(csv),
    )
}

/// The reference's score and best moves (square names) for the side to move, whose
/// colour the OBF gives: the reference always plays `X`, so swap colours for `O`.
fn reference(board: &str) -> (i32, Vec<String>) {
    let (squares, side) = board.split_once(' ').unwrap();
    let squares: String = if side == "O" {
        squares
            .chars()
            .map(|c| match c {
                'X' => 'O',
                'O' => 'X',
                c => c,
            })
            .collect()
    } else {
        squares.to_string()
    };
    let b = r::parse(&format!("{squares} X"));
    let scored: Vec<(usize, i32)> = r::legal_moves(&b)
        .into_iter()
        .map(|sq| (sq, -r::solve(&r::play(&b, sq).unwrap())))
        .collect();
    let best = scored.iter().map(|&(_, v)| v).max().unwrap();
    let names = scored
        .iter()
        .filter(|&&(_, v)| v == best)
        .map(|&(sq, _)| {
            let file = (b'A' + (sq % 8) as u8) as char;
            format!("{file}{}", sq / 8 + 1)
        })
        .collect();
    (best, names)
}

#[test]
fn rows_and_verdicts_match_the_reference_and_a_rerun_resumes() {
    let dir = TempDir::new().unwrap();
    let obf = positions(&dir);
    let csv = dir.path().join("cal.csv");
    let table = calibrate(&obf, &csv);
    let all = rows(&csv);
    assert_eq!(all.len(), 8 * 3, "exact, 73 % and 99 % for each position");
    let mut checked_probable = 0;
    for row in &all {
        let (score, best) = reference(&row["board"]);
        assert_eq!(row["exact_score"].parse::<i32>().unwrap(), score, "{row:?}");
        let mut exact_moves: Vec<String> =
            row["exact_moves"].split(' ').map(String::from).collect();
        exact_moves.sort();
        let mut best_sorted = best.clone();
        best_sorted.sort();
        assert_eq!(exact_moves, best_sorted, "{row:?}");
        let probable: i32 = row["score"].parse().unwrap();
        assert_eq!(row["score_ok"] == "true", probable == score, "{row:?}");
        assert_eq!(
            row["move_ok"] == "true",
            best.contains(&row["move"]),
            "{row:?}"
        );
        assert_eq!(
            row["abs_error"].parse::<u32>().unwrap(),
            probable.abs_diff(score)
        );
        if row["selectivity"] != "100" {
            checked_probable += 1;
        } else {
            assert_eq!(row["nodes"], row["exact_nodes"]);
        }
    }
    assert_eq!(checked_probable, 16);
    assert!(
        table.contains("  73%") && table.contains("  99%"),
        "{table}"
    );

    // A second run finds every row and solves nothing: the file and the table stay.
    let before = fs::read(&csv).unwrap();
    assert_eq!(calibrate(&obf, &csv), table);
    assert_eq!(fs::read(&csv).unwrap(), before);

    // A torn last row (a kill while writing) is dropped and solved again.
    let text = String::from_utf8(before.clone()).unwrap();
    let cut = text.trim_end().rfind('\n').unwrap() + 10;
    fs::write(&csv, &text[..cut]).unwrap();
    calibrate(&obf, &csv);
    let again = rows(&csv);
    assert_eq!(again.len(), 8 * 3);
    assert_eq!(again[..23], all[..23]);
}

/// Exact answers from a batch (one best move each, no ties) stand in for the exact
/// solves: nothing is solved again, and each probable move that differs from the label's
/// is judged by its own exact search, as the reference judges it.
#[test]
fn batch_labels_stand_in_for_exact_solves() {
    let dir = TempDir::new().unwrap();
    let obf = positions(&dir);
    let labels = dir.path().join("labels.csv");
    succeed(
        cargo_bin_cmd!("finale")
            .args(["batch", "--threads", "2", "--hash-mb", "4", "--no-progress"])
            .arg("--out")
            .arg(&labels)
            .arg(&obf),
    );
    let label_rows = rows(&labels);
    let csv = dir.path().join("cal.csv");
    let arg = labels.to_str().unwrap();
    calibrate_with(&obf, &csv, &["--labels", arg]);
    let all = rows(&csv);
    assert_eq!(all.len(), 8 * 3);
    let mut beyond_label = 0;
    for row in &all {
        let label = label_rows
            .iter()
            .find(|l| l["key"] == row["key"])
            .expect("every position labelled");
        let (score, best) = reference(&row["board"]);
        assert_eq!(row["exact_score"].parse::<i32>().unwrap(), score, "{row:?}");
        // Not solved again: the exact figures are the batch's.
        assert_eq!(row["exact_nodes"], label["nodes"], "{row:?}");
        assert_eq!(
            row["move_ok"] == "true",
            best.contains(&row["move"]),
            "{row:?}"
        );
        if row["move"] != label["best_moves"] && row["selectivity"] != "100" {
            beyond_label += 1;
        }
    }
    // The set has probable moves other than the label's (tied or worse), so the check
    // of such moves was exercised.
    assert!(beyond_label > 0, "{all:?}");
}

/// The one error line of a calibrate at 95 % on `obf` into `csv`, which must be refused
/// (exit 2).
fn refused_run(obf: &std::path::Path, csv: &std::path::Path) -> String {
    let out = cargo_bin_cmd!("finale")
        .args(["calibrate", "--levels", "95", "--hash-mb", "4"])
        .arg(obf)
        .arg("--csv")
        .arg(csv)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

#[test]
fn a_file_that_is_not_a_calibration_csv_is_refused_and_kept() {
    let dir = TempDir::new().unwrap();
    let obf = positions(&dir);
    let csv = dir.path().join("other.csv");
    fs::write(&csv, "index,file,score\n1,a.obf,3\n").unwrap();
    let out = refused_run(&obf, &csv);
    assert!(out.contains("not a finale calibration CSV"), "{out}");
    assert_eq!(
        fs::read_to_string(&csv).unwrap(),
        "index,file,score\n1,a.obf,3\n"
    );
    let out = cargo_bin_cmd!("finale")
        .args(["calibrate", "--levels", "96"])
        .arg(&obf)
        .arg("--csv")
        .arg(&csv)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// A second calibrate on a CSV that another run is appending to is refused before it reads
/// or writes anything (the exclusive `flock` taken here stands for the other run), and goes
/// on once the lock is gone.
#[test]
fn a_second_calibrate_on_one_csv_is_refused() {
    use std::os::fd::AsRawFd;
    let dir = TempDir::new().unwrap();
    let obf = positions(&dir);
    let csv = dir.path().join("cal.csv");
    calibrate(&obf, &csv);
    let before = fs::read(&csv).unwrap();
    let other = fs::File::open(&csv).unwrap();
    // SAFETY: flock only reads the descriptor, which `other` keeps open.
    let held = unsafe { libc::flock(other.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    assert_eq!(held, 0);
    let out = refused_run(&obf, &csv);
    assert!(
        out.contains("another finale calibrate is writing this file"),
        "{out}"
    );
    assert_eq!(fs::read(&csv).unwrap(), before);
    drop(other);
    calibrate_with(&obf, &csv, &["--levels", "95"]);
    assert!(fs::read(&csv).unwrap().len() > before.len());
}
