//! Parallel search gives the same answers at every thread count: the score and the set
//! of best moves (and in mode all every move's score) at 2, 4, 8 and 16 threads (from 4
//! on with the many-thread split rules of `SPLIT_MANY_THREADS`) equal the
//! published FFO values and the one-thread solve; the principal variation may differ but
//! must be a legal line (checked with the naive reference) ending on the reported score.

mod common;

use common::reference::{self as r, RefBoard, Rng};
use finale::board::{ObfRecord, read_obf_file};
use finale::search::{Mode, PvMove, SearchOptions, SolveResult, Solver, SolverOptions};
use std::path::Path;
use std::time::Duration;

const THREADS: [usize; 4] = [2, 4, 8, 16];

fn solver(threads: usize) -> Solver {
    Solver::new(SolverOptions {
        hash_mb: 32,
        threads,
        // Really run 4, 8 and 16 threads, even on a machine with fewer cores.
        oversubscribe: true,
        // Every best move: the set must not depend on the thread count.
        search: SearchOptions {
            ties: true,
            ..Default::default()
        },
    })
}

/// `Err` unless `pv` is a legal line from `b` to the end of the game (passing only when
/// forced) whose final disc difference has the class of `score` in `mode`.
fn check_pv(b: &RefBoard, pv: &[PvMove], mode: Mode, score: i32) -> Result<(), String> {
    let mut cur = *b;
    for (i, mv) in pv.iter().enumerate() {
        if r::is_game_over(&cur) {
            return Err(format!("pv {pv:?}: move {i} after the end"));
        }
        cur = match *mv {
            PvMove::Pass if r::legal_moves(&cur).is_empty() => r::pass(&cur),
            PvMove::Pass => return Err(format!("pv {pv:?}: pass {i} with moves")),
            PvMove::Play(sq) => {
                r::play(&cur, sq.index()).ok_or_else(|| format!("pv {pv:?}: illegal move {i}"))?
            }
        };
    }
    if !r::is_game_over(&cur) {
        return Err(format!("pv {pv:?}: stops before the end"));
    }
    let end = if pv.len().is_multiple_of(2) {
        r::final_score(&cur)
    } else {
        -r::final_score(&cur)
    };
    let end = if mode == Mode::Wld { end.signum() } else { end };
    if end != score {
        return Err(format!("pv {pv:?}: ends on {end}, score {score}"));
    }
    Ok(())
}

/// What must not depend on the thread count.
fn answer(res: &SolveResult) -> (i32, Vec<usize>, Vec<(usize, i32)>) {
    let mut best: Vec<usize> = res.best_moves.iter().map(|s| s.index()).collect();
    best.sort_unstable();
    let mut scores: Vec<(usize, i32)> = res
        .move_scores
        .iter()
        .map(|&(s, v)| (s.index(), v))
        .collect();
    scores.sort_unstable();
    (res.score, best, scores)
}

/// The published answer of an FFO record: score and best moves (every tie is listed).
fn published(rec: &ObfRecord, mode: Mode) -> (i32, Vec<usize>) {
    let score = rec.expected_score().expect("FFO lines list moves");
    let mut best: Vec<usize> = rec
        .expected
        .iter()
        .filter(|&&(_, s)| {
            if mode == Mode::Wld {
                s.signum() == score.signum()
            } else {
                s == score
            }
        })
        .map(|&(m, _)| m.index())
        .collect();
    best.sort_unstable();
    let score = if mode == Mode::Wld {
        score.signum()
    } else {
        score
    };
    (score, best)
}

fn ffo_at_every_thread_count(file: &str, modes: &[Mode]) {
    let records = read_obf_file(Path::new(file)).expect("suite reads");
    let mut wrong = Vec::new();
    for threads in THREADS {
        let mut s = solver(threads);
        for mode in modes.iter().copied() {
            for (i, rec) in records.iter().enumerate() {
                s.clear();
                let res = s.solve(rec.position.board, mode);
                let (score, best, scores) = answer(&res);
                let (want, want_best) = published(rec, mode);
                let tag = format!("{file} #{} {mode:?} {threads} threads", i + 1);
                if score != want || best != want_best {
                    wrong.push(format!(
                        "{tag}: {score} {best:?}, published {want} {want_best:?}"
                    ));
                }
                if mode == Mode::All {
                    for &(m, v) in &rec.expected {
                        if !scores.contains(&(m.index(), v)) {
                            wrong.push(format!("{tag}: move {m} not scored {v}"));
                        }
                    }
                }
                let b = r::from_board(rec.position.board);
                if let Err(e) = check_pv(&b, &res.pv, mode, score) {
                    wrong.push(format!("{tag}: {e}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn ffo_1_19_every_mode_at_2_4_8_16_threads() {
    ffo_at_every_thread_count(
        "suites/fforum-1-19.obf",
        &[Mode::Exact, Mode::Wld, Mode::All],
    );
}

#[test]
fn ffo_20_39_exact_at_2_4_8_16_threads() {
    ffo_at_every_thread_count("suites/fforum-20-39.obf", &[Mode::Exact]);
}

/// Random positions of 15-19 empties (large enough to split): every thread count gives
/// the one-thread answer in every mode, with a legal principal variation.
#[test]
fn random_positions_same_answer_at_1_2_4_8_16_threads() {
    let mut rng = Rng::new(0x9A4A_11E1);
    let boards: Vec<RefBoard> = (0..20)
        .map(|i| r::random_position(&mut rng, 15 + i % 5))
        .collect();
    let mut one = solver(1);
    let mut many: Vec<(usize, Solver)> = THREADS.iter().map(|&t| (t, solver(t))).collect();
    let mut wrong = Vec::new();
    for (i, b) in boards.iter().enumerate() {
        for mode in [Mode::Exact, Mode::Wld, Mode::All] {
            one.clear();
            let want = one.solve(r::to_board(b), mode);
            for (t, s) in many.iter_mut() {
                // Half the solves reuse the table left by earlier positions and modes.
                if i % 2 == 0 {
                    s.clear();
                }
                let got = s.solve(r::to_board(b), mode);
                if answer(&got) != answer(&want) {
                    wrong.push(format!(
                        "{} {mode:?} {t} threads: {:?}, one thread {:?}",
                        r::show(b),
                        answer(&got),
                        answer(&want)
                    ));
                }
                if let Err(e) = check_pv(b, &got.pv, mode, got.score) {
                    wrong.push(format!("{} {mode:?} {t} threads: {e}", r::show(b)));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Solves cut short by a time limit (helpers cancelled mid-search) leave nothing wrong in
/// the shared table: the full solve that follows, on the same table, is right.
#[test]
fn timed_out_parallel_solves_leave_the_table_sound() {
    let records = read_obf_file(Path::new("suites/fforum-20-39.obf")).expect("suite reads");
    let mut s = solver(4);
    let mut timeouts = 0;
    for rec in records.iter().take(8) {
        s.clear();
        for ms in [5, 20, 60] {
            if s.solve_within(
                rec.position.board,
                Mode::Exact,
                Some(Duration::from_millis(ms)),
            )
            .is_err()
            {
                timeouts += 1;
            }
        }
        let res = s.solve(rec.position.board, Mode::Exact);
        let (want, want_best) = published(rec, Mode::Exact);
        let (score, best, _) = answer(&res);
        assert_eq!((score, best), (want, want_best), "{}", rec.position);
    }
    assert!(
        timeouts > 0,
        "no solve reached its limit: the test tests nothing"
    );
}
