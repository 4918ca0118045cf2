//! `finale bench`: a fixed set of positions solved exactly with one thread and a fixed
//! table size. The total node count is deterministic and signs the search behaviour: every
//! change that alters it updates `bench.signature` in the same commit (`Bench: N` in the
//! commit message), and tests/bench.rs fails when the two differ.

use crate::board::random::{SplitMix64, random_position};
use crate::board::{Position, parse_obf_line};
use crate::error::{Error, Result};
use crate::search::{Mode, Solver, SolverOptions};
use std::io::Write;
use std::time::Duration;

/// Seed of the generated bench positions.
pub const BENCH_SEED: u64 = 0x000F_1A1E;
/// Number of generated positions (16 to 20 empties, in turn: random play leaves lopsided
/// positions that take far longer to solve than FFO ones of the same size).
pub const BENCH_RANDOM_POSITIONS: usize = 20;
/// Transposition table size of the bench, in MB.
pub const BENCH_HASH_MB: usize = 64;

/// FFO 40-44, the quicker half of the standard one-thread benchmark.
const FFO_40_44: &str = "\
O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X
-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X
--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO-- X
--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O
--O-X-O---O-XO-O-OOXXXOOOOOOXXXOOOOOXX--XXOOXO----XXXX-----XXX-- O";

/// The bench positions with their names, in order.
pub fn bench_positions() -> Vec<(String, Position)> {
    let mut rng = SplitMix64::new(BENCH_SEED);
    let mut v: Vec<(String, Position)> = (0..BENCH_RANDOM_POSITIONS)
        .map(|i| {
            let empties = 16 + (i % 5) as u32;
            (
                format!("random-{}", i + 1),
                random_position(&mut rng, empties),
            )
        })
        .collect();
    for (i, line) in FFO_40_44.lines().enumerate() {
        let record = parse_obf_line(line)
            .ok()
            .flatten()
            .expect("built-in FFO position parses");
        v.push((format!("ffo-{}", 40 + i), record.position));
    }
    v
}

/// Totals of a bench run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchSummary {
    /// Nodes over all positions: the signature.
    pub nodes: u64,
    /// Solve time over all positions.
    pub time: Duration,
}

/// Solves the bench positions with `threads` search threads, printing one line each and
/// the final `bench: N nodes T ms X nps` line (a signature only with one thread).
pub fn run_bench(
    threads: usize,
    oversubscribe: bool,
    out: &mut impl Write,
) -> Result<BenchSummary> {
    let mut solver = Solver::try_new(SolverOptions {
        hash_mb: BENCH_HASH_MB,
        threads,
        oversubscribe,
        ..Default::default()
    })?;
    let threads = solver.threads();
    let mut total = BenchSummary {
        nodes: 0,
        time: Duration::ZERO,
    };
    let mut print = |text: String| out.write_all(text.as_bytes()).map_err(Error::Output);
    print(format!(
        "kernels    {} (the fastest this CPU has: {})\n",
        solver.kernels(),
        crate::board::kernels::Isa::detect()
    ))?;
    for (name, pos) in bench_positions() {
        solver.clear();
        let r = solver.solve(pos.board, Mode::Exact);
        total.nodes += r.nodes;
        total.time += r.time;
        print(format!(
            "{name:<10} {:>2} empties {:>+3} {:>12} nodes {:>9.3} s\n",
            pos.board.empty_count(),
            r.score,
            r.nodes,
            r.time.as_secs_f64()
        ))?;
    }
    if threads > 1 {
        print(format!(
            "threads {threads}: node counts vary from run to run; not a signature\n"
        ))?;
    }
    let secs = total.time.as_secs_f64();
    let nps = if secs > 0.0 {
        total.nodes as f64 / secs
    } else {
        0.0
    };
    print(format!(
        "bench: {} nodes {} ms {:.0} nps\n",
        total.nodes,
        total.time.as_millis(),
        nps
    ))?;
    Ok(total)
}
