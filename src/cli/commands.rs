//! Each subcommand: its options turned into the library's, the library's run, and the exit
//! code (0 success, 1 a wrong answer, a time limit or merge conflicts, 2 bad input or I/O
//! failure, 130/143 stopped by SIGINT/SIGTERM).

use super::args::*;
use finale::batch::{BatchOptions, Shard};
use finale::commands::{self, SolveInput, SuiteOptions, Variant, VariantKind};
use finale::results::CsvTarget;
use finale::search::{EvalRef, SearchOptions, Threads, cores};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

pub(crate) fn calibrate(args: CalibrateArgs, out: &mut impl Write) -> finale::Result<ExitCode> {
    // A directory among the labels is a proof: its root's label, read here.
    let (dirs, csvs): (Vec<PathBuf>, Vec<PathBuf>) =
        args.labels.into_iter().partition(|p| p.is_dir());
    let mut proofs = Vec::new();
    for dir in dirs {
        let label = finale::prove::proof_label(&dir)?;
        proofs.push((dir, label));
    }
    let options = commands::calibrate::CalibrateOptions {
        levels: args.levels,
        hash_mb: args.hash_mb,
        search: SearchOptions {
            eval: EvalRef(Some(load_eval(args.eval)?)),
            probcut_t: args.probcut_t,
            ..SearchOptions::default()
        },
        workers: Threads::workers(args.threads).running,
        csv: args.csv,
        interrupt: on_signals()?,
        progress: !args.no_progress,
        labels: csvs,
        proofs,
    };
    match commands::calibrate::run_calibrate(&args.files, &options, out) {
        Err(finale::Error::Calibrate(e @ finale::error::CalibrateError::Stopped { .. })) => {
            eprintln!("error: {e}");
            Ok(ExitCode::from(options.interrupt.exit_code()))
        }
        r => r.map(|_| ExitCode::SUCCESS),
    }
}

pub(crate) fn train_mpc(a: TrainMpcArgs, out: &mut impl Write) -> finale::Result<ExitCode> {
    use finale::train::mpc::{MpcOptions, SearchSampleOptions};
    let threads = Threads::workers(a.threads).running;
    let source = match a.from_search {
        None if !a.from_labels.is_empty() => commands::train_mpc::Source::Labels {
            csvs: a.from_labels,
            max_depth: a.max_depth,
            threads,
        },
        None => commands::train_mpc::Source::Random(MpcOptions {
            seed: a.seed,
            per_empties: a.per_empties,
            empties: a.empties,
            max_depth: a.max_depth,
            threads,
        }),
        Some(file) => commands::train_mpc::Source::Search(
            file,
            a.dump_nodes,
            SearchSampleOptions {
                selectivity: a.selectivity,
                rate: a.rate,
                per_empties: a.per_empties,
                empties: a.empties,
                max_depth: a.max_depth,
                threads,
            },
        ),
    };
    let eval = load_eval(a.eval)?;
    commands::train_mpc::run_train_mpc(&source, &eval, out)?;
    Ok(ExitCode::SUCCESS)
}

/// The weights of `path`, or the built-in ones (an error when those cannot be used).
pub(crate) fn load_eval(path: Option<PathBuf>) -> finale::Result<Arc<finale::eval::Evaluator>> {
    Ok(match path {
        Some(p) => Arc::new(finale::eval::Evaluator::load(&p)?),
        None => finale::eval::Evaluator::shipped_shared()
            .map_err(finale::Error::ShippedEval)?
            .clone(),
    })
}

/// What `solve` and `eval` read: a move sequence, a file, or a position in words.
pub(crate) fn solve_input(
    moves: Option<String>,
    file: Option<PathBuf>,
    position: Option<String>,
    more: Vec<String>,
) -> SolveInput {
    if let Some(seq) = moves {
        SolveInput::Moves(seq)
    } else if let Some(file) = file {
        SolveInput::File(file)
    } else {
        let first = position.unwrap_or_default();
        let words: Vec<String> = std::iter::once(first).chain(more).collect();
        SolveInput::Obf(words.join(" "))
    }
}

