//! The pattern evaluation, its midgame search, the training pipeline and selective solves,
//! checked against naive references: a plain depth-limited negamax over the reference move
//! generator, square-by-square pattern reading, the reference solver.

mod common;

use common::reference::{self as r, Rng};
use finale::board::kernels::Isa;
use finale::eval::mobility::PER_PHASE_MOBILITY;
use finale::eval::pattern::{PER_PHASE, PHASES, flip_horizontal, flip_vertical, transpose};
use finale::eval::{Evaluator, FeatureState};
use finale::search::{
    EvalRef, Level, Mode, SearchOptions, Solver, SolverOptions, evaluated_value_on,
};
use finale::train::{TrainOptions, fit::FitOptions, generation_options, train, train_generations};

/// Weights with structure but no training: every weight a pseudo-random small value.
fn random_evaluator(seed: u64) -> Evaluator {
    random_weights(seed, PER_PHASE)
}

/// [`random_evaluator`] with mobility tables too.
fn random_mobility_evaluator(seed: u64) -> Evaluator {
    let e = random_weights(seed, PER_PHASE_MOBILITY);
    assert!(e.has_mobility());
    e
}

fn random_weights(seed: u64, per_phase: usize) -> Evaluator {
    let mut rng = Rng::new(seed);
    let w = (0..PHASES * per_phase)
        .map(|_| rng.below(400) as i16 - 200)
        .collect();
    Evaluator::from_weights(w)
}

#[test]
fn midgame_search_equals_plain_negamax() {
    // Without and with mobility tables: the leaves of the search read the tables from the
    // board they make, the reference from the board it plays to.
    // Every kernel set this machine runs: the leaves generate moves with the search's own.
    let isas = [Isa::Portable, Isa::Avx2, Isa::Avx512];
    for isa in isas.into_iter().filter(|i| i.supported()) {
        for eval in [random_evaluator(1), random_mobility_evaluator(5)] {
            let mut rng = Rng::new(2);
            for i in 0..60 {
                let n = 6 + i % 30;
                let b = r::random_position(&mut rng, n);
                for depth in 0..=4 {
                    let want = r::eval_negamax(&eval, &b, depth);
                    let (got, _) = evaluated_value_on(&eval, r::to_board(&b), depth, isa);
                    assert_eq!(got, want, "{isa} {} depth {depth}", r::show(&b));
                }
            }
        }
    }
}

#[test]
fn incremental_evaluation_follows_reference_games() {
    // The reference game supplies each move's flips square by square, independently of
    // finale's move generation; passes give positions of their own.
    let eval = random_evaluator(3);
    let mobility = random_mobility_evaluator(6);
    let shipped = Evaluator::shipped().expect("shipped weights");
    let mut rng = Rng::new(4);
    let mut passes = 0;
    for _ in 0..100 {
        let line = r::random_game(&mut rng);
        let mut state = FeatureState::new(&r::to_board(&line[0]));
        for pair in line.windows(2) {
            let (before, after) = (r::to_board(&pair[0]), r::to_board(&pair[1]));
            if before.empty_count() == after.empty_count() {
                state = state.pass();
                passes += 1;
            } else {
                // After a move the mover's discs are the opponent's: the new one and the
                // flipped ones are those it did not have.
                let gained = after.opponent & !before.player;
                let sq = finale::Bitboard(gained & !before.opponent)
                    .next()
                    .expect("a new disc");
                state = state.play(sq, gained & before.opponent);
            }
            if r::is_game_over(&pair[1]) {
                continue;
            }
            for e in [&eval, &mobility, shipped] {
                assert_eq!(
                    e.evaluate_incremental(&state, &after),
                    e.evaluate(&after),
                    "{}",
                    r::show(&pair[1])
                );
            }
        }
    }
    assert!(passes > 0);
}

fn tiny_training(
    threads: usize,
) -> (
    finale::eval::weights_file::WeightFile,
    Vec<finale::train::ErrorRow>,
) {
    let o = TrainOptions {
        seed: 5,
        games: 400,
        exact_max_empties: 10,
        label_depth: 4,
        mobility: false,
        own_phase: false,
        fit: FitOptions {
            epochs: 60,
            ..Default::default()
        },
        play_eval: None,
        real: None,
        generations: 1,
        threads,
        progress: false,
        interrupt: Default::default(),
    };
    train(&o, &mut std::io::sink(), None).expect("trains")
}

