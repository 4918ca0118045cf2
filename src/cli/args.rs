//! The command line's definitions: every subcommand and option, with the value parsers
//! that give each bad value its one-line error.

use super::parse::{
    parse_depth, parse_empties, parse_eval_depth, parse_fsync_every, parse_move_sequence,
    parse_nodes, parse_seconds, parse_window, parse_years,
};
use clap::{ArgGroup, Args, Parser, Subcommand, ValueEnum};
use finale::commands::switches::{parse_hash_mb, parse_threads};
use finale::commands::{SearchSwitches, ThreadSwitches};
use finale::search::{Level, Mode, ProbcutT, SolverOptions, Window};
use finale::settings::DEFAULT_HASH_MB;
use std::path::PathBuf;
use std::time::Duration;

pub(crate) use super::train_args::{FitArg, TrainArgs, TrainPlayArg};

#[derive(Parser)]
#[command(
    name = "finale",
    version,
    about = "Exact Othello endgame solver and benchmark harness"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
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
    ///
    /// Batch solves exactly only (mode exact, wld or all): the --selectivity of solve and
    /// suite is refused here.
    Batch(BatchArgs),
    /// Measure what probable answers are worth: solve positions exactly and at each
    /// selectivity level; per level and band of empties, the share of exact scores and of
    /// best moves, the mean score error, and nodes and time against the exact solve.
    Calibrate(CalibrateArgs),
    /// Prove one deep position's exact value (or a bound, --window; wld is -1,1) by
    /// splitting it into leaves of --frontier empties, solved with windows in rounds (by
    /// this command, or by batches on any machines with --plan-only), their bounds
    /// combined up the tree; resumable. `--check` derives the bounds again from the leaf
    /// rows alone. The last line is `bounds L U`.
    Prove(ProveArgs),
    /// Join batch CSVs: a position's solves (of any mode and window) intersect their bounds,
    /// keeping the rows that prove them (an exact row settles the rest); labels once per
    /// depth; rows that contradict are reported as conflicts (exit 1).
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
    /// Of one CSV with more variants (a scan of --threads, say), each against the first:
    /// a row each with the speed-up.
    Compare {
        /// A.csv B.csv, or one CSV holding two or more variants.
        #[arg(required = true, num_args = 1..=2, value_name = "CSV")]
        files: Vec<PathBuf>,
    },
    /// Draw suite or batch CSVs into an SVG: time and node rate per position against
    /// empties, and each run's time relative to the first.
    Report {
        /// Suite or batch CSVs (each file, or each variant within one, is a run).
        #[arg(required = true, value_name = "CSV")]
        files: Vec<PathBuf>,
        /// The SVG to write (must not exist unless --force; never one of the CSVs).
        #[arg(long, value_name = "OUT.svg")]
        svg: PathBuf,
        /// Overwrite --svg if it exists.
        #[arg(long)]
        force: bool,
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
    /// Read real games and write their positions as OBF lines: WTHOR files (the database of
    /// the French Othello Federation, FFO) or lines of moves, each game replayed, its
    /// positions with the empties asked for written once, the game's theoretical score
    /// where it has the file's P3 empties.
    ///
    /// The WTHOR database is published by the French Othello Federation (FFO,
    /// https://www.ffothello.org): credit it wherever its games are used. Damaged games
    /// (an illegal move, a bad move byte, a truncated record) are skipped and counted,
    /// unless --strict; a WTHOR header that is not one is an error. The summary goes to
    /// stderr.
    Games(GamesArgs),
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
pub(crate) struct SolveArgs {
    /// An OBF line: 64 squares a1..h8 (X, O, -), the side to move, optional `MOVE:SCORE;`
    /// pairs after a `;`. One argument, or several joined with spaces.
    // Boards often start with `-`, so the first word may; the rest may not, so that flags
    // after the position still parse (a positional taking many hyphen values would
    // swallow them).
    #[arg(allow_hyphen_values = true, value_name = "POSITION")]
    pub(crate) position: Option<String>,
    /// The rest of the OBF line when given as several words.
    #[arg(requires = "position", hide = true)]
    pub(crate) more: Vec<String>,
    /// Moves from the start position, e.g. f5d6c3d3c4.
    #[arg(long, value_name = "SEQ", value_parser = parse_move_sequence)]
    pub(crate) moves: Option<String>,
    /// An OBF file: solve every position in it.
    #[arg(long, value_name = "F")]
    pub(crate) file: Option<PathBuf>,
    /// Give up on a position after SECONDS (reported as a timeout; exit code 1).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub(crate) time_limit: Option<Duration>,
    /// Print each position as a diagram before solving it (X black, O white, `.` the
    /// legal moves of the side to move).
    #[arg(long)]
    pub(crate) board: bool,
    /// Print a line per finished pass (level, score, best move, nodes, time, N/s) even
    /// when stdout is not a terminal (it is shown on a terminal without this).
    #[arg(long, conflicts_with = "quiet")]
    pub(crate) progress: bool,
    /// Print only the final report, no pass lines.
    #[arg(long)]
    pub(crate) quiet: bool,
    #[command(flatten)]
    pub(crate) threads: ThreadSwitches,
    #[command(flatten)]
    pub(crate) common: CommonArgs,
}

#[derive(Args)]
pub(crate) struct EvalArgs {
    /// An OBF line (as for solve). One argument, or several joined with spaces.
    #[arg(allow_hyphen_values = true, value_name = "POSITION")]
    pub(crate) position: Option<String>,
    /// The rest of the OBF line when given as several words.
    #[arg(requires = "position", hide = true)]
    pub(crate) more: Vec<String>,
    /// Moves from the start position, e.g. f5d6c3d3c4.
    #[arg(long, value_name = "SEQ", conflicts_with_all = ["position", "file"], value_parser = parse_move_sequence)]
    pub(crate) moves: Option<String>,
    /// An OBF file: evaluate every position in it.
    #[arg(long, value_name = "F", conflicts_with = "position")]
    pub(crate) file: Option<PathBuf>,
    /// Moves to search ahead (0: the static evaluation); each legal move's child is
    /// searched one move less.
    #[arg(long, value_name = "D", default_value_t = 0, value_parser = parse_eval_depth)]
    pub(crate) depth: u32,
    /// Also write one row per position to this CSV (replaced whole, never half-written):
    /// index, source, board, side, empties, depth, eval (discs), best_move, move_evals,
    /// nodes.
    #[arg(long, value_name = "PATH")]
    pub(crate) csv: Option<PathBuf>,
    /// Evaluation weights (default: the built-in weights/eval.bin).
    #[arg(long, value_name = "FILE")]
    pub(crate) eval: Option<PathBuf>,
}

#[derive(Args)]
pub(crate) struct SuiteArgs {
    /// OBF files.
    #[arg(required = true, value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
    /// CSV to write (overwritten); default results/<date>-<first file>.csv, never overwritten.
    #[arg(long, value_name = "PATH")]
    pub(crate) csv: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) threads: ThreadSwitches,
    /// Solve each position K times (each variant, alternating) and compare medians.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub(crate) repeat: u32,
    /// A variant to alternate with: search flags, e.g. --variant='--no-etc' (repeatable;
    /// --variant='' is the default search).
    #[arg(long, value_name = "FLAGS", allow_hyphen_values = true)]
    pub(crate) variant: Vec<String>,
    /// Another finale binary to alternate with (repeatable). This binary's own search runs
    /// too (variant `this`) unless --variant lists what this binary runs.
    #[arg(long, value_name = "PATH")]
    pub(crate) binary: Vec<PathBuf>,
    /// Another engine to alternate with, NAME:PATH with NAME zebra, edax or egaroucid and
    /// PATH its executable (repeatable). This binary's own search runs too, as with --binary.
    #[arg(long, value_name = "NAME:PATH")]
    pub(crate) engine: Vec<String>,
    /// Kill another engine (--engine) after SECONDS on a position (its row: status
    /// timeout); finale's own solves are not limited.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub(crate) time_limit: Option<Duration>,
    /// No progress bar (it is shown on stderr only when stderr is a terminal).
    #[arg(long)]
    pub(crate) no_progress: bool,
    #[command(flatten)]
    pub(crate) common: CommonArgs,
}

