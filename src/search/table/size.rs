//! The table one deep solve gets by default: the default size up to
//! [`DEEP_HASH_FROM_EMPTIES`], doubled for each empty above, within
//! [`DEEP_HASH_MAX_MB`] and a share of the machine's memory. A search grows about three
//! times per empty, and a table too small for its search costs nodes slowly but surely.

use crate::settings::{
    DEEP_HASH_FROM_EMPTIES, DEEP_HASH_MAX_MB, DEEP_HASH_MEMORY_DIVISOR, DEFAULT_HASH_MB,
};

/// The default table in MB for a solve of `empties`, on this machine.
pub fn deep_hash_mb(empties: u32) -> usize {
    deep_hash_mb_within(empties, memory_mb())
}

/// [`deep_hash_mb`] on a machine of `memory_mb` (`None`: unknown, no more than the
/// default).
pub fn deep_hash_mb_within(empties: u32, memory_mb: Option<usize>) -> usize {
    let above = empties.saturating_sub(DEEP_HASH_FROM_EMPTIES).min(16);
    let wanted = (DEFAULT_HASH_MB << above).min(DEEP_HASH_MAX_MB);
    let allowed = memory_mb.map_or(DEFAULT_HASH_MB, |m| m / DEEP_HASH_MEMORY_DIVISOR);
    wanted.min(allowed).max(DEFAULT_HASH_MB.min(wanted))
}

/// The machine's memory in MB (`MemTotal` of `/proc/meminfo`), when it can be read.
fn memory_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_doubles_per_empty_above_the_threshold_within_memory() {
        let big = Some(1 << 20);
        assert_eq!(deep_hash_mb_within(20, big), DEFAULT_HASH_MB);
        assert_eq!(
            deep_hash_mb_within(DEEP_HASH_FROM_EMPTIES, big),
            DEFAULT_HASH_MB
        );
        assert_eq!(
            deep_hash_mb_within(DEEP_HASH_FROM_EMPTIES + 2, big),
            4 * DEFAULT_HASH_MB
        );
        assert_eq!(deep_hash_mb_within(60, big), DEEP_HASH_MAX_MB);
        // A machine of 4 GB gives a quarter of it; an unknown one the default.
        assert_eq!(
            deep_hash_mb_within(36, Some(4096)),
            4096 / DEEP_HASH_MEMORY_DIVISOR
        );
        assert_eq!(deep_hash_mb_within(36, None), DEFAULT_HASH_MB);
        // A tiny machine never gets less than the default would give.
        assert_eq!(deep_hash_mb_within(36, Some(64)), DEFAULT_HASH_MB);
    }
}
