//! The rows the suite and batch CSVs hold: the suite's columns ([`CsvRow`], in [`HEADER`]
//! order), the batch's after them ([`BatchColumns`]), what every row of a run repeats
//! ([`RunInfo`]), and one constructor per kind of row: solved, unanswered by another
//! engine, given up at the time or node limit, a malformed line.

use super::format::{move_scores_string, moves_string, pass_level, score_string};
use super::machine;
use super::row::{Row, peak_mb};
use crate::board::key::{key_hex, position_key};
use crate::board::{ObfRecord, Position};
use crate::search::{Mode, TimedOut};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The CSV columns, in order.
pub const HEADER: [&str; 33] = [
    "index",
    "file",
    "empties",
    "side",
    "mode",
    "score",
    "best_moves",
    "expected_score",
    "expected_moves",
    "ok",
    "nodes",
    "time_s",
    "nps",
    "threads",
    "hash_mb",
    "pv",
    "git_rev",
    "cpu",
    "profile",
    "move_scores",
    "key",
    "board",
    "variant",
    "repeat",
    "selectivity",
    "best_found_s",
    "peak_mb",
    "engine",
    "engine_status",
    "alpha",
    "beta",
    "lower",
    "upper",
];

/// What is the same for every row of a run.
#[derive(Clone, Debug)]
pub struct RunInfo {
    /// Threads searching.
    pub threads: usize,
    /// Table size in MB.
    pub hash_mb: usize,
    /// Source revision of the binary.
    pub git_rev: String,
    /// CPU model name.
    pub cpu: String,
    /// `release` or `debug`.
    pub profile: String,
}

impl RunInfo {
    /// This build on this machine.
    pub fn current(threads: usize, hash_mb: usize) -> RunInfo {
        RunInfo {
            threads,
            hash_mb,
            git_rev: machine::git_rev().to_string(),
            cpu: machine::cpu_model(),
            profile: machine::profile().to_string(),
        }
    }
}

/// One row of the suite CSV, the columns in [`HEADER`] order (a test checks that they
/// agree). The batch writes it followed by its own columns ([`BatchRow`]). Fields a row
/// does not have (a batch timeout has no score) stay empty.
///
/// The same type reads the CSVs back ([`super::csv_in`]). A column a file lacks reads as
/// empty (`serde(default)`): CSVs of older finales, which compare and report read by
/// column name, have fewer columns. The text columns are `S`: `String`, or `&str`
/// borrowed from the record read.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CsvRow<S = String> {
    pub index: Option<usize>,
    pub file: S,
    pub empties: Option<u32>,
    pub side: S,
    pub mode: S,
    pub score: Option<i32>,
    pub best_moves: S,
    pub expected_score: Option<i32>,
    pub expected_moves: S,
    pub ok: Option<bool>,
    pub nodes: Option<u64>,
    /// Seconds, 6 decimals.
    pub time_s: S,
    /// Nodes per second, rounded.
    pub nps: S,
    pub threads: Option<usize>,
    pub hash_mb: Option<usize>,
    pub pv: S,
    pub git_rev: S,
    pub cpu: S,
    pub profile: S,
    pub move_scores: S,
    pub key: S,
    pub board: S,
    pub variant: S,
    pub repeat: Option<u32>,
    pub selectivity: Option<u8>,
    /// Seconds, 6 decimals.
    pub best_found_s: S,
    /// MB, 1 decimal.
    pub peak_mb: S,
    /// The engine that solved the row, as it names itself (`finale 0.1.0`, `zebra`).
    pub engine: S,
    /// `solved`, or why another engine gave no answer (`timeout`, `error: ...`). (A
    /// batch's own `status` column says what became of its rows.)
    pub engine_status: S,
    /// The window asked about (see [`Window`](crate::search::Window)): -64 and 64 for an
    /// exact solve, -1 and 1 for wld.
    pub alpha: Option<i32>,
    /// ...its beta.
    pub beta: Option<i32>,
    /// The proven lower bound of the final disc difference...
    pub lower: Option<i32>,
    /// ...and the upper one, equal for an exact score.
    pub upper: Option<i32>,
}

