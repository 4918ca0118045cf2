//! The search's thresholds as a table: one entry per constant, saying what it does and
//! linking the results/ page whose measurements chose it (the figures are there). Other
//! constants live in the module that owns them.

// Depth bands and the thread's own tables.

/// Most empties searched without the transposition table: the shallow band, `search/shallow.rs` ([results/deep/local-table/](../results/deep/local-table/README.md)).
pub const SHALLOW_MAX_EMPTIES: u32 = 5;

/// Most empties whose nodes use the thread's own tables, not the shared one; from [`SPLIT_MANY_THREADS`] threads only the small one ([results/deep/local-table/](../results/deep/local-table/README.md), [results/parallel/2026-11-28-waste/](../results/parallel/2026-11-28-waste/README.md)).
pub const LOCAL_TABLE_MAX_EMPTIES: u32 = 12;

/// Size in KB of each thread's small local table, chosen to stay in the core's L2 cache ([results/speed/](../results/speed/README.md)).
pub const LOCAL_TABLE_KB: usize = 256;

/// Most empties whose boards use the small local table; from one more up to [`LOCAL_TABLE_MAX_EMPTIES`], the large one ([results/speed/](../results/speed/README.md)).
pub const LOCAL_SMALL_MAX_EMPTIES: u32 = 9;

/// Size in KB of each thread's large local table, in L3, its buckets prefetched ([results/speed/](../results/speed/README.md)).
pub const LOCAL_LARGE_TABLE_KB: usize = 4096;

// Cutoffs and the first guess.

/// Fewest empties at which enhanced transposition cutoff probes every child first, `search/etc.rs` ([results/deep/local-table/](../results/deep/local-table/README.md)).
pub const ETC_MIN_EMPTIES: u32 = 7;

/// Lowest alpha, by empties, at which the stability cutoff is tried: 8 discs below Edax's thresholds, interpolated ([results/eval/2026-11-27-stability.md](../results/eval/2026-11-27-stability.md)).
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

/// Fewest empties at which an exact or wld solve without an evaluation starts with the narrow search, whose score and table entries guide it ([results/variants/](../results/variants/README.md)).
pub const GUESS_MIN_EMPTIES: u32 = 20;

/// Fewest empties at which the narrow search tries only the [`NARROW_MOVES`] best-ordered moves ([results/variants/](../results/variants/README.md)).
pub const NARROW_MIN_EMPTIES: u32 = 10;

/// Moves the narrow search tries at nodes of [`NARROW_MIN_EMPTIES`] or more ([results/variants/](../results/variants/README.md)).
pub const NARROW_MOVES: usize = 6;

// Move ordering.

/// Fewest empties at which the endgame band orders with potential mobility and stable edges too; below, the light ordering ([results/variants/](../results/variants/README.md)).
pub const ORDER_FULL_MIN_EMPTIES: u32 = 10;

/// Fastest-first weight of one opponent move (corners count twice), the main term ([results/variants/](../results/variants/README.md)).
pub const ORDER_MOBILITY_WEIGHT: i32 = 1 << 12;

/// Fastest-first weight of one square of opponent potential mobility ([results/variants/](../results/variants/README.md)).
pub const ORDER_POTENTIAL_WEIGHT: i32 = 1 << 8;

/// Bonus for a move into an odd region, parity ([results/variants/](../results/variants/README.md)).
pub const ORDER_PARITY_BONUS: i32 = 1 << 9;

/// Bonus per disc of ours stable along an edge after the move ([results/variants/](../results/variants/README.md)).
pub const ORDER_STABLE_EDGE_WEIGHT: i32 = 1 << 9;

/// Unit of the square values [`ORDER_SQUARE_CLASS_VALUES`] ([results/variants/](../results/variants/README.md)).
pub const ORDER_SQUARE_WEIGHT: i32 = 1 << 7;

/// Square values in units of [`ORDER_SQUARE_WEIGHT`]: corner, X square, C square, other edge; inner squares 0 ([results/variants/](../results/variants/README.md)).
pub const ORDER_SQUARE_CLASS_VALUES: [i32; 4] = [6, -6, -2, 2];

/// Below this remaining depth the evaluated search, `search/evaluated.rs`, tries moves in square order: sorting costs more than it saves. Not measured.
pub const EVALUATED_ORDER_MIN_DEPTH: u32 = 2;

