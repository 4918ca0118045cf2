//! The pattern evaluation read from scratch against the incremental one: a leaf's cost
//! (evaluate a child from its board, or update the parent's indices and sum), the cost of
//! an inner node's child state, and a plain depth-2 search evaluating its leaves each way.
//!
//!     cargo bench --bench eval -- --warm-up-time 1 --measurement-time 3
//!
//! Every figure is for a whole set; the set sizes are printed first (divide to get the
//! time per operation).

use criterion::{Criterion, criterion_group, criterion_main};
use finale::board::moves::flips;
use finale::board::random::{SplitMix64, random_position};
use finale::eval::pattern::{FEATURES, features};
use finale::eval::{Evaluator, FeatureState};
use finale::search::evaluated_value;
use finale::{Board, Square};
use std::hint::black_box;

/// 256 positions from random games, 10 to 50 empties (those of the kernels bench).
fn positions() -> Vec<Board> {
    let mut rng = SplitMix64::new(42);
    (0..256)
        .map(|i| random_position(&mut rng, 10 + (i % 41) as u32).board)
        .collect()
}

/// Every legal move of a board with its flips.
fn moves(b: &Board) -> Vec<(Square, u64)> {
    b.legal_moves()
        .map(|sq| (sq, flips(b.player, b.opponent, sq)))
        .collect()
}

/// Negamax to depth 2 without pruning, square order, every leaf read from scratch (a
/// pass ends the line: the leaves are what is measured).
fn depth2_scratch(eval: &Evaluator, b: &Board) -> i32 {
    let mut best = i32::MIN + 1;
    for (sq, f) in moves(b) {
        let c = b.play_with_flips(sq, f);
        let mut worst = i32::MIN + 1;
        for (sq2, f2) in moves(&c) {
            worst = worst.max(-eval.evaluate(&c.play_with_flips(sq2, f2)));
        }
        best = best.max(-worst);
    }
    best
}

/// [`depth2_scratch`] carrying the pattern state.
fn depth2_incremental(eval: &Evaluator, b: &Board) -> i32 {
    let s = FeatureState::new(b);
    let mut best = i32::MIN + 1;
    for (sq, f) in moves(b) {
        let c = b.play_with_flips(sq, f);
        let cs = s.play(sq, f);
        let n = c.empty_count() - 1;
        let mut worst = i32::MIN + 1;
        for (sq2, f2) in moves(&c) {
            worst = worst.max(-eval.evaluate_features(&cs.child_indices(sq2, f2), n));
        }
        best = best.max(-worst);
    }
    best
}

fn bench_eval(c: &mut Criterion) {
    let eval = Evaluator::shipped().expect("shipped weights");
    let boards = positions();
    let states: Vec<FeatureState> = boards.iter().map(FeatureState::new).collect();
    // (position, square, flips) of every move of every position.
    let all: Vec<(usize, Square, u64)> = boards
        .iter()
        .enumerate()
        .flat_map(|(i, b)| moves(b).into_iter().map(move |(sq, f)| (i, sq, f)))
        .collect();
    let leaves: usize = boards
        .iter()
        .map(|b| {
            moves(b)
                .iter()
                .map(|&(sq, f)| moves(&b.play_with_flips(sq, f)).len())
                .sum::<usize>()
        })
        .sum();
    for b in &boards {
        assert_eq!(depth2_scratch(eval, b), depth2_incremental(eval, b));
    }
    let midgame_nodes: u64 = boards.iter().map(|&b| evaluated_value(eval, b, 3).1).sum();
    eprintln!(
        "sets: {} positions, {} moves, {} depth-2 leaves, {} midgame depth-3 nodes",
        boards.len(),
        all.len(),
        leaves,
        midgame_nodes
    );

    c.bench_function("evaluate from scratch (256 positions)", |bch| {
        bch.iter(|| {
            let mut s = 0i32;
            for b in &boards {
                s = s.wrapping_add(eval.evaluate(black_box(b)));
            }
            s
        })
    });
    c.bench_function("features from scratch (256 positions)", |bch| {
        bch.iter(|| {
            let mut s = 0u32;
            for b in &boards {
                let mut f = [0; FEATURES];
                features(black_box(b), &mut f);
                // Every slot must be written, not only the one added up.
                s = s.wrapping_add(black_box(&f)[FEATURES - 1]);
            }
            s
        })
    });
    c.bench_function("state from scratch, both sides (256 positions)", |bch| {
        bch.iter(|| {
            let mut s = 0u32;
            for b in &boards {
                let st = FeatureState::new(black_box(b));
                s = s.wrapping_add(black_box(&st).indices()[FEATURES - 1]);
            }
            s
        })
    });
    c.bench_function("leaf from scratch: play + evaluate (every move)", |bch| {
        bch.iter(|| {
            let mut s = 0i32;
            for &(i, sq, f) in &all {
                let child = boards[i].play_with_flips(sq, black_box(f));
                s = s.wrapping_add(eval.evaluate(&child));
            }
            s
        })
    });
    c.bench_function(
        "leaf incremental: child indices + sum (every move)",
        |bch| {
            bch.iter(|| {
                let mut s = 0i32;
                for &(i, sq, f) in &all {
                    let n = boards[i].empty_count() - 1;
                    let ix = states[i].child_indices(sq, black_box(f));
                    s = s.wrapping_add(eval.evaluate_features(&ix, n));
                }
                s
            })
        },
    );
    c.bench_function("inner incremental: child state + sum (every move)", |bch| {
        bch.iter(|| {
            let mut s = 0i32;
            for &(i, sq, f) in &all {
                let b = boards[i].play_with_flips(sq, f);
                // Both sides' indices must be made, as a search passes the state on.
                let child = black_box(states[i].play(sq, black_box(f)));
                s = s.wrapping_add(eval.evaluate_incremental(&child, &b));
            }
            s
        })
    });
    c.bench_function(
        "depth-2 negamax, leaves from scratch (256 positions)",
        |bch| {
            bch.iter(|| {
                let mut s = 0i32;
                for b in &boards {
                    s = s.wrapping_add(depth2_scratch(eval, black_box(b)));
                }
                s
            })
        },
    );
    c.bench_function("depth-2 negamax, incremental (256 positions)", |bch| {
        bch.iter(|| {
            let mut s = 0i32;
            for b in &boards {
                s = s.wrapping_add(depth2_incremental(eval, black_box(b)));
            }
            s
        })
    });
    c.bench_function("evaluated_value depth 3 (256 positions)", |bch| {
        bch.iter(|| {
            let mut s = 0i32;
            for &b in &boards {
                s = s.wrapping_add(evaluated_value(eval, black_box(b), 3).0);
            }
            s
        })
    });
}

criterion_group!(benches, bench_eval);
criterion_main!(benches);
