//! The calibration table: per level and band of empties, what a probable answer is worth.

use super::rows::CalRow;

/// Bands of empties the table reports separately.
const BANDS: [(u32, u32); 6] = [(0, 13), (14, 19), (20, 24), (25, 29), (30, 34), (35, 60)];

/// One line of the calibration table: a level over a band of empties (or all of them).
#[derive(Clone, Debug, PartialEq)]
pub struct CalLine {
    /// Selectivity in percent.
    pub level: u8,
    /// Empties, inclusive.
    pub band: (u32, u32),
    /// Positions.
    pub positions: usize,
    /// Share of probable scores equal to the exact score.
    pub score_exact: f64,
    /// Share of probable moves that are a best move.
    pub best_move: f64,
    /// Mean |probable score - exact score|, discs.
    pub mean_abs_error: f64,
    /// Nodes over the exact solves' nodes (sums).
    pub nodes_ratio: f64,
    /// Time over the exact solves' time (sums).
    pub time_ratio: f64,
}

impl CalLine {
    /// Whether the level keeps its promise here: the probable move is a best move in at
    /// least `level` % of positions and, from 95 % up, the score is exact in at least 90 %.
    pub fn kept(&self) -> bool {
        let p = f64::from(self.level) / 100.0;
        self.best_move >= p && (self.level < 95 || self.score_exact >= 0.9)
    }
}

/// The table of `rows`: per level, one line per band that has positions, then one over
/// all empties.
pub fn calibration_table(rows: &[CalRow]) -> Vec<CalLine> {
    let mut levels: Vec<u8> = rows
        .iter()
        .map(|r| r.selectivity)
        .filter(|&s| s < 100)
        .collect();
    levels.sort_unstable();
    levels.dedup();
    let mut table = Vec::new();
    for level in levels {
        let mut bands: Vec<(u32, u32)> = BANDS.to_vec();
        bands.push((0, 60));
        for band in bands {
            let sel: Vec<&CalRow> = rows
                .iter()
                .filter(|r| r.selectivity == level && (band.0..=band.1).contains(&r.empties))
                .collect();
            if sel.is_empty() {
                continue;
            }
            let n = sel.len() as f64;
            let share = |f: fn(&CalRow) -> bool| sel.iter().filter(|r| f(r)).count() as f64 / n;
            let sum = |f: fn(&CalRow) -> f64| sel.iter().map(|r| f(r)).sum::<f64>();
            let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
            table.push(CalLine {
                level,
                band,
                positions: sel.len(),
                score_exact: share(|r| r.score_ok),
                best_move: share(|r| r.move_ok),
                mean_abs_error: sum(|r| f64::from(r.abs_error)) / n,
                nodes_ratio: ratio(sum(|r| r.nodes as f64), sum(|r| r.exact_nodes as f64)),
                time_ratio: ratio(sum(|r| r.time_s), sum(|r| r.exact_time_s)),
            });
        }
    }
    table
}

/// The table as aligned text.
pub fn format_table(table: &[CalLine]) -> String {
    let mut s = String::from(
        "level  empties  positions  score exact  best move  mean |err|  nodes/exact  time/exact  promise\n",
    );
    for l in table {
        let band = if l.band == (0, 60) {
            "all".to_string()
        } else {
            format!("{}-{}", l.band.0, l.band.1)
        };
        s += &format!(
            "{:>4}%  {:>7}  {:>9}  {:>10.1}%  {:>8.1}%  {:>10.2}  {:>11.3}  {:>10.3}  {}\n",
            l.level,
            band,
            l.positions,
            100.0 * l.score_exact,
            100.0 * l.best_move,
            l.mean_abs_error,
            l.nodes_ratio,
            l.time_ratio,
            if l.kept() { "kept" } else { "BROKEN" }
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(empties: u32, selectivity: u8, score: i32, exact: i32, move_ok: bool) -> CalRow {
        CalRow {
            key: format!("{empties}-{selectivity}-{score}"),
            file: "f.obf".into(),
            line: 1,
            board: String::new(),
            empties,
            selectivity,
            score,
            r#move: "A1".into(),
            best_moves: "A1".into(),
            exact_score: exact,
            exact_moves: "A1".into(),
            score_ok: score == exact,
            move_ok,
            abs_error: score.abs_diff(exact),
            nodes: 10,
            time_s: 1.0,
            exact_nodes: 40,
            exact_time_s: 2.0,
            hash_mb: 1,
            git_rev: "x".into(),
        }
    }

    #[test]
    fn table_counts_shares_errors_and_ratios_by_band() {
        // Two positions of 16 empties and two of 22 at 95 %, plus exact rows (ignored).
        let rows = vec![
            row(16, 95, 4, 4, true),
            row(16, 95, 2, 6, false),
            row(22, 95, -2, -2, true),
            row(22, 95, 0, -2, true),
            row(16, 100, 4, 4, true),
        ];
        let t = calibration_table(&rows);
        let line = |b: (u32, u32)| t.iter().find(|l| l.band == b).unwrap();
        assert_eq!(t.len(), 3, "bands 14-19, 20-24 and all: {t:?}");
        let low = line((14, 19));
        assert_eq!(low.positions, 2);
        assert_eq!((low.score_exact, low.best_move), (0.5, 0.5));
        assert_eq!(low.mean_abs_error, 2.0);
        let all = line((0, 60));
        assert_eq!(all.positions, 4);
        assert_eq!((all.score_exact, all.best_move), (0.5, 0.75));
        assert_eq!(all.mean_abs_error, 1.5);
        assert_eq!((all.nodes_ratio, all.time_ratio), (0.25, 0.5));
        // 95 % needs a best move in 95 % and an exact score in 90 % of positions.
        assert!(!all.kept());
        let mut good = all.clone();
        (good.best_move, good.score_exact) = (0.95, 0.9);
        assert!(good.kept());
        good.score_exact = 0.89;
        assert!(!good.kept());
        good.level = 87;
        assert!(good.kept(), "below 95 % only the move is promised");
    }
}
