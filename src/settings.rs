//! Every tunable threshold of the search, with the measurement that chose it.
//!
//! Unless noted, figures are nodes and median time of 3 alternating runs on FFO 40-44, 46
//! and 47 (the quicker seven of 40-49), one thread, 256 MB table, release build, on the
//! 2-core AMD EPYC machine kind (results/README.md).

/// Highest number of empties searched without the transposition table (the shallow band,
/// `search/shallow.rs`); above it `search/endgame.rs` probes, stores and sorts by
/// fastest-first. With the local table (nodes of up to [`LOCAL_TABLE_MAX_EMPTIES`] probe
/// a table in the core's cache), chosen on positions never tuned on (`finale generate
/// --seed 8101 --count 10 --empties 23-26 --play eval`, one thread, alternating in one
/// run): 5 -> 1 225 M nodes 52.2 s; 6 -> 1 358 M 51.7 s (before the local table: 6 ->
/// 1 315 M 60.6 s). FFO 50-52: 5 -> 959 M 44.8 s; 6 -> 1 055 M 43.5 s. Fewer nodes at
/// the same time: 5. Before the local table, when every probe went to memory, it was 6:
/// 5 -> 667 M nodes 31.9 s; 6 -> 786 M nodes 29.3 s;
/// 7 -> 965 M nodes 30.8 s. FFO 40-49 alternating, 5 against 6: nodes x0.863, time x1.086
/// (95 % CI 1.040-1.134); random-18-24 nodes: 5 -> 3.82 G, 6 -> 4.44 G, 7 -> 5.62 G
/// (results/variants/README.md).
/// Ordering the shallow band's 5-empty nodes by fastest-first (`ordering::fastest_first`,
/// light form) instead of parity and square class saves nodes but not time. FFO 40-49,
/// one thread, alternating in one run: sorted 577.2 M nodes 41.8 s; parity 632.7 M
/// 40.4 s (bench: 174.1 M against 192.6 M nodes). Held out (the first six of
/// `results/speed/inputs/2026-11-25-heldout-22-25-seed3141.obf`, one thread, two alternating
/// rounds): nodes x0.96, time x1.04. Not kept.
pub const SHALLOW_MAX_EMPTIES: u32 = 5;

/// Highest number of empties whose nodes use the searching thread's own small table
/// (`search/table/local.rs`) instead of the shared one: a probe there stays in the core's
/// cache. Before it, a quarter of the time at one thread went to probes of the 256 MB
/// table (perf, FFO #50). Measured with [`LOCAL_TABLE_KB`] 1024 and the shallow band to 6,
/// FFO 40-49 one thread, alternating in one run (nodes, time): up to 8 -> 696 M 25.9 s;
/// 10 -> 712 M 25.1 s; 12 -> 730 M 24.5 s; 14 -> 750 M 24.8 s (no local table, the run
/// before: 683 M, x1.14 the time of 10).
/// From [`SPLIT_MANY_THREADS`] threads on, only the small table is local: boards of
/// [`LOCAL_SMALL_MAX_EMPTIES`] + 1 to this many empties go to the shared table, where the
/// subtrees of other threads, reaching them by another order of moves, find them. FFO
/// 40-49 at `--threads 16 --oversubscribe`, median of 3 runs, against one thread's
/// 368.7 M nodes: both local tables x1.311; the small only x1.250; none x1.152 (x1.204
/// of one thread without local tables, 352.8 M). At one thread, FFO 40-49 alternating
/// (`--repeat 2`): the small only costs x1.019 the time, none x1.33; at two threads (FFO
/// #50-53 and #56, `--repeat 2`), the small only searched 1.3 % fewer nodes in 1.8 % more
/// time, so one or two threads keep both (results/parallel/2026-11-28-waste/).
pub const LOCAL_TABLE_MAX_EMPTIES: u32 = 12;
/// Size of each thread's small local table in KB: small enough to stay in the L2 cache
/// of both CPUs of this machine kind (512 KB per core on the AMD EPYC ones, more on the
/// Intel ones). At 4 MB the table lived in the AMD machines' L3, and
/// `TranspositionTable::probe` took 44 % of the time of FFO 40-49 at one thread, nearly
/// all of it on the bucket's load (results/speed/2026-11-25-account-before.md).
/// FFO 40-49 one thread, AMD EPYC (AVX2), in one alternating run (nodes, time): 4096 ->
/// 594 M 71.5 s; 512 -> 625 M 53.9 s; 256 -> 641 M 45.4 s; and in another: 256 -> 641 M
/// 41.8 s; 128 -> 648 M 45.4 s. On the Intel machines (4 MB L2), before:
/// 256 -> 753 M nodes 24.4 s; 1024 -> 730 M 24.3 s; 4096 -> 711 M 24.3 s (the time the
/// same), so 256 costs them nothing. Held out (never tuned on: `finale generate --seed 3141
/// --count 12 --empties 22-25 --play eval`, the first 8, one thread, alternating, AMD):
/// 256 against 4096, time x0.75 (geometric mean), nodes x1.075
/// (results/speed/2026-11-25-heldout-local-table-256k-vs-4m.csv).
/// Those figures are for 32-byte entries. With the 16-byte entries of
/// `search/table/local.rs` (twice the entries in the same memory), FFO 40-49 one thread,
/// alternating in one run (nodes, time): 32-byte 256 KB 641.2 M 42.3 s; 16-byte 256 KB
/// 632.7 M 38.4 s; and in another run: 16-byte 256 KB 632.7 M 36.7 s; 512 KB 616.6 M
/// 43.5 s; 256 KB up to 10 empties only ([`LOCAL_TABLE_MAX_EMPTIES`]) 607.3 M 41.1 s.
pub const LOCAL_TABLE_KB: usize = 256;