#[derive(Args)]
pub(crate) struct CommonArgs {
    /// What to solve for.
    #[arg(long, value_enum, default_value_t = ModeArg::Exact)]
    pub(crate) mode: ModeArg,
    /// Search the root with alpha A and beta B (-64 <= A < B <= 64): the exact score when
    /// it lies strictly between them, else a proven bound, at most A or at least B (mode
    /// `window`; `-1,1` asks what --mode wld does). Every row gives the window in `alpha`
    /// and `beta` and the proven bounds in `lower` and `upper`.
    #[arg(long, value_name = "A,B", allow_hyphen_values = true, value_parser = parse_window, conflicts_with = "mode")]
    pub(crate) window: Option<Window>,
    /// Table size in MB [default: 256; solve: doubled per empty above 30, to 4096 at most].
    #[arg(long, value_name = "N", value_parser = parse_hash_mb)]
    pub(crate) hash_mb: Option<usize>,
    #[command(flatten)]
    pub(crate) search: SearchSwitches,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum PlayArg {
    /// Uniformly random legal moves.
    Random,
    /// Moves drawn by a shallow evaluation search.
    Eval,
}

impl CommonArgs {
    /// The mode asked for: a window's, or --mode's.
    pub(crate) fn mode(&self) -> Mode {
        match self.window {
            Some(w) => Mode::Window(w),
            None => self.mode.into(),
        }
    }

