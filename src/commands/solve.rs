//! The `solve` command: positions from an OBF line, a move sequence or a file, each solved
//! and reported in full.

use crate::board::{Color, Position, parse_moves, parse_position, read_obf_file};
use crate::error::{Error, Result};
use crate::interrupt::Interrupt;
use crate::results::format::{
    board_diagram, bounds_string, move_scores_string, moves_string, no_move, pass_level, pass_move,
    probable_string, pv_head, score_string, unchecked_note, wld_string,
};
use crate::search::{
    Mode, PASS_PV_MOVES, PassReport, SolveResult, Solver, SolverOptions, TimedOut, deep_hash_mb,
};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Where the positions to solve come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveInput {
    /// One OBF line (command-line words joined with spaces).
    Obf(String),
    /// Moves from the start position, e.g. `f5d6c3d3c4`.
    Moves(String),
    /// Every position of an OBF file.
    File(PathBuf),
}

/// A position to solve and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// `file:line`, `argument` or `--moves`.
    pub origin: String,
    /// The position.
    pub position: Position,
}

/// Reads the positions of `input`; every error names its source.
pub fn load(input: &SolveInput) -> Result<Vec<Job>> {
    match input {
        SolveInput::Obf(text) => Ok(vec![Job {
            origin: "argument".into(),
            position: parse_position(text, "argument")?.position,
        }]),
        SolveInput::Moves(seq) => Ok(vec![Job {
            origin: "--moves".into(),
            position: parse_moves(seq)?,
        }]),
        SolveInput::File(path) => Ok(read_obf_file(path)?
            .into_iter()
            .map(|r| Job {
                origin: format!("{}:{}", path.display(), r.line),
                position: r.position,
            })
            .collect()),
    }
}

/// The report of one solve by `threads` search threads with a table of `table_mb`: a
/// `key value` line per fact.
pub fn report(job: &Job, r: &SolveResult, threads: usize, table_mb: usize) -> String {
    let board = job.position.board;
    let side = match job.position.side {
        Color::Black => "X (black)",
        Color::White => "O (white)",
    };
    let mut score = match r.mode {
        Mode::Wld => wld_string(r.score),
        Mode::Exact => score_string(r.mode, r.score),
        Mode::Window(w) => format!("{} (window {w})", bounds_string(r.lower, r.upper)),
        Mode::All if r.move_scores.is_empty() => score_string(r.mode, r.score),
        Mode::All => format!(
            "{} ({})",
            score_string(r.mode, r.score),
            move_scores_string(&r.move_scores)
        ),
    };
    if r.selectivity.is_probcut() {
        let level = r.selectivity.label(board.empty_count());
        score = if r.selectivity.checked_at(board.empty_count()) {
            format!("{score}@{level} (probable: multi-probcut)")
        } else {
            let note = unchecked_note(r.selectivity);
            format!("{score}@{level} (probable: multi-probcut; {note})")
        };
    }
    let best = if r.best_moves.is_empty() {
        no_move(&board).to_string()
    } else {
        moves_string(&r.best_moves)
    };
    let pv = if r.pv.is_empty() {
        "-".into()
    } else {
        r.pv_string()
    };
    format!(
        "source    {}\nposition  {}\nempties   {}\nside      {}\nmode      {}\nscore     {}\n\
         bounds    {} {}\nbest      {}\npv        {}\nnodes     {}\ntime      {:.6} s\nfound     {}\n\
         nps       {:.0}\nthreads   {}\ntable     {} MB\n",
        job.origin,
        job.position,
        board.empty_count(),
        side,
        r.mode.name(),
        score,
        r.lower,
        r.upper,
        best,
        pv,
        r.nodes,
        r.time.as_secs_f64(),
        r.best_found.map_or_else(
            || "-".to_string(),
            |t| format!("{:.6} s (the best move settled)", t.as_secs_f64())
        ),
        r.nps(),
        threads,
        table_mb
    )
}

/// One finished pass as a line of the pass table: level, score, best move, nodes, time,
/// nodes per second, and the start of its principal variation (from the table).
pub fn pass_line(mode: Mode, p: &PassReport) -> String {
    let best = pass_move(p);
    format!(
        "{:>7} {:>6} {best:>5} {:>14} {:>10.3} {:>12.0}  {}",
        pass_level(p),
        score_string(mode, p.score),
        p.nodes,
        p.time.as_secs_f64(),
        p.nps(),
        pv_head(&p.pv, PASS_PV_MOVES)
    )
}

/// The header of the pass table, aligned with [`pass_line`].
pub const PASS_HEADER: &str = "   pass  score  best          nodes     time s          N/s  pv";

/// How `solve` runs and what it prints besides each report.
#[derive(Clone, Debug)]
pub struct SolveSettings {
    /// What to solve for.
    pub mode: Mode,
    /// Table, threads and search switches.
    pub solver: SolverOptions,
    /// Give up on a position after this long, reporting its last finished pass.
    pub time_limit: Option<Duration>,
    /// Print each position as a diagram before solving it.
    pub diagram: bool,
    /// Print a line per finished pass as it finishes.
    pub pass_lines: bool,
    /// The table is the default one: a solve of many empties gets a larger table
    /// ([`deep_hash_mb`] of the deepest position).
    pub table_grows: bool,
    /// Stops the solve in progress (reported like a time limit, with its last pass) and
    /// every later one.
    pub interrupt: Interrupt,
}

