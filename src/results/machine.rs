//! Facts about the build and the machine recorded with every benchmark row: git revision,
//! CPU model, build profile, today's date and the memory available for the table.

use std::time::{SystemTime, UNIX_EPOCH};

/// The git revision the binary was built from (`build.rs`): 12 hex digits, `-dirty` when
/// the working tree had changes, `unknown` outside a git checkout.
pub fn git_rev() -> &'static str {
    env!("FINALE_GIT_REV")
}

/// `release` or `debug`: node rates of a debug build are not comparable.
pub fn profile() -> &'static str {
    if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    }
}

/// The CPU's "model name" from /proc/cpuinfo; empty when unavailable (non-Linux systems).
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| cpu_model_from(&text))
        .unwrap_or_default()
}

/// The first "model name" value in cpuinfo text.
fn cpu_model_from(cpuinfo: &str) -> Option<String> {
    cpuinfo.lines().find_map(|line| {
        let (key, value) = line.split_once(':')?;
        (key.trim() == "model name").then(|| value.trim().to_string())
    })
}

/// Physical memory in MB from /proc/meminfo (`MemTotal`), `None` when unavailable.
pub fn total_memory_mb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// This process's peak resident memory in kB (`VmHWM` of /proc/self/status), `None` when
/// unavailable (non-Linux systems). Not getrusage's `ru_maxrss`: that survives exec, so a
/// process started by a big one (a test harness) would report its parent's peak.
pub fn peak_memory_kb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = text.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// [`peak_memory_kb`], read again only when 50 ms have passed since the last time:
/// reading the file costs about as much as solving a position of a few empties, and a
/// batch writes a row for each.
pub fn recent_peak_memory_kb() -> Option<u64> {
    use std::sync::Mutex;
    use std::time::Instant;
    static LAST: Mutex<Option<(Instant, Option<u64>)>> = Mutex::new(None);
    let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    match *last {
        Some((at, kb)) if at.elapsed().as_millis() < 50 => kb,
        _ => {
            let kb = peak_memory_kb();
            *last = Some((Instant::now(), kb));
            kb
        }
    }
}

/// Today's date (UTC) as `YYYY-MM-DD`.
pub fn today() -> String {
    // A clock before 1970 is a broken clock; day 0 is as good an answer as any.
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    format_date(secs.div_euclid(86_400) as i64)
}

/// Days since 1970-01-01 as `YYYY-MM-DD`.
pub fn format_date(days: i64) -> String {
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Proleptic Gregorian (year, month 1..=12, day 1..=31) of a day count since 1970-01-01.
///
/// Howard Hinnant's `civil_from_days`: shift the year to start on 1 March so that the leap
/// day is the last day of the year, then split into 400-year eras of 146 097 days.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468; // days from 0000-03-01 to 1970-01-01
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097); // day of era, 0..=146096
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365; // year of era, 0..=399
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // day of year from 1 March, 0..=365
    let mp = (5 * doy + 2) / 153; // month from March, 0..=11
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// Largest transposition table accepted, in MB (1 TB).
pub const MAX_HASH_MB: u64 = 1 << 20;

/// Checks a table size: 1..=[`MAX_HASH_MB`] and no more than the machine's memory, since
/// the table is touched in full when allocated and would otherwise get the process killed.
pub fn check_hash_mb(mb: u64) -> std::result::Result<usize, String> {
    if mb == 0 || mb > MAX_HASH_MB {
        return Err(format!("{mb} MB is out of range (1..={MAX_HASH_MB})"));
    }
    if let Some(total) = total_memory_mb()
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

    #[test]
    fn known_dates() {
        assert_eq!(format_date(0), "1970-01-01");
        assert_eq!(format_date(-1), "1969-12-31");
        assert_eq!(format_date(365), "1971-01-01");
        assert_eq!(format_date(10_956), "1999-12-31");
        assert_eq!(format_date(10_957), "2000-01-01");
        // 2000 is a leap year (divisible by 400): 31 + 28 days after 1 January.
        assert_eq!(format_date(10_957 + 59), "2000-02-29");
        assert_eq!(format_date(10_957 + 60), "2000-03-01");
        // 2100 is not (divisible by 100 only): 28 February is followed by 1 March.
        assert_eq!(format_date(47_482 + 58), "2100-02-28");
        assert_eq!(format_date(47_482 + 59), "2100-03-01");
        assert_eq!(format_date(20_415), "2025-11-23");
        assert_eq!(format_date(20_779), "2026-11-22");
    }

    #[test]
    fn day_count_round_trips_over_centuries() {
        // Walk day by day from 1900 to 2200 checking that the date always advances by one.
        let mut prev = civil_from_days(-25_567); // 1900-01-01
        assert_eq!(prev, (1900, 1, 1));
        for days in -25_566..110_000 {
            let cur = civil_from_days(days);
            let leap = |y: i64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
            let month_len = |y: i64, m: u32| match m {
                2 if leap(y) => 29,
                2 => 28,
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            };
            let expected = if prev.2 < month_len(prev.0, prev.1) {
                (prev.0, prev.1, prev.2 + 1)
            } else if prev.1 < 12 {
                (prev.0, prev.1 + 1, 1)
            } else {
                (prev.0 + 1, 1, 1)
            };
            assert_eq!(cur, expected, "day {days}");
            prev = cur;
        }
    }

    #[test]
    fn cpu_model_parsing() {
        let text = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\n";
        assert_eq!(cpu_model_from(text).as_deref(), Some("AMD EPYC 7B13"));
        assert_eq!(cpu_model_from("processor : 0\n"), None);
    }

    #[test]
    fn git_rev_is_set() {
        assert!(!git_rev().is_empty());
    }
}