    /// The table size asked for, or the default.
    pub(crate) fn hash_mb(&self) -> usize {
        self.hash_mb.unwrap_or(DEFAULT_HASH_MB)
    }

    pub(crate) fn solver_options(
        &self,
        threads: usize,
        oversubscribe: bool,
    ) -> finale::Result<SolverOptions> {
        Ok(SolverOptions {
            hash_mb: self.hash_mb(),
            threads,
            oversubscribe,
            search: self.search.options()?,
        })
    }
}

#[derive(Args)]
pub(crate) struct ProveArgs {
    /// The position, an OBF line (as for solve); may be left out when --dir holds a proof.
    #[arg(allow_hyphen_values = true, value_name = "POSITION")]
    pub(crate) position: Option<String>,
    /// The rest of the OBF line when given as several words.
    #[arg(requires = "position", hide = true)]
    pub(crate) more: Vec<String>,
    /// Moves from the start position, e.g. f5d6c3d3c4.
    #[arg(long, value_name = "SEQ", value_parser = parse_move_sequence, conflicts_with = "position")]
    pub(crate) moves: Option<String>,
    /// The work folder: what it proves, the rounds' leaves, every CSV of leaf rows.
    #[arg(long, value_name = "DIR")]
    pub(crate) dir: PathBuf,
    /// Leaves have at most F empties (default: the position's empties less 6, at least
    /// 18, at most its own).
    #[arg(long, value_name = "F")]
    pub(crate) frontier: Option<u32>,
    /// Leaves solved at once, one thread and one table each (default: all cores).
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    pub(crate) threads: Option<usize>,
    /// Plan the next round and stop: solve its leaves elsewhere (finale batch, sharded),
    /// put their CSVs in --dir, and run again.
    #[arg(long)]
    pub(crate) plan_only: bool,
    /// Derive the root's bounds again from --dir's leaf rows (the proof is not extended).
    #[arg(long, conflicts_with_all = ["position", "moves", "plan_only", "frontier"])]
    pub(crate) check: bool,
    /// A leaf solve that runs this many seconds gives up, and the proof goes one move
    /// deeper there, so that no leaf holds the proof up (a batch run elsewhere with
    /// --time-limit does the same).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds,
          default_value = finale::settings::PROVE_LEAF_SECONDS, conflicts_with = "check")]
    pub(crate) leaf_seconds: Duration,
    /// A leaf solve that searches N nodes gives up the same way: at one thread a leaf
    /// stops at the same node on any machine, so a proof's rounds repeat exactly, and a
    /// budget of 1 % of the proof's expected nodes keeps every leaf under 1 % of it
    /// (8000000000, 8e9 or 8G; a batch run elsewhere takes --node-limit).
    #[arg(long, value_name = "N", value_parser = parse_nodes, conflicts_with = "check")]
    pub(crate) leaf_nodes: Option<u64>,
    /// Save each leaf's table every SECONDS while it is solved, as `batch --save-tables`
    /// does: a killed run goes on with the leaves in progress where they were.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds,
          conflicts_with_all = ["check", "plan_only"])]
    pub(crate) save_tables: Option<Duration>,
    /// With --check: solve this many leaves again, each with its window, and check they
    /// agree with their rows.
    #[arg(long, value_name = "N", default_value_t = 0, requires = "check")]
    pub(crate) sample: usize,
    /// No progress bar.
    #[arg(long)]
    pub(crate) no_progress: bool,
    #[command(flatten)]
    pub(crate) common: CommonArgs,
}

