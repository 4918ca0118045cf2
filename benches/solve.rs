//! Search benchmarks: the last-four-empties solver on many positions, and a whole
//! 20-empty solve (FFO #40).
//!
//! Compare against a saved baseline:
//!     cargo bench --bench solve -- --save-baseline before
//!     (change the code)
//!     cargo bench --bench solve -- --baseline before

use criterion::{Criterion, criterion_group, criterion_main};
use finale::board::random::{SplitMix64, random_position};
use finale::board::{Board, parse_obf_line};
use finale::search::{Mode, Solver, SolverOptions};
use std::hint::black_box;

fn bench_solve(c: &mut Criterion) {
    let mut solver = Solver::new(SolverOptions {
        hash_mb: 16,
        ..Default::default()
    });
    let mut rng = SplitMix64::new(4);
    let last4: Vec<Board> = (0..1000)
        .map(|_| random_position(&mut rng, 4).board)
        .collect();
    c.bench_function("last 4 empties (1000 positions, full window)", |b| {
        b.iter(|| {
            let mut acc = 0;
            for &board in &last4 {
                acc += solver.search(black_box(board), -64, 64).0;
            }
            acc
        })
    });

    let ffo40 =
        parse_obf_line("O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X")
            .ok()
            .flatten()
            .expect("FFO #40 parses")
            .position
            .board;
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    group.bench_function("FFO #40 (20 empties, exact)", |b| {
        b.iter(|| {
            solver.clear();
            solver.solve(black_box(ffo40), Mode::Exact).score
        })
    });
    group.finish();
}

criterion_group!(benches, bench_solve);
criterion_main!(benches);
