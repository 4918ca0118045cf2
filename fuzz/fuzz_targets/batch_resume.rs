//! Resuming a batch: `BatchOut::open` on a file holding arbitrary bytes.
//!
//! Never a panic. A file it refuses is left as it was. When it accepts the file, the file
//! must be what it was up to its last newline (the torn last row dropped), or a fresh
//! header when there was no whole line (only a header cut short is accepted then); it must
//! read as a CSV with the batch header and that many columns in every row (and every
//! value of its column's type and such as finale writes, which `BatchOut` checks and this
//! target does not); the keys reported done must be the keys of the rows of the mode asked
//! for (exact, or none: a malformed line's row); and a row appended then must be found on
//! the next resume, with the file still whole.

#![no_main]

use finale::batch::BatchOut;
use finale::results::batch_header as header;
use finale::search::Mode;
use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// One scratch file per fuzzing process.
fn scratch() -> &'static Path {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        std::env::temp_dir().join(format!("finale-fuzz-resume-{}.csv", std::process::id()))
    })
}

/// The keys of the rows of mode exact (or of no mode: a malformed line's row), after
/// checking the header and every row's width with the csv crate.
fn keys_of(text: &[u8]) -> HashSet<u64> {
    let h = header();
    let key_col = h.iter().position(|&c| c == "key").unwrap();
    let mode_col = h.iter().position(|&c| c == "mode").unwrap();
    let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(text);
    let found = reader.headers().expect("a readable header").clone();
    assert_eq!(found.iter().collect::<Vec<_>>(), h);
    let mut keys = HashSet::new();
    for record in reader.records() {
        let record = record.expect("a readable row");
        assert_eq!(record.len(), h.len(), "row {record:?}");
        let key = record.get(key_col).unwrap();
        let key = finale::board::key::parse_key(key).expect("a valid key");
        if matches!(record.get(mode_col), Some("exact" | "")) {
            keys.insert(key);
        }
    }
    keys
}

/// A solved exact row of the start position, with the values a resume checks (the
/// other columns empty), and its key.
fn start_row() -> (Vec<String>, u64) {
    let start = finale::board::Position::START;
    let key = finale::board::key::position_key(&start);
    let row = header()
        .iter()
        .map(|&c| match c {
            "side" => "X".to_string(),
            "mode" => "exact".to_string(),
            "score" => "+0".to_string(),
            "time_s" => "0.001000".to_string(),
            "key" => finale::board::key::key_hex(key),
            "board" => start.squares_string(),
            "status" => "solved".to_string(),
            "line" => "1".to_string(),
            _ => String::new(),
        })
        .collect();
    (row, key)
}

fuzz_target!(|data: &[u8]| {
    let path = scratch();
    std::fs::write(path, data).unwrap();
    let Ok((mut out, resumed)) = BatchOut::open(path, Mode::Exact) else {
        // Refused: the file is left exactly as it was, torn last line included.
        let after = std::fs::read(path).unwrap();
        assert!(after == data, "a refused file was changed");
        return;
    };
    let keep = if data.last().is_none_or(|&b| b == b'\n') {
        data.len()
    } else {
        data.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)
    };
    assert_eq!(resumed.dropped_bytes, (data.len() - keep) as u64);
    let after = std::fs::read(path).unwrap();
    if keep == 0 {
        let fresh = header().join(",") + "\n";
        assert!(
            fresh.as_bytes().starts_with(data),
            "accepted a file with no whole line"
        );
        assert_eq!(after, fresh.as_bytes());
        assert!(resumed.done.is_empty());
    } else {
        assert_eq!(
            after,
            &data[..keep],
            "an accepted file was changed beyond its torn row"
        );
    }
    assert_eq!(keys_of(&after), resumed.done, "keys reported done");

    // Resuming appends; the appended row must be read back on the next resume.
    let (row, key) = start_row();
    out.write_record(&row).unwrap();
    drop(out);
    let text = std::fs::read(path).unwrap();
    let (_, again) = BatchOut::open(path, Mode::Exact).unwrap_or_else(|e| {
        panic!(
            "refuses its own file after appending: {e}\n{}",
            String::from_utf8_lossy(&text)
        )
    });
    assert_eq!(again.dropped_bytes, 0);
    let mut expected = resumed.done.clone();
    expected.insert(key);
    assert_eq!(again.done, expected, "appended row lost");
    assert_eq!(keys_of(&text), expected);
});
