//! `finale prove`: rounds of planning and solving until the root's bounds answer the
//! window asked. Each round's leaves go out as a batch file; this command solves them
//! itself (`threads` leaves at once), or leaves them to other machines (`plan_only`),
//! whose CSVs, put in the folder, the next run reads. Every round resumes: the rows
//! written stay, a killed run loses the leaves in progress only (and with saved tables,
//! only their work since the last save).

use super::doubt::Checker;
use super::folder::{Folder, Prediction, Spec};
use super::known::Known;
use super::plan::{Guides, plan};
use super::predict::Predictor;
use crate::batch::{BatchOptions, Shard, run_batch};
use crate::error::{Error, ProveError, Result};
use crate::interrupt::Interrupt;
use crate::search::{Level, Mode, SearchOptions, Solver, SolverOptions, Window};
use crate::settings::{PROVE_ROOT_LEVEL, PROVE_ROUND_LEAVES_PER_THREAD, PROVE_SHORT_ROUNDS_FROM};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How to run a proof.
#[derive(Clone)]
pub struct ProveOptions {
    /// The work folder.
    pub dir: PathBuf,
    /// The position, the frontier and the window; `None` to take the folder's.
    pub spec: Option<Spec>,
    /// Leaves solved at once (one thread each).
    pub threads: usize,
    /// Table size per leaf solve, in MB.
    pub hash_mb: usize,
    /// The leaves' search switches; its evaluation predicts the values.
    pub search: SearchOptions,
    /// Plan the next round and stop: its leaves are solved elsewhere.
    pub plan_only: bool,
    /// The most leaves a round this command solves itself sends; `None` for the rule by
    /// the frontier ([`PROVE_SHORT_ROUNDS_FROM`]).
    pub round_leaves: Option<usize>,
    /// A leaf solve that runs this long gives up (a timeout row), and the proof plans
    /// that position's moves instead; `None`: no limit.
    pub leaf_limit: Option<Duration>,
    /// A leaf solve that searches this many nodes gives up the same way; `None`: no
    /// limit.
    pub leaf_nodes: Option<u64>,
    /// Save each leaf's table this often while it is solved, so that a killed run goes
    /// on with the leaves in progress where they were (`batch --save-tables`; the files
    /// are in the folder's `round-NNN.csv.tables/` while their leaves run); `None`: never.
    pub save_tables: Option<Duration>,
    /// A progress bar for each round's batch.
    pub progress: bool,
    /// Stops the run between or inside rounds (SIGINT, SIGTERM).
    pub interrupt: Interrupt,
}

/// What a run of `prove` did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ProveSummary {
    /// The root's proven bounds.
    pub bounds: (i32, i32),
    /// True when they answer the window asked.
    pub answered: bool,
    /// The round last planned.
    pub rounds: usize,
    /// Leaf rows read.
    pub rows: u64,
    /// Nodes of the leaf rows, all rounds.
    pub leaf_nodes: u64,
    /// The most nodes of one leaf row.
    pub largest_leaf: u64,
    /// Nodes of this run's predictions.
    pub predict_nodes: u64,
    /// Nodes of the leaves' probable checks, all runs.
    pub check_nodes: u64,
    /// What stopped the run, if something did.
    pub stopped: Option<&'static str>,
}

/// The full window: a proof of the exact value.
pub const EXACT: Window = Window::FULL;

/// Runs the proof, printing a line per round to `out` and, last, `bounds L U`.
pub fn run_prove(o: &ProveOptions, out: &mut impl Write) -> Result<ProveSummary> {
    let (folder, spec) = Folder::open(&o.dir, o.spec)?;
    if spec.frontier == 0 || spec.frontier > 60 {
        return Err(ProveError::Frontier(spec.frontier).into());
    }
    let eval = o.search.eval.0.clone().ok_or(ProveError::NoEvaluation)?;
    let mut predictor = Predictor::new(&eval, spec.frontier);
    let mut summary = unproven();
    let Some(guess) = root_prediction(o, &folder, &spec)? else {
        summary.stopped = o.interrupt.cause();
        return finish(summary, out);
    };
    predictor.set_score(&spec.root, guess.score);
    let mut checker = checker_for(o, &folder)?;
    let mut rows_before_batch = None;
    loop {
        let known = Known::read(&folder.csvs()?)?;
        let p = plan(
            &spec.root,
            spec.window,
            &known,
            spec.frontier,
            &mut Guides {
                predictor: &mut predictor,
                checker: &mut checker,
            },
            &o.interrupt,
        );
        checker.take_error()?;
        if let Some(cause) = o.interrupt.cause() {
            summary.stopped = Some(cause);
            return finish(summary, out);
        }
        folder.write_tree(&p.tree)?;
        summary.bounds = p.bounds;
        summary.answered = spec.window.answered_by(p.bounds.0, p.bounds.1);
        (summary.rows, summary.leaf_nodes) = (known.rows, known.nodes);
        summary.largest_leaf = known.largest;
        (summary.predict_nodes, summary.check_nodes) =
            (predictor.nodes + guess.nodes, checker.nodes);
        if p.leaves.is_empty() {
            return finish(summary, out);
        }
        let sent = &p.leaves[..round_size(o, &spec).min(p.leaves.len())];
        let (round, fresh) = folder.round_for(sent)?;
        summary.rounds = round;
        let (obf, csv) = folder.round_paths(round);
        if rows_before_batch == Some(known.rows) {
            return Err(ProveError::NoProgress {
                path: obf,
                open: p.leaves.len(),
            }
            .into());
        }
        let s = &summary;
        writeln!(
            out,
            "round {round}{}  leaves {} open, {} in this round  rows {}  nodes {}  bounds {} {}",
            if fresh { "" } else { " (resumed)" },
            p.leaves.len(),
            sent.len(),
            s.rows,
            s.leaf_nodes + s.predict_nodes + s.check_nodes,
            s.bounds.0,
            s.bounds.1
        )
        .map_err(Error::Output)?;
        if o.plan_only {
            return leaves_elsewhere(&obf, o, summary, out);
        }
        rows_before_batch = Some(known.rows);
        let batch = run_batch(&leaf_batch(o, obf, csv), &mut std::io::sink())?;
        if let Some(cause) = batch.stopped {
            summary.stopped = Some(cause);
            return finish(summary, out);
        }
    }
}