/// Highest number of empties whose boards use the small local table
/// ([`LOCAL_TABLE_KB`], in the core's L2 cache); from one more up to
/// [`LOCAL_TABLE_MAX_EMPTIES`] they use a large one ([`LOCAL_LARGE_TABLE_KB`], in L3),
/// whose buckets the parent prefetches while it scores its moves, as for the shared
/// table. The small table alone lost transpositions: FFO 40-59 at two threads took 4.4 %
/// more nodes than c183a4e with its 4 MB local table (`results/speed`). FFO 40-49, one
/// thread, `--repeat 2` alternating in one run (nodes, time; AMD EPYC, AVX2): small table
/// only 1 265.5 M 76.0 s; to 9 then a 4 MB table 1 198.5 M 76.3 s; to 8 then 2 MB
/// 1 199.2 M 78.9 s. Without the prefetch, in another run: small only 1 265.5 M 73.1 s;
/// to 8 then 2 MB 1 199.2 M 80.7 s; to 7 then 4 MB 1 183.0 M 87.9 s. Bench nodes: small
/// only 192.6 M; to 9 then 4 MB 185.9 M; to 8: 184.2 M; to 7: 181.8 M.
pub const LOCAL_SMALL_MAX_EMPTIES: u32 = 9;
/// Size in KB of each thread's large local table (see [`LOCAL_SMALL_MAX_EMPTIES`]).
/// Bench nodes with the small table to 8: 2048 -> 184.6 M, 4096 -> 184.2 M, 8192 ->
/// 184.1 M.
pub const LOCAL_LARGE_TABLE_KB: usize = 4096;

/// Lowest number of empties at which enhanced transposition cutoff probes every child
/// before searching (`search/etc.rs`); the children's buckets are prefetched while the
/// moves are scored. With the local table (children of up to 12 empties are probed in the
/// core's cache), on the generated 23-26-empty set (`results/deep/local-table/`, one
/// thread, one run): 8 -> 1 225 M nodes 53.5 s; 6 -> 1 211 M 53.7 s. Before it, when
/// each probe went to memory: 8 -> 786 M nodes 29.3 s; 12 -> 821 M nodes 32.4 s (FFO).
/// Not 6: the children of a 6-empty node have 5, the shallow band, which stores nothing,
/// so there every probe missed (bench: 23.2 M probes, 0 hits; `--features account`
/// counts probes, hits and cuts per empties). With 16-byte local entries, FFO 40-49 one
/// thread in one run: 7 -> 632.7 M nodes 39.2 s; 8 -> 642.2 M 40.4 s; 9 -> 644.9 M 38.5 s.
pub const ETC_MIN_EMPTIES: u32 = 7;

/// Stability cutoff is tried only when alpha is at least this, by number of empties:
/// a bound from stable discs can only fail low when alpha is high. Values are 8 discs
/// below Edax's published thresholds (8->14, 10->20, 15->30, 20->40, 24->48, 30->54),
/// interpolated. Measured with the local table on the generated 23-26-empty set
/// (`results/deep/local-table/`, one thread, one run): Edax's values 1 225 M nodes
/// 53.5 s; 8 below 1 208 M 53.2 s; 16 below 1 207 M 52.9 s; tried at every alpha 1 207 M
/// 55.8 s. With ETC from 6 (above), FFO 40-49 against both unchanged: 592.5 M nodes
/// 24.9 s against 638.5 M 25.2 s. Tried at 3 and 4 empties too since 2026-11-27 (the
/// thresholds there, -9 and -6, barely matter: the cutoff first checks that the opponent
/// has enough discs at all): FFO 40-49, one thread, 511.3 M -> 393.9 M nodes (4 empties
/// alone 417.0 M), time median of 3 alternating rounds 35.3 s -> 33.7 s
/// (results/eval/2026-11-27-stability.md).
pub const STABILITY_ALPHA_MIN: [i32; 65] = build_stability_thresholds();

