//! Distribution summaries of per-position time and speed (HDR histograms): p50, p90, p99
//! and max, so a run's tail is visible, not only its total.

use hdrhistogram::Histogram;
use std::time::Duration;

/// Per-position times and node rates of a run.
pub struct Distribution {
    /// Microseconds per position.
    time_us: Histogram<u64>,
    /// Nodes per second per position.
    nps: Histogram<u64>,
}

impl Default for Distribution {
    fn default() -> Self {
        Distribution::new()
    }
}

impl Distribution {
    /// An empty distribution (3 significant digits).
    pub fn new() -> Distribution {
        // Fixed bounds (1 to 2^40: 12 days in microseconds, 10^12 nodes/s) with 3
        // significant digits are valid arguments, so building cannot fail; values beyond
        // them saturate.
        let h = || Histogram::new_with_bounds(1, 1 << 40, 3).expect("valid histogram bounds");
        Distribution {
            time_us: h(),
            nps: h(),
        }
    }

    /// Adds one position.
    pub fn record(&mut self, nodes: u64, time: Duration) {
        let us = time.as_micros().min(u64::MAX as u128) as u64;
        self.time_us.saturating_record(us.max(1));
        let secs = time.as_secs_f64();
        if secs > 0.0 {
            self.nps.saturating_record((nodes as f64 / secs) as u64);
        }
    }

    /// Number of positions recorded.
    pub fn len(&self) -> u64 {
        self.time_us.len()
    }

    /// True when nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Two lines: time and M nodes/s at p50, p90, p99 and max.
    pub fn report(&self) -> String {
        if self.is_empty() {
            return String::new();
        }
        let t = |q: f64| self.time_us.value_at_quantile(q) as f64 / 1e6;
        let n = |q: f64| self.nps.value_at_quantile(q) as f64 / 1e6;
        format!(
            "time/pos      p50 {:.4} s  p90 {:.4} s  p99 {:.4} s  max {:.4} s\n\
             Mnps/pos      p50 {:.2}  p90 {:.2}  p99 {:.2}  max {:.2}\n",
            t(0.5),
            t(0.9),
            t(0.99),
            self.time_us.max() as f64 / 1e6,
            n(0.5),
            n(0.9),
            n(0.99),
            self.nps.max() as f64 / 1e6,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_of_a_known_spread() {
        let mut d = Distribution::new();
        // 1 ms .. 100 ms, one position each, at 10 M nodes/s.
        for ms in 1..=100u64 {
            d.record(ms * 10_000, Duration::from_millis(ms));
        }
        assert_eq!(d.len(), 100);
        let r = d.report();
        assert!(r.contains("p50 0.050"), "{r}");
        assert!(r.contains("p90 0.090"), "{r}");
        assert!(r.contains("max 0.100"), "{r}");
        assert!(r.contains("p50 10.00"), "{r}");
    }
}
