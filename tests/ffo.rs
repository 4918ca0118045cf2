//! The published FFO test positions: every score and best move as printed in FFORUM
//! (values in suites/*.obf, from ../shared/suites/). The file's own values are the
//! independent reference.

use finale::board::read_obf_file;
use finale::eval::Evaluator;
use finale::eval::pattern::{PER_PHASE, PHASES};
use finale::search::{EvalRef, Mode, SearchOptions, Solver, SolverOptions};
use std::path::Path;

/// Solves every position of `file` in `mode` and lists each disagreement with the file.
fn check_suite(file: &str, mode: Mode) {
    check_suite_with(file, mode, SearchOptions::default());
}

fn check_suite_with(file: &str, mode: Mode, search: SearchOptions) {
    let records = read_obf_file(Path::new(file)).expect("suite file reads");
    let mut solver = Solver::new(SolverOptions {
        hash_mb: 64,
        search,
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

#[test]
fn the_shipped_weights_are_used_by_default() {
    let shipped = Evaluator::shipped_shared().expect("weights/eval.bin is built in and sound");
    assert!(SearchOptions::default().eval == EvalRef(Some(shipped.clone())));
}

#[test]
fn ffo_20_39_exact_fastest_first() {
    let search = SearchOptions {
        eval: EvalRef(None),
        ..Default::default()
    };
    check_suite_with("suites/fforum-20-39.obf", Mode::Exact, search);
}

/// Weights that predict nothing: ordering is poor and multi-probcut cuts wrongly all the
/// time in the selective passes, yet the exact pass must give every published answer.
#[test]
fn ffo_20_29_exact_with_meaningless_weights() {
    let mut x = 12345u64;
    let weights = (0..PHASES * PER_PHASE)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 2001) as i16 - 1000
        })
        .collect();
    let eval = std::sync::Arc::new(Evaluator::from_weights(weights));
    let search = SearchOptions {
        eval: EvalRef(Some(eval)),
        ..Default::default()
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("20-29.obf");
    let text = std::fs::read_to_string("suites/fforum-20-39.obf").expect("reads");
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('%'))
        .take(10)
        .collect();
    std::fs::write(&path, lines.join("\n")).expect("writes");
    check_suite_with(path.to_str().expect("utf-8"), Mode::Exact, search);
}

/// A cleared solver repeats its node count exactly, even though each search thread also
/// keeps a small table of its own for nodes of few empties: that table is emptied with
/// the shared one, and another solver's search on the same thread in between does not
/// leave entries behind. Without the clear, the second solve reuses what the first
/// learnt, so the check can tell.
#[test]
fn cleared_solver_repeats_its_node_count_beside_another_solver() {
    let records = read_obf_file(Path::new("suites/fforum-1-19.obf")).expect("suite reads");
    let (x, y) = (records[2].position.board, records[5].position.board);
    let options = SolverOptions {
        hash_mb: 16,
        threads: 1,
        ..Default::default()
    };
    let mut a = Solver::new(options.clone());
    let mut b = Solver::new(options);
    let first = a.solve(x, Mode::Exact).nodes;
    let again = a.solve(x, Mode::Exact).nodes;
    assert!(
        again < first,
        "a second solve without clearing reuses the tables"
    );
    b.solve(y, Mode::Exact);
    a.clear();
    assert_eq!(a.solve(x, Mode::Exact).nodes, first, "after a clear");
    b.solve(y, Mode::Exact);
    a.clear();
    b.clear();
    assert_eq!(a.solve(x, Mode::Exact).nodes, first, "after another solver");
}

/// Without the 87 % pass before exact solves of 25+ empties (#47-#49 have 25 and 26),
/// the published answers still come back: the pass only orders and guesses.
#[test]
fn ffo_40_49_exact_without_the_second_guess() {
    let search = SearchOptions {
        second_guess: false,
        ..Default::default()
    };
    check_suite_with("suites/fforum-40-49.obf", Mode::Exact, search);
}
