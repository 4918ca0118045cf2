//! Move generation kernels on a fixed set of game positions: flips and legal moves.
//!
//! Compare against a saved baseline:
//!     cargo bench --bench kernels -- --save-baseline before
//!     (change the code)
//!     cargo bench --bench kernels -- --baseline before

use criterion::{Criterion, criterion_group, criterion_main};
use finale::board::moves::{flips, flips_portable, legal_moves, legal_moves_portable};
use finale::board::random::{SplitMix64, random_position};
use finale::{Bitboard, Square};
use std::hint::black_box;

/// 256 positions from random games, 10 to 50 empties.
fn positions() -> Vec<(u64, u64)> {
    let mut rng = SplitMix64::new(42);
    (0..256)
        .map(|i| {
            let p = random_position(&mut rng, 10 + (i % 41) as u32);
            (p.board.player, p.board.opponent)
        })
        .collect()
}

fn bench_kernels(c: &mut Criterion) {
    let boards = positions();
    // Every legal move of every position, so each call does real work.
    let moves: Vec<(u64, u64, Square)> = boards
        .iter()
        .flat_map(|&(p, o)| Bitboard(legal_moves(p, o)).map(move |sq| (p, o, sq)))
        .collect();
    c.bench_function("flips (every move of 256 positions)", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for &(p, o, sq) in &moves {
                acc ^= flips(black_box(p), black_box(o), sq);
            }
            acc
        })
    });
    c.bench_function("flips portable (every move of 256 positions)", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for &(p, o, sq) in &moves {
                acc ^= flips_portable(black_box(p), black_box(o), sq);
            }
            acc
        })
    });
    c.bench_function("legal moves (256 positions)", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for &(p, o) in &boards {
                acc ^= legal_moves(black_box(p), black_box(o));
            }
            acc
        })
    });
    c.bench_function("legal moves portable (256 positions)", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for &(p, o) in &boards {
                acc ^= legal_moves_portable(black_box(p), black_box(o));
            }
            acc
        })
    });
}

/// The pattern evaluation: 256 evaluations with the shipped weights.
fn bench_eval(c: &mut Criterion) {
    let eval = finale::eval::Evaluator::shipped().expect("shipped weights");
    let boards: Vec<finale::Board> = positions()
        .into_iter()
        .map(|(p, o)| finale::Board::new(p, o))
        .collect();
    c.bench_function("evaluate (256 positions)", |b| {
        b.iter(|| {
            let mut s = 0i32;
            for x in &boards {
                s = s.wrapping_add(eval.evaluate(black_box(x)));
            }
            s
        })
    });
}

criterion_group!(benches, bench_kernels, bench_eval);
criterion_main!(benches);