const fn build_stability_thresholds() -> [i32; 65] {
    // (empties, alpha) anchor points; linear in between, flat outside.
    const ANCHORS: [(i32, i32); 6] = [(8, 14), (10, 20), (15, 30), (20, 40), (24, 48), (30, 54)];
    let mut t = [0i32; 65];
    let mut e = 0;
    while e < 65 {
        let ei = e as i32;
        let mut v = if ei <= ANCHORS[0].0 {
            // Fewer empties: stable discs are common, try from a lower alpha.
            ANCHORS[0].1 - 3 * (ANCHORS[0].0 - ei)
        } else {
            ANCHORS[5].1 + (ei - ANCHORS[5].0)
        };
        let mut k = 0;
        while k + 1 < ANCHORS.len() {
            let (e0, a0) = ANCHORS[k];
            let (e1, a1) = ANCHORS[k + 1];
            if ei > e0 && ei <= e1 {
                v = a0 + (a1 - a0) * (ei - e0) / (e1 - e0);
            }
            k += 1;
        }
        if v > 64 {
            v = 64;
        }
        // 8 discs below Edax's thresholds (see above).
        t[e] = v - 8;
        e += 1;
    }
    t
}

/// Exact and wld solves of at least this many empties start with a narrow search (below)
/// whose score is the first guess of the root's MTD(f) probes, and whose table entries give
/// the exact search its first moves. FFO 40-49: 4.19 G nodes without, 2.99 G with.
pub const GUESS_MIN_EMPTIES: u32 = 20;
/// The narrow search tries only the `NARROW_MOVES` best-ordered moves at nodes with at
/// least `NARROW_MIN_EMPTIES` empties. FFO #49 (26 empties, +16), guess and total nodes:
/// 14/2 -> +30, 1.89 G; 12/3 -> +30, 1.89 G; 12/5 -> +26, 1.69 G; 10/4 -> +28, 1.62 G;
/// 10/6 -> +18, 1.41 G; 8/6 -> +18, 1.40 G; 9/7 -> +18, 1.53 G; none: 2.48 G. FFO 40-49:
/// 10/6 -> 2.99 G, 10/4 -> 3.03 G nodes.
pub const NARROW_MIN_EMPTIES: u32 = 10;
/// See [`NARROW_MIN_EMPTIES`].
pub const NARROW_MOVES: usize = 6;

/// Below this many empties the endgame band orders by opponent mobility, parity and square
/// value only (no potential mobility, no stable edges): cheaper per node, barely more nodes.
/// FFO 40-43, 45-47, 2 alternating runs, median: everywhere full 1 053 M nodes 36.0 s;
/// light below 10: 1 073 M, 34.4 s; below 13: 1 115 M, 35.4 s; below 16: 1 160 M, 36.7 s.
pub const ORDER_FULL_MIN_EMPTIES: u32 = 10;