/// The batch's own columns, after the suite's.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct BatchColumns<S = String> {
    /// `solved`, `timeout` or `error: ...`.
    pub status: S,
    /// A timeout's last finished pass: its score...
    pub probable_score: S,
    /// ...its level (`73%`..`99%`, `narrow`)...
    pub probable_level: S,
    /// ...and its move.
    pub probable_move: S,
    /// The line of the input file (`file`) the position was read from: its first line
    /// when it repeats.
    pub line: S,
}

/// The names of [`BatchColumns`], in order.
pub const BATCH_COLUMNS: [&str; 5] = [
    "status",
    "probable_score",
    "probable_level",
    "probable_move",
    "line",
];

/// The batch CSV columns: the suite's, then `status` and, for a `timeout` row, the last
/// finished pass as a probable answer (score, level such as `73%`, move), then `line`.
pub fn batch_header() -> Vec<&'static str> {
    let mut h: Vec<&str> = HEADER.to_vec();
    h.extend(BATCH_COLUMNS);
    h
}

/// One batch row: the suite's columns, then the batch's. Written as one record, and read
/// back by position ([`super::csv_in::read_batch_row`]) or, by compare and report, each
/// half by column name. `S` is `String` for rows made or kept, `&str` for rows read and
/// looked at in place (a resume reads millions).
pub type BatchRow<S = String> = (CsvRow<S>, BatchColumns<S>);

/// Seconds as written in the CSVs: 6 decimals.
pub fn seconds(t: std::time::Duration) -> String {
    format!("{:.6}", t.as_secs_f64())
}

/// Megabytes as written in the CSVs: 1 decimal; empty when unknown.
pub fn megabytes(mb: Option<f64>) -> String {
    mb.map(|m| format!("{m:.1}")).unwrap_or_default()
}

impl CsvRow {
    /// What is known of `position` and the run before any answer: where it came from, its
    /// key and board, and the run's threads, table, revision, CPU and build.
    fn of_position(index: usize, file: &Path, position: &Position, info: &RunInfo) -> Self {
        CsvRow {
            index: Some(index),
            file: file.display().to_string(),
            empties: Some(position.board.empty_count()),
            side: position.side.letter().to_string(),
            threads: Some(info.threads),
            hash_mb: Some(info.hash_mb),
            git_rev: info.git_rev.clone(),
            cpu: info.cpu.clone(),
            profile: info.profile.clone(),
            key: key_hex(position_key(position)),
            board: position.squares_string(),
            repeat: Some(1),
            ..CsvRow::default()
        }
    }

    /// [`of_position`](Self::of_position) with the mode and window asked about.
    fn asked(mode: Mode, index: usize, file: &Path, position: &Position, info: &RunInfo) -> Self {
        let w = mode.window();
        CsvRow {
            mode: mode.name().to_string(),
            alpha: Some(w.alpha()),
            beta: Some(w.beta()),
            ..CsvRow::of_position(index, file, position, info)
        }
    }

    /// The row of `row`: [`solved`](Self::solved), or [`unanswered`](Self::unanswered)
    /// when another engine gave no answer.
    pub fn of_row(row: &Row, info: &RunInfo) -> CsvRow {
        match &row.failure {
            Some(failure) => CsvRow::unanswered(row, failure, info),
            None => CsvRow::solved(row, info),
        }
    }

