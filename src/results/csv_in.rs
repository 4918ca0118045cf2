//! Reading the suite and batch CSVs back into the row types they are written from
//! ([`CsvRow`](super::CsvRow), [`BatchRow`]), for compare, report, the batch's resume and merge.
//!
//! Compare and report match columns to fields by the header's names ([`read_row`]): extra
//! columns are ignored, and a column the file lacks reads as empty, so CSVs of older
//! finales (fewer columns) and of other tools (other orders) still read. Resume and merge
//! take only the batch header, and read by position ([`read_batch_row`]). A value that is
//! not of its column's type is reported with its line and column name, for the caller to
//! word. (Integers are the csv crate's: `0x` hexadecimal is taken too.)

use super::csv_row::{BATCH_COLUMNS, BatchRow, HEADER};
use csv::StringRecord;
use serde::de::DeserializeOwned;

/// The longest solve time accepted from a CSV, in seconds (about 31 years). Larger values
/// are not measurements, and they would overflow the sums and plot ranges built from them.
pub const MAX_SECONDS: f64 = 1e9;

/// The most empty squares a board can have.
pub const MAX_EMPTIES: u32 = 64;

/// Whether `t` can be a solve time in seconds: from 0 to [`MAX_SECONDS`] (not NaN).
pub fn is_seconds(t: f64) -> bool {
    (0.0..=MAX_SECONDS).contains(&t)
}

/// `text` as a solve time in seconds (see [`is_seconds`]).
pub fn parse_seconds(text: &str) -> Option<f64> {
    text.parse::<f64>().ok().filter(|&t| is_seconds(t))
}

/// A value that does not read as its column's type, and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadValue {
    /// 1-based line in the file.
    pub line: u64,
    /// The column's name in the header.
    pub column: String,
}

/// `record` as a `T`, its fields found by the names in `header` (see the module doc).
pub fn read_row<T: DeserializeOwned>(
    record: &StringRecord,
    header: &StringRecord,
) -> Result<T, BadValue> {
    record
        .deserialize(Some(header))
        .map_err(|e| bad_value(&e, |i| header.get(i)))
}

/// `record` as a batch row, by position: for a file whose header has been checked to be
/// the batch header ([`HEADER`] then [`BATCH_COLUMNS`]), such as an output resumed or a
/// merge input. By name, resuming a million rows took about twice as long as finding
/// their keys alone (2.3 s against 1.2 s); by position, about 10 % longer.
pub fn read_batch_row(record: &StringRecord) -> Result<BatchRow<&str>, BadValue> {
    record
        .deserialize(None)
        .map_err(|e| bad_value(&e, |i| HEADER.iter().chain(&BATCH_COLUMNS).nth(i).copied()))
}

/// Where the csv crate's error `e` is, the column named by `name` of its field index.
fn bad_value<'h>(e: &csv::Error, name: impl Fn(usize) -> Option<&'h str>) -> BadValue {
    let line = e.position().map_or(0, |p| p.line());
    // Every value error of the csv crate's deserializer names its field. Only serde's
    // own errors do not (a column named twice, which `duplicate_column` finds first).
    let column = match e.kind() {
        csv::ErrorKind::Deserialize { err, .. } => err
            .field()
            .and_then(|i| name(i as usize))
            .map(String::from)
            .unwrap_or_else(|| format!("row ({})", err.kind())),
        kind => format!("row ({kind:?})"),
    };
    BadValue { line, column }
}

