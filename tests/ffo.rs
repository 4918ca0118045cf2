//! The published FFO test positions: every score and best move as printed in FFORUM
//! (values in suites/*.obf, from ../shared/suites/). The file's own values are the
//! independent reference.

use finale::board::read_obf_file;
use finale::search::{Mode, Solver, SolverOptions};
use std::path::Path;

/// Solves every position of `file` in `mode` and lists each disagreement with the file.
fn check_suite(file: &str, mode: Mode) {
    let records = read_obf_file(Path::new(file)).expect("suite file reads");
    let mut solver = Solver::new(SolverOptions {
        hash_mb: 64,
        ..Default::default()
    });
    let mut wrong = Vec::new();
    for (i, r) in records.iter().enumerate() {
        solver.clear();
        let result = solver.solve(r.position.board, mode);
        let expected = r.expected_score().expect("FFO lines list their moves");
        let want = if mode == Mode::Wld {
            expected.signum()
        } else {
            expected
        };
        if result.score != want {
            wrong.push(format!(
                "#{}: score {} expected {}",
                i + 1,
                result.score,
                want
            ));
        }
        // Every move we call best must be listed with a score of the same class as the
        // best listed one (FFO lists every tied best move first).
        for m in &result.best_moves {
            match r.expected.iter().find(|(sq, _)| sq == m) {
                Some(&(_, s)) if (mode == Mode::Wld && s.signum() == want) || s == expected => {}
                other => wrong.push(format!("#{}: best move {m} listed as {other:?}", i + 1)),
            }
        }
        if mode == Mode::All {
            for &(sq, s) in &r.expected {
                let got = result
                    .move_scores
                    .iter()
                    .find(|(m, _)| *m == sq)
                    .map(|&(_, v)| v);
                if got != Some(s) {
                    wrong.push(format!(
                        "#{}: move {sq} scored {got:?}, file says {s}",
                        i + 1
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{file} {mode:?}: {wrong:#?}");
}

#[test]
fn ffo_1_19_exact() {
    check_suite("suites/fforum-1-19.obf", Mode::Exact);
}

#[test]
fn ffo_1_19_wld() {
    check_suite("suites/fforum-1-19.obf", Mode::Wld);
}

#[test]
fn ffo_1_19_all_moves() {
    check_suite("suites/fforum-1-19.obf", Mode::All);
}

#[test]
fn ffo_20_39_exact() {
    check_suite("suites/fforum-20-39.obf", Mode::Exact);
}
