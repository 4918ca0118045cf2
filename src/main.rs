//! `finale`: the command line. Parses arguments, calls `finale::harness`, maps errors to
//! exit codes: 0 success, 1 a suite position answered wrongly, 2 bad input or I/O failure.

use clap::error::ErrorKind;
use clap::{ArgGroup, Args, CommandFactory, Parser, Subcommand, ValueEnum};
use finale::batch::{BatchOptions, Shard};
use finale::harness::switches::{parse_hash_mb, parse_threads};
use finale::harness::{
    self, CsvTarget, SearchSwitches, SolveInput, SuiteOptions, ThreadSwitches, Variant, VariantKind,
};
use finale::search::parse_selectivity;
use finale::search::{EvalRef, Mode, SearchOptions, SolverOptions};
use finale::settings::DEFAULT_HASH_MB;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "finale",
    version,
    about = "Exact Othello endgame solver and benchmark harness"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve one position (OBF line or move sequence) or every position of a file.
    Solve(SolveArgs),
    /// Solve every position of OBF files, check them against the files, write a CSV.
    Suite(SuiteArgs),
    /// Solve the fixed bench positions (fixed table); the last line,
    /// `bench: N nodes T ms X nps`, signs the search with its node count N (one thread).
    Bench {
        #[command(flatten)]
        threads: ThreadSwitches,
    },
    /// Solve many positions into one CSV: resumable, shardable, each position once.
    Batch(BatchArgs),
    /// Measure what probable answers are worth: solve positions exactly and at each
    /// selectivity level; per level and band of empties, the share of exact scores and of
    /// best moves, the mean score error, and nodes and time against the exact solve.
    Calibrate(CalibrateArgs),
    /// Join batch CSVs: each position once per mode; disagreeing rows are reported (exit 1).
    Merge {
        /// Batch CSVs.
        #[arg(required = true, value_name = "CSV")]
        inputs: Vec<PathBuf>,
        /// The merged CSV (must not exist unless --force).
        #[arg(long, value_name = "M.csv")]
        out: PathBuf,
        /// Overwrite --out if it exists.
        #[arg(long)]
        force: bool,
    },
    /// Compare two runs (suite or batch CSVs: B against A), or the two variants of one
    /// repeated suite CSV: node and time ratios per position, geometric means, a verdict.
    Compare {
        /// A.csv B.csv, or one CSV holding two variants.
        #[arg(required = true, num_args = 1..=2, value_name = "CSV")]
        files: Vec<PathBuf>,
    },
    /// Draw suite or batch CSVs into an SVG: time and node rate per position against
    /// empties, and each run's time relative to the first.
    Report {
        /// Suite or batch CSVs (each file, or each variant within one, is a run).
        #[arg(required = true, value_name = "CSV")]
        files: Vec<PathBuf>,
        /// The SVG to write.
        #[arg(long, value_name = "OUT.svg")]
        svg: PathBuf,
    },
    /// What the evaluation says of a position (OBF line or move sequence) or of every
    /// position of a file, and of each legal move, in discs: statically or after a search
    /// of --depth moves.
    Eval(EvalArgs),
    /// Print reproducible positions (random or evaluation-guided play from the start) as
    /// OBF lines.
    Generate {
        /// Seed of the random play.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Number of positions.
        #[arg(long, default_value_t = 20)]
        count: usize,
        /// Empty squares, A-B (cycled through) or a single number.
        #[arg(long, default_value = "18-24", value_parser = parse_empties)]
        empties: (u32, u32),
        /// How moves are chosen: `random` (uniform), or `eval` (games that look like real
        /// play: a few random opening moves, then moves drawn by a shallow search of the
        /// evaluation, good moves far more often than bad ones).
        #[arg(long, value_enum, default_value_t = PlayArg::Random)]
        play: PlayArg,
        /// Evaluation weights for `--play eval` (default: the built-in weights/eval.bin).
        #[arg(long, value_name = "PATH")]
        eval: Option<PathBuf>,
    },
    /// Train the pattern evaluation: self-play positions, labelled by exact solves and
    /// shallow searches, fitted phase by phase; prints the held-out error by empties.
    Train(TrainArgs),
    /// Fit the multi-probcut error model: the spread of shallow searches against exact
    /// scores by empties and depth, and the error model fitted to it (settings::mpc_error).
    TrainMpc(TrainMpcArgs),
    /// Count the leaves DEPTH plies below the start position.
    Perft {
        /// Plies, 0..=14.
        #[arg(value_parser = parse_depth)]
        depth: u32,
    },
}