    /// The row of a solved position: its answer, the file's values in the mode's terms,
    /// and whether they agree.
    pub fn solved(row: &Row, info: &RunInfo) -> CsvRow {
        let r = &row.result;
        let pv: Vec<String> = r.pv.iter().map(|m| m.to_string()).collect();
        CsvRow {
            score: Some(r.score),
            best_moves: moves_string(&r.best_moves),
            // In the mode's terms, like `score`: the sign only in wld.
            expected_score: row.expected_score.map(|s| r.mode.class(s)),
            expected_moves: moves_string(&row.expected_moves),
            ok: row.verdict.ok(),
            nodes: Some(r.nodes),
            time_s: seconds(r.time),
            nps: format!("{:.0}", r.nps()),
            pv: pv.join(" "),
            move_scores: move_scores_string(&r.move_scores),
            variant: row.variant.clone(),
            repeat: Some(row.repeat),
            selectivity: Some(r.selectivity.percent()),
            best_found_s: r.best_found.map(seconds).unwrap_or_default(),
            peak_mb: megabytes(row.peak_mb),
            engine: row.engine.clone(),
            engine_status: "solved".into(),
            lower: Some(r.lower),
            upper: Some(r.upper),
            ..CsvRow::asked(r.mode, row.index, &row.file, &row.position, info)
        }
    }

    /// The row of a position another engine gave no answer for (`failure`: `timeout`,
    /// `error: ...`): only where and how long it ran.
    pub fn unanswered(row: &Row, failure: &str, info: &RunInfo) -> CsvRow {
        let r = &row.result;
        CsvRow {
            expected_score: row.expected_score.map(|s| r.mode.class(s)),
            expected_moves: moves_string(&row.expected_moves),
            time_s: seconds(r.time),
            variant: row.variant.clone(),
            repeat: Some(row.repeat),
            engine: row.engine.clone(),
            engine_status: failure.to_string(),
            ..CsvRow::asked(r.mode, row.index, &row.file, &row.position, info)
        }
    }
}

/// The batch row of a solved position; not `ok` when a repeat of it in the input gives
/// values its solve disagrees with (`repeats_agree` false), as it is the position's only
/// row.
pub fn batch_solved(row: &Row, info: &RunInfo, repeats_agree: bool) -> BatchRow {
    let mut suite = CsvRow::solved(row, info);
    if !repeats_agree {
        suite.ok = Some(false);
    }
    let batch = BatchColumns {
        status: "solved".into(),
        line: row.line.to_string(),
        ..BatchColumns::default()
    };
    (suite, batch)
}

/// Where a batch position was read: the input file, the position's index in it, and the
/// position itself with its line.
pub struct BatchSource<'a> {
    /// The input file.
    pub file: &'a Path,
    /// 1-based index of the position within the file.
    pub index: usize,
    /// The position and its line.
    pub record: &'a ObfRecord,
}

/// The batch row of a solve of `mode` given up at the time or node limit: its work, and what its
/// last finished pass said as a probable answer.
pub fn batch_timeout(at: &BatchSource, mode: Mode, t: &TimedOut, info: &RunInfo) -> BatchRow {
    let pass = t.last_pass.as_ref();
    let suite = CsvRow {
        nodes: Some(t.nodes),
        time_s: seconds(t.time),
        peak_mb: megabytes(peak_mb()),
        ..CsvRow::asked(mode, at.index, at.file, &at.record.position, info)
    };
    let batch = BatchColumns {
        status: "timeout".into(),
        probable_score: pass
            .map(|p| score_string(mode, p.score))
            .unwrap_or_default(),
        probable_level: pass.map(pass_level).unwrap_or_default(),
        probable_move: pass
            .and_then(|p| p.best)
            .map(|m| m.to_string())
            .unwrap_or_default(),
        line: at.record.line.to_string(),
    };
    (suite, batch)
}

/// What a label search found: its value rounded to discs, its work, and the weights it
/// used.
pub struct LabelAnswer {
    /// The `mode` column: `depthD`.
    pub mode: String,
    /// The value for the side to move, in discs.
    pub score: i32,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time.
    pub time: std::time::Duration,
    /// The evaluation's weights, by checksum.
    pub weights: u32,
}

/// The `variant` column of rows made with the weights of checksum `checksum`:
/// `eval 7ec978cc`.
pub fn weights_variant(checksum: u32) -> String {
    format!("eval {checksum:08x}")
}