/// Fastest-first weight of one opponent move (corners count twice): the main term.
/// Measured with the other terms below on FFO 40-43 and 45-47 (nodes): 2048 -> 1 154 M,
/// 3072 -> 1 121 M, 4096 -> 1 120 M, 6144 -> 1 122 M.
pub const ORDER_MOBILITY_WEIGHT: i32 = 1 << 12;
/// Fastest-first weight of one square of opponent potential mobility (empty squares next
/// to our discs). Measured: 64 -> 1 147 M, 128 -> 1 153 M, 256 -> 1 120 M nodes.
pub const ORDER_POTENTIAL_WEIGHT: i32 = 1 << 8;
/// Bonus for a move into an odd region (parity). Measured: 0 -> 1 135 M, 512 -> 1 120 M,
/// 1024 -> 1 151 M, 2048 -> 1 174 M nodes.
pub const ORDER_PARITY_BONUS: i32 = 1 << 9;
/// Bonus per disc of ours stable along an edge after the move. Measured (without square
/// values): 0 -> 1 599 M, 256 -> 1 304 M, 512 -> 1 274 M, 768 -> 1 288 M, 1024 -> 1 308 M,
/// 4096 -> 1 601 M nodes.
pub const ORDER_STABLE_EDGE_WEIGHT: i32 = 1 << 9;
/// Unit of the square values (corner +6, X square -6, C square -2, other edge +2, inner 0).
/// Measured: 0 -> 1 274 M, 64 -> 1 188 M, 128 -> 1 120 M, 256 -> 1 165 M, 512 -> 1 170 M
/// nodes; X square -8 instead of -6 -> 1 117 M, C square 0 -> 1 132 M (kept the simpler
/// table).
pub const ORDER_SQUARE_WEIGHT: i32 = 1 << 7;
/// The square values in units of [`ORDER_SQUARE_WEIGHT`]: corner, X square, C square,
/// other edge (inner squares 0). Measured as given there (X -8 and C 0 tried).
pub const ORDER_SQUARE_CLASS_VALUES: [i32; 4] = [6, -6, -2, 2];
/// Below this remaining depth the shallow evaluated search (`search/evaluated.rs`) tries
/// moves in square order: sorting costs more than it saves. Not yet measured; from the
/// first version of that search.
pub const EVALUATED_ORDER_MIN_DEPTH: u32 = 2;
/// Lowest number of empties at which the endgame band adds a shallow evaluation search of
/// each child to the fastest-first score (`search/endgame.rs`). FFO 40-49, one thread, with
/// the settings below: from 12 -> 871 M nodes, 13 -> 817 M, 14 -> 855 M, 16 -> 924 M,
/// 18 -> 1 121 M (fastest-first alone: 3 065 M).
pub const ORDER_EVAL_MIN_EMPTIES: u32 = 13;
/// Weight of one evaluation unit (1/128 disc) of a child's shallow search value in the
/// ordering score: 32 makes one disc worth one opponent move. FFO 40-49: 12 -> 836 M,
/// 16 -> 855 M, 24 -> 907 M nodes (from 14 empties); FFO 40-44 with weak early weights:
/// 8 -> 142 M, 16 -> 141 M, 32 -> 155 M, 128 -> 310 M.
pub const ORDER_EVAL_WEIGHT: i32 = 16;
/// The evaluation ordering searches each child with a window from this many discs below
/// the node's alpha upwards: a worse move only needs to be shown worse. Chosen on FFO
/// 40-49, one thread (nodes): 4 -> 770.0 M, 8 -> 750.8 M, 16 -> 741.8 M, 32 -> 741.3 M,
/// 64 -> 743.0 M. Held out (`finale generate --seed 7007 --count 8 --empties 24-27 --play
/// eval`, never tuned on): 4 -> 2 754 M, 16 -> 2 714 M, 32 -> 2 709 M, 64 -> 2 719 M.
pub const ORDER_EVAL_MARGIN: i32 = 16;
/// Depth of the ordering search at `n` empties: deeper where subtrees are bigger.
/// FFO 40-49 (from 14 empties): (n - 14) / 2 up to 6 -> 856 M nodes; (n - 14) / 3 up to
/// 6 or 4 -> 855 M (less time). Measured again on deeper positions, since incremental
/// evaluation made leaves cheaper: 24-27 empties (seed 7107, 8 positions, one thread): (n - 13) / 3 up to 6 ->
/// 1 569 M; from 10 -> 1 568 M; from 16 -> 1 777 M; (n - 13) / 2 up to 6 -> 1 543 M, same
/// time. 28-29 empties (seed 7128, 6 positions): (n - 13) / 3 up to 6 -> 9 035 M;
/// (n - 13) / 2 up to 6 -> 9 053 M; up to 8 -> 9 529 M. Deeper ordering did not pay then.
/// With the mobility weights (2026-11-26, results/eval/2026-11-26-mobility.md) it does:
/// FFO 40-49 one thread, (n - 13) / 3 -> 623.9 M nodes, (n - 11) / 3 -> 565.8 M,
/// (n - 13) / 2 -> 526.9 M (the shipped weights before them: 621.6 M and 599.9 M); the
/// cap of 6 is reached only from 25 empties, and 8 changed nothing there. Its cost is
/// the ordering searches (a quarter of FFO #53's nodes), which [`ORDER_EVAL_PVS_MARGIN`]
/// cut by half.
pub const fn order_eval_depth(n: u32) -> u32 {
    let d = n.saturating_sub(ORDER_EVAL_MIN_EMPTIES) / 2;
    if d > 6 { 6 } else { d }
}
/// The evaluation ordering gives an exact value only to the moves that come within this
/// many discs of the best value found so far (a null window asks first); the others keep
/// the upper bound the null window returns. With every move's exact value, a quarter of
/// FFO #53's nodes (28 empties, 1 081 M) were those searches (`--features account`), for
/// a ranking of moves that matter only when the first fails to cut. One thread, mobility
/// weights, depth (n - 13) / 2 (results/eval/2026-11-27-ordering.md), nodes FFO 40-49 /
/// FFO #53: every value 526.9 M / 1 081 M; within 0 discs 533.4 M / 971.8 M; 2 -> 511.3 M /
/// 971.0 M; 4 -> 512.3 M / 986.5 M. A ceiling instead (values above beta + 8 or + 16
/// discs cut short): 628.9 M and 570.5 M on FFO 40-49, worse: the best moves' values do
/// matter.
pub const ORDER_EVAL_PVS_MARGIN: i32 = 2;

