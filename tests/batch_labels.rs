//! `finale batch --label-depth D`: each position labelled by a depth-D search with the
//! evaluation at its leaves, checked against a plain negamax over the naive reference
//! board with the same static evaluation at its leaves; resumed and refused as a user
//! runs it.

mod common;

use common::csv_rows::rows;
use common::reference::{self as r, RefBoard};
use finale::eval::{Evaluator, UNITS_PER_DISC};
use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_finale");

fn batch(args: &[&str]) -> std::process::Output {
    Command::new(BIN)
        .arg("batch")
        .args(args)
        .arg("--no-progress")
        .output()
        .expect("finale runs")
}

/// `b` as an OBF line, the side to move as X.
fn obf_line(b: &RefBoard) -> String {
    let squares: String = b
        .iter()
        .map(|&c| match c {
            r::OWN => 'X',
            r::OPP => 'O',
            _ => '-',
        })
        .collect();
    format!("{squares} X;")
}

/// Random positions of 2-40 empties (some with a pass to make or the game over) and one
/// full board, as OBF lines, in the order written.
fn positions() -> Vec<RefBoard> {
    let mut rng = r::Rng::new(20261129);
    let mut out: Vec<RefBoard> = (0..24)
        .map(|i| r::random_position(&mut rng, [2, 3, 5, 9, 16, 24, 32, 40][i % 8]))
        .collect();
    let mut full = [r::OWN; 64];
    full[..20].fill(r::OPP);
    out.push(full);
    out
}

fn write_input(dir: &Path, boards: &[RefBoard]) -> String {
    let path = dir.join("in.obf");
    let text: String = boards.iter().map(|b| obf_line(b) + "\n").collect();
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// Rounds half away from zero into -64..=64, as the labels' spec says (an evaluation can
/// go past the board's 64 discs).
fn discs(units: i32) -> i32 {
    ((f64::from(units) / f64::from(UNITS_PER_DISC)).round() as i32).clamp(-64, 64)
}

#[test]
fn labels_are_the_negamax_values_of_the_static_evaluation() {
    let eval = Evaluator::shipped().expect("the built-in weights load");
    let dir = tempfile::tempdir().unwrap();
    let boards = positions();
    let input = write_input(dir.path(), &boards);
    // One output a depth: an output holds the labels of one depth.
    let out = |depth: u32| dir.path().join(format!("depth{depth}.csv"));
    let mut all = Vec::new();
    for depth in [0u32, 1, 3] {
        let d = depth.to_string();
        let o = batch(&[
            &input,
            "--out",
            out(depth).to_str().unwrap(),
            "--label-depth",
            &d,
            "--threads",
            "2",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        all.extend(rows(&out(depth)));
    }
    assert_eq!(
        all.len(),
        3 * boards.len(),
        "one row per position and depth"
    );
    let mut passes = 0;
    for row in &all {
        let depth: u32 = row["mode"].strip_prefix("depth").unwrap().parse().unwrap();
        let index: usize = row["index"].parse().unwrap();
        let b = &boards[index - 1];
        passes += usize::from(r::legal_moves(b).is_empty() && !r::is_game_over(b));
        // A finished position is labelled by its score; below it, finale's search rules.
        let want = if r::is_game_over(b) {
            r::final_score(b)
        } else {
            discs(r::eval_negamax(eval, b, depth))
        };
        assert_eq!(
            row["score"].parse::<i32>().unwrap(),
            want,
            "position {index} at depth {depth}: {}",
            obf_line(b)
        );
        assert_eq!(row["status"], "solved");
        assert_eq!(row["best_moves"], "");
        assert_eq!(row["variant"], format!("eval {:08x}", eval.checksum()));
    }
    assert!(passes > 0, "the positions include a pass to make");
    // A rerun has nothing left to do.
    let o = batch(&[
        &input,
        "--out",
        out(1).to_str().unwrap(),
        "--label-depth",
        "1",
    ]);
    assert!(o.status.success());
    assert_eq!(rows(&out(1)).len(), boards.len());
}

#[test]
fn bad_label_requests_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path(), &positions()[..2]);
    let out = dir.path().join("out.csv");
    let out_s = out.to_str().unwrap();
    for extra in [
        &["--label-depth", "13"][..],
        &["--label-depth", "x"],
        &["--label-depth", "4", "--time-limit", "5"],
        &["--label-depth", "4", "--mode", "wld"],
    ] {
        let mut args = vec![input.as_str(), "--out", out_s];
        args.extend_from_slice(extra);
        let o = batch(&args);
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("--label-depth"), "{extra:?}: {err}");
        assert!(!out.exists(), "{extra:?}: nothing written");
    }
}

/// `scripts/labels-obf.py` turns the labels of one depth and weights into OBF lines that
/// give the score alone, and refuses labels of two depths, naming both rows, having written
/// nothing (issue 67: it once wrote the first file's lines before failing).
#[test]
fn labels_obf_takes_one_depth_and_writes_nothing_for_two() {
    let dir = tempfile::tempdir().unwrap();
    let boards = &positions()[..6];
    let input = write_input(dir.path(), boards);
    let out = |depth: &str| dir.path().join(format!("d{depth}.csv"));
    for depth in ["1", "2"] {
        let o = batch(&[
            &input,
            "--out",
            out(depth).to_str().unwrap(),
            "--label-depth",
            depth,
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/labels-obf.py");
    let run = |files: &[&Path]| Command::new("python3").arg(&script).args(files).output();
    let Ok(one) = run(&[&out("1")]) else {
        eprintln!("skipped: no python3 here to run scripts/labels-obf.py");
        return;
    };
    assert!(
        one.status.success(),
        "{}",
        String::from_utf8_lossy(&one.stderr)
    );
    let text = String::from_utf8(one.stdout).unwrap();
    let labels = rows(&out("1"));
    assert_eq!(text.lines().count(), labels.len());
    for (line, row) in text.lines().zip(&labels) {
        let record = finale::board::parse_obf_line(line).unwrap().unwrap();
        assert_eq!(record.score, Some(row["score"].parse().unwrap()), "{line}");
    }
    let two = run(&[&out("1"), &out("2")]).unwrap();
    assert!(!two.status.success());
    assert!(two.stdout.is_empty(), "nothing written");
    let err = String::from_utf8_lossy(&two.stderr);
    assert!(
        err.contains("d2.csv:2: depth2") && err.contains("d1.csv:2 is depth1"),
        "{err}"
    );
}