#[derive(Args)]
#[command(group(ArgGroup::new("input").required(true).multiple(false).args(["position", "moves", "file"])))]
struct SolveArgs {
    /// An OBF line: 64 squares a1..h8 (X, O, -), the side to move, optional `MOVE:SCORE;`
    /// pairs after a `;`. One argument, or several joined with spaces.
    // Boards often start with `-`, so the first word may; the rest may not, so that flags
    // after the position still parse (a positional taking many hyphen values would
    // swallow them).
    #[arg(allow_hyphen_values = true, value_name = "POSITION")]
    position: Option<String>,
    /// The rest of the OBF line when given as several words.
    #[arg(requires = "position", hide = true)]
    more: Vec<String>,
    /// Moves from the start position, e.g. f5d6c3d3c4.
    #[arg(long, value_name = "SEQ")]
    moves: Option<String>,
    /// An OBF file: solve every position in it.
    #[arg(long, value_name = "F")]
    file: Option<PathBuf>,
    /// Give up on a position after SECONDS (reported as a timeout; exit code 1).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    time_limit: Option<Duration>,
    /// Print each position as a diagram before solving it (X black, O white, `.` the
    /// legal moves of the side to move).
    #[arg(long)]
    board: bool,
    /// Print a line per finished pass (level, score, best move, nodes, time, N/s) even
    /// when stdout is not a terminal (it is shown on a terminal without this).
    #[arg(long, conflicts_with = "quiet")]
    progress: bool,
    /// Print only the final report, no pass lines.
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    threads: ThreadSwitches,
    #[command(flatten)]
    common: CommonArgs,
}

#[derive(Args)]
struct EvalArgs {
    /// An OBF line (as for solve). One argument, or several joined with spaces.
    #[arg(allow_hyphen_values = true, value_name = "POSITION")]
    position: Option<String>,
    /// The rest of the OBF line when given as several words.
    #[arg(requires = "position", hide = true)]
    more: Vec<String>,
    /// Moves from the start position, e.g. f5d6c3d3c4.
    #[arg(long, value_name = "SEQ", conflicts_with_all = ["position", "file"])]
    moves: Option<String>,
    /// An OBF file: evaluate every position in it.
    #[arg(long, value_name = "F", conflicts_with = "position")]
    file: Option<PathBuf>,
    /// Moves to search ahead (0: the static evaluation); each legal move's child is
    /// searched one move less.
    #[arg(long, value_name = "D", default_value_t = 0, value_parser = parse_eval_depth)]
    depth: u32,
    /// Also write one row per position to this CSV (replaced whole, never half-written):
    /// index, source, board, side, empties, depth, eval (discs), best_move, move_evals,
    /// nodes.
    #[arg(long, value_name = "PATH")]
    csv: Option<PathBuf>,
    /// Evaluation weights (default: the built-in weights/eval.bin).
    #[arg(long, value_name = "FILE")]
    eval: Option<PathBuf>,
}

