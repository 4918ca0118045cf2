//! The work-and-span account (`--features span`, search/measure/span.rs) on real solves: its work
//! is the solve's node count (one thread's with the two-thread rules, which search in one
//! thread's order), its span at most the work and, with splits, less; one thread has no
//! splits and a span equal to its work; the answers are the published ones.
//! Without the feature the solver reports no account, which the last test checks. CI
//! runs this file with the feature (`.ci/run`).

use finale::board::read_obf_file;
use finale::search::{Mode, SearchOptions, Solver, SolverOptions};
use std::path::Path;

fn solver(threads: usize, ties: bool) -> Solver {
    Solver::new(SolverOptions {
        hash_mb: 32,
        threads,
        oversubscribe: true,
        search: SearchOptions {
            ties,
            ..Default::default()
        },
    })
}

/// FFO #40-#44 (20-23 empties) with their published best moves and scores.
fn positions() -> Vec<finale::board::ObfRecord> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("suites/fforum-40-49.obf");
    read_obf_file(&path).expect("FFO 40-49")[..5].to_vec()
}

#[cfg(feature = "span")]
#[test]
fn the_work_is_the_solves_nodes_and_the_span_is_shorter() {
    for ties in [false, true] {
        for record in positions() {
            let board = record.position.board;
            let best = record.expected.iter().map(|&(_, s)| s).max().unwrap();
            let mut one = solver(1, ties);
            let r1 = one.solve(board, Mode::Exact);
            let a1 = one.last_span().expect("a span build");
            assert_eq!((a1.work, a1.span, a1.splits), (r1.nodes, r1.nodes, 0));
            for threads in [2, 16] {
                let mut many = solver(threads, ties);
                let r = many.solve(board, Mode::Exact);
                let a = many.last_span().expect("a span build");
                assert_eq!(r.score, best, "{}", record.position);
                assert_eq!(a.work, r.nodes, "{} at {threads}", record.position);
                if threads == 2 {
                    assert_eq!(r.nodes, r1.nodes, "{} at {threads}", record.position);
                } else {
                    // The all-at-once rule orders the table's move among the others at
                    // expected all-nodes instead of searching it first: a little other work.
                    assert_close(r.nodes, r1.nodes, &record.position);
                }
                assert!(a.splits > 0, "{} at {threads}", record.position);
                assert!(a.span < a.work, "{a:?}");
                assert_eq!(a.empties, board.empty_count());
                // The passes run in turn: their account rises, ends with the exact pass,
                // and holds all but the root's node and the principal variation's checks.
                let last = a.passes.last().expect("at least the exact pass");
                assert!(last.level.is_exact(), "{a:?}");
                assert!(a.passes.windows(2).all(|p| p[0].work <= p[1].work
                    && p[0].span <= p[1].span
                    && p[0].level < p[1].level));
                assert!(last.work <= a.work && last.span <= a.span, "{a:?}");
            }
        }
    }
}

/// Within 5 % of `one`: the order the many-core rules search in costs about as much.
#[cfg(feature = "span")]
fn assert_close(work: u64, one: u64, what: &dyn std::fmt::Display) {
    let ratio = work as f64 / one as f64;
    assert!(
        (0.95..1.05).contains(&ratio),
        "{what}: work x{ratio:.3} one thread's"
    );
}

/// From `SPLIT_MANY_THREADS` on the split rules are those for many cores (all-nodes and
/// every root probe shared out, splits from fewer empties, confident all-nodes all at
/// once): on FFO #40-#44 together their span is well under the two-thread rules' (the
/// tuning set gave a quarter), with more splits and about the same work.
#[cfg(feature = "span")]
#[test]
fn many_threads_split_for_a_shorter_span() {
    let (mut two, mut many) = ((0, 0, 0), (0, 0, 0));
    for record in positions() {
        let board = record.position.board;
        for (threads, sum) in [(2, &mut two), (16, &mut many)] {
            let mut s = solver(threads, false);
            s.solve(board, Mode::Exact);
            let a = s.last_span().expect("a span build");
            *sum = (sum.0 + a.work, sum.1 + a.span, sum.2 + a.splits);
        }
    }
    assert_close(many.0, two.0, &"FFO #40-#44");
    assert!(many.2 > two.2, "more splits: {many:?} against {two:?}");
    assert!(
        many.1 * 3 < two.1 * 2,
        "span at 16 threads {} not under two thirds of 2 threads' {}",
        many.1,
        two.1
    );
}

#[cfg(not(feature = "span"))]
#[test]
fn without_the_feature_there_is_no_account() {
    let record = &positions()[0];
    let mut s = solver(2, false);
    s.solve(record.position.board, Mode::Exact);
    assert_eq!(s.last_span(), None);
    assert_eq!(finale::search::measure::span::records(), None);
}
