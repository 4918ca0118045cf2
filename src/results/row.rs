//! One solved position as the suite and the batch record it: the answer, checked against
//! the values the input file gives, with where it came from.

use super::check::{Verdict, check, check_values};
use crate::board::{ObfRecord, Position, Square};
use crate::search::SolveResult;
use std::path::{Path, PathBuf};

/// One solved position of a suite.
#[derive(Clone, Debug)]
pub struct Row {
    /// 1-based index of the position within its file.
    pub index: usize,
    /// The file, as given.
    pub file: PathBuf,
    /// 1-based line of the position in its file.
    pub line: usize,
    /// The position.
    pub position: Position,
    /// The best score the file lists, if it lists any move.
    pub expected_score: Option<i32>,
    /// The moves the file gives that best score.
    pub expected_moves: Vec<Square>,
    /// The solver's answer.
    pub result: SolveResult,
    /// The answer checked against the file.
    pub verdict: Verdict,
    /// Label of the variant that solved it (empty when a run has one variant).
    pub variant: String,
    /// 1-based repetition of this position (1 unless repeated).
    pub repeat: u32,
    /// Peak memory of the process that solved it, in MB, when the row was made (the high
    /// water mark of its resident set: tables included, and every position before it).
    pub peak_mb: Option<f64>,
    /// The engine that solved it, as it names itself: `finale <version>`, `zebra`,
    /// `edax 4.4`, ...
    pub engine: String,
    /// Why another engine gave no answer (`timeout`, `error: ...`); `None` when solved.
    pub failure: Option<String>,
}

/// The row of `result`, the answer to `record`, checked against the file's values.
pub fn checked_row(file: &Path, index: usize, record: &ObfRecord, result: SolveResult) -> Row {
    let mode = result.mode;
    let mut verdict = check_values(
        mode,
        &record.expected,
        record.score,
        result.score,
        &result.best_moves,
        &result.move_scores,
    );
    if result.selectivity.is_probcut() {
        // A probable answer: its score is not held against it, only whether the move it
        // would play (its first best move) is a best move.
        let first = &result.best_moves[..result.best_moves.len().min(1)];
        verdict = Verdict {
            score_ok: None,
            moves_ok: check(mode, &record.expected, result.score, first, &[]).moves_ok,
        };
    }
    Row {
        index,
        file: file.to_path_buf(),
        line: record.line,
        position: record.position,
        expected_score: record.expected_score(),
        expected_moves: record.expected_best_moves(),
        result,
        verdict,
        variant: String::new(),
        repeat: 1,
        peak_mb: peak_mb(),
        engine: finale_engine(),
        failure: None,
    }
}

/// This program as the `engine` column names it: `finale <version>`.
pub fn finale_engine() -> String {
    format!("finale {}", env!("CARGO_PKG_VERSION"))
}

/// This process's peak memory in MB (as read in the last 50 ms), if the system tells.
pub fn peak_mb() -> Option<f64> {
    super::machine::recent_peak_memory_kb().map(|kb| kb as f64 / 1024.0)
}
