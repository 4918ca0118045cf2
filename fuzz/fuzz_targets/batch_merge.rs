//! Merging batch outputs: `run_merge` on up to three files of arbitrary bytes (the input
//! split at NUL bytes).
//!
//! Never a panic. When it succeeds, the output must be a CSV with the batch header and
//! that many columns in every row, every row a row of an input, each (key, mode) of the
//! inputs there exactly once, and the summary's counts must add up.

#![no_main]

use finale::board::key::parse_key;
use finale::results::batch_header as header;
use finale::batch::run_merge;
use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::OnceLock;

/// Scratch files of this fuzzing process: three inputs and the output.
fn scratch() -> &'static [PathBuf; 4] {
    static PATHS: OnceLock<[PathBuf; 4]> = OnceLock::new();
    PATHS.get_or_init(|| {
        let name = |what: &str| {
            std::env::temp_dir().join(format!(
                "finale-fuzz-merge-{}-{what}.csv",
                std::process::id()
            ))
        };
        [name("a"), name("b"), name("c"), name("out")]
    })
}

/// All rows of a CSV the merge accepted (header checked by the merge itself).
fn rows_of(text: &[u8]) -> Vec<Vec<String>> {
    let mut reader = csv::Reader::from_reader(text);
    reader
        .records()
        .map(|r| {
            r.expect("a row the merge read")
                .iter()
                .map(String::from)
                .collect()
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let paths = scratch();
    let parts: Vec<&[u8]> = data.splitn(3, |&b| b == 0).collect();
    let mut inputs = Vec::new();
    for (part, path) in parts.iter().zip(paths.iter()) {
        std::fs::write(path, part).unwrap();
        inputs.push(path.clone());
    }
    let out = &paths[3];
    let mut report = Vec::new();
    let Ok(summary) = run_merge(&inputs, out, true, &mut report) else {
        return;
    };

    let h = header();
    let col = |name: &str| h.iter().position(|&c| c == name).unwrap();
    let (key_col, mode_col) = (col("key"), col("mode"));
    let text = std::fs::read(out).unwrap();
    let mut reader = csv::Reader::from_reader(text.as_slice());
    let found = reader.headers().expect("a readable header").clone();
    assert_eq!(found.iter().collect::<Vec<_>>(), h, "output header");
    let mut written = Vec::new();
    for record in reader.records() {
        let record = record.expect("a readable output row");
        assert_eq!(record.len(), h.len(), "output row {record:?}");
        written.push(record.iter().map(String::from).collect::<Vec<_>>());
    }

    let input_rows: Vec<Vec<String>> = parts.iter().flat_map(|p| rows_of(p)).collect();
    let ident = |r: &Vec<String>| {
        (
            parse_key(&r[key_col]).expect("a valid key"),
            r[mode_col].clone(),
        )
    };
    let all: HashSet<_> = input_rows.iter().map(ident).collect();
    let mut seen = HashSet::new();
    for r in &written {
        assert!(
            input_rows.contains(r),
            "written row not in any input: {r:?}"
        );
        assert!(
            seen.insert(ident(r)),
            "position and mode written twice: {r:?}"
        );
    }
    assert_eq!(
        seen, all,
        "some position and mode of the inputs not written"
    );

    assert_eq!(summary.written, written.len() as u64);
    assert_eq!(summary.rows, input_rows.len() as u64);
    assert_eq!(
        summary.rows,
        summary.written + summary.duplicates + summary.upgraded
    );
    assert!(summary.conflicts <= summary.duplicates);
    let report = String::from_utf8(report).expect("a UTF-8 report");
    let last = report.lines().last().expect("a summary line");
    assert!(
        last.starts_with(&format!("rows {} ", summary.rows)),
        "{last}"
    );
    // (A mode or score may hold a newline, so count the reports, not lines.)
    assert!(report.matches("conflict: position ").count() as u64 >= summary.conflicts);
});
