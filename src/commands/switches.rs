//! The search switches and thread options as one clap parser: the CLI flattens them into
//! solve, suite and batch, and suite variants (`--variant='--ordering fastest-first'`) are
//! parsed by the same definitions, so the two never differ.

use crate::board::kernels::Isa;
use crate::error::{Error, Result, SuiteError};
use crate::eval::Evaluator;
use crate::search::{EvalRef, Level, ProbcutT, SearchOptions, Threads};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// Switches that change how a position is searched (never its answer, except
/// `--selectivity`).
#[derive(Args, Clone, Debug, Default)]
pub struct SearchSwitches {
    /// Turn off enhanced transposition cutoff.
    #[arg(long)]
    pub no_etc: bool,
    /// Turn off the stability cutoff.
    #[arg(long)]
    pub no_stability: bool,
    /// Turn off the transposition table (and with it ETC).
    #[arg(long)]
    pub no_tt: bool,
    /// Turn off the narrow first-guess search before exact solves of 20+ empties.
    #[arg(long)]
    pub no_first_guess: bool,
    /// Turn off the second quick pass (87 %) before exact solves of 25+ empties; the
    /// first (73 %) still runs.
    #[arg(long)]
    pub no_second_guess: bool,
    /// Find every best move (ties), not only one: each other move is proven to reach the
    /// score or to fall short, which can cost far more than the score (FFO #59).
    #[arg(long)]
    pub ties: bool,
    /// Move ordering of deep nodes.
    #[arg(long, value_enum, default_value_t = Ordering::Eval)]
    pub ordering: Ordering,
    /// Selectivity in percent: 100 solves exactly; 73, 87, 95, 98 or 99 stops after that
    /// multi-probcut level and reports a probable score such as +28@95%.
    #[arg(long, value_name = "P", default_value = "100", value_parser = Level::parse)]
    pub selectivity: Level,
    /// Evaluation weights to order with (default: the built-in weights/eval.bin).
    #[arg(long, value_name = "PATH")]
    pub eval: Option<PathBuf>,
    /// Move generation kernels: portable, avx2 or avx512 (default: the fastest this CPU
    /// has, or the FINALE_KERNELS environment variable). Changes only the time.
    #[arg(long, value_name = "SET", value_parser = parse_kernels)]
    pub kernels: Option<Isa>,
    /// Multi-probcut width of the --selectivity pass in standard deviations, in place of
    /// the level's own (for measuring widths; the answer keeps the level's name).
    #[arg(long, value_name = "T", value_parser = ProbcutT::parse, allow_hyphen_values = true)]
    pub probcut_t: Option<ProbcutT>,
}

/// A kernel set this CPU has, by name.
fn parse_kernels(s: &str) -> std::result::Result<Isa, String> {
    let isa = Isa::ALL
        .into_iter()
        .find(|i| i.name() == s)
        .ok_or_else(|| format!("not a kernel set: {s:?} (portable, avx2 or avx512)"))?;
    if !isa.supported() {
        return Err(format!(
            "this CPU lacks the features of kernel set {isa} (it has: {})",
            Isa::detect()
        ));
    }
    Ok(isa)
}

/// Move ordering of deep nodes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Ordering {
    /// Fastest-first plus a shallow search with the pattern evaluation at deep nodes.
    #[default]
    Eval,
    /// Fewest opponent moves first, with potential mobility, stable edges, parity.
    FastestFirst,
}

impl SearchSwitches {
    /// The evaluation asked for: none for fastest-first, else `--eval` (loaded, and shared
    /// by every solver that uses it) or the built-in weights (with a note when those cannot be
    /// used).
    pub fn eval(&self) -> Result<EvalRef> {
        if self.ordering == Ordering::FastestFirst {
            return Ok(EvalRef(None));
        }
        if let Some(path) = &self.eval {
            let e = Evaluator::load(path)?;
            return Ok(EvalRef(Some(std::sync::Arc::new(e))));
        }
        match Evaluator::shipped_shared() {
            Ok(e) => Ok(EvalRef(Some(e.clone()))),
            Err(e) => {
                eprintln!("note: {e}; ordering by fastest-first only");
                Ok(EvalRef(None))
            }
        }
    }

    /// The search options these switches ask for.
    pub fn options(&self) -> Result<SearchOptions> {
        Ok(SearchOptions {
            etc: !self.no_etc,
            stability: !self.no_stability,
            tt: !self.no_tt,
            first_guess: !self.no_first_guess,
            second_guess: !self.no_second_guess,
            eval: self.eval()?,
            selectivity: self.selectivity,
            ties: self.ties,
            kernels: self.kernels.unwrap_or_else(Isa::chosen),
            probcut_t: self.probcut_t,
        })
    }
}

/// How many threads search one position.
#[derive(Args, Clone, Debug, Default)]
pub struct ThreadSwitches {
    /// Search threads per position (default: all cores; bench: 1). One thread repeats
    /// node counts exactly; more never change scores or best moves.
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    pub threads: Option<usize>,
    /// Run all --threads even when they outnumber the cores (slower; for measurements).
    #[arg(long)]
    pub oversubscribe: bool,
}

impl ThreadSwitches {
    /// The threads of one solve: `--threads`, or `default` when not given (see
    /// [`Threads::resolve`]), after a note on stderr if fewer will search because the
    /// machine has fewer cores.
    pub fn resolve(&self, default: usize) -> Threads {
        let t = Threads::resolve(self.threads, default, self.oversubscribe);
        if t.capped() {
            let (asked, running) = (t.asked, t.running);
            eprintln!(
                "note: --threads {asked}: finale may use {running} cores here, so {running} threads \
                 search (more would only add speculative work; --oversubscribe runs all {asked})"
            );
        }
        t
    }
}

/// A thread count of at least 1.
pub fn parse_threads(s: &str) -> std::result::Result<usize, String> {
    s.parse()
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| "expected a thread count of at least 1".to_string())
}

/// A table size in MB that this machine can hold.
pub fn parse_hash_mb(s: &str) -> std::result::Result<usize, String> {
    let mb: u64 = s.parse().map_err(|_| "expected a size in MB".to_string())?;
    crate::results::check_hash_mb(mb)
}

/// What a suite variant may set: the search switches, threads and table size.
#[derive(clap::Parser, Debug)]
#[command(name = "--variant", no_binary_name = true, disable_help_flag = true)]
pub(crate) struct VariantSwitches {
    #[command(flatten)]
    pub(crate) search: SearchSwitches,
    #[command(flatten)]
    pub(crate) threads: ThreadSwitches,
    /// Transposition table size in MB (default: the suite's).
    #[arg(long, value_name = "N", value_parser = parse_hash_mb)]
    pub(crate) hash_mb: Option<usize>,
}

/// The `--eval` weights a suite variant's flags `text` name, if they parse and name one
/// (for the files guard; a variant that does not parse is refused later, in its words).
pub fn variant_eval(text: &str) -> Option<PathBuf> {
    VariantSwitches::parse(text).ok()?.search.eval
}

impl VariantSwitches {
    /// Parses the words of `text` (split at white space) as the CLI parses them.
    pub(crate) fn parse(text: &str) -> Result<VariantSwitches> {
        use clap::Parser;
        VariantSwitches::try_parse_from(text.split_whitespace()).map_err(|e| {
            let rendered = e.render().to_string();
            let first = rendered
                .lines()
                .next()
                .unwrap_or("invalid")
                .trim_start_matches("error: ")
                .to_string();
            Error::from(SuiteError::Variant {
                text: text.to_string(),
                why: first,
            })
        })
    }
}