/// The first column of the row types that `header` names twice, if any: its rows could
/// not be read by name. (Other columns are not read, so they may repeat.)
pub fn duplicate_column(header: &StringRecord) -> Option<&str> {
    let mut seen = std::collections::HashSet::new();
    header
        .iter()
        .filter(|name| HEADER.contains(name) || BATCH_COLUMNS.contains(name))
        .find(|&name| !seen.insert(name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{BatchColumns, CsvRow};

    fn records(text: &str) -> (StringRecord, Vec<StringRecord>) {
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let header = r.headers().expect("header").clone();
        let rows = r.records().map(|x| x.expect("record")).collect();
        (header, rows)
    }

    #[test]
    fn columns_are_found_by_name_and_missing_ones_are_empty() {
        let (header, rows) = records(
            "extra,nodes,key,time_s,status\n\
             zz,1528,84d90ec4669fdfc3,0.000057,solved\n",
        );
        let row: CsvRow = read_row(&rows[0], &header).expect("reads");
        assert_eq!(row.nodes, Some(1528));
        assert_eq!(row.key, "84d90ec4669fdfc3");
        assert_eq!(row.time_s, "0.000057");
        assert_eq!(row.empties, None);
        assert_eq!(row.peak_mb, "");
        let batch: BatchColumns = read_row(&rows[0], &header).expect("reads");
        assert_eq!(batch.status, "solved");
        assert_eq!(batch.probable_move, "");
    }

    /// A batch row as a finale writes it: read by position, and written back the same.
    #[test]
    fn a_batch_row_reads_by_position_and_writes_back_the_same() {
        let header = "index,file,empties,side,mode,score,best_moves,expected_score,\
                      expected_moves,ok,nodes,time_s,nps,threads,hash_mb,pv,git_rev,cpu,\
                      profile,move_scores,key,board,variant,repeat,selectivity,best_found_s,\
                      peak_mb,engine,engine_status,alpha,beta,lower,upper,status,\
                      probable_score,probable_level,probable_move,line\n";
        let timeout = "7,in.obf,24,O,exact,,,,,,123456,600.000001,,1,64,,abc,\"AMD, EPYC\",\
                       release,,84d90ec4669fdfc3,b,,1,,,310.5,,,-64,64,,,timeout,+6,87%,C4,12\n";
        let (_, rows) = records(&format!("{header}{timeout}"));
        let (row, batch) = read_batch_row(&rows[0]).expect("reads");
        assert_eq!(
            (row.index, row.empties, row.score),
            (Some(7), Some(24), None)
        );
        assert_eq!((row.nodes, row.time_s), (Some(123456), "600.000001"));
        assert_eq!((row.cpu, row.key), ("AMD, EPYC", "84d90ec4669fdfc3"));
        assert_eq!((row.selectivity, row.peak_mb), (None, "310.5"));
        assert_eq!(batch.status, "timeout");
        assert_eq!(batch.probable_score, "+6");
        assert_eq!((batch.probable_move, batch.line), ("C4", "12"));
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        w.serialize((row, batch)).expect("serializes");
        let text = String::from_utf8(w.into_inner().expect("flushed")).expect("utf-8");
        assert_eq!(text, timeout);

        let bad = timeout.replace(",64,", ",6.4,");
        let (_, rows) = records(&format!("{header}{timeout}{bad}"));
        let e = read_batch_row(&rows[1]).expect_err("refused");
        let column = "hash_mb".to_string();
        assert_eq!(e, BadValue { line: 3, column });
    }

    #[test]
    fn a_bad_value_names_its_line_and_column() {
        let (header, rows) = records(
            "key,empties,nodes,ok\n\
             a,20,100,true\n\
             b,21,1.5,true\n\
             c,-3,100,true\n\
             d,20,100,yes\n",
        );
        assert!(read_row::<CsvRow>(&rows[0], &header).is_ok());
        let bad = |i: usize| read_row::<CsvRow>(&rows[i], &header).expect_err("refused");
        for (i, line, column) in [(1, 3, "nodes"), (2, 4, "empties"), (3, 5, "ok")] {
            let column = column.to_string();
            assert_eq!(bad(i), BadValue { line, column });
        }
    }

    #[test]
    fn a_column_named_twice_is_found() {
        let (header, _) = records("key,nodes,mode,nodes\n");
        assert_eq!(duplicate_column(&header), Some("nodes"));
        let (header, _) = records("key,nodes,mode,status,status\n");
        assert_eq!(duplicate_column(&header), Some("status"));
        let (header, _) = records("key,note,nodes,note\n");
        assert_eq!(duplicate_column(&header), None);
    }
}
