//! Resuming a calibration: `calibrate::parse_rows` on arbitrary bytes.
//!
//! Never a panic; every refusal is one line naming the file and a line. When it accepts
//! the text, its rows written out again by the csv writer (as `calibrate` writes them)
//! read back equal; and when the text is whole lines, as a resume leaves it, a row
//! appended to it the way `calibrate` appends is read back after the old rows.

#![no_main]

use finale::commands::calibrate::{CalRow, parse_rows};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

const PATH: &str = "fuzz/cal.csv";

fn appended() -> CalRow {
    CalRow {
        key: "0123456789abcdef".into(),
        file: "a file, \"quoted\"".into(),
        line: 3,
        board: "-".repeat(60) + "XOXO X",
        empties: 60,
        selectivity: 95,
        score: -4,
        r#move: "D3".into(),
        best_moves: "D3 C4".into(),
        exact_score: -2,
        exact_moves: "C4".into(),
        score_ok: false,
        move_ok: false,
        abs_error: 2,
        nodes: 12345,
        time_s: 0.25,
        exact_nodes: 99999,
        exact_time_s: 1.5,
        hash_mb: 64,
        git_rev: "0123456789ab-dirty".into(),
    }
}

fn write(text: Vec<u8>, headers: bool, rows: &[CalRow]) -> Vec<u8> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(headers)
        .from_writer(text);
    for r in rows {
        w.serialize(r).expect("a row serialises");
    }
    w.into_inner().expect("a flush to memory")
}

fuzz_target!(|data: &[u8]| {
    let path = Path::new(PATH);
    let rows = match parse_rows(data, path) {
        Ok(rows) => rows,
        Err(e) => {
            let message = e.to_string();
            assert!(message.starts_with("fuzz/cal.csv:"), "{message}");
            assert!(!message.contains('\n'), "{message}");
            return;
        }
    };
    let again = write(Vec::new(), true, &rows);
    let back = parse_rows(&again, path).unwrap_or_else(|e| panic!("its own rows refused: {e}"));
    assert!(back == rows, "rows written and read back changed");

    if data.is_empty() || data.ends_with(b"\n") {
        let row = appended();
        // `calibrate` writes a header only into an empty file.
        let text = write(data.to_vec(), data.is_empty(), std::slice::from_ref(&row));
        let resumed =
            parse_rows(&text, path).unwrap_or_else(|e| panic!("refused after an append: {e}"));
        let mut expected = rows;
        expected.push(row);
        assert!(
            resumed == expected,
            "the appended row was not read back after the others"
        );
    }
});