/// Multi-probcut selectivity levels: the percent reported and the number of standard
/// deviations t of the shallow search's error (see [`mpc_error`](crate::search::mpc_error)) beyond the window that
/// cuts. [`crate::search::Level::probcut`]`(k)` is `MPC_LEVELS[k]`.
/// A level is a promise about answers, not about one cut: many cuts bear on the root, so
/// t = 2 (95 % per cut) gave an exact score on only half of the positions. t was scanned
/// over 1.0, 1.5, ..., 6.0 on the fit set (results/selectivity/inputs/fit-14-26.obf, 66 positions
/// of 14-19 and 55 of 20-24 empties; best move / exact score, 14-19 | 20-24):
/// t 1.5 85 % / 26 % | 87 % / 16 %; 2.5 96 % / 79 % | 91 % / 66 %;
/// 3.0 97 % / 88 % | 98 % / 89 %; 3.5 97 % / 91 % | 100 % / 95 %;
/// 4.0 100 % / 97 % | 100 % / 100 %; 5.0 and 6.0 100 % / 100 % in both.
/// Each level takes the smallest t whose every band keeps the promise (best move in P %,
/// from 95 % up an exact score in 90 %) with 5 points to spare: 73 % 1.5, 87 % 3.0,
/// 95 % 4.0. 98 and 99 % take 5.0 and 6.0, wider than 121 positions can tell apart.
/// (87 % first had 2.5, chosen on the pooled set; held out, it kept its promise overall
/// but fell one position short among 23 of 25-29 empties, and the fit set's own bands
/// already showed 2.5 marginal at 20-24.) `finale calibrate` checks the promise on
/// held-out sets (results/selectivity/). Scanned again with the error model as planes
/// (2026-11-26, `--probcut-t`, results/selectivity/2026-11-26-planes/): 73 % still needs
/// 1.5 (1.25 fails), 87 % 3.0 (2.5 falls to 90.9 % at 20-24); 95 % would hold at 3.5
/// (exact scores 95.5 % at 14-19, just the margin) and keeps 4.0 until the deep fit set
/// has chosen the widths at 25-32 empties.
pub const MPC_LEVELS: [(u8, f32); 5] = [(73, 1.5), (87, 3.0), (95, 4.0), (98, 5.0), (99, 6.0)];
/// The most empties at which each level of [`MPC_LEVELS`] has been seen to keep its promise
/// on held-out positions (`finale calibrate`, results/selectivity/README.md); an answer of
/// that level from a position with more empties is labelled with `?` (`+16@73%?`): its
/// promise is borrowed from shallower positions, not measured. Checked with the mobility
/// weights and their error model (2026-11-27, results/selectivity/2026-11-27-mobility/):
/// 8-13 empties (180 positions, `finale generate --play eval --seed 3313 --empties 8-13`)
/// and 14-26 (329 positions of seed 2002), every level kept in every band (73 % best move
/// 92.8 % at 8-13, 86.1 / 89.7 / 78.3 % at 14-19 / 20-24 / 25-26; 95 % exact score
/// 97.8 % or more); below 8 no probcut is tried, so the answer is exact. On the deep
/// held-out set of 27-30 empties (44 positions, seed 3232) 87 and 95 % kept every best
/// move and 95 % every exact score, but 73 % found the best move on 8 of 11 positions of
/// 30 empties (72.7 %; 32 of 33 at 27-29), so it is checked to 29. 98 and 99 % kept
/// every best move and every exact score there too (455cb61, 2026-11-27,
/// results/selectivity/2026-11-27-deep-98-99/; 0.300 and 0.436 of the exact nodes).
pub const MPC_CHECKED_MAX_EMPTIES: [u32; 5] = [29, 30, 30, 30, 30];
/// Lowest number of empties at which a selective search tries multi-probcut, and its
/// shallow depth. FFO 40-49, one thread (nodes): from 12 at depth (n - 12) / 3 -> 909 M,
/// from 10 at (n - 10) / 4 -> 966 M, from 14 at (n - 14) / 2 -> 1 075 M (all with margins
/// of 0.7 sigma); from 8 at (n - 8) / 4 with the fitted sigma -> 831 M.
pub const MPC_MIN_EMPTIES: u32 = 8;
/// Depth of the probcut shallow search at `n` empties (see [`MPC_MIN_EMPTIES`]).
pub const fn mpc_depth(n: u32) -> u32 {
    let d = n.saturating_sub(MPC_MIN_EMPTIES) / 4;
    if d > 8 { 8 } else { d }
}
/// The multi-probcut error model: mean and standard deviation, in discs, of (shallow
/// search at depth d) minus (exact score) at the nodes of n empties where a selective
/// search tries probcut, as planes in n and d: mean = `MPC_MEAN[0] + MPC_MEAN[1] n +
/// MPC_MEAN[2] [d odd]`, sigma = `MPC_SIGMA[0] + MPC_SIGMA[1] n + MPC_SIGMA[2] d`.
/// Fitted by `finale train-mpc --from-labels` (least squares over every cell of empties
/// and depth 0-7, weighted by nodes) on fit sets only: the probcut nodes of 95 % searches
/// of results/selectivity/inputs/fit-14-26.obf (30 per empties count, 8-22) and of 73 % searches
/// of results/selectivity/inputs/deep-27-32/fit-27-32.obf (19-28 empties), each labelled by an exact `finale batch`
/// (results/selectivity/deep-27-32/, its README has the commands and the residuals).
/// What the planes see that the model before them (mean by parity of n, sigma a line in n
/// held above 22 empties) missed: the shallow search errs low by about 3 discs more at
/// even depths than odd ones, and more the more empties (mean -3.6 at 24 empties, depth
/// 4, where the old model said +0.1). Rms residual of the cells at the search's depth,
/// mean / sigma: planes 0.86 / 1.16 discs, the old form refitted to the same nodes
/// 1.30 / 1.18, the old model as it shipped 1.56 / 1.20. Sigma at depth runs 6.1-6.9
/// at 20-28 empties (old: 6.9). On the fit set's 121 positions of 14-24 empties, same t
/// (results/selectivity/2026-11-26-planes/): the levels keep their promise there at
/// about 0.7-0.85 of the old model's nodes. Above [`MPC_MODEL_MAX_EMPTIES`] the planes
/// are held at that many empties, not extrapolated; d is the depth the search uses there.
/// Refitted the same way for the mobility weights (2026-11-27; the same fit sets'
/// probcut nodes and labels, `train-mpc --from-labels ... --max-depth 7 --eval
/// m100k.bin`, results/eval/2026-11-26-mobility/train-mpc-from-labels-m100k.txt): they
/// err less, sigma 5.6 discs at 24 empties and depth 4 where the planes of the weights
/// before said 6.4, and the mean bias by parity of depth fell from 1.8 to 0.75 discs.
/// The planes of those weights were [0.6650, -0.1593, 1.8010] and
/// [7.0836, 0.0681, -0.5707].
pub const MPC_MEAN: [f32; 3] = [0.9271, -0.1171, 0.7531];
/// See [`MPC_MEAN`].
pub const MPC_SIGMA: [f32; 3] = [7.7234, 0.0038, -0.5481];
/// The most empties of the labelled probcut nodes [`MPC_MEAN`] was fitted on.
pub const MPC_MODEL_MAX_EMPTIES: u32 = 28;
/// The deepest shallow search of the cells [`MPC_MEAN`] was fitted on; deeper ones (40+
/// empties) take its sigma.
pub const MPC_MODEL_MAX_DEPTH: u32 = 7;
/// Exact solves of at least this many empties first run a quick pass at
/// [`MPC_GUESS_LEVEL`], whose score is the first guess of the exact pass and whose table
/// entries give it best moves first.
pub const MPC_SCHEDULE_MIN_EMPTIES: u32 = 20;
/// Index into [`MPC_LEVELS`] of the quick pass that starts every selective solve and every
/// exact solve of [`MPC_SCHEDULE_MIN_EMPTIES`] or more. Bench nodes (FFO 40-44 and random
/// 15-20 empties), exact solves through passes at these levels: 73 % alone 307.1 M;
/// 73-87 % 341.6 M; 73-95 % 405.5 M; the old rising passes (old t, width cap removed)
/// 394.7 M, with the width cap 335.3 M. Deeper, one thread (nodes): 24-27 empties
/// (`finale generate --seed 7107 --count 8 --empties 24-27 --play eval`): 73 % alone
/// 1 569 M, 73-87 % 1 714 M, 73-95 % 2 009 M, no quick pass 2 191 M; 28-29 empties
/// (seed 7128, 6 positions): 73 % alone 9 035 M, 73-87 % 9 241 M.
pub const MPC_GUESS_LEVEL: usize = 0;
/// From this many empties an exact solve runs a second quick pass, at
/// [`MPC_SECOND_GUESS_LEVEL`], after the first: its score is the exact pass's first guess.
/// With the mobility weights the 73 % score alone missed the exact one on 12 of FFO
/// 40-59 (by up to 8 discs, 46 discs in all), 87 % on 1 (by 2): every 2 discs of a guess too
/// high costs the exact pass a null-window probe that fails low, the dearest kind (FFO #51,
/// 27 empties: guess +10 for +6, x1.58 the nodes of 3388d1e and x2.49 its time). Chosen
/// on FFO 40-49 and the bench positions, one thread, nodes without -> with the 87 % pass:
/// 20 empties (5 positions) 98.7 -> 108.5 M; 22-23 (4) 41.2 -> 43.0 M; 24 (2) 159.8 ->
/// 162.3 M; 25 (2) 65.9 -> 58.9 M; 26 (#49) 117.5 -> 99.2 M. FFO 50-59 (26-34 empties)
/// 9 964.9 -> 9 539.0 M (an 87 % pass alone, without the 73 % one: 10 012.3 M).
pub const MPC_SECOND_GUESS_MIN_EMPTIES: u32 = 25;
/// Index into [`MPC_LEVELS`] of the second quick pass (see
/// [`MPC_SECOND_GUESS_MIN_EMPTIES`]).
pub const MPC_SECOND_GUESS_LEVEL: usize = 1;