pub(crate) fn eval(args: EvalArgs, out: &mut impl Write) -> finale::Result<ExitCode> {
    let input = solve_input(args.moves, args.file, args.position, args.more);
    let evaluator = load_eval(args.eval)?;
    commands::evaluate::run_eval(&input, &evaluator, args.depth, args.csv.as_deref(), out)?;
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn solve(args: SolveArgs, out: &mut (impl Write + Send)) -> finale::Result<ExitCode> {
    let input = solve_input(args.moves, args.file, args.position, args.more);
    let interrupt = on_signals()?;
    let settings = commands::SolveSettings {
        mode: args.common.mode(),
        solver: args.common.solver_options(
            args.threads.resolve(cores()).running,
            args.threads.oversubscribe,
        )?,
        time_limit: args.time_limit,
        diagram: args.board,
        pass_lines: !args.quiet && (args.progress || std::io::stdout().is_terminal()),
        table_grows: args.common.hash_mb.is_none(),
        interrupt: interrupt.clone(),
    };
    let outcome = commands::run_solve(&input, &settings, out)?;
    if let Some(cause) = outcome.stopped {
        eprintln!(
            "error: solve stopped by {cause}: {} solved, the one in progress reported with its \
             last finished pass, {} not started",
            outcome.solved, outcome.skipped
        );
        return Ok(ExitCode::from(interrupt.exit_code()));
    }
    Ok(if outcome.timeouts > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The interrupt that SIGINT and SIGTERM set, for the commands that stop cleanly.
pub(crate) fn on_signals() -> finale::Result<finale::interrupt::Interrupt> {
    finale::interrupt::Interrupt::on_signals()
        .map_err(|e| finale::error::RequestError::Signals(e).into())
}

pub(crate) fn suite(args: SuiteArgs, out: &mut impl Write) -> finale::Result<ExitCode> {
    let threads = args.threads.resolve(cores()).asked;
    let oversubscribe = args.threads.oversubscribe;
    let search = args.common.search.options()?;
    // `--binary OLD` or `--engine E` alone means this binary against them.
    let others = !args.binary.is_empty() || !args.engine.is_empty();
    let this = (args.variant.is_empty() && others).then(|| Variant {
        label: "this".into(),
        kind: VariantKind::Flags(search.clone()),
        threads: None,
        oversubscribe,
        hash_mb: None,
    });
    let options = SuiteOptions {
        mode: args.common.mode(),
        hash_mb: args.common.hash_mb(),
        search,
        repeat: args.repeat.max(1),
        variants: this
            .into_iter()
            .map(Ok)
            .chain(args.variant.iter().map(|v| Variant::from_flags(v)))
            .chain(args.binary.iter().map(|b| Variant::from_binary(b)))
            .chain(args.engine.iter().map(|e| Variant::from_engine(e)))
            .collect::<finale::Result<_>>()?,
        threads,
        oversubscribe,
        progress: !args.no_progress,
        time_limit: args.time_limit,
        csv: match args.csv {
            Some(path) => CsvTarget::Path(path),
            None => CsvTarget::Default(PathBuf::from("results")),
        },
        interrupt: on_signals()?,
    };
    let summary = commands::run_suite(&args.files, &options, out)?;
    if summary.stopped.is_some() {
        eprintln!(
            "error: suite stopped by {}: {} positions finished (their rows are in the table and \
             the CSV; the summary says where it stopped)",
            options.interrupt.cause().unwrap_or("a stop request"),
            summary.positions
        );
        return Ok(ExitCode::from(options.interrupt.exit_code()));
    }
    Ok(if summary.all_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

pub(crate) fn batch(args: BatchArgs, out: &mut impl Write) -> finale::Result<ExitCode> {
    let shard = Shard::resolve(args.shard.as_deref(), args.shards, |name| {
        std::env::var(name).ok()
    })?;
    let options = BatchOptions {
        inputs: args.inputs,
        out: args.out,
        mode: args.common.mode(),
        label_depth: args.label_depth,
        hash_mb: args.common.hash_mb(),
        threads: Threads::workers(args.threads).running,
        position_threads: args.position_threads,
        time_limit: args.time_limit,
        node_limit: args.node_limit,
        shard,
        skip_bad: args.skip_bad,
        search: args.common.search.options()?,
        progress: !args.no_progress,
        fsync_every: Duration::from_secs_f64(args.fsync_every),
        save_tables: args.save_tables,
        interrupt: on_signals()?,
    };
    let summary = finale::batch::run_batch(&options, out)?;
    if let Some(cause) = summary.stopped {
        eprintln!(
            "error: batch stopped by {cause}: {} solves in progress given up and not written; \
             {} is valid, run the same command to resume",
            summary.interrupted,
            options.out.display()
        );
        return Ok(ExitCode::from(options.interrupt.exit_code()));
    }
    Ok(if summary.wrong > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

pub(crate) fn prove(args: ProveArgs, out: &mut impl Write) -> finale::Result<ExitCode> {
    let search = args.common.search.options()?;
    if args.check {
        let c =
            finale::prove::run_check(&args.dir, args.sample, args.common.hash_mb(), &search, out)?;
        return Ok(if c.answered {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        });
    }
    let spec = prove_spec(&args)?;
    let options = finale::prove::ProveOptions {
        dir: args.dir,
        spec,
        threads: Threads::workers(args.threads).running,
        hash_mb: args.common.hash_mb(),
        search,
        plan_only: args.plan_only,
        round_leaves: None,
        leaf_limit: Some(args.leaf_seconds),
        leaf_nodes: args.leaf_nodes,
        save_tables: args.save_tables,
        progress: !args.no_progress,
        interrupt: on_signals()?,
    };
    let summary = finale::prove::run_prove(&options, out)?;
    if let Some(cause) = summary.stopped {
        eprintln!(
            "error: prove stopped by {cause}: the leaves in progress were given up; {} is valid, \
             run the same command to resume",
            options.dir.display()
        );
        return Ok(ExitCode::from(options.interrupt.exit_code()));
    }
    Ok(ExitCode::SUCCESS)
}

/// What `prove` is asked to prove: `None` when no position is given (the folder's).
fn prove_spec(args: &ProveArgs) -> finale::Result<Option<finale::prove::Spec>> {
    let root = match (&args.moves, &args.position) {
        (Some(seq), _) => finale::board::parse_moves(seq)?,
        (None, Some(first)) => {
            let words: Vec<&str> = std::iter::once(first.as_str())
                .chain(args.more.iter().map(String::as_str))
                .collect();
            finale::board::parse_position(&words.join(" "), "argument")?.position
        }
        (None, None) => return Ok(None),
    };
    let window = match args.common.mode() {
        finale::search::Mode::All => {
            return Err(finale::error::RequestError::ProveAll.into());
        }
        mode => mode.window(),
    };
    let empties = root.board.empty_count();
    let frontier = args.frontier.unwrap_or_else(|| {
        empties
            .saturating_sub(finale::settings::PROVE_FRONTIER_BELOW)
            .max(18)
    });
    Ok(Some(finale::prove::Spec {
        root,
        frontier: frontier.min(empties),
        window,
    }))
}

pub(crate) fn generate(
    seed: u64,
    count: usize,
    (lo, hi): (u32, u32),
    play: PlayArg,
    eval: Option<PathBuf>,
    out: &mut impl Write,
) -> finale::Result<ExitCode> {
    let evaluator = match play {
        PlayArg::Random => None,
        PlayArg::Eval => Some(load_eval(eval)?),
    };
    let play = match &evaluator {
        None => commands::generate::Play::Random,
        Some(e) => commands::generate::Play::Eval(e),
    };
    commands::run_generate(seed, count, lo, hi, play, out)?;
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn games(a: GamesArgs) -> finale::Result<ExitCode> {
    let options = commands::GamesOptions {
        files: a.files,
        years: a.years,
        empties: a.empties,
        // More than the positions there can be is all of them.
        sample: a.sample.map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
        seed: a.seed,
        player: a.player,
        tournament: a.tournament,
        names: a.names,
        strict: a.strict,
        out: a.out,
        stop: on_signals()?,
    };
    commands::run_games(&options, &mut std::io::stderr())?;
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn train(a: TrainArgs, out: &mut impl Write) -> finale::Result<ExitCode> {
    let play_eval = match a.play {
        TrainPlayArg::Random => None,
        TrainPlayArg::Eval => Some(load_eval(a.play_eval.clone())?),
    };
    let real = if a.real.is_empty() {
        None
    } else {
        let mut files = Vec::new();
        for p in &a.real {
            files.push((
                p.display().to_string(),
                finale::board::parse::read_obf_file(p)?,
            ));
        }
        Some(finale::train::real::RealPositions::from_records(files))
    };
    let options = finale::train::TrainOptions {
        seed: a.seed,
        games: a.games,
        exact_max_empties: a.exact_max_empties,
        label_depth: a.label_depth,
        fit: finale::train::fit::FitOptions {
            epochs: a.epochs,
            l2: a.l2,
            method: match a.fit {
                FitArg::Jacobi => finale::train::fit::FitMethod::Jacobi,
                FitArg::Cg => finale::train::fit::FitMethod::ConjugateGradient,
            },
            ..Default::default()
        },
        mobility: a.mobility,
        own_phase: a.own_phase,
        play_eval: play_eval.as_deref(),
        real: real.as_ref(),
        generations: a.generations,
        threads: Threads::workers(a.threads.map(|t| t as usize)).running,
        progress: !a.no_progress,
        interrupt: on_signals()?,
    };
    match commands::train::run_train(&options, &a.out, a.data.as_deref(), out) {
        Err(finale::Error::Train(e @ finale::error::TrainError::Stopped(_))) => {
            let data = match &a.data {
                Some(p) => format!("; {} holds the rows of the phases finished", p.display()),
                None => String::new(),
            };
            eprintln!(
                "error: {e}{data}; finished generations are kept beside --out and reused by \
                 the same command"
            );
            Ok(ExitCode::from(options.interrupt.exit_code()))
        }
        r => r.map(|()| ExitCode::SUCCESS),
    }
}
