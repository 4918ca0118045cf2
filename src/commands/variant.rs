//! Variants for side-by-side timing: flag sets run in this process, or other finale
//! binaries and other engines run on one position at a time through their adapters
//! (`crate::engines`, which run every child process). `finale suite --repeat K` alternates
//! them on every position so that a slow spell of a shared machine hits all of them alike.

use crate::board::ObfRecord;
use crate::engines::{Engine, EngineRun, EngineSettings, Finale, FinaleRun};
use crate::error::{Error, Result, SuiteError};
use crate::interrupt::Interrupt;
use crate::search::{
    Level, Mode, PassReport, PvMove, SearchOptions, SolveResult, Solver, SolverOptions, Threads,
    TimedOut,
};
use std::path::Path;
use std::time::Duration;

/// What a variant is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantKind {
    /// This binary with these search switches.
    Flags(SearchOptions),
    /// Another finale binary (its `suite` command is run per position through its
    /// adapter).
    Binary(Finale),
    /// Another engine (Zebra, Edax, Egaroucid), run per position through its adapter.
    Engine(Engine),
}

/// A labelled variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// Name in tables and the CSV `variant` column.
    pub label: String,
    /// How it solves.
    pub kind: VariantKind,
    /// Search threads, when the variant sets them (otherwise the run's).
    pub threads: Option<usize>,
    /// Run every thread even beyond the cores (see [`SolverOptions::oversubscribe`]).
    pub oversubscribe: bool,
    /// Table size in MB, when the variant sets it (otherwise the run's).
    pub hash_mb: Option<usize>,
}

impl Variant {
    /// Its threads: its own `--threads`, or the suite's `suite` asked for, resolved with
    /// its own `--oversubscribe` ([`Threads::resolve`]).
    pub fn threads(&self, suite: usize) -> Threads {
        Threads::resolve(self.threads, suite, self.oversubscribe)
    }

    /// A flag set such as `"--no-etc --no-stability"`, `"--ordering fastest-first"` or
    /// `"--threads=1 --hash-mb 64"`, parsed by the CLI's own definitions
    /// ([`SearchSwitches`](super::switches::SearchSwitches) plus `--threads`,
    /// `--oversubscribe` and `--hash-mb`); `""` is the default search.
    pub fn from_flags(text: &str) -> Result<Variant> {
        let v = super::switches::VariantSwitches::parse(text)?;
        let search = v.search.options().map_err(|e| SuiteError::Variant {
            text: text.to_string(),
            why: e.to_string(),
        })?;
        let label = text.split_whitespace().collect::<Vec<_>>().join(" ");
        Ok(Variant {
            label: if label.is_empty() {
                "default".into()
            } else {
                label
            },
            kind: VariantKind::Flags(search),
            threads: v.threads.threads,
            oversubscribe: v.threads.oversubscribe,
            hash_mb: v.hash_mb,
        })
    }

    /// Another finale binary, labelled with its path as given. It is checked and run once
    /// here with `--version` ([`Finale::from_path`]), so that a path that is not a finale
    /// is refused before any position is solved. A bare name is the file in the current
    /// directory, as given, never one found on `PATH`.
    pub fn from_binary(path: &Path) -> Result<Variant> {
        let finale = Finale::from_path(path)?;
        Ok(Variant {
            label: path.display().to_string(),
            kind: VariantKind::Binary(finale),
            threads: None,
            oversubscribe: false,
            hash_mb: None,
        })
    }
}

impl Variant {
    /// Another engine, `NAME:PATH` as `--engine` takes it (see [`Engine::from_spec`]),
    /// labelled with its name.
    pub fn from_engine(spec: &str) -> Result<Variant> {
        let engine = Engine::from_spec(spec)?;
        Ok(Variant {
            label: engine.kind.name().to_string(),
            kind: VariantKind::Engine(engine),
            threads: None,
            oversubscribe: false,
            hash_mb: None,
        })
    }
}

/// A variant ready to solve.
pub(crate) enum Runner {
    Solver(Box<Solver>),
    Binary {
        finale: Finale,
        /// Where the position and the other binary's CSV go (removed when dropped).
        dir: tempfile::TempDir,
        threads: usize,
    },
    Engine {
        engine: Engine,
        /// Where the position and the engine's output go (removed when dropped).
        dir: tempfile::TempDir,
        settings: EngineSettings,
        limit: Option<Duration>,
    },
}

