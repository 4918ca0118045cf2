//! What the suite and the batch share: the row of a solved position and its check against
//! the input, the CSV rows it is written as and read back into, text forms of scores and
//! moves, machine facts, and the distribution of per-position figures. Below both, so that
//! neither imports the other.

pub mod check;
pub mod csv_in;
pub mod csv_out;
pub mod csv_row;
pub mod format;
pub mod histogram;
pub mod machine;
pub mod row;

pub use check::{Verdict, check, check_values};
pub use csv_out::{CsvOut, CsvTarget, SUITE_COLUMNS};
pub use csv_row::{BATCH_COLUMNS, BatchColumns, BatchRow, CsvRow, HEADER, RunInfo, batch_header};
pub use machine::{MAX_HASH_MB, check_hash_mb};
pub use row::{Row, checked_row, peak_mb};
