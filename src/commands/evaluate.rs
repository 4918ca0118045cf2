//! The `eval` command: what the evaluation says of a position and of each legal move, in
//! discs, statically or after a shallow search. Analysts read it; it is also how the
//! evaluation's error against exact scores is measured from outside (`--csv`).

use super::solve::{Job, SolveInput, load};
use crate::board::{Board, Color, Square};
use crate::durable::guard::is_stdout;
use crate::durable::{Access, Existing, Replacement};
use crate::error::{Error, Result};
use crate::eval::{Evaluator, UNITS_PER_DISC};
use crate::results::format::no_move;
use crate::search::evaluated_value;
use serde::Serialize;
use std::io::Write;
use std::path::Path;

/// The evaluation of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// Where the position came from and the position itself.
    pub job: Job,
    /// Moves searched ahead (0: the static evaluation; a forced pass is not counted).
    pub depth: u32,
    /// The position's value for the side to move, in evaluation units (1/128 disc); a
    /// finished game's exact disc difference.
    pub value: i32,
    /// Each legal move with its value for the side to move (the child searched
    /// `depth - 1` moves, at least 0), best first; empty when the side must pass or the
    /// game is over. From depth 1 on, the first move's value is the position's value.
    pub moves: Vec<(Square, i32)>,
    /// Positions evaluated or searched, the moves' searches included.
    pub nodes: u64,
}

/// Units to discs.
pub fn discs(units: i32) -> f64 {
    units as f64 / UNITS_PER_DISC as f64
}

/// The value of `board` `depth` moves ahead, and the nodes searched; a finished game is
/// worth its exact disc difference at any depth.
fn value_of(eval: &Evaluator, board: Board, depth: u32) -> (i32, u64) {
    if board.is_game_over() {
        (board.final_score() * UNITS_PER_DISC, 1)
    } else {
        evaluated_value(eval, board, depth)
    }
}

/// Evaluates `job`'s position with `eval`, `depth` moves ahead.
pub fn evaluate(eval: &Evaluator, job: &Job, depth: u32) -> Evaluation {
    let board = job.position.board;
    let (value, mut nodes) = value_of(eval, board, depth);
    let mut moves = Vec::new();
    let mut m = board.moves();
    while m != 0 {
        let sq = Square::new(m.trailing_zeros() as u8).expect("a bit index is a square");
        m &= m - 1;
        let child = board.play(sq).expect("a legal move plays");
        let (v, n) = value_of(eval, child, depth.saturating_sub(1));
        nodes += n;
        moves.push((sq, -v));
    }
    // Best first; equal values in square order.
    moves.sort_by_key(|&(sq, v)| (-v, sq.index()));
    Evaluation {
        job: job.clone(),
        depth,
        value,
        moves,
        nodes,
    }
}

/// `+1.23` / `-0.50`: a value in discs for people.
fn signed(units: i32) -> String {
    format!("{:+.2}", discs(units))
}

/// The moves with their values, best first: `C4 +1.23, D3 -0.50`.
fn moves_text(e: &Evaluation) -> String {
    if e.moves.is_empty() {
        return no_move(&e.job.position.board).to_string();
    }
    e.moves
        .iter()
        .map(|&(sq, v)| format!("{sq} {}", signed(v)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The report of one evaluation: a `key value` line per fact.
pub fn report(e: &Evaluation) -> String {
    let board = e.job.position.board;
    let side = match e.job.position.side {
        Color::Black => "X (black)",
        Color::White => "O (white)",
    };
    let kind = if e.depth == 0 {
        "static evaluation".to_string()
    } else {
        format!("{} moves ahead", e.depth)
    };
    format!(
        "source    {}\nposition  {}\nempties   {}\nside      {}\ndepth     {} ({kind})\n\
         eval      {} discs\nmoves     {}\nnodes     {}\n",
        e.job.origin,
        e.job.position,
        board.empty_count(),
        side,
        e.depth,
        signed(e.value),
        moves_text(e),
        e.nodes,
    )
}

/// The CSV columns of `finale eval --csv`, one row per position.
pub const CSV_HEADER: [&str; 10] = [
    "index",
    "source",
    "board",
    "side",
    "empties",
    "depth",
    "eval",
    "best_move",
    "move_evals",
    "nodes",
];

/// One row of `finale eval --csv`, the columns in [`CSV_HEADER`] order (a test checks
/// that they agree).
#[derive(Debug, Serialize)]
pub struct EvalRow {
    /// 1-based position in the input.
    pub index: usize,
    /// Where the position came from.
    pub source: String,
    /// The 64 squares.
    pub board: String,
    /// `X` or `O`.
    pub side: String,
    pub empties: u32,
    /// Moves searched ahead (0: the static evaluation).
    pub depth: u32,
    /// The value for the side to move, discs, 4 decimals.
    pub eval: String,
    /// The best move, empty when there is none.
    pub best_move: String,
    /// Every move with its value, best first (`D3:+1.2345`).
    pub move_evals: String,
    pub nodes: u64,
}

fn csv_row(index: usize, e: &Evaluation) -> EvalRow {
    let pos = &e.job.position;
    EvalRow {
        index,
        source: e.job.origin.clone(),
        board: pos.squares_string(),
        side: pos.side.letter().to_string(),
        empties: pos.board.empty_count(),
        depth: e.depth,
        eval: format!("{:.4}", discs(e.value)),
        best_move: e
            .moves
            .first()
            .map_or(String::new(), |(sq, _)| sq.to_string()),
        move_evals: e
            .moves
            .iter()
            .map(|&(sq, v)| format!("{sq}:{:.4}", discs(v)))
            .collect::<Vec<_>>()
            .join(" "),
        nodes: e.nodes,
    }
}

/// Where CSV rows go: a temporary file that replaces a regular file (or a new one) only
/// when complete, or standard output (`--csv -`).
enum Sink<'o> {
    Temp(Replacement),
    Stdout(&'o mut dyn Write),
}

impl Write for Sink<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Sink::Temp(f) => f.write(buf),
            Sink::Stdout(f) => f.write(buf),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Sink::Temp(f) => f.flush(),
            Sink::Stdout(f) => f.flush(),
        }
    }
}