/// Fewest empties at which the endgame band orders by a shallow evaluation search of each child ([results/eval/](../results/eval/README.md)).
pub const ORDER_EVAL_MIN_EMPTIES: u32 = 13;

/// Weight of one evaluation unit (1/128 disc) of a child's ordering search in its score ([results/eval/](../results/eval/README.md); 12 and 24 tried again with the shipped weights, [results/eval/2026-12-07-real-weights/](../results/eval/2026-12-07-real-weights/README.md)).
pub const ORDER_EVAL_WEIGHT: i32 = 16;

/// Discs below the node's alpha from which the ordering searches' windows start ([results/eval/](../results/eval/README.md)).
pub const ORDER_EVAL_MARGIN: i32 = 16;

/// Depth of the ordering search at `n` empties ([results/eval/2026-11-26-mobility.md](../results/eval/2026-11-26-mobility.md)).
pub const fn order_eval_depth(n: u32) -> u32 {
    let d = n.saturating_sub(ORDER_EVAL_MIN_EMPTIES) / 2;
    if d > 6 { 6 } else { d }
}

/// The ordering searches give an exact value only to moves within this many discs of the best so far ([results/eval/2026-11-27-ordering.md](../results/eval/2026-11-27-ordering.md)).
pub const ORDER_EVAL_PVS_MARGIN: i32 = 2;

/// Bonus that puts the transposition table's best move first. Not measured.
pub const ORDER_TT_MOVE_BONUS: i32 = 1 << 24;

/// Bonus that puts a move wiping out the opponent first of all. Not measured.
pub const ORDER_WIPEOUT_BONUS: i32 = 1 << 28;

// Multi-probcut.

/// Probcut levels: the percent reported and t, the standard deviations of [`mpc_error`](crate::search::mpc_error) beyond the window that cuts ([results/selectivity/](../results/selectivity/README.md)).
pub const MPC_LEVELS: [(u8, f32); 5] = [(73, 1.5), (87, 3.0), (95, 4.0), (98, 5.0), (99, 6.0)];

/// Most empties at which each level of [`MPC_LEVELS`] kept its promise held out with the shipped weights, the lower of the ranges checked on generated and on real positions; deeper answers get a `?` (generated: [results/selectivity/2026-12-07-real-weights/](../results/selectivity/2026-12-07-real-weights/README.md); real: [results/games/2026-12-07-levels-real.md](../results/games/2026-12-07-levels-real.md)).
pub const MPC_CHECKED_MAX_EMPTIES: [u32; 5] = [30, 30, 30, 30, 30];

/// Fewest empties at which a selective search tries probcut ([results/eval/](../results/eval/README.md)).
pub const MPC_MIN_EMPTIES: u32 = 8;

/// Depth of the probcut shallow search at `n` empties ([results/eval/](../results/eval/README.md)).
pub const fn mpc_depth(n: u32) -> u32 {
    let d = n.saturating_sub(MPC_MIN_EMPTIES) / 4;
    if d > 8 { 8 } else { d }
}

/// Probcut error model, mean in discs of shallow minus exact: `MPC_MEAN[0] + MPC_MEAN[1] n + MPC_MEAN[2] [d odd]`, fitted to the shipped weights on the labelled probcut nodes of [results/selectivity/deep-27-32/](../results/selectivity/deep-27-32/README.md) ([results/eval/2026-12-07-real-weights/](../results/eval/2026-12-07-real-weights/README.md)).
pub const MPC_MEAN: [f32; 3] = [1.0783, -0.1426, 1.2058];

/// Its standard deviation in discs: `MPC_SIGMA[0] + MPC_SIGMA[1] n + MPC_SIGMA[2] d`, fitted with [`MPC_MEAN`] ([results/eval/2026-12-07-real-weights/](../results/eval/2026-12-07-real-weights/README.md)).
pub const MPC_SIGMA: [f32; 3] = [7.7160, 0.0091, -0.5612];

/// Most empties of the probcut nodes [`MPC_MEAN`] was fitted on; above, the planes are held there ([results/selectivity/deep-27-32/](../results/selectivity/deep-27-32/README.md)).
pub const MPC_MODEL_MAX_EMPTIES: u32 = 28;