#[derive(Args)]
pub(crate) struct TrainMpcArgs {
    /// Seed of the self-play games the positions come from.
    #[arg(long, default_value_t = 2)]
    pub(crate) seed: u64,
    /// Positions per number of empties.
    #[arg(long, default_value_t = 40)]
    pub(crate) per_empties: usize,
    /// Empty squares, A-B.
    #[arg(long, default_value = "14-22", value_parser = parse_empties)]
    pub(crate) empties: (u32, u32),
    /// Shallow depths 0..=N.
    #[arg(long, default_value_t = 6)]
    pub(crate) max_depth: u32,
    /// Evaluation weights (default: the built-in weights/eval.bin).
    #[arg(long, value_name = "PATH")]
    pub(crate) eval: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = parse_threads)]
    pub(crate) threads: Option<usize>,
    /// Take the positions from search trees instead of self-play games: the nodes
    /// where probcut is tried while solving the positions of this OBF file.
    #[arg(long, value_name = "FILE.obf")]
    pub(crate) from_search: Option<PathBuf>,
    /// With --from-search: the selectivity of the solves sampled.
    #[arg(long, value_name = "P", default_value = "95", value_parser = Level::parse, requires = "from_search")]
    pub(crate) selectivity: Level,
    /// With --from-search: record about one probcut node in N (N >= 1).
    #[arg(long, value_name = "N", default_value_t = 64, requires = "from_search",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) rate: u64,
    /// With --from-search: write the sampled nodes to this OBF file instead of labelling
    /// them here (deep nodes take minutes each: label them with a resumable `finale batch`,
    /// then fit with --from-labels).
    #[arg(long, value_name = "NODES.obf", requires = "from_search")]
    pub(crate) dump_nodes: Option<PathBuf>,
    /// Fit on the exact answers of these batch or suite CSVs (comma-separated) instead of
    /// solving: every labelled position is searched shallowly at depths 0..=--max-depth.
    #[arg(
        long,
        value_name = "CSV",
        value_delimiter = ',',
        conflicts_with = "from_search"
    )]
    pub(crate) from_labels: Vec<PathBuf>,
}

#[derive(Args)]
pub(crate) struct CalibrateArgs {
    /// OBF files of positions (use sets never tuned on, e.g. `finale generate --play eval`).
    #[arg(required = true, value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
    /// CSV of rows, one per position and level: created, or resumed (rows already in it
    /// are reused, so a stopped run goes on where it was).
    #[arg(long, value_name = "PATH")]
    pub(crate) csv: PathBuf,
    /// Selectivity levels to measure, comma-separated (the exact solve is always made).
    #[arg(long, value_name = "P,...", value_delimiter = ',', default_value = "73,87,95,98,99", value_parser = Level::parse)]
    pub(crate) levels: Vec<Level>,
    /// Positions solved at once, one thread and one table each (default: all cores).
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    pub(crate) threads: Option<usize>,
    /// Transposition table size of each thread in MB.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_HASH_MB, value_parser = parse_hash_mb)]
    pub(crate) hash_mb: usize,
    /// Evaluation weights (default: the built-in weights/eval.bin).
    #[arg(long, value_name = "PATH")]
    pub(crate) eval: Option<PathBuf>,
    /// No progress bar (it is shown on stderr only when stderr is a terminal).
    #[arg(long)]
    pub(crate) no_progress: bool,
    /// Batch or suite CSVs of exact answers (e.g. `finale batch` labels), or `finale prove`
    /// work folders (a proven root, its best moves those the rows prove): a position they
    /// solved is not solved again; a probable move other than the best move they name is
    /// checked by one exact null-window search.
    #[arg(long, value_name = "CSV", value_delimiter = ',')]
    pub(crate) labels: Vec<PathBuf>,
    /// Multi-probcut width, in standard deviations, of each measured level's pass in place
    /// of the level's own: for choosing widths (rows keep the level's name, so give each
    /// width its own --csv).
    #[arg(long, value_name = "T", value_parser = ProbcutT::parse, allow_hyphen_values = true)]
    pub(crate) probcut_t: Option<ProbcutT>,
}