#[derive(Args)]
struct TrainArgs {
    /// Seed of the self-play games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Self-play games (each gives about one position per number of empties).
    #[arg(long, default_value_t = 100_000)]
    games: u32,
    /// Label positions with at most this many empties by an exact solve.
    #[arg(long, default_value_t = 12)]
    exact_max_empties: u32,
    /// Label the others by a search this many moves deep (at least 4).
    #[arg(long, default_value_t = 4)]
    label_depth: u32,
    /// Gradient steps per phase.
    #[arg(long, default_value_t = 200)]
    epochs: u32,
    /// L2 regularisation of the fit.
    #[arg(long, default_value_t = 8.0)]
    l2: f32,
    /// Worker threads (default: all cores; the weights do not depend on it).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    /// The weight file to write.
    #[arg(long, value_name = "PATH")]
    out: PathBuf,
    /// Replace --out if it exists.
    #[arg(long)]
    force: bool,
    /// Also write every labelled position to this CSV.
    #[arg(long, value_name = "CSV")]
    data: Option<PathBuf>,
    /// How the first generation's games are played (later generations: always by eval
    /// play with the generation before's weights).
    #[arg(long, value_enum, default_value = "random")]
    play: TrainPlayArg,
    /// Weights that play the first generation's games with `--play eval` (default: the
    /// built-in weights).
    #[arg(long, value_name = "PATH")]
    play_eval: Option<PathBuf>,
    /// How each phase's weights are fitted.
    #[arg(long, value_enum, default_value = "cg")]
    fit: FitArg,
    /// Generations: each after the first plays its games by eval play with the weights of
    /// the one before (kept as OUT.genK until the end, and reused by a rerun).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=20))]
    generations: u32,
    /// No progress bar (it is shown on stderr only when stderr is a terminal).
    #[arg(long)]
    no_progress: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum TrainPlayArg {
    /// Random openings, then fastest-first moves with a quarter of them random.
    Random,
    /// The games of `generate --play eval`: moves drawn by a shallow evaluation search.
    Eval,
}

#[derive(Clone, Copy, ValueEnum)]
enum FitArg {
    /// A fixed number (--epochs) of Jacobi-style gradient steps (the weights shipped
    /// until 2026-11-24).
    Jacobi,
    /// Conjugate gradients, at most --epochs iterations, stopped where the error on the
    /// held-out games (numbered 9 mod 10) was lowest.
    Cg,
}

#[derive(Args)]
struct SuiteArgs {
    /// OBF files.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// CSV to write (overwritten); default results/<date>-<first file>.csv, never overwritten.
    #[arg(long, value_name = "PATH")]
    csv: Option<PathBuf>,
    #[command(flatten)]
    threads: ThreadSwitches,
    /// Solve each position K times (each variant, alternating) and compare medians.
    #[arg(long, value_name = "K", default_value_t = 1)]
    repeat: u32,
    /// A variant to alternate with: search flags, e.g. --variant='--no-etc' (repeatable;
    /// --variant='' is the default search).
    #[arg(long, value_name = "FLAGS", allow_hyphen_values = true)]
    variant: Vec<String>,
    /// Another finale binary to alternate with (repeatable). This binary's own search runs
    /// too (variant `this`) unless --variant lists what this binary runs.
    #[arg(long, value_name = "PATH")]
    binary: Vec<PathBuf>,
    /// No progress bar (it is shown on stderr only when stderr is a terminal).
    #[arg(long)]
    no_progress: bool,
    #[command(flatten)]
    common: CommonArgs,
}

#[derive(Args)]
struct CommonArgs {
    /// What to solve for.
    #[arg(long, value_enum, default_value_t = ModeArg::Exact)]
    mode: ModeArg,
    /// Transposition table size in MB.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_HASH_MB, value_parser = parse_hash_mb)]
    hash_mb: usize,
    #[command(flatten)]
    search: SearchSwitches,
}

#[derive(Clone, Copy, ValueEnum)]
enum PlayArg {
    /// Uniformly random legal moves.
    Random,
    /// Moves drawn by a shallow evaluation search.
    Eval,
}

/// The thread count asked for, or every core.
fn threads_or_all(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(finale::search::cores)
}

impl CommonArgs {
    fn solver_options(&self, threads: usize, oversubscribe: bool) -> finale::Result<SolverOptions> {
        Ok(SolverOptions {
            hash_mb: self.hash_mb,
            threads,
            oversubscribe,
            search: self.search.options()?,
        })
    }
}

#[derive(Args)]
struct TrainMpcArgs {
    /// Seed of the self-play games the positions come from.
    #[arg(long, default_value_t = 2)]
    seed: u64,
    /// Positions per number of empties.
    #[arg(long, default_value_t = 40)]
    per_empties: usize,
    /// Empty squares, A-B.
    #[arg(long, default_value = "14-22", value_parser = parse_empties)]
    empties: (u32, u32),
    /// Shallow depths 0..=N.
    #[arg(long, default_value_t = 6)]
    max_depth: u32,
    /// Evaluation weights (default: the built-in weights/eval.bin).
    #[arg(long, value_name = "PATH")]
    eval: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = parse_threads)]
    threads: Option<usize>,
    /// Take the positions from search trees instead of self-play games: the nodes
    /// where probcut is tried while solving the positions of this OBF file.
    #[arg(long, value_name = "FILE.obf")]
    from_search: Option<PathBuf>,
    /// With --from-search: the selectivity of the solves sampled.
    #[arg(long, value_name = "P", default_value_t = 95, value_parser = parse_selectivity)]
    selectivity: u8,
    /// With --from-search: record about one probcut node in N.
    #[arg(long, value_name = "N", default_value_t = 64)]
    rate: u64,
}

