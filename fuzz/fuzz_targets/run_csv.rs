//! The suite and batch CSVs `compare` and `report` read: `RunCsv` on arbitrary bytes (rows
//! read as the suite's and the batch's row types), then `run_compare` and `run_report` on
//! them as a file.
//!
//! Never a panic; every refusal is one line. The rows visited are the solved ones, in
//! line order. A file compared with itself has no node difference, ratios of exactly 1
//! and no significant difference. A report that succeeds has written an SVG.

#![no_main]

use finale::commands::report::run_report;
use finale::commands::run_compare;
use finale::commands::run_csv::RunCsv;
use libfuzzer_sys::fuzz_target;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Scratch files of this fuzzing process: the input and the SVG.
fn scratch() -> &'static [PathBuf; 2] {
    static PATHS: OnceLock<[PathBuf; 2]> = OnceLock::new();
    PATHS.get_or_init(|| {
        let name = |what: &str| {
            std::env::temp_dir().join(format!("finale-fuzz-runcsv-{}-{what}", std::process::id()))
        };
        [name("run.csv"), name("report.svg")]
    })
}

fn one_line(e: &finale::Error) {
    let message = e.to_string();
    assert!(!message.contains('\n'), "{message}");
}

fuzz_target!(|data: &[u8]| {
    let [csv_path, svg] = scratch();
    // The reader itself: solved rows only, lines in order.
    if let Ok(mut csv) = RunCsv::from_reader(data, Path::new("fuzz/run.csv")) {
        let status = csv.has("status");
        let mut last = 0;
        let visited = csv.for_each_solved(|row| {
            if status {
                assert_eq!(row.batch.status, "solved");
            }
            // Not strictly increasing: the csv crate ends records at a lone CR too, but
            // counts lines by LF, so two records can share a line number.
            assert!(row.line >= last, "line {} after line {last}", row.line);
            last = row.line;
            Ok(())
        });
        // A malformed row names the file; a value not of its column's type, the file and
        // its line (`fuzz/run.csv:3: bad nodes`).
        if let Err(e) = visited {
            one_line(&e);
            assert!(e.to_string().starts_with("fuzz/run.csv:"), "{e}");
        }
    }

    std::fs::write(csv_path, data).unwrap();
    let mut sink = Vec::new();
    match run_compare(&[csv_path.clone(), csv_path.clone()], &mut sink) {
        Ok(c) => {
            assert_eq!(c.node_differences, 0, "{c:?}");
            assert_eq!(c.node_ratio, 1.0, "{c:?}");
            assert_eq!(c.time_ratio, 1.0, "{c:?}");
            assert!(
                !c.verdict.contains("faster") && !c.verdict.contains("slower"),
                "{c:?}"
            );
        }
        Err(e) => one_line(&e),
    }
    sink.clear();
    if let Err(e) = run_compare(std::slice::from_ref(csv_path), &mut sink) {
        one_line(&e);
    }
    sink.clear();
    let _ = std::fs::remove_file(svg);
    match run_report(std::slice::from_ref(csv_path), svg, false, &mut sink) {
        Ok(()) => {
            let text = std::fs::read(svg).expect("the report wrote its SVG");
            assert!(text.starts_with(b"<svg"), "not an SVG");
        }
        Err(e) => one_line(&e),
    }
});
