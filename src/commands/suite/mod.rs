//! The benchmark runner: solves every position of some OBF files with one solver, checks
//! each answer against the file, prints a table row and writes a CSV row as each position
//! finishes, then sums up.

mod options;
mod run;
mod small;
mod summary;
mod table;

pub use options::SuiteOptions;
pub use small::{POSITIONS_AT_ONCE_MAX_EMPTIES, SUITE_SMALL_RUN_MAX};
pub use summary::Summary;
pub use table::{table_header, table_row};

use crate::board::{ObfRecord, read_obf_file};
use crate::error::{Error, Result, SuiteError};
use run::SuiteRun;
use std::io::Write;
use std::path::PathBuf;

/// Runs a suite: reads every file first (so a malformed line in the last file is reported
/// before hours of solving), opens the CSV, then solves, printing to `out` and writing the
/// CSV row by row so an interrupted run keeps what it finished.
pub fn run_suite(
    files: &[PathBuf],
    options: &SuiteOptions,
    out: &mut impl Write,
) -> Result<Summary> {
    if files.is_empty() {
        return Err(SuiteError::NoFile.into());
    }
    let suites: Vec<(&PathBuf, Vec<ObfRecord>)> = files
        .iter()
        .map(|f| {
            read_obf_file(f)
                .map(|records| (f, records))
                .map_err(Error::from)
        })
        .collect::<Result<_>>()?;
    let total = suites.iter().map(|(_, r)| r.len()).sum();
    let mut run = SuiteRun::new(&files[0], &suites, total, options)?;
    let mut stopped = None;
    for (file, records) in &suites {
        stopped = run.solve_file(file, records, out)?;
        if stopped.is_some() {
            break;
        }
    }
    run.finish(stopped, out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interrupt::Interrupt;
    use crate::results::csv_out::CsvTarget;
    use crate::search::{Mode, SearchOptions};

    /// One thread, exact, a 1 MB table, the CSV to `csv`.
    fn options(csv: CsvTarget) -> SuiteOptions {
        SuiteOptions {
            progress: false,
            mode: Mode::Exact,
            hash_mb: 1,
            search: SearchOptions::default(),
            threads: 1,
            oversubscribe: false,
            csv,
            repeat: 1,
            variants: Vec::new(),
            time_limit: None,
            interrupt: Interrupt::new(),
        }
    }

    const FFO1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6;";

    #[test]
    fn runs_a_suite_and_writes_rows() {
        let dir = tempfile::tempdir().expect("temp dir");
        let obf = dir.path().join("two.obf");
        // The second copy claims +20: one wrong score.
        let wrong = FFO1.replace("G8:+18", "G8:+20");
        std::fs::write(&obf, format!("% comment\n{FFO1}\n\n{wrong}\n")).expect("write obf");
        let csv = dir.path().join("out.csv");
        let options = options(CsvTarget::Path(csv.clone()));
        let mut out = Vec::new();
        let summary = run_suite(std::slice::from_ref(&obf), &options, &mut out).expect("runs");
        assert_eq!(summary.positions, 2);
        assert_eq!((summary.wrong_moves, summary.wrong_scores), (0, 1));
        assert!(!summary.all_ok());
        assert_eq!(summary.csv_path.as_deref(), Some(csv.as_path()));

        let text = String::from_utf8(out).expect("utf-8");
        assert!(text.contains("BAD-SCORE"), "{text}");
        assert!(text.contains("wrong scores  1"), "{text}");

        let mut reader = csv::Reader::from_path(&csv).expect("csv");
        let header: Vec<String> = reader
            .headers()
            .expect("header")
            .iter()
            .map(String::from)
            .collect();
        let mut want = crate::results::HEADER.to_vec();
        want.extend(crate::results::SUITE_COLUMNS);
        assert_eq!(header, want);
        let rows: Vec<csv::StringRecord> = reader
            .records()
            .collect::<std::result::Result<_, _>>()
            .expect("rows");
        assert_eq!(rows.len(), 2);
        assert_eq!(&rows[0][0], "1");
        assert_eq!(&rows[0][5], "18");
        assert_eq!(&rows[0][9], "true");
        assert_eq!(&rows[1][0], "2");
        assert_eq!(&rows[1][7], "20");
        assert_eq!(&rows[1][9], "false");
    }

    #[test]
    fn a_bad_file_fails_before_any_csv() {
        let dir = tempfile::tempdir().expect("temp dir");
        let good = dir.path().join("good.obf");
        let bad = dir.path().join("bad.obf");
        std::fs::write(&good, format!("{FFO1}\n")).expect("write");
        std::fs::write(&bad, format!("{FFO1}\nnot a board\n")).expect("write");
        let options = options(CsvTarget::Default(dir.path().join("results")));
        let err = run_suite(&[good, bad], &options, &mut Vec::new()).expect_err("bad line");
        assert!(err.to_string().contains("bad.obf:2:"), "{err}");
        assert!(!dir.path().join("results").exists());
    }
}