/// Mean squared error of `eval` on random 8-empty positions against the reference solver,
/// and that of always answering 0 (the spread of the exact scores).
fn error_against_reference(eval: &Evaluator) -> (f64, f64) {
    let mut rng = Rng::new(77);
    let (mut err, mut zero) = (0f64, 0f64);
    for _ in 0..150 {
        let p = r::random_position(&mut rng, 8);
        let exact = r::solve(&p) as f64;
        let e = eval.evaluate(&r::to_board(&p)) as f64 / finale::eval::UNITS_PER_DISC as f64;
        err += (e - exact).powi(2);
        zero += exact * exact;
    }
    (err, zero)
}

#[test]
fn eval_play_training_with_conjugate_gradients_is_reproducible_and_learns() {
    let run = |threads| {
        let o = TrainOptions {
            seed: 6,
            games: 300,
            exact_max_empties: 10,
            label_depth: 4,
            mobility: false,
            own_phase: false,
            fit: FitOptions {
                epochs: 40,
                method: finale::train::fit::FitMethod::ConjugateGradient,
                ..Default::default()
            },
            play_eval: Some(Evaluator::shipped().expect("built-in weights")),
            real: None,
            generations: 1,
            threads,
            progress: false,
            interrupt: Default::default(),
        };
        train(&o, &mut std::io::sink(), None).expect("trains")
    };
    let (a, table) = run(1);
    let (b, _) = run(2);
    assert_eq!(
        a.to_bytes("a").expect("written"),
        b.to_bytes("b").expect("written"),
        "same weights whatever the threads"
    );
    assert!(
        a.meta
            .contains("--fit cg --generations 1 --play eval (weights"),
        "{}",
        a.meta
    );
    let (err, zero) = error_against_reference(&Evaluator::from_weights(a.weights.clone()));
    assert!(
        err < 0.8 * zero,
        "evaluation error {err} against {zero} for 0"
    );
    assert!(table.iter().any(|row| row.label == "exact" && row.test > 0));
}

#[test]
fn training_with_mobility_tables_writes_set_3_that_loads_and_learns() {
    let o = TrainOptions {
        seed: 8,
        games: 300,
        exact_max_empties: 10,
        label_depth: 4,
        mobility: true,
        own_phase: true,
        fit: FitOptions {
            epochs: 40,
            method: finale::train::fit::FitMethod::ConjugateGradient,
            ..Default::default()
        },
        play_eval: None,
        real: None,
        generations: 1,
        threads: 2,
        progress: false,
        interrupt: Default::default(),
    };
    let (file, _) = train(&o, &mut std::io::sink(), None).expect("trains");
    assert_eq!(file.pattern_set, finale::eval::mobility::MOBILITY_SET);
    assert_eq!(file.per_phase as usize, PER_PHASE_MOBILITY);
    assert!(
        file.meta.contains("--fit cg --mobility --own-phase"),
        "{}",
        file.meta
    );
    let bytes = file.to_bytes("trained").expect("written");
    let eval = Evaluator::from_bytes(&bytes, "trained").expect("read back");
    assert!(eval.has_mobility());
    // The tables of the phase of 8-11 empties were fitted, not left at zero.
    let tables = &file.weights[2 * PER_PHASE_MOBILITY..3 * PER_PHASE_MOBILITY][PER_PHASE..];
    assert!(tables.iter().filter(|&&w| w != 0).count() > 20);
    let (err, zero) = error_against_reference(&eval);
    assert!(
        err < 0.8 * zero,
        "evaluation error {err} against {zero} for 0"
    );
}