/// Deepest shallow search [`MPC_MEAN`] was fitted on; deeper ones take its sigma ([results/selectivity/deep-27-32/](../results/selectivity/deep-27-32/README.md)).
pub const MPC_MODEL_MAX_DEPTH: u32 = 7;

/// Fewest empties at which an exact solve first runs a quick pass at [`MPC_GUESS_LEVEL`], for its first guess and first moves. Not measured.
pub const MPC_SCHEDULE_MIN_EMPTIES: u32 = 20;

/// Index into [`MPC_LEVELS`] of the quick pass that starts every selective solve and deep exact one ([results/selectivity/](../results/selectivity/README.md)).
pub const MPC_GUESS_LEVEL: usize = 0;

/// Fewest empties at which an exact solve runs a second quick pass, at [`MPC_SECOND_GUESS_LEVEL`] ([results/eval/2026-11-27-guess.md](../results/eval/2026-11-27-guess.md)).
pub const MPC_SECOND_GUESS_MIN_EMPTIES: u32 = 25;

/// Index into [`MPC_LEVELS`] of that second quick pass ([results/eval/2026-11-27-guess.md](../results/eval/2026-11-27-guess.md)).
pub const MPC_SECOND_GUESS_LEVEL: usize = 1;

// Threads: when a node shares its moves out.

/// Fewest empties at which a node shares its younger moves out, Young Brothers Wait ([results/parallel/](../results/parallel/README.md)).
pub const SPLIT_MIN_EMPTIES: u32 = 14;

/// Moves a node searches alone before sharing out the rest ([results/parallel/](../results/parallel/README.md)).
pub const SPLIT_ELDERS: usize = 1;

/// A node does not share out its moves while one is ordered within this many discs of alpha ([results/deep/](../results/deep/README.md)).
pub const SPLIT_CUT_MARGIN: i32 = 4;

/// From this many threads on, the rules for many cores: all-nodes and the root split more ([results/parallel/2026-11-27-span/](../results/parallel/2026-11-27-span/README.md)).
pub const SPLIT_MANY_THREADS: usize = 3;

/// [`SPLIT_MIN_EMPTIES`] from [`SPLIT_MANY_THREADS`] threads on ([results/parallel/2026-11-27-span/](../results/parallel/2026-11-27-span/README.md)).
pub const SPLIT_MIN_EMPTIES_MANY: u32 = 12;

/// [`SPLIT_CUT_MARGIN`] from [`SPLIT_MANY_THREADS`] threads on; negative, a split is withheld only while a move looks that many discs above alpha ([results/parallel/2026-11-28-cut-margin/](../results/parallel/2026-11-28-cut-margin/README.md)).
pub const SPLIT_CUT_MARGIN_MANY: i32 = -4;

/// From [`SPLIT_MANY_THREADS`] threads, an expected all-node with no move this near alpha shares out all its moves at once ([results/parallel/2026-11-27-span/](../results/parallel/2026-11-27-span/README.md)).
pub const SPLIT_ALL_AT_ONCE_MARGIN: i32 = 4;

/// From [`SPLIT_MANY_THREADS`] threads, fewest empties at which a selective pass runs a node's ordering searches at once ([results/parallel/2026-11-28-ordering-selective/](../results/parallel/2026-11-28-ordering-selective/README.md)).
pub const ORDER_SHARED_MIN_EMPTIES: u32 = 16;

// Stopping and memory.

/// Nodes between two looks at the clock and the stop flag (when a limit or signal may stop the search), about 2-3 ms.
/// Not measured: a look every 65 536 nodes costs nothing visible.
pub const STOP_CHECK_INTERVAL: u64 = 1 << 16;

/// Nodes between two looks of a helper at the split points above it ([results/parallel/2026-11-28-two-threads/](../results/parallel/2026-11-28-two-threads/README.md)).
pub const SPLIT_CHECK_INTERVAL: u64 = 256;

/// Default transposition table size in MB: at 29-30 empties 1 GB and 4 GB save under 0.1 % of the nodes, and on a proof's null-window leaves under 0.01 % ([results/deep/2026-12-04-deep-defaults/](../results/deep/2026-12-04-deep-defaults/README.md)).
pub const DEFAULT_HASH_MB: usize = 256;