/// Bonus that puts the transposition table's best move first.
pub const ORDER_TT_MOVE_BONUS: i32 = 1 << 24;
/// Bonus that puts a move wiping out the opponent first of all.
pub const ORDER_WIPEOUT_BONUS: i32 = 1 << 28;

/// Lowest number of empties at which a node shares its younger moves out to the other
/// threads (Young Brothers Wait, `search/parallel.rs`). Below it, subtrees are too small
/// to pay for the hand-over. FFO 40-44, 46 and 48 at 2 threads, 2 alternating runs,
/// nodes over one thread's and mean time: 11 -> x1.047 18.08 s; 14 -> x1.045 18.17 s;
/// 18 -> x1.042 18.48 s (bench at 2 threads: 10, 12, 14, 16, 18 all within 2 %).
pub const SPLIT_MIN_EMPTIES: u32 = 14;
/// Moves a node searches alone before sharing out the rest (Young Brothers Wait: 1, the
/// eldest). Same runs as above: 1 -> x1.045 nodes 18.17 s; 2 -> x1.114 nodes 19.48 s.
pub const SPLIT_ELDERS: usize = 1;
/// A node does not share out its younger moves while the evaluation ordering found one
/// within this many discs of alpha (it may still cut off, and the helper's work on the
/// others would be wasted); that move is searched alone first, unless the other thread has
/// nothing to do (`search/busy.rs`). The root did the same with each move's value from the
/// last pass (the root predictor below); since 2026-11-28 it does not split with two
/// threads at all (`root_should_split`). Measured at 2 threads on three positions of
/// `finale generate --seed 8303 --count 8 --empties 27-28 --play eval` (never tuned on
/// before; 1 thread: 1 121 M, 694 M, 249 M nodes). Before: 1 627 M, 700 M, 260 M nodes
/// and 84.2 s, 37 % of the first one's nodes spent on root moves searched beside one
/// that reached beta (counted per split point). With the root predictor and 4 here:
/// 1 116 M, 707 M, 256 M nodes, 62.0 s (alternating with the above in one run); with
/// the root predictor only: 1 117 M, 772 M, 258 M nodes. At 0, 4, 8 and 16 (without the
/// root predictor) the first position's nodes stayed within 1 %.
pub const SPLIT_CUT_MARGIN: i32 = 4;

