//! A CSV that finale wrote, read back as one map from column name to value per row.

use std::collections::HashMap;
use std::path::Path;

/// The rows of the CSV at `path`; every row must have every column of the header.
pub fn rows(path: &Path) -> Vec<HashMap<String, String>> {
    let mut r = csv::Reader::from_path(path).expect("the file reads as CSV");
    let header: Vec<String> = r
        .headers()
        .expect("a header")
        .iter()
        .map(String::from)
        .collect();
    r.records()
        .map(|rec| {
            let rec = rec.expect("every row parses");
            assert_eq!(rec.len(), header.len(), "a row has every column");
            header
                .iter()
                .cloned()
                .zip(rec.iter().map(String::from))
                .collect()
        })
        .collect()
}