impl Runner {
    /// A runner of `v` with `threads` (this binary's flags run what runs; another binary
    /// or engine is given what was asked, and does its own capping); another engine is
    /// killed past `limit` (another finale binary is not limited, as this one's solves
    /// are not).
    pub(crate) fn new(
        v: &Variant,
        hash_mb: usize,
        threads: Threads,
        limit: Option<Duration>,
    ) -> Result<Runner> {
        let temp = |prefix: &str| {
            tempfile::Builder::new()
                .prefix(prefix)
                .tempdir()
                .map_err(|source| Error::Write {
                    path: std::env::temp_dir(),
                    source,
                })
        };
        Ok(match &v.kind {
            VariantKind::Flags(search) => {
                Runner::Solver(Box::new(Solver::try_new(SolverOptions {
                    hash_mb,
                    search: search.clone(),
                    threads: threads.running,
                    oversubscribe: v.oversubscribe,
                })?))
            }
            VariantKind::Binary(finale) => Runner::Binary {
                finale: finale.clone(),
                dir: temp("finale-variant-")?,
                threads: threads.asked,
            },
            VariantKind::Engine(engine) => Runner::Engine {
                engine: engine.clone(),
                dir: temp("finale-engine-")?,
                settings: engine.settings(threads.asked, hash_mb),
                limit,
            },
        })
    }

    /// Solves one record with a cleared table. Another binary also says which revision
    /// it was built from (its CSV's `git_rev`), so that its rows are labelled with it, and
    /// its own peak memory. `on_pass` gets this binary's passes as they finish (another
    /// binary's are not seen). `Ok(Err(_))`: stopped by `interrupt` (another binary is
    /// killed, and its last pass is not known).
    pub(crate) fn solve(
        &mut self,
        record: &ObfRecord,
        mode: Mode,
        hash_mb: usize,
        interrupt: &Interrupt,
        on_pass: &mut (dyn FnMut(&PassReport) + Send),
    ) -> Result<std::result::Result<Answer, TimedOut>> {
        match self {
            Runner::Solver(solver) => {
                solver.clear();
                solver.set_abort(interrupt.flag());
                Ok(solver
                    .solve_reporting(record.position.board, mode, None, on_pass)
                    .map(|result| Answer {
                        result,
                        git_rev: None,
                        peak_mb: crate::results::peak_mb(),
                        engine: None,
                        failure: None,
                    }))
            }
            Runner::Binary {
                finale,
                dir,
                threads,
            } => {
                let run = finale.solve(dir.path(), record, mode, hash_mb, *threads, interrupt)?;
                Ok(finale_answer(run))
            }
            Runner::Engine {
                engine,
                dir,
                settings,
                limit,
            } => {
                let run =
                    engine.solve(dir.path(), &record.position, *settings, *limit, interrupt)?;
                Ok(engine_answer(run, mode, engine.kind.name()))
            }
        }
    }
}

/// An engine's run as a variant's answer: its score (a sign in WLD mode), the first move
/// of its line as the best move, its nodes and time (the wall time when it reports none);
/// a failed run is an answer with nothing in it and the failure named.
fn engine_answer(run: EngineRun, mode: Mode, name: &str) -> std::result::Result<Answer, TimedOut> {
    let answer = |result, engine: String, failure| Answer {
        result,
        git_rev: None,
        peak_mb: None,
        engine: Some(engine),
        failure,
    };
    let nothing = |time| SolveResult {
        mode,
        selectivity: Level::from_percent(100),
        score: 0,
        // Nothing proven.
        lower: -64,
        upper: 64,
        best_moves: Vec::new(),
        move_scores: Vec::new(),
        pv: Vec::new(),
        nodes: 0,
        time,
        best_found: None,
    };
    match run {
        EngineRun::Interrupted(time) => Err(TimedOut {
            nodes: 0,
            time,
            last_pass: None,
        }),
        EngineRun::Failed(why, wall) => Ok(answer(nothing(wall), name.to_string(), Some(why))),
        EngineRun::Answer(a, wall) => {
            let best = match a.pv.first() {
                Some(PvMove::Play(m)) => vec![*m],
                _ => Vec::new(),
            };
            let score = mode.class(a.score);
            let (lower, upper) = mode.window().bounds_of(score);
            let result = SolveResult {
                score,
                lower,
                upper,
                best_moves: best,
                pv: a.pv,
                nodes: a.nodes,
                time: a.time.unwrap_or(wall),
                ..nothing(wall)
            };
            let label = match a.version {
                Some(v) => format!("{name} {v}"),
                None => name.to_string(),
            };
            Ok(answer(result, label, None))
        }
    }
}