/// From this many threads on, splits are decided for many cores: a node expected to be
/// an all-node (`search/node_type.rs`) shares out its younger moves after the eldest even
/// when one looks likely to cut (it searches them all anyway), and the root shares out
/// every probe's moves after the first. Below it (one or two threads) the rules are those
/// measured on 2 cores above. Work-and-span account on a tuning set never reported on
/// (`finale generate --seed 4949 --count 8 --empties 23-26 --play eval`, 1.44 G nodes),
/// P = 16, nodes of `--threads 16 --oversubscribe` against one thread (median of 3):
/// before, parallelism 7.4, x1.103 nodes, Brent's bound 4.9; all-nodes 12.2, x1.175, 6.4;
/// and the root 19.8, x1.166, 8.1 (results/parallel/2026-11-27-span/tune/). With many threads the
/// split depth and the margin are [`SPLIT_MIN_EMPTIES_MANY`] and [`SPLIT_CUT_MARGIN_MANY`].
pub const SPLIT_MANY_THREADS: usize = 3;
/// [`SPLIT_MIN_EMPTIES`] from [`SPLIT_MANY_THREADS`] on. Same tuning set and account, with
/// the all-node and root rules: 14 -> parallelism 19.8, 455 k splits, x1.166 nodes at 16
/// threads, Brent 8.1; 12 -> 30.6, 1.75 M splits, x1.171, 9.5; 10 -> 48.3, 5.95 M splits,
/// x1.174, 10.6. 10 splits every 240 nodes, where the hand-over (a task per helper) would
/// cost more than the account sees; 12 every 820.
pub const SPLIT_MIN_EMPTIES_MANY: u32 = 12;
/// [`SPLIT_CUT_MARGIN`] from [`SPLIT_MANY_THREADS`] on; negative, it withholds a split
/// only while a younger move looks that many discs above alpha. Same set, with the rules
/// above and 12 empties: 4 -> parallelism 30.6, x1.171 nodes at 16 threads, Brent 9.5;
/// 0 -> 40.0, x1.184, 10.1. Without the all-node and root rules, 0 alone: 14.6, x1.189,
/// 7.0. With [`SPLIT_ALL_AT_ONCE_MARGIN`] too (T1 one thread's 1,438.2 M nodes;
/// results/parallel/2026-11-28-cut-margin/): 0 -> 58.8, x1.164, Brent 11.1; -4 -> 86.8,
/// x1.176, 11.7. By pass, the selective ones and the exact one apart: selective -2,
/// exact 0 -> 67.0, x1.182, 11.2; -4, 0 -> 71.6, x1.162, 11.5; -8, 0 -> 77.7, x1.250,
/// 11.0; -64 (split after every eldest), 0 -> 83.7, x1.302, 10.7; -4, -2 -> 80.7,
/// x1.161, 11.8; -4, -8 -> 91.6, x1.182, 11.8. The totals of one variant's three
/// 16-thread runs differ by up to 0.035, so one margin for both is kept, -4: the span of
/// the selective passes falls by a third and the exact pass's by two fifths.
pub const SPLIT_CUT_MARGIN_MANY: i32 = -4;
/// From [`SPLIT_MANY_THREADS`] on, a node expected to be an all-node whose evaluation
/// ordering finds no move within this many discs of alpha shares out all its moves at
/// once, the table's move included, without waiting for an eldest: the eldest of an
/// all-node rarely cuts, and waiting for it doubles the span every two plies. Same
/// tuning set and account, rules above (the work of the 16-thread account changes with
/// it: each ratio is on one thread's 1.438 G nodes, `scripts/span-table.py --t1`):
/// without -> parallelism 40.0, x1.171 nodes at 16 threads, Brent's bound 10.2; 2 ->
/// 63.9, x1.199, 11.0; 4 -> 58.3, x1.164, 11.1; 6 -> 53.5, x1.152, 11.0; 10 -> 48.6,
/// x1.154, 10.8; at every expected all-node (no margin check) 93.4, x2.264, 6.6: the
/// node type alone is too often wrong. Below [`ORDER_EVAL_MIN_EMPTIES`] no move has an
/// ordering value, so nodes of 12 empties split at once on the type alone; from 13 only:
/// 53.3, x1.170, 10.9 (results/parallel/2026-11-27-span/at-once/).
pub const SPLIT_ALL_AT_ONCE_MARGIN: i32 = 4;
/// From [`SPLIT_MANY_THREADS`] on, a node of this many empties or more in a selective
/// pass runs the evaluation ordering's searches of its children all at once,
/// each from the ordering's floor up, rather than one after another, each window narrowed
/// by the best value so far (`search/ordering.rs`). Same tuning set and account, the rules
/// above (T1 1,438.2 M): in turn, span 16.73 M, parallelism 86.8, x1.176 nodes at 16
/// threads, Brent 11.7; the searches after the first shared out from 16 empties: 14.89 M,
/// 98.2, x1.203, 11.7 (from 20: 15.38 M); all at once from 16: 13.92 M, 105.2 (work
/// +0.8 %), x1.201, 11.8, and at 64 threads x1.334 -> x1.365 nodes, Brent 30.8 -> 32.3;
/// all at once from 18: span 14.29 M, from 20: 14.75 M; all at once from alpha rather
/// than the floor: 16.62 M, work +4 % (results/parallel/2026-11-28-cut-margin/tune/,
/// results/parallel/2026-11-28-ordering-lanes/).
///
/// Selective passes only: in every pass it had added 14-28 % to the reported sets' work
/// (deeper nodes, deeper ordering searches, each from the floor). On a second tuning set
/// of 27-28 empties, never reported on (`finale generate --seed 5151 --count 4
/// --empties 27-28 --play eval`), 16 threads' rules: in turn, work 2,719.0 M, span
/// 16.96 M; at once in every pass 3,239.0 M (+19.1 %), 13.50 M; in the selective passes
/// only 2,748.4 M (+1.1 %), 14.21 M. On the 23-26-empty set, selective passes only: span
/// 16.68 -> 14.62 M, work -0.6 %; `--threads 16 --oversubscribe`, three runs each, x1.131,
/// x1.150, x1.157 one thread's nodes before and x1.170, x1.143, x1.121 after (medians
/// x1.150 and x1.143), so Brent 16 there 12.0 -> 12.3. Reported afterwards: FFO 40-59 and
/// the deep set, span -21 % and -25 %, Brent 64 36.3 -> 37.9 and 38.7, Brent 16 12.6 ->
/// 12.5 and 12.7 (results/parallel/2026-11-28-ordering-selective/).
pub const ORDER_SHARED_MIN_EMPTIES: u32 = 16;

/// Nodes between two looks at the clock and the stop flag when a time limit is set or a
/// signal may stop the search: at 25-40 M nodes per second about 2-3 ms, so a limit or
/// Ctrl-C is met within a few milliseconds. Not yet measured (a clock read every 65 536
/// nodes costs nothing visible); searches without a limit or flag never look.
pub const STOP_CHECK_INTERVAL: u64 = 1 << 16;

/// Nodes between two looks of a helper at the split points above it (has a sibling cut
/// off?). Looking at every node of the endgame band walked the chain of split points at
/// each: 1.7 % of the CPU time at two threads (perf, FFO #50, 2026-11-28). A cancelled
/// helper now searches up to this many nodes more, a few microseconds.
pub const SPLIT_CHECK_INTERVAL: u64 = 256;

/// Default transposition table size in MB.
pub const DEFAULT_HASH_MB: usize = 256;