/// The leaves' checks, kept in the folder, solved with `o`'s tables and threads.
fn checker_for(o: &ProveOptions, folder: &Folder) -> Result<Checker> {
    let options = SolverOptions {
        hash_mb: o.hash_mb,
        search: o.search.clone(),
        threads: o.threads.max(1),
        oversubscribe: false,
    };
    Checker::open(&folder.checks_path(), options, o.interrupt.flag())
}

/// A summary of nothing proven yet.
fn unproven() -> ProveSummary {
    ProveSummary {
        bounds: (-64, 64),
        ..ProveSummary::default()
    }
}

/// The most leaves one round sends. A round this command solves itself, of deep leaves,
/// is cut short (a few leaves per thread): the next plan drops the leaves a refuted move
/// no longer needs, and deep leaves are worth a plan each. Leaves for other machines
/// (`plan_only`), or shallow ones, all go out at once.
fn round_size(o: &ProveOptions, spec: &Spec) -> usize {
    match o.round_leaves {
        _ if o.plan_only => usize::MAX,
        Some(n) => n.max(1),
        None if spec.frontier < PROVE_SHORT_ROUNDS_FROM => usize::MAX,
        None => o.threads.max(1) * PROVE_ROUND_LEAVES_PER_THREAD,
    }
}

/// The root's prediction: the folder's, or a selective solve's (recorded there), which
/// aims the first goals. `None` when a signal stopped the solve.
fn root_prediction(o: &ProveOptions, folder: &Folder, spec: &Spec) -> Result<Option<Prediction>> {
    if let Some(p) = folder.read_prediction()? {
        return Ok(Some(p));
    }
    let level = Level::probcut(PROVE_ROOT_LEVEL);
    let mut solver = Solver::new(SolverOptions {
        hash_mb: o.hash_mb,
        search: SearchOptions {
            selectivity: level,
            ..o.search.clone()
        },
        threads: o.threads.max(1),
        oversubscribe: false,
    });
    solver.set_abort(o.interrupt.flag());
    let Ok(r) = solver.solve_within(spec.root.board, Mode::Exact, None) else {
        return Ok(None);
    };
    let p = Prediction {
        score: r.score,
        percent: level.percent(),
        nodes: r.nodes,
    };
    folder.write_prediction(p)?;
    Ok(Some(p))
}

/// The batch that solves a round's leaves: each line gives its window.
fn leaf_batch(o: &ProveOptions, obf: PathBuf, csv: PathBuf) -> BatchOptions {
    BatchOptions {
        inputs: vec![obf],
        out: csv,
        mode: Mode::Exact,
        label_depth: None,
        hash_mb: o.hash_mb,
        threads: o.threads,
        position_threads: 1,
        time_limit: o.leaf_limit,
        node_limit: o.leaf_nodes,
        shard: Shard::ALL,
        skip_bad: false,
        search: o.search.clone(),
        progress: o.progress,
        fsync_every: Duration::from_secs(crate::batch::output::BATCH_FSYNC_SECONDS),
        save_tables: o.save_tables,
        interrupt: o.interrupt.clone(),
    }
}

/// The closing lines of a plan-only run: where the leaves are and what to do with them.
fn leaves_elsewhere(
    obf: &Path,
    o: &ProveOptions,
    summary: ProveSummary,
    out: &mut impl Write,
) -> Result<ProveSummary> {
    writeln!(
        out,
        "leaves in {}: solve them (finale batch, any machines), put the CSVs in {}, run again",
        obf.display(),
        o.dir.display()
    )
    .map_err(Error::Output)?;
    finish(summary, out)
}

/// The closing lines: the nodes, and last `bounds L U`.
fn finish(summary: ProveSummary, out: &mut impl Write) -> Result<ProveSummary> {
    let s = &summary;
    writeln!(
        out,
        "leaf rows {}  leaf nodes {}  largest leaf {}  prediction nodes {}  check nodes {}  {}",
        s.rows,
        s.leaf_nodes,
        s.largest_leaf,
        s.predict_nodes,
        s.check_nodes,
        if s.answered {
            "proven"
        } else {
            "not yet proven"
        }
    )
    .and_then(|()| writeln!(out, "bounds {} {}", s.bounds.0, s.bounds.1))
    .map_err(Error::Output)?;
    Ok(summary)
}
