//! The benchmark and command harness behind the `finale` binary: the suite runner, the
//! correctness check, the CSV, machine facts, and the `solve`, `perft` and `bench`
//! commands.
//!
//! Everything here is library code so that tests can drive it without a process.

pub mod bench;
pub mod calibrate;
pub mod check;
pub mod compare;
pub mod csv_out;
pub mod evaluate;
pub mod format;
pub mod generate;
pub mod histogram;
pub mod machine;
pub mod perft;
pub mod report;
pub mod run_csv;
pub mod solve;
pub mod suite;
pub mod train;
pub mod variant;

pub use bench::{BenchSummary, run_bench};
pub use check::{Verdict, check};
pub use compare::{Comparison, run_compare};
pub use csv_out::{CsvOut, CsvTarget, HEADER};
pub use generate::run_generate;
pub use perft::{MAX_PERFT_DEPTH, run_perft};
pub use report::run_report;
pub use solve::{SolveInput, SolveOutcome, SolveSettings, run_solve};
pub use suite::{Row, SuiteOptions, Summary, run_suite};
pub use variant::{Variant, VariantKind};

/// Largest transposition table accepted, in MB (1 TB).
pub const MAX_HASH_MB: u64 = 1 << 20;

/// Checks a table size: 1..=[`MAX_HASH_MB`] and no more than the machine's memory, since
/// the table is touched in full when allocated and would otherwise get the process killed.
pub fn check_hash_mb(mb: u64) -> std::result::Result<usize, String> {
    if mb == 0 || mb > MAX_HASH_MB {
        return Err(format!("{mb} MB is out of range (1..={MAX_HASH_MB})"));
    }
    if let Some(total) = machine::total_memory_mb()
        && mb > total
    {
        return Err(format!(
            "{mb} MB is more than this machine's memory ({total} MB)"
        ));
    }
    usize::try_from(mb).map_err(|_| format!("{mb} MB does not fit in memory addresses"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_sizes() {
        assert_eq!(check_hash_mb(16), Ok(16));
        assert!(check_hash_mb(0).is_err());
        assert!(check_hash_mb(MAX_HASH_MB + 1).is_err());
    }
}