/// A CSV written whole or not at all (see [`Sink`]). Created before any work, so that an
/// unwritable place is reported at once.
struct CsvFile<'p, 'o> {
    path: &'p Path,
    writer: csv::Writer<Sink<'o>>,
}

impl<'p, 'o> CsvFile<'p, 'o> {
    fn create(path: &'p Path, sink: Option<&'o mut dyn Write>) -> Result<Self> {
        let sink = match sink {
            Some(stdout) => Sink::Stdout(stdout),
            None => Sink::Temp(
                Replacement::beside(path, ".finale-eval-", Access::Private).map_err(|e| {
                    Error::Write {
                        path: path.to_path_buf(),
                        source: std::io::Error::new(e.kind(), "cannot create a file beside it"),
                    }
                })?,
            ),
        };
        let mut f = CsvFile {
            path,
            // The header is written even when no row follows.
            writer: csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(sink),
        };
        f.writer.write_record(CSV_HEADER).map_err(|e| f.error(e))?;
        Ok(f)
    }

    fn record(&mut self, row: &EvalRow) -> Result<()> {
        self.writer.serialize(row).map_err(|e| self.error(e))
    }

    fn error(&self, source: csv::Error) -> Error {
        Error::Csv {
            path: self.path.to_path_buf(),
            source,
        }
    }

    fn finish(self) -> Result<()> {
        let path = self.path;
        let err = |source| Error::Write {
            path: path.to_path_buf(),
            source,
        };
        let sink = self
            .writer
            .into_inner()
            .map_err(|e| err(std::io::Error::new(e.error().kind(), e.error().to_string())))?;
        match sink {
            Sink::Temp(tmp) => tmp.commit(Existing::Replace).map_err(|e| err(e.source))?,
            Sink::Stdout(f) => f.flush().map_err(Error::Output)?,
        }
        Ok(())
    }
}

/// Evaluates every position of `input` `depth` moves ahead, prints each report to `out`
/// and, with `csv`, writes one row per position there (`-`: to `out`, in place of the
/// reports). All input is read first. The caller has checked the files with
/// [`crate::durable::guard`].
pub fn run_eval(
    input: &SolveInput,
    eval: &Evaluator,
    depth: u32,
    csv: Option<&Path>,
    out: &mut impl Write,
) -> Result<Vec<Evaluation>> {
    let jobs = load(input)?;
    // With `--csv -` the rows are standard output, and the reports are not printed.
    let mut quiet = std::io::sink();
    let (report, mut file): (&mut dyn Write, _) = match csv {
        Some(p) if is_stdout(p) => (&mut quiet, Some(CsvFile::create(p, Some(out))?)),
        Some(p) => (out, Some(CsvFile::create(p, None)?)),
        None => (out, None),
    };
    let mut all = Vec::with_capacity(jobs.len());
    for (i, job) in jobs.iter().enumerate() {
        let e = evaluate(eval, job, depth);
        if i > 0 {
            writeln!(report).map_err(Error::Output)?;
        }
        write!(report, "{}", self::report(&e)).map_err(Error::Output)?;
        if let Some(f) = &mut file {
            f.record(&csv_row(i + 1, &e))?;
        }
        all.push(e);
    }
    if let Some(f) = file {
        f.finish()?;
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_row_type_has_the_header_columns_in_order() {
        let row = EvalRow {
            index: 1,
            source: "s".into(),
            board: "b".into(),
            side: "X".into(),
            empties: 20,
            depth: 2,
            eval: "1.0000".into(),
            best_move: "D3".into(),
            move_evals: "D3:1.0000".into(),
            nodes: 7,
        };
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(&row).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        let header = text.lines().next().unwrap();
        assert_eq!(header, CSV_HEADER.join(","));
    }
}