/// Empties above which one solve's default table doubles per empty: at 29-30 empties a table 4 times smaller costs 1.5-2.5 % more nodes, and a search grows about 3 times per empty ([results/deep/2026-12-04-deep-defaults/](../results/deep/2026-12-04-deep-defaults/README.md)); at 31 empties a 4 GB table saved 1.3 % of 256 MB's nodes, against 0.07 % at 30 ([results/deep/2026-12-06-deep31/](../results/deep/2026-12-06-deep31/README.md)).
pub const DEEP_HASH_FROM_EMPTIES: u32 = 30;

/// Most MB of a deep solve's default table (reached at 34 empties) ([results/deep/2026-12-04-deep-defaults/](../results/deep/2026-12-04-deep-defaults/README.md)).
pub const DEEP_HASH_MAX_MB: usize = 4096;

/// A deep solve's default table takes at most the machine's memory divided by this ([results/deep/2026-12-04-deep-defaults/](../results/deep/2026-12-04-deep-defaults/README.md)).
pub const DEEP_HASH_MEMORY_DIVISOR: usize = 4;

/// Index into [`MPC_LEVELS`] of the selective solve that predicts a proof's root and aims its first goals: on FFO #48, 73 % says +20 and 87 % the published +28, at 10.5 M nodes against the exact solve's 44.4 M ([results/proofs/](../results/proofs/README.md)).
pub const PROVE_ROOT_LEVEL: usize = 1;

/// Fewest frontier empties from which `prove`, solving its leaves itself, plans again after a few leaves per thread rather than after the whole round: the drawn 36-empty proof's first 12 leaves of 30 empties took 2.6 M to 3.7 G nodes, the refuted ones the most, and each refutation makes the rest of its move's leaves useless; leaves of 18 empties (about 10^5 nodes) are not worth a plan each ([results/proofs/](../results/proofs/README.md)).
pub const PROVE_SHORT_ROUNDS_FROM: u32 = 24;

/// Leaves per thread in such a short round: enough that the threads rarely wait on the round's last leaf ([results/proofs/](../results/proofs/README.md)).
pub const PROVE_ROUND_LEAVES_PER_THREAD: usize = 8;

/// Prediction searches of a proof end this many empties below the frontier (the first planner's depth 6, kept) ([results/proofs/](../results/proofs/README.md)).
pub const PROVE_PREDICT_DEPTH: u32 = 6;

/// Deepest prediction search: on FFO #45-#49 at frontier 18, 12 sent 0.77x the leaf nodes of depth 6 everywhere, 10 more on #46; root of the drawn 36 at depth 12: 87 M nodes ([results/proofs/](../results/proofs/README.md)).
pub const PROVE_PREDICT_MAX_DEPTH: u32 = 12;

/// Seconds after which a proof's leaf solve gives up and the proof plans that position's moves instead (`prove --leaf-seconds`): on the drawn 36-empty proof, leaves ran at about 6.7 M nodes a second on one thread, so 20 minutes is about 8 G nodes; 11 of its first 1 459 leaf rows passed 8 G (122 G of 823 G, the largest 20.67 G, each a refutation), and a leaf of more than 1 % of a proof holds up a cluster ([results/proofs/](../results/proofs/README.md)).
pub const PROVE_LEAF_SECONDS: &str = "1200";

/// `prove`'s default frontier, this many empties below the root (at least 18); not yet measured at depth ([results/proofs/](../results/proofs/README.md)).
pub const PROVE_FRONTIER_BELOW: u32 = 6;

/// Index into [`MPC_LEVELS`] of the probable window solve that checks a proof's leaf before it goes out: on 20 leaves of the drawn 36-empty proof (10 that failed their goal, 10 that held), 73 %, 87 % and 95 % each foretold all 20; 73 % took 70.6 M nodes for the 20 (at most 1.1 M for a failing one), 87 % 837.7 M, against about 17 G for their exact solves ([results/proofs/](../results/proofs/README.md)).
pub const PROVE_CHECK_LEVEL: usize = 0;

/// A leaf is doubted only when its check says it misses its goal by more than this many discs. FFO #48 (frontier 18, one thread), with a move passed over only while another is left: margin 0 sent 158.2 M leaf nodes, 4 sent 161.1 M, no checks 161.9 M; doubts that spread to every node above them sent 6.71 G, at either margin ([results/proofs/](../results/proofs/README.md)).
pub const PROVE_CHECK_MARGIN: i32 = 0;