/// What a `solve` run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolveOutcome {
    /// Positions solved to the end.
    pub solved: usize,
    /// Positions that reached the time limit.
    pub timeouts: usize,
    /// Positions never started because the run was stopped.
    pub skipped: usize,
    /// What stopped the run (`SIGINT`, ...), if it was.
    pub stopped: Option<&'static str>,
}

impl SolveOutcome {
    /// Counts a solve that did not finish (stopped by the interrupt, with `left` positions
    /// after it never started, or at the time limit) and gives its report.
    fn unfinished(
        &mut self,
        job: &Job,
        settings: &SolveSettings,
        t: &TimedOut,
        left: usize,
    ) -> String {
        let why = match settings.interrupt.cause() {
            Some(cause) => {
                self.stopped = Some(cause);
                self.skipped = left;
                format!("stopped by {cause}")
            }
            None => {
                self.timeouts += 1;
                "stopped at the time limit".to_string()
            }
        };
        unfinished_report(job, settings.mode, t, &why)
    }
}

/// The report of a solve that did not finish: the last finished pass as a probable answer,
/// with why it stopped.
fn unfinished_report(job: &Job, mode: Mode, t: &TimedOut, why: &str) -> String {
    let (score, best, pv) = match &t.last_pass {
        Some(p) => (
            format!("{} (probable: {why})", probable_string(mode, p)),
            pass_move(p),
            pv_head(&p.pv, PASS_PV_MOVES),
        ),
        None => (
            format!("none ({why} before any pass finished)"),
            "-".to_string(),
            "-".to_string(),
        ),
    };
    let status = if why.contains("time limit") {
        "timeout"
    } else {
        "stopped"
    };
    format!(
        "source    {}\nposition  {}\nempties   {}\nscore     {score}\nbest      {best}\n\
         pv        {pv}\nstatus    {status}\nnodes     {}\ntime      {:.6} s\n",
        job.origin,
        job.position,
        job.position.board.empty_count(),
        t.nodes,
        t.time.as_secs_f64()
    )
}

/// Solves every position of `input` with one solver (table cleared in between), writing
/// each report to `out` as it finishes (after the board as a diagram, if asked, written
/// before the solve starts, and one line per finished pass as it finishes, if asked).
/// A position that reaches the time limit, or is stopped by the interrupt, is reported
/// with its last finished pass as a probable answer; after an interrupt no further
/// position is started. All input is read before the table is allocated.
pub fn run_solve(
    input: &SolveInput,
    settings: &SolveSettings,
    out: &mut (impl Write + Send),
) -> Result<SolveOutcome> {
    let jobs = load(input)?;
    let mut options = settings.solver.clone();
    if settings.table_grows {
        let deepest = jobs.iter().map(|j| j.position.board.empty_count()).max();
        options.hash_mb = deep_hash_mb(deepest.unwrap_or(0));
    }
    let table_mb = options.hash_mb;
    let mut solver = Solver::try_new(options)?;
    solver.set_abort(settings.interrupt.flag());
    let mut outcome = SolveOutcome::default();
    for (i, job) in jobs.iter().enumerate() {
        if let Some(cause) = settings.interrupt.cause() {
            outcome.stopped = Some(cause);
            outcome.skipped = jobs.len() - i;
            break;
        }
        if settings.diagram {
            let sep = if i > 0 { "\n" } else { "" };
            write_flushed(out, &format!("{sep}{}\n", board_diagram(&job.position)))?;
        }
        solver.clear();
        if settings.pass_lines {
            let sep = if i > 0 && !settings.diagram { "\n" } else { "" };
            write_flushed(out, &format!("{sep}{PASS_HEADER}\n"))?;
        }
        let solved = solve_job(&mut solver, job, settings, out)?;
        let text = match solved {
            Ok(result) => {
                outcome.solved += 1;
                report(job, &result, solver.threads(), table_mb)
            }
            Err(t) => outcome.unfinished(job, settings, &t, jobs.len() - i - 1),
        };
        let sep = if i > 0 && !settings.diagram && !settings.pass_lines {
            "\n"
        } else {
            ""
        };
        write_flushed(out, &format!("{sep}{text}"))?;
        if outcome.stopped.is_some() {
            break;
        }
    }
    Ok(outcome)
}

/// Writes `text` and flushes it, so that a reader sees each report as it is made.
fn write_flushed(out: &mut impl Write, text: &str) -> Result<()> {
    write!(out, "{text}")
        .and_then(|()| out.flush())
        .map_err(Error::Output)
}

/// Solves one position, writing each finished pass's line to `out` if asked.
fn solve_job(
    solver: &mut Solver,
    job: &Job,
    settings: &SolveSettings,
    out: &mut (impl Write + Send),
) -> Result<std::result::Result<SolveResult, TimedOut>> {
    let mut failed = None;
    let mut on_pass = |p: &PassReport| {
        if settings.pass_lines && failed.is_none() {
            failed = writeln!(out, "{}", pass_line(settings.mode, p))
                .and_then(|()| out.flush())
                .err();
        }
    };
    let solved = solver.solve_reporting(
        job.position.board,
        settings.mode,
        settings.time_limit,
        &mut on_pass,
    );
    match failed {
        Some(e) => Err(Error::Output(e)),
        None => Ok(solved),
    }
}