#[derive(Args)]
struct CalibrateArgs {
    /// OBF files of positions (use sets never tuned on, e.g. `finale generate --play eval`).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// CSV of rows, one per position and level: created, or resumed (rows already in it
    /// are reused, so a stopped run goes on where it was).
    #[arg(long, value_name = "PATH")]
    csv: PathBuf,
    /// Selectivity levels to measure, comma-separated (the exact solve is always made).
    #[arg(long, value_name = "P,...", value_delimiter = ',', default_values_t = [73u8, 87, 95, 98, 99], value_parser = parse_selectivity)]
    levels: Vec<u8>,
    /// Positions solved at once, one thread and one table each (default: all cores).
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    threads: Option<usize>,
    /// Transposition table size of each thread in MB.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_HASH_MB, value_parser = parse_hash_mb)]
    hash_mb: usize,
    /// Evaluation weights (default: the built-in weights/eval.bin).
    #[arg(long, value_name = "PATH")]
    eval: Option<PathBuf>,
}

fn calibrate(args: CalibrateArgs, out: &mut impl Write) -> finale::Result<ExitCode> {
    let workers = threads_or_all(args.threads);
    let total = (workers as u64).saturating_mul(args.hash_mb as u64);
    harness::check_hash_mb(total).map_err(|e| {
        finale::Error::Invalid(format!(
            "--threads {workers} x --hash-mb {}: {e}",
            args.hash_mb
        ))
    })?;
    let options = harness::calibrate::CalibrateOptions {
        levels: args.levels,
        hash_mb: args.hash_mb,
        search: SearchOptions {
            eval: EvalRef(Some(load_eval(args.eval)?)),
            ..SearchOptions::default()
        },
        workers,
        csv: args.csv,
    };
    harness::calibrate::run_calibrate(&args.files, &options, out)?;
    Ok(ExitCode::SUCCESS)
}

#[derive(Args)]
struct BatchArgs {
    /// OBF input files (regular files, streamed twice: to count, then to solve; positions
    /// may repeat).
    #[arg(required = true, value_name = "IN")]
    inputs: Vec<PathBuf>,
    /// Output CSV: created, or appended to after skipping the positions it already holds;
    /// locked while the batch runs.
    #[arg(long, value_name = "OUT.csv")]
    out: PathBuf,
    /// Positions solved at once, one thread and one table each (default: all cores; never
    /// more than the positions left to solve).
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    threads: Option<usize>,
    /// Give up on a position after SECONDS (status timeout).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    time_limit: Option<Duration>,
    /// Solve only shard I of N (by position key). Default: from SLURM_ARRAY_TASK_ID /
    /// SLURM_ARRAY_TASK_COUNT, or JOB_COMPLETION_INDEX with --shards.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Number of shards, when the index comes from JOB_COMPLETION_INDEX.
    #[arg(long, value_name = "N")]
    shards: Option<u64>,
    /// Record malformed input lines as error rows instead of stopping.
    #[arg(long)]
    skip_bad: bool,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
    /// Sync the output to disk at least every SECONDS (0: after every row), and at the
    /// end; a machine crash loses at most that much work.
    #[arg(long, value_name = "SECONDS", default_value_t = finale::settings::BATCH_FSYNC_SECONDS as f64, value_parser = parse_fsync_every)]
    fsync_every: f64,
    #[command(flatten)]
    common: CommonArgs,
}

/// A sync interval: 0 or more seconds.
fn parse_fsync_every(s: &str) -> Result<f64, String> {
    s.parse::<f64>()
        .ok()
        .filter(|v| (0.0..1e9).contains(v))
        .ok_or_else(|| format!("expected seconds (0 or more), got '{s}'"))
}

#[derive(Clone, Copy, ValueEnum)]
enum ModeArg {
    /// Exact score and every best move.
    Exact,
    /// Win, draw or loss.
    Wld,
    /// Exact score of every move.
    All,
}

impl From<ModeArg> for Mode {
    fn from(m: ModeArg) -> Mode {
        match m {
            ModeArg::Exact => Mode::Exact,
            ModeArg::Wld => Mode::Wld,
            ModeArg::All => Mode::All,
        }
    }
}

fn parse_depth(s: &str) -> Result<u32, String> {
    let max = harness::MAX_PERFT_DEPTH;
    s.parse()
        .ok()
        .filter(|&d| d <= max)
        .ok_or_else(|| format!("depth must be 0..={max}"))
}