/// A variant's answer to one position.
pub(crate) struct Answer {
    pub(crate) result: SolveResult,
    /// Revision of another binary (None: this one).
    pub(crate) git_rev: Option<String>,
    /// Peak memory in MB of the process that solved it: this one, or another binary's
    /// from its CSV (None when that binary does not write it).
    pub(crate) peak_mb: Option<f64>,
    /// Another engine as it names itself (None: finale).
    pub(crate) engine: Option<String>,
    /// Why another engine gave no answer (`timeout`, `error: ...`).
    pub(crate) failure: Option<String>,
}

/// Another finale's run as a variant's answer; stopped, it has no last pass to give.
fn finale_answer(run: FinaleRun) -> std::result::Result<Answer, TimedOut> {
    match run {
        FinaleRun::Answer(a) => Ok(Answer {
            result: a.result,
            git_rev: a.git_rev,
            peak_mb: a.peak_mb,
            engine: None,
            failure: None,
        }),
        FinaleRun::Interrupted(time) => Err(TimedOut {
            nodes: 0,
            time,
            last_pass: None,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_sets_parse() {
        let v = Variant::from_flags("  --no-etc   --no-stability ").unwrap();
        assert_eq!(v.label, "--no-etc --no-stability");
        let VariantKind::Flags(o) = v.kind else {
            panic!("flags")
        };
        assert!(!o.etc && !o.stability && o.tt && o.first_guess);
        assert_eq!(Variant::from_flags("").unwrap().label, "default");
        assert!(Variant::from_flags("--fast").is_err());
        assert_eq!(Variant::from_flags("--threads=2").unwrap().threads, Some(2));
        assert_eq!(Variant::from_flags("--no-etc").unwrap().threads, None);
        assert!(Variant::from_flags("--threads=0").is_err());
        assert!(Variant::from_flags("--threads=x").is_err());
        assert!(matches!(
            Variant::from_binary(Path::new("/no/such/finale")),
            Err(Error::Suite(SuiteError::NoBinary(_)))
        ));
        assert!(matches!(
            Variant::from_flags("--fast"),
            Err(Error::Suite(SuiteError::Variant { .. }))
        ));
    }

    /// Variants are parsed by the CLI's own definitions: the spellings the CLI takes and
    /// an earlier hand-written parser refused (a value after a space, --eval, --hash-mb).
    #[test]
    fn variants_take_every_spelling_of_the_cli() {
        let flags = |text: &str| match Variant::from_flags(text).expect(text).kind {
            VariantKind::Flags(o) => o,
            _ => panic!("flags"),
        };
        for text in ["--ordering fastest-first", "--ordering=fastest-first"] {
            assert_eq!(flags(text).eval, crate::search::EvalRef(None), "{text}");
        }
        assert!(flags("--ordering eval").eval.0.is_some());
        assert_eq!(flags("--selectivity 95").selectivity.percent(), 95);
        assert_eq!(flags("--selectivity=73 --ties").selectivity.percent(), 73);
        assert!(flags("--ties").ties);
        assert_eq!(Variant::from_flags("--threads 3").unwrap().threads, Some(3));
        assert!(
            Variant::from_flags("--oversubscribe")
                .unwrap()
                .oversubscribe
        );
        assert_eq!(Variant::from_flags("--hash-mb 8").unwrap().hash_mb, Some(8));
        assert_eq!(Variant::from_flags("--no-etc").unwrap().hash_mb, None);
        // Other weights: the shipped file, loaded from its path.
        let weights = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/eval.bin");
        let o = flags(&format!("--eval {weights}"));
        let shipped = crate::eval::Evaluator::shipped().expect("shipped weights");
        assert_eq!(o.eval.0.map(|e| e.checksum()), Some(shipped.checksum()));
        // Errors are one line naming the variant and what the CLI would say.
        for (text, says) in [
            ("--fast", "unexpected argument '--fast'"),
            ("--selectivity 50", "50"),
            ("--ordering sideways", "sideways"),
            ("--hash-mb 0", "out of range"),
            ("--eval /no/such/weights", "/no/such/weights"),
        ] {
            let e = Variant::from_flags(text).expect_err(text).to_string();
            assert!(e.contains(says), "{text}: {e}");
            assert!(!e.contains('\n'), "{text}: {e}");
            assert!(e.starts_with(&format!("--variant '{text}': ")), "{e}");
        }
    }
}