/// Batch solves exactly only (its rows are keyed by position and mode, so a probable
/// answer must not stand in for an exact one): the shared `--selectivity` is hidden from
/// its help, and `run_batch` refuses any level below 100 with one line.
#[derive(Args)]
#[command(mut_arg("selectivity", |a| a.hide(true)))]
pub(crate) struct BatchArgs {
    /// OBF input files (regular files, streamed twice: to count, then to solve; positions
    /// may repeat). A line may give its own window (`...X; window -3,3;`), solved with it
    /// instead of the run's mode; one position with two windows is two rows.
    #[arg(required = true, value_name = "IN")]
    pub(crate) inputs: Vec<PathBuf>,
    /// Output CSV: created, or appended to after skipping the positions it already holds;
    /// locked while the batch runs.
    #[arg(long, value_name = "OUT.csv")]
    pub(crate) out: PathBuf,
    /// Threads in all (default: all cores): positions solved at once, one table and
    /// --position-threads threads each, never more than the positions left to solve.
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    pub(crate) threads: Option<usize>,
    /// Threads that search each position together, sharing its table: a few deep
    /// positions on every core (--threads stays the total: --threads 16
    /// --position-threads 4 solves 4 at once). Above 1, node counts vary from run to run.
    #[arg(long, value_name = "N", value_parser = parse_threads, default_value_t = 1,
          conflicts_with = "label_depth")]
    pub(crate) position_threads: usize,
    /// Give up on a position after SECONDS (status timeout).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub(crate) time_limit: Option<Duration>,
    /// Give up on a position after N nodes (status timeout, as at --time-limit): at one
    /// thread a position stops at the same node on any machine (8000000000, 8e9 or 8G).
    #[arg(long, value_name = "N", value_parser = parse_nodes)]
    pub(crate) node_limit: Option<u64>,
    /// Solve only shard I of N (by position key). Default: from SLURM_ARRAY_TASK_ID /
    /// SLURM_ARRAY_TASK_COUNT, or JOB_COMPLETION_INDEX with --shards.
    #[arg(long, value_name = "I/N")]
    pub(crate) shard: Option<String>,
    /// Number of shards, when the index comes from JOB_COMPLETION_INDEX (beside --shard
    /// I/N it must be N).
    #[arg(long, value_name = "N")]
    pub(crate) shards: Option<u64>,
    /// Record malformed input lines as error rows instead of stopping.
    #[arg(long)]
    pub(crate) skip_bad: bool,
    /// Label each position instead of solving it: the value of a search D moves deep
    /// (0-12) with the evaluation (--eval) at its leaves, in discs rounded, as rows of mode
    /// `depthD` (training labels; `finale eval --depth D` shows the same value).
    #[arg(long, value_name = "D", value_parser = parse_eval_depth, conflicts_with_all = ["time_limit", "node_limit", "mode", "window"])]
    pub(crate) label_depth: Option<u32>,
    /// No progress bar.
    #[arg(long)]
    pub(crate) no_progress: bool,
    /// Sync the output to disk at least every SECONDS (0: after every row), and at the
    /// end; a machine crash loses at most that much work.
    #[arg(long, value_name = "SECONDS", default_value_t = finale::batch::output::BATCH_FSYNC_SECONDS as f64, value_parser = parse_fsync_every)]
    pub(crate) fsync_every: f64,
    /// Save each position's table every SECONDS while it is solved (and when a signal
    /// stops it), in OUT.csv.tables/: a run stopped or killed in a deep position resumes
    /// it from there instead of from the start. Its file goes once its row is written;
    /// resume with the same --hash-mb. A resumed row counts the nodes and time saved with
    /// the table and its own.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, conflicts_with = "label_depth")]
    pub(crate) save_tables: Option<Duration>,
    #[command(flatten)]
    pub(crate) common: CommonArgs,
}

#[derive(Args)]
pub(crate) struct GamesArgs {
    /// WTHOR `.wtb` files, or text files with one game a line (`f5d6c3...`, passes not
    /// written); WTHOR.JOU and WTHOR.TRN beside a `.wtb` name its players and tournaments.
    #[arg(required = true, value_name = "FILE")]
    pub(crate) files: Vec<PathBuf>,
    /// Only WTHOR files whose games are of years A to B (or of one year).
    #[arg(long, value_name = "A-B", value_parser = parse_years)]
    pub(crate) years: Option<(u16, u16)>,
    /// Positions with A to B empty squares (default: each file's P3, the depth of its
    /// theoretical scores; lines of moves need this).
    #[arg(long, value_name = "A-B", value_parser = parse_empties)]
    pub(crate) empties: Option<(u32, u32)>,
    /// Write a uniform sample of N of the distinct positions, drawn with --seed.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) sample: Option<u64>,
    /// Seed of --sample.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Only games where either player's name holds NAME (any case).
    #[arg(long, value_name = "NAME")]
    pub(crate) player: Option<String>,
    /// Only games whose tournament's name holds NAME (any case).
    #[arg(long, value_name = "NAME")]
    pub(crate) tournament: Option<String>,
    /// The directory of WTHOR.JOU and WTHOR.TRN (default: beside each .wtb file).
    #[arg(long, value_name = "DIR")]
    pub(crate) names: Option<PathBuf>,
    /// Fail on the first damaged game (naming file, game and move) instead of skipping it.
    #[arg(long)]
    pub(crate) strict: bool,
    /// The OBF file to write (replaced whole, or left as it was on failure).
    #[arg(long, value_name = "F.obf")]
    pub(crate) out: PathBuf,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum ModeArg {
    /// Exact score and a best move (every best move with --ties).
    Exact,
    /// Win, draw or loss, and a move reaching it (every such move with --ties).
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
