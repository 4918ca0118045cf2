//! The `solve` command: positions from an OBF line, a move sequence or a file, each solved
//! and reported in full.

use super::format::{board_diagram, move_scores_string, moves_string, score_string, wld_string};
use crate::board::{Color, Position, parse_moves, parse_position, read_obf_file};
use crate::error::{Error, Result};
use crate::search::{Mode, PassReport, SolveResult, Solver, SolverOptions};
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

/// The report of one solve by `threads` search threads: a `key value` line per fact.
pub fn report(job: &Job, r: &SolveResult, threads: usize) -> String {
    let board = job.position.board;
    let side = match job.position.side {
        Color::Black => "X (black)",
        Color::White => "O (white)",
    };
    let mut score = match r.mode {
        Mode::Wld => wld_string(r.score),
        Mode::Exact => score_string(r.mode, r.score),
        Mode::All if r.move_scores.is_empty() => score_string(r.mode, r.score),
        Mode::All => format!(
            "{} ({})",
            score_string(r.mode, r.score),
            move_scores_string(&r.move_scores)
        ),
    };
    if r.selectivity < 100 {
        score = format!("{score}@{}% (probable: multi-probcut)", r.selectivity);
    }
    let best = if !r.best_moves.is_empty() {
        moves_string(&r.best_moves)
    } else if board.is_game_over() {
        "none (game over)".into()
    } else {
        "pass".into()
    };
    let pv = if r.pv.is_empty() {
        "-".into()
    } else {
        r.pv_string()
    };
    format!(
        "source    {}\nposition  {}\nempties   {}\nside      {}\nmode      {}\nscore     {}\n\
         best      {}\npv        {}\nnodes     {}\ntime      {:.6} s\nnps       {:.0}\n\
         threads   {}\n",
        job.origin,
        job.position,
        board.empty_count(),
        side,
        r.mode.name(),
        score,
        best,
        pv,
        r.nodes,
        r.time.as_secs_f64(),
        r.nps(),
        threads
    )
}

/// One finished pass as a line of the pass table: level, score, best move, nodes, time,
/// nodes per second.
pub fn pass_line(mode: Mode, p: &PassReport) -> String {
    let level = match (p.probable, p.selectivity) {
        (true, 100) => "narrow".to_string(),
        (true, pct) => format!("{pct}%"),
        (false, _) => "exact".to_string(),
    };
    let best = p.best.map_or_else(|| "pass".to_string(), |m| m.to_string());
    format!(
        "{level:>7} {:>6} {best:>5} {:>14} {:>10.3} {:>12.0}",
        score_string(mode, p.score),
        p.nodes,
        p.time.as_secs_f64(),
        p.nps()
    )
}

/// The header of the pass table, aligned with [`pass_line`].
pub const PASS_HEADER: &str = "   pass  score  best          nodes     time s          N/s";

/// Solves every position of `input` with one solver (table cleared in between), writing
/// each report to `out` as it finishes (after the board as a diagram, if `diagram`, written
/// before the solve starts, and one line per finished pass as it finishes if
/// `pass_lines`), and returns how many positions reached
/// `time_limit` (each reported as a timeout). All input is read before the table is
/// allocated.
pub fn run_solve(
    input: &SolveInput,
    mode: Mode,
    options: SolverOptions,
    time_limit: Option<Duration>,
    diagram: bool,
    pass_lines: bool,
    out: &mut (impl Write + Send),
) -> Result<usize> {
    let jobs = load(input)?;
    let mut solver = Solver::new(options);
    let mut timeouts = 0;
    for (i, job) in jobs.iter().enumerate() {
        let sep = if i > 0 { "\n" } else { "" };
        if diagram {
            writeln!(out, "{sep}{}", board_diagram(&job.position))
                .and_then(|()| out.flush())
                .map_err(Error::Output)?;
        }
        solver.clear();
        if pass_lines {
            let sep = if i > 0 && !diagram { "\n" } else { "" };
            writeln!(out, "{sep}{PASS_HEADER}")
                .and_then(|()| out.flush())
                .map_err(Error::Output)?;
        }
        let mut failed = None;
        let mut on_pass = |p: &PassReport| {
            if pass_lines && failed.is_none() {
                failed = writeln!(out, "{}", pass_line(mode, p))
                    .and_then(|()| out.flush())
                    .err();
            }
        };
        let solved = solver.solve_reporting(job.position.board, mode, time_limit, &mut on_pass);
        if let Some(e) = failed {
            return Err(Error::Output(e));
        }
        let text = match solved {
            Ok(result) => report(job, &result, solver.threads()),
            Err(t) => {
                timeouts += 1;
                let probable = match t.last_pass {
                    Some(p) => format!(
                        "probable  {}{} (the last pass finished before the limit), best {}\n",
                        score_string(mode, p.score),
                        if p.probable && p.selectivity < 100 {
                            format!("@{}%", p.selectivity)
                        } else {
                            String::new()
                        },
                        p.best.map_or_else(|| "pass".to_string(), |m| m.to_string())
                    ),
                    None => String::new(),
                };
                format!(
                    "source    {}\nposition  {}\nempties   {}\nscore     timeout (gave up at the \
                     time limit)\n{probable}nodes     {}\ntime      {:.6} s\n",
                    job.origin,
                    job.position,
                    job.position.board.empty_count(),
                    t.nodes,
                    t.time.as_secs_f64()
                )
            }
        };
        let sep = if i > 0 && !diagram && !pass_lines {
            "\n"
        } else {
            ""
        };
        write!(out, "{sep}{text}")
            .and_then(|()| out.flush())
            .map_err(Error::Output)?;
    }
    Ok(timeouts)
}
