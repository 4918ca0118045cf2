//! Move generation kernels on a fixed set of game positions: flips and legal moves.
//!
//! Compare against a saved baseline:
//!     cargo bench --bench kernels -- --save-baseline before
//!     (change the code)
//!     cargo bench --bench kernels -- --baseline before

use criterion::{Criterion, criterion_group, criterion_main};
use finale::board::kernels::{Isa, Kernels, Portable};
use finale::board::moves::legal_moves;
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

/// The loops, inlined into a function of each set's CPU features as the search's
/// entries are (a vector kernel called from plain code would not be vector code).
#[inline(always)]
fn flips_loop<K: Kernels>(moves: &[(u64, u64, Square)]) -> u64 {
    let mut acc = 0u64;
    for &(p, o, sq) in moves {
        acc ^= K::flips(black_box(p), black_box(o), sq);
    }
    acc
}

#[inline(always)]
fn moves_loop<K: Kernels>(boards: &[(u64, u64)]) -> u64 {
    let mut acc = 0u64;
    for &(p, o) in boards {
        acc ^= K::legal_moves(black_box(p), black_box(o));
    }
    acc
}

macro_rules! set_loops {
    ($flips:ident, $moves:ident, $set:ty, $features:literal) => {
        #[target_feature(enable = $features)]
        fn $flips(moves: &[(u64, u64, Square)]) -> u64 {
            flips_loop::<$set>(moves)
        }
        #[target_feature(enable = $features)]
        fn $moves(boards: &[(u64, u64)]) -> u64 {
            moves_loop::<$set>(boards)
        }
    };
}
set_loops!(
    flips_avx2,
    moves_avx2,
    finale::board::kernels::Avx2,
    "avx2,bmi1,bmi2,popcnt,lzcnt"
);
set_loops!(
    flips_avx512,
    moves_avx512,
    finale::board::kernels::Avx512,
    "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512cd,avx512vl,avx512bw"
);

fn bench_kernels(c: &mut Criterion) {
    let boards = positions();
    // Every legal move of every position, so each call does real work.
    let moves: Vec<(u64, u64, Square)> = boards
        .iter()
        .flat_map(|&(p, o)| Bitboard(legal_moves(p, o)).map(move |sq| (p, o, sq)))
        .collect();
    for isa in Isa::ALL.into_iter().filter(|i| i.supported()) {
        c.bench_function(&format!("flips {isa} (every move of 256 positions)"), |b| {
            b.iter(|| match isa {
                Isa::Portable => flips_loop::<Portable>(&moves),
                // SAFETY: the set is supported here (filtered above).
                Isa::Avx2 => unsafe { flips_avx2(&moves) },
                // SAFETY: as above.
                Isa::Avx512 => unsafe { flips_avx512(&moves) },
            })
        });
        c.bench_function(&format!("legal moves {isa} (256 positions)"), |b| {
            b.iter(|| match isa {
                Isa::Portable => moves_loop::<Portable>(&boards),
                // SAFETY: the set is supported here (filtered above).
                Isa::Avx2 => unsafe { moves_avx2(&boards) },
                // SAFETY: as above.
                Isa::Avx512 => unsafe { moves_avx512(&boards) },
            })
        });
    }
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