/// The batch row of a label: a solved row of mode `depthD` with no best move, whose
/// `variant` names the weights (`eval 7ec978cc`), as labels depend on them.
pub fn batch_label(at: &BatchSource, answer: &LabelAnswer, info: &RunInfo) -> BatchRow {
    let secs = answer.time.as_secs_f64();
    let suite = CsvRow {
        mode: answer.mode.clone(),
        score: Some(answer.score),
        nodes: Some(answer.nodes),
        time_s: seconds(answer.time),
        nps: format!("{:.0}", answer.nodes as f64 / secs.max(1e-9)),
        variant: weights_variant(answer.weights),
        engine: super::row::finale_engine(),
        engine_status: "solved".into(),
        ..CsvRow::of_position(at.index, at.file, &at.record.position, info)
    };
    let batch = BatchColumns {
        status: "solved".into(),
        line: at.record.line.to_string(),
        ..BatchColumns::default()
    };
    (suite, batch)
}

/// The batch row of a malformed input line (`--skip-bad`): the file, the line's key, its
/// text, and the error as its status.
pub fn batch_bad_line(file: &Path, line: usize, key: u64, text: String, error: &str) -> BatchRow {
    let suite = CsvRow {
        file: file.display().to_string(),
        key: key_hex(key),
        board: text,
        ..CsvRow::default()
    };
    let batch = BatchColumns {
        status: format!("error: {error}"),
        line: line.to_string(),
        ..BatchColumns::default()
    };
    (suite, batch)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The header csv's serializer writes for a `T`: its field names, in order.
    fn serialized_header<T: Serialize + Default>() -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(T::default()).expect("serializes");
        let text = String::from_utf8(w.into_inner().expect("flushed")).expect("utf-8");
        text.lines().next().expect("a header").to_string()
    }

    /// The serialized columns are the documented ones, in order; the batch's too, as a
    /// batch row is read back by position.
    #[test]
    fn the_row_types_have_the_header_columns_in_order() {
        assert_eq!(serialized_header::<CsvRow>(), HEADER.join(","));
        assert_eq!(serialized_header::<BatchColumns>(), BATCH_COLUMNS.join(","));
    }

    /// The batch row of FFO #1 (G8 wins by 18) solved exactly, its line listing
    /// `expected`.
    fn solved(expected: Vec<(crate::board::Square, i32)>, repeats_agree: bool) -> BatchRow {
        let text = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
        let position = crate::board::parse_position(text, "ffo1").unwrap().position;
        let record = ObfRecord {
            line: 7,
            position,
            expected,
            score: None,
            window: None,
        };
        let mut solver = crate::search::Solver::new(crate::search::SolverOptions {
            hash_mb: 1,
            ..Default::default()
        });
        let result = solver.solve(position.board, Mode::Exact);
        let row = super::super::checked_row(Path::new("in.obf"), 3, &record, result);
        batch_solved(&row, &RunInfo::current(1, 1), repeats_agree)
    }

    #[test]
    fn each_kind_of_batch_row_says_what_became_of_its_position() {
        let g8 = crate::board::Square::parse("g8").unwrap();
        let (suite, batch) = solved(vec![(g8, 18)], true);
        assert_eq!((suite.index, suite.file.as_str()), (Some(3), "in.obf"));
        assert_eq!((suite.score, suite.ok), (Some(18), Some(true)));
        assert_eq!(
            (batch.status.as_str(), batch.line.as_str()),
            ("solved", "7")
        );
        assert_eq!(
            solved(vec![], true).0.ok,
            None,
            "nothing listed, nothing checked"
        );
        // A repeat that disagrees makes the position's only row not ok.
        assert_eq!(solved(vec![(g8, 18)], false).0.ok, Some(false));
        let (suite, batch) = batch_bad_line(Path::new("b.obf"), 12, 0xab, "XX? O".into(), "bad");
        assert_eq!(
            (
                suite.file.as_str(),
                suite.key.as_str(),
                suite.board.as_str()
            ),
            ("b.obf", "00000000000000ab", "XX? O")
        );
        assert_eq!((suite.index, suite.mode.as_str()), (None, ""));
        assert_eq!(
            (batch.status.as_str(), batch.line.as_str()),
            ("error: bad", "12")
        );
    }
}
