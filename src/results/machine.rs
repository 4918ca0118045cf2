//! Facts about the build and the machine recorded with every benchmark row: git revision,
//! CPU model, build profile, today's date and the memory available for the table.

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
    format_date(time::OffsetDateTime::now_utc().date())
}

/// A date as `YYYY-MM-DD`.
pub fn format_date(d: time::Date) -> String {
    format!("{:04}-{:02}-{:02}", d.year(), u8::from(d.month()), d.day())
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
    fn dates_are_year_month_day() {
        use time::{Date, Month};
        let d = |y, m, day| format_date(Date::from_calendar_date(y, m, day).expect("date"));
        assert_eq!(d(1970, Month::January, 1), "1970-01-01");
        assert_eq!(d(2000, Month::February, 29), "2000-02-29");
        assert_eq!(d(2026, Month::November, 5), "2026-11-05");
        assert_eq!(d(999, Month::December, 31), "0999-12-31");
        assert_eq!(today().len(), 10);
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