#[test]
fn generations_chain_each_one_on_the_weights_before_and_resume_from_a_saved_one() {
    let o = TrainOptions {
        seed: 8,
        games: 120,
        exact_max_empties: 8,
        label_depth: 4,
        mobility: false,
        own_phase: false,
        fit: FitOptions {
            epochs: 20,
            method: finale::train::fit::FitMethod::ConjugateGradient,
            ..Default::default()
        },
        play_eval: None,
        real: None,
        generations: 2,
        threads: 2,
        progress: false,
        interrupt: Default::default(),
    };
    // By hand: generation 1 plays random games, generation 2 plays by generation 1's
    // weights.
    let g1 = generation_options(&o, 1, None);
    assert!(g1.play_eval.is_none() && g1.generations == 1);
    let (first, _) = train(&g1, &mut std::io::sink(), None).expect("trains");
    let e1 = Evaluator::from_weights(first.weights.clone());
    let g2 = generation_options(&o, 2, Some(&e1));
    assert_eq!(g2.play_eval.map(Evaluator::checksum), Some(e1.checksum()));
    let (second, _) = train(&g2, &mut std::io::sink(), None).expect("trains");
    assert!(first.weights != second.weights);

    // The chained run gives the same weights, and hands generation 1 over to be kept.
    let mut kept = Vec::new();
    let (chained, table) = train_generations(
        &o,
        &mut std::io::sink(),
        None,
        &mut |_, _| None,
        &mut |k, f| {
            kept.push((k, f.clone()));
            Ok(())
        },
    )
    .expect("trains");
    assert!(chained.weights == second.weights);
    assert!(!table.is_empty());
    assert!(
        chained
            .meta
            .contains("--generations 2 --play random (generation 2 played by weights"),
        "{}",
        chained.meta
    );
    assert_eq!(kept.len(), 1);
    assert!(kept[0].0 == 1 && kept[0].1.weights == first.weights);

    // Resumed from a saved generation 1: it is used as it is, not trained again. A file
    // with other metadata (made by other options) is not used.
    let mut doctored = first.clone();
    doctored.weights.iter_mut().for_each(|w| *w = -*w);
    // Trains with `saved` offered as generation 1; gives the weights and how many
    // generations were trained rather than taken.
    let resume = |saved: &finale::eval::weights_file::WeightFile| {
        let mut trained = 0;
        let (file, _) = train_generations(
            &o,
            &mut std::io::sink(),
            None,
            &mut |_, _| Some(saved.clone()),
            &mut |_, _| {
                trained += 1;
                Ok(())
            },
        )
        .expect("trains");
        (file.weights, trained)
    };
    let (resumed, trained) = resume(&doctored);
    assert_eq!(trained, 0, "generation 1 was taken from the saved file");
    assert!(
        resumed != second.weights,
        "and played its (altered) weights"
    );
    let mut other = first.clone();
    other.meta.push_str(" --l2 9");
    let (fresh, trained) = resume(&other);
    assert_eq!(trained, 1, "a file of other options is trained again");
    assert!(fresh == second.weights);
}

#[test]
fn training_is_reproducible_learns_and_gives_a_symmetric_evaluation() {
    let (a, table) = tiny_training(1);
    let (b, _) = tiny_training(2);
    assert_eq!(
        a.to_bytes("a").expect("written"),
        b.to_bytes("b").expect("written"),
        "same weights whatever the thread count"
    );

    // It learnt: on held-out exact labels the evaluation beats always answering 0, whose
    // error is the spread of the labels. Checked against the reference solver.
    let eval = Evaluator::from_weights(a.weights.clone());
    let (err, zero) = error_against_reference(&eval);
    let mut rng = Rng::new(78);
    assert!(
        err < 0.8 * zero,
        "evaluation error {err} against {zero} for 0"
    );
    assert!(table.iter().any(|row| row.label == "exact" && row.test > 0));

    // Mirror images share weights, so the evaluation is the same for all eight symmetries.
    for _ in 0..100 {
        let n = 4 + rng.below(50);
        let b = r::to_board(&r::random_position(&mut rng, n));
        let v = eval.evaluate(&b);
        let sym = |f: &dyn Fn(u64) -> u64| finale::Board::new(f(b.player), f(b.opponent));
        assert_eq!(eval.evaluate(&sym(&flip_horizontal)), v);
        assert_eq!(eval.evaluate(&sym(&flip_vertical)), v);
        assert_eq!(eval.evaluate(&sym(&transpose)), v);
    }

    // The file round-trips and is accepted by the evaluator.
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("w.bin");
    a.save(&path).expect("saves");
    let back = Evaluator::load(&path).expect("loads");
    assert_eq!(back.weights(), &a.weights[..]);
}

#[test]
fn a_wrong_pattern_set_is_refused() {
    let f = finale::eval::weights_file::WeightFile {
        pattern_set: 999,
        phases: PHASES as u32,
        per_phase: PER_PHASE as u32,
        meta: String::new(),
        weights: vec![0; PHASES * PER_PHASE],
    };
    let bytes = f.to_bytes("x.bin").expect("written");
    let e = Evaluator::from_bytes(&bytes, "x.bin").expect_err("refused");
    let msg = e.to_string();
    assert!(
        msg.starts_with("x.bin:") && msg.contains("pattern set 999"),
        "{msg}"
    );
    assert!(!msg.contains('\n'));
}

fn solver(eval: EvalRef, selectivity: Level) -> Solver {
    Solver::new(SolverOptions {
        hash_mb: 16,
        search: SearchOptions {
            eval,
            selectivity,
            ..Default::default()
        },
        ..Default::default()
    })
}

#[test]
fn selective_solves_say_so() {
    let mut s = solver(EvalRef::shipped(), Level::from_percent(95));
    let mut rng = Rng::new(6);
    let b = r::random_position(&mut rng, 22);
    let got = s.solve(r::to_board(&b), Mode::Exact);
    assert_eq!(got.selectivity.percent(), 95);
    // Whatever it found, its moves are legal.
    for m in &got.best_moves {
        assert!(r::play(&b, m.index()).is_some());
    }
}