/// Depth of `finale eval`: an evaluated search without a table grows fast, so 0..=12.
fn parse_eval_depth(s: &str) -> Result<u32, String> {
    s.parse()
        .ok()
        .filter(|&d| d <= 12)
        .ok_or_else(|| format!("depth must be 0..=12, got '{s}'"))
}

fn parse_empties(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("expected A-B or N with numbers 0..=60, got '{s}'");
    let (a, b) = s.split_once('-').unwrap_or((s, s));
    let a: u32 = a.trim().parse().map_err(|_| bad())?;
    let b: u32 = b.trim().parse().map_err(|_| bad())?;
    if a > b || b > 60 {
        return Err(bad());
    }
    Ok((a, b))
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| format!("expected seconds, got '{s}'"))?;
    if !(v > 0.0 && v < 1e9) {
        return Err(format!(
            "{s}: the limit must be a positive number of seconds"
        ));
    }
    Ok(Duration::from_secs_f64(v))
}

fn train_mpc(a: TrainMpcArgs, out: &mut impl Write) -> finale::Result<ExitCode> {
    let TrainMpcArgs {
        seed,
        per_empties,
        empties,
        max_depth,
        eval,
        threads,
        from_search,
        selectivity,
        rate,
    } = a;
    let eval = load_eval(eval)?;
    let threads = threads_or_all(threads);
    let w = |e| finale::Error::Output(e);
    let (cells, p) = match &from_search {
        None => {
            let o = finale::train::mpc::MpcOptions {
                seed,
                per_empties,
                empties,
                max_depth,
                threads,
            };
            let r = finale::train::mpc::fit_mpc(&o, eval, &mut std::io::stderr())?;
            writeln!(out, "# finale train-mpc --seed {seed} --per-empties {per_empties} --empties {}-{} --max-depth {max_depth} (weights {:08x})", empties.0, empties.1, eval.checksum()).map_err(w)?;
            r
        }
        Some(file) => {
            let roots: Vec<finale::board::Board> = finale::board::read_obf_file(file)?
                .iter()
                .map(|r| r.position.board)
                .collect();
            let o = finale::train::mpc::SearchSampleOptions {
                selectivity,
                rate,
                per_empties,
                empties,
                max_depth,
                threads,
            };
            let r =
                finale::train::mpc::fit_mpc_on_search(&roots, &o, eval, &mut std::io::stderr())?;
            writeln!(out, "# finale train-mpc --from-search {} --selectivity {selectivity} --rate {rate} --per-empties {per_empties} --empties {}-{} --max-depth {max_depth} (weights {:08x})", file.display(), empties.0, empties.1, eval.checksum()).map_err(w)?;
            r
        }
    };
    writeln!(out, "empties,depth,positions,mean,sigma").map_err(w)?;
    for c in &cells {
        writeln!(
            out,
            "{},{},{},{:.3},{:.3}",
            c.empties, c.depth, c.count, c.mean, c.sigma
        )
        .map_err(w)?;
    }
    if let Some(m) = p {
        writeln!(
            out,
            "# at the probcut depth, empties {}-{}: mean = {:.3} (even), {:.3} (odd); sigma = {:.4} + {:.4} * empties",
            m.empties.0, m.empties.1, m.mean_by_parity[0], m.mean_by_parity[1], m.sigma[0], m.sigma[1]
        )
        .map_err(w)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The weights of `path`, or the built-in ones (an error when those cannot be used).
fn load_eval(path: Option<PathBuf>) -> finale::Result<&'static finale::eval::Evaluator> {
    Ok(match path {
        Some(p) => Box::leak(Box::new(finale::eval::Evaluator::load(&p)?)),
        None => {
            finale::eval::Evaluator::shipped().map_err(|e| finale::Error::Invalid(e.to_string()))?
        }
    })
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if let Some(flag) = unknown_solve_flag(&argv) {
        eprintln!(
            "error: unexpected argument '{flag}' found (see finale {} --help)",
            argv[1]
        );
        return ExitCode::from(2);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    // Not locked for the whole command: solve's pass lines are written from a search
    // thread while the main thread waits.
    let mut stdout = std::io::stdout();
    let outcome = match cli.command {
        Command::Solve(args) => solve(args, &mut stdout),
        Command::Eval(args) => eval(args, &mut stdout),
        Command::Suite(args) => suite(args, &mut stdout),
        Command::Bench { threads } => {
            let n = threads.requested(1);
            harness::run_bench(n, threads.oversubscribe, &mut stdout).map(|_| ExitCode::SUCCESS)
        }
        Command::Batch(args) => batch(args, &mut stdout),
        Command::Calibrate(args) => calibrate(args, &mut stdout),
        Command::Report { files, svg } => {
            harness::run_report(&files, &svg, &mut stdout).map(|()| ExitCode::SUCCESS)
        }
        Command::Compare { files } => {
            harness::run_compare(&files, &mut stdout).map(|_| ExitCode::SUCCESS)
        }
        Command::Merge { inputs, out, force } => {
            finale::batch::run_merge(&inputs, &out, force, &mut stdout).map(|m| {
                if m.conflicts > 0 {
                    ExitCode::from(1)
                } else {
                    ExitCode::SUCCESS
                }
            })
        }
        Command::Generate {
            seed,
            count,
            empties: (lo, hi),
            play,
            eval,
        } => (|| {
            let play = match play {
                PlayArg::Random => harness::generate::Play::Random,
                PlayArg::Eval => harness::generate::Play::Eval(load_eval(eval)?),
            };
            harness::run_generate(seed, count, lo, hi, play, &mut stdout)
        })()
        .map(|()| ExitCode::SUCCESS),
        Command::Train(a) => {
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
                play_eval: match a.play {
                    TrainPlayArg::Random => None,
                    TrainPlayArg::Eval => match load_eval(a.play_eval.clone()) {
                        Ok(e) => Some(e),
                        Err(e) => {
                            eprintln!("error: {e}");
                            return ExitCode::from(2);
                        }
                    },
                },
                generations: a.generations,
                threads: a.threads.map_or_else(finale::search::cores, |t| t as usize),
                progress: !a.no_progress,
            };
            harness::train::run_train(&options, &a.out, a.force, a.data.as_deref(), &mut stdout)
                .map(|()| ExitCode::SUCCESS)
        }
        Command::TrainMpc(args) => train_mpc(args, &mut stdout),
        Command::Perft { depth } => {
            harness::run_perft(depth, &mut stdout).map(|_| ExitCode::SUCCESS)
        }
    };
    match outcome {
        Ok(code) => code,
        Err(finale::Error::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            // The reader (e.g. `head`) has what it wanted: stop quietly, as if by SIGPIPE.
            ExitCode::from(141)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Help and version go to stdout as usual; every other clap error becomes one line
/// (message plus its indented details, without the usage block) and exit code 2.
fn usage_error(e: clap::Error) -> ExitCode {
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
        || e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    {
        let _ = e.print();
        return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
    }
    let text = e.render().to_string();
    let parts: Vec<&str> = text
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let line = parts.join(" ");
    eprintln!(
        "{}",
        if line.starts_with("error:") {
            line
        } else {
            format!("error: {line}")
        }
    );
    ExitCode::from(2)
}

/// What `solve` and `eval` read: a move sequence, a file, or a position in words.
fn solve_input(
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

fn eval(args: EvalArgs, out: &mut impl Write) -> finale::Result<ExitCode> {
    let input = solve_input(args.moves, args.file, args.position, args.more);
    let evaluator = load_eval(args.eval)?;
    harness::evaluate::run_eval(&input, evaluator, args.depth, args.csv.as_deref(), out)?;
    Ok(ExitCode::SUCCESS)
}

fn solve(args: SolveArgs, out: &mut (impl Write + Send)) -> finale::Result<ExitCode> {
    let input = solve_input(args.moves, args.file, args.position, args.more);
    let interrupt = on_signals()?;
    let settings = harness::SolveSettings {
        mode: args.common.mode.into(),
        solver: args.common.solver_options(
            args.threads.requested(finale::search::cores()),
            args.threads.oversubscribe,
        )?,
        time_limit: args.time_limit,
        diagram: args.board,
        pass_lines: !args.quiet && (args.progress || std::io::stdout().is_terminal()),
        interrupt: interrupt.clone(),
    };
    let outcome = harness::run_solve(&input, &settings, out)?;
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
fn on_signals() -> finale::Result<finale::interrupt::Interrupt> {
    finale::interrupt::Interrupt::on_signals().map_err(|e| {
        finale::Error::Invalid(format!("cannot install the SIGINT/SIGTERM handlers ({e})"))
    })
}

/// The first word of a position may start with `-` (clap is told so), which would make an
/// unknown flag given before the position read as the position. Finds such a flag: a word
/// that looks like one and is not an option of `solve`.
fn unknown_solve_flag(argv: &[String]) -> Option<String> {
    let sub = argv.get(1).map(String::as_str)?;
    if !matches!(sub, "solve" | "eval") {
        return None;
    }
    let mut cmd = Cli::command();
    cmd.build(); // fills in --help and the number of values of each option
    let solve = cmd.find_subcommand(sub)?;
    let option = |word: &str| {
        let (name, has_value) = match word.split_once('=') {
            Some((n, _)) => (n, true),
            None => (word, false),
        };
        solve.get_arguments().find_map(|a| {
            let long = a
                .get_long()
                .is_some_and(|l| name.strip_prefix("--") == Some(l));
            let short = a
                .get_short()
                .is_some_and(|c| name.len() == 2 && name.strip_prefix('-') == Some(&c.to_string()));
            let takes_value = a.get_num_args().is_some_and(|n| n.takes_values());
            (long || short).then_some(takes_value && !has_value)
        })
    };
    let mut words = argv[2..].iter();
    while let Some(word) = words.next() {
        if word == "--" {
            break;
        }
        match option(word) {
            Some(true) => {
                words.next(); // the option's value, whatever it looks like
            }
            Some(false) => {}
            None if looks_like_flag(word) => return Some(word.clone()),
            None => {}
        }
    }
    None
}

/// `--name`, `-n` or `--name=value` whose name has a letter that cannot occur in a board
/// (boards use `X`, `O`, `-`, `.`, `*`).
fn looks_like_flag(word: &str) -> bool {
    let name = word.trim_start_matches('-');
    let name = name.split_once('=').map_or(name, |(n, _)| n);
    word.starts_with('-')
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        && name.contains(|c: char| !"XxOo-.*".contains(c))
}

fn suite(args: SuiteArgs, out: &mut impl Write) -> finale::Result<ExitCode> {
    let threads = args.threads.requested(finale::search::cores());
    let oversubscribe = args.threads.oversubscribe;
    let search = args.common.solver_options(threads, oversubscribe)?.search;
    // `--binary OLD` alone means this binary against OLD.
    let this = (args.variant.is_empty() && !args.binary.is_empty()).then(|| Variant {
        label: "this".into(),
        kind: VariantKind::Flags(search),
        threads: None,
        oversubscribe,
        hash_mb: None,
    });
    let options = SuiteOptions {
        mode: args.common.mode.into(),
        hash_mb: args.common.hash_mb,
        search,
        repeat: args.repeat.max(1),
        variants: this
            .into_iter()
            .map(Ok)
            .chain(args.variant.iter().map(|v| Variant::from_flags(v)))
            .chain(args.binary.iter().map(|b| Variant::from_binary(b)))
            .collect::<finale::Result<_>>()?,
        threads,
        oversubscribe,
        progress: !args.no_progress,
        csv: match args.csv {
            Some(path) => CsvTarget::Path(path),
            None => CsvTarget::Default(PathBuf::from("results")),
        },
        interrupt: on_signals()?,
    };
    let summary = harness::run_suite(&args.files, &options, out)?;
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

fn batch(args: BatchArgs, out: &mut impl Write) -> finale::Result<ExitCode> {
    if args.common.search.selectivity != 100 {
        // Rows are keyed by position and mode: a probable answer must not merge with or
        // stand in for an exact one.
        return Err(finale::Error::Invalid(format!(
            "--selectivity {}: batch solves exactly only (use solve or suite for probable solves)",
            args.common.search.selectivity
        )));
    }
    let shard = Shard::resolve(args.shard.as_deref(), args.shards, |name| {
        std::env::var(name).ok()
    })?;
    let threads = threads_or_all(args.threads);
    let solver = args.common.solver_options(1, false)?;
    let options = BatchOptions {
        inputs: args.inputs,
        out: args.out,
        mode: args.common.mode.into(),
        hash_mb: solver.hash_mb,
        threads,
        time_limit: args.time_limit,
        shard,
        skip_bad: args.skip_bad,
        search: solver.search,
        progress: !args.no_progress,
        fsync_every: Duration::from_secs_f64(args.fsync_every),
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
