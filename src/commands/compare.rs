//! `finale compare`: matches the positions of two runs (suite or batch CSVs, or two
//! variants within one repeated run) and says whether one is faster, with the noise
//! taken into account: per-position node and time ratios, their geometric means, and a
//! 95 % confidence interval of the time ratio from the spread of the per-position ratios.

use super::run_csv::RunCsv;
use crate::error::{CompareError, Error, Result};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// One run's measurements of one position: nodes and every repeated time, and where the
/// position is (its file and 1-based index there, when known) for the reader to find it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Measured {
    pub(crate) file: String,
    pub(crate) index: Option<usize>,
    pub(crate) empties: u32,
    pub(crate) nodes: Vec<u64>,
    pub(crate) times: Vec<f64>,
}

/// A run: positions by (key, mode).
pub(crate) type Run = BTreeMap<(String, String), Measured>;

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n == 0 {
        0.0
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Reads the solved rows of a suite or batch CSV, grouped by variant label, the variants
/// in the order they first appear in the file (the order a suite ran them in). A file
/// without a solved row is refused as such.
fn load(path: &Path) -> Result<Vec<(String, Run)>> {
    let mut csv = RunCsv::open(path)?;
    csv.need(&["key", "mode", "nodes", "time_s", "empties"])?;
    let mut runs: Vec<(String, Run)> = Vec::new();
    csv.for_each_solved(|solved| {
        let row = &solved.row;
        let v = match runs.iter().position(|(label, _)| *label == row.variant) {
            Some(v) => v,
            None => {
                runs.push((row.variant.clone(), Run::new()));
                runs.len() - 1
            }
        };
        let m = runs[v]
            .1
            .entry((row.key.clone(), row.mode.clone()))
            .or_default();
        if m.nodes.is_empty() {
            m.file = row.file.clone();
            m.index = row.index;
        }
        m.empties = solved.empties()?;
        m.nodes.push(solved.nodes()?);
        m.times.push(solved.seconds()?);
        Ok(())
    })?;
    if let Some(note) = csv.torn_note() {
        eprintln!("{note}");
    }
    if runs.is_empty() {
        return Err(CompareError::NoSolvedRows(path.to_path_buf()).into());
    }
    Ok(runs)
}

/// Two-sided 95 % quantile of Student's t with `df` degrees of freedom (infinite for
/// none: one position gives no interval).
fn t95(df: usize) -> f64 {
    use statrs::distribution::{ContinuousCDF, StudentsT};
    match StudentsT::new(0.0, 1.0, df as f64) {
        Ok(t) if df > 0 => t.inverse_cdf(0.975),
        _ => f64::INFINITY,
    }
}

/// The outcome of a comparison of B against A.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Positions in both runs.
    pub positions: usize,
    /// Positions whose node counts differ.
    pub node_differences: usize,
    /// Geometric mean of nodes(B) / nodes(A).
    pub node_ratio: f64,
    /// Geometric mean of time(B) / time(A) (medians over repeats).
    pub time_ratio: f64,
    /// 95 % confidence interval of `time_ratio`.
    pub time_ratio_ci: (f64, f64),
    /// Median over positions of the relative spread (max - min) / median of repeated
    /// times, when runs were repeated: the noise of one measurement.
    pub repeat_spread: Option<f64>,
    /// One sentence.
    pub verdict: String,
}

/// Why runs `a` and `b` (labelled `la` and `lb`) have no (position, mode) in common: no
/// position at all, or the same positions solved in other modes.
fn nothing_in_common(a: &Run, b: &Run, la: &str, lb: &str) -> Error {
    use std::collections::BTreeSet;
    let keys_b: BTreeSet<&str> = b.keys().map(|(k, _)| k.as_str()).collect();
    let shared = |run: &Run, keys: &BTreeSet<&str>| -> BTreeSet<String> {
        run.keys()
            .filter(|(k, _)| keys.contains(k.as_str()))
            .map(|(_, m)| m.clone())
            .collect()
    };
    let modes_a = shared(a, &keys_b);
    if modes_a.is_empty() {
        return CompareError::NothingInCommon(la.to_string(), lb.to_string()).into();
    }
    let keys_a: BTreeSet<&str> = a.keys().map(|(k, _)| k.as_str()).collect();
    let join = |modes: BTreeSet<String>| modes.into_iter().collect::<Vec<_>>().join(", ");
    CompareError::ModesDiffer {
        a: la.to_string(),
        b: lb.to_string(),
        modes_a: join(modes_a),
        modes_b: join(shared(b, &keys_a)),
    }
    .into()
}

/// Compares run `b` against run `a` on the positions (and modes) they share, printing
/// `heading`, a row per position and a summary to `out`. Runs with nothing in common are
/// refused before anything is printed.
pub(crate) fn compare_runs(
    a: &Run,
    b: &Run,
    la: &str,
    lb: &str,
    heading: &str,
    out: &mut impl Write,
) -> Result<Comparison> {
    // In file then index order (as A has them), so that a position is found by eye.
    let mut pairs: Vec<_> = a
        .iter()
        .filter_map(|(k, ma)| b.get(k).map(|mb| (k, ma, mb)))
        .collect();
    if pairs.is_empty() {
        return Err(nothing_in_common(a, b, la, lb));
    }
    pairs.sort_by_key(|&(k, m, _)| (m.file.as_str(), m.index.unwrap_or(usize::MAX), k));
    let fw = pairs
        .iter()
        .map(|(_, m, _)| m.file.len())
        .fold(4, usize::max);
    let w = |out: &mut dyn Write, s: String| out.write_all(s.as_bytes()).map_err(Error::Output);
    w(out, heading.to_string())?;
    w(
        out,
        format!(
            "{:<fw$} {:>5} {:<16} {:>3} {:>14} {:>14} {:>8} {:>10} {:>10} {:>8}\n",
            "file", "index", "key", "emp", "nodes A", "nodes B", "B/A", "time A", "time B", "B/A"
        ),
    )?;
    let mut ratios = Ratios::default();
    for (k, ma, mb) in pairs {
        let p = ratios.add(ma, mb);
        w(
            out,
            format!(
                "{:<fw$} {:>5} {:<16} {:>3} {:>14} {:>14} {:>8.3} {:>10.4} {:>10.4} {:>8.3}\n",
                ma.file,
                ma.index.map(|i| i.to_string()).unwrap_or_default(),
                k.0,
                ma.empties,
                p.nodes.0 as u64,
                p.nodes.1 as u64,
                p.node_ratio,
                p.times.0,
                p.times.1,
                p.time_ratio
            ),
        )?;
    }
    let c = ratios.comparison(la, lb);
    w(out, c.summary())?;
    Ok(c)
}

/// One position in both runs: median nodes and times (A, B) and their ratios B / A (the
/// time ratio NaN when a time is zero).
struct PositionRatio {
    nodes: (f64, f64),
    times: (f64, f64),
    node_ratio: f64,
    time_ratio: f64,
}

/// The per-position ratios gathered so far.
#[derive(Default)]
struct Ratios {
    log_nodes: Vec<f64>,
    log_times: Vec<f64>,
    /// Relative spreads (max - min) / median of repeated times, per run and position.
    spreads: Vec<f64>,
    node_differences: usize,
}

impl Ratios {
    /// Adds one position's measurements in A and B.
    fn add(&mut self, ma: &Measured, mb: &Measured) -> PositionRatio {
        let na = median(&mut ma.nodes.iter().map(|&n| n as f64).collect::<Vec<_>>());
        let nb = median(&mut mb.nodes.iter().map(|&n| n as f64).collect::<Vec<_>>());
        let ta = median(&mut ma.times.clone());
        let tb = median(&mut mb.times.clone());
        if na != nb {
            self.node_differences += 1;
        }
        for m in [ma, mb] {
            if m.times.len() > 1 {
                let mut t = m.times.clone();
                let med = median(&mut t);
                if med > 0.0 {
                    self.spreads.push((t[t.len() - 1] - t[0]) / med);
                }
            }
        }
        let node_ratio = if na > 0.0 { nb / na } else { 1.0 };
        let time_ratio = if ta > 0.0 && tb > 0.0 {
            tb / ta
        } else {
            f64::NAN
        };
        self.log_nodes.push(node_ratio.ln());
        if time_ratio.is_finite() {
            self.log_times.push(time_ratio.ln());
        }
        PositionRatio {
            nodes: (na, nb),
            times: (ta, tb),
            node_ratio,
            time_ratio,
        }
    }

    /// The geometric means, the time ratio's 95 % interval (Student's t over the
    /// per-position log ratios) and the verdict, B (`lb`) against A (`la`).
    fn comparison(mut self, la: &str, lb: &str) -> Comparison {
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
        let node_ratio = mean(&self.log_nodes).exp();
        let mt = mean(&self.log_times);
        let n = self.log_times.len();
        let sd = if n > 1 {
            let ss = self.log_times.iter().map(|x| (x - mt).powi(2)).sum::<f64>();
            (ss / (n - 1) as f64).sqrt()
        } else {
            f64::INFINITY
        };
        let half = t95(n.saturating_sub(1)) * sd / (n as f64).sqrt();
        let ci = ((mt - half).exp(), (mt + half).exp());
        let time_ratio = mt.exp();
        let repeat_spread = (!self.spreads.is_empty()).then(|| median(&mut self.spreads));
        let verdict = if !ci.0.is_finite() || !ci.1.is_finite() || n < 2 {
            "too few positions to tell the runs apart".to_string()
        } else if ci.1 < 1.0 {
            format!(
                "{lb} is faster than {la}: time x{time_ratio:.3} (95 % CI {:.3}-{:.3})",
                ci.0, ci.1
            )
        } else if ci.0 > 1.0 {
            format!(
                "{lb} is slower than {la}: time x{time_ratio:.3} (95 % CI {:.3}-{:.3})",
                ci.0, ci.1
            )
        } else {
            format!(
                "no significant difference: time x{time_ratio:.3} (95 % CI {:.3}-{:.3}) is within the noise",
                ci.0, ci.1
            )
        };
        Comparison {
            positions: self.log_nodes.len(),
            node_differences: self.node_differences,
            node_ratio,
            time_ratio,
            time_ratio_ci: ci,
            repeat_spread,
            verdict,
        }
    }
}

impl Comparison {
    /// The summary block printed after the rows.
    fn summary(&self) -> String {
        let (positions, ci) = (self.positions, self.time_ratio_ci);
        let mut s = format!(
            "\npositions     {positions}\nnode counts   {} of {positions} differ; geometric mean B/A {:.4}\n\
             time          geometric mean B/A {:.4}, 95 % CI {:.4}-{:.4}\n",
            self.node_differences, self.node_ratio, self.time_ratio, ci.0, ci.1
        );
        if let Some(spread) = self.repeat_spread {
            s += &format!(
                "repeat spread median (max-min)/median {:.1} %\n",
                spread * 100.0
            );
        }
        s += &format!("verdict       {}\n", self.verdict);
        s
    }
}

/// Several variants of one CSV (a scan of thread counts, say), each against the first:
/// a row each with the positions both solved, their summed median times, the speed-up
/// (A's sum over the variant's), and the geometric means of nodes and time against A
/// with the time's 95 % interval. Returns each variant's comparison, in the file's order.
pub(crate) fn compare_variants(
    runs: &[(String, Run)],
    out: &mut impl Write,
) -> Result<Vec<(String, Comparison)>> {
    let Some(((la, ra), rest)) = runs.split_first() else {
        return Ok(Vec::new());
    };
    let lw = runs.iter().map(|(l, _)| l.len()).fold(7, usize::max);
    let w = |out: &mut dyn Write, s: String| out.write_all(s.as_bytes()).map_err(Error::Output);
    w(out, format!("variants against A = {la}\n"))?;
    w(
        out,
        format!(
            "{:<lw$} {:>9} {:>10} {:>10} {:>8} {:>10} {:>10} {:>15}\n",
            "variant", "positions", "time A", "time", "speed-up", "nodes/A", "time/A", "95 % CI"
        ),
    )?;
    let mut all = Vec::new();
    for (lb, rb) in rest {
        let mut ratios = Ratios::default();
        let (mut ta, mut tb) = (0.0, 0.0);
        for (k, ma) in ra {
            if let Some(mb) = rb.get(k) {
                let p = ratios.add(ma, mb);
                (ta, tb) = (ta + p.times.0, tb + p.times.1);
            }
        }
        if ratios.log_nodes.is_empty() {
            return Err(nothing_in_common(ra, rb, la, lb));
        }
        let c = ratios.comparison(la, lb);
        let speed_up = if tb > 0.0 { ta / tb } else { f64::NAN };
        w(
            out,
            format!(
                "{:<lw$} {:>9} {:>10.3} {:>10.3} {:>8.2} {:>10.4} {:>10.4} {:>15}\n",
                lb,
                c.positions,
                ta,
                tb,
                speed_up,
                c.node_ratio,
                c.time_ratio,
                format!("{:.3}-{:.3}", c.time_ratio_ci.0, c.time_ratio_ci.1)
            ),
        )?;
        all.push((lb.clone(), c));
    }
    Ok(all)
}

/// Compares two CSVs (B against A), or the two variants of one CSV (B against A in the
/// order the file holds them, which is the order a suite ran them in), or, of one CSV
/// with more, each variant against the first (`compare_variants`; the last one's
/// comparison is returned). Prints which is A and which is B first.
pub fn run_compare(files: &[PathBuf], out: &mut impl Write) -> Result<Comparison> {
    let one = |runs: Vec<(String, Run)>, path: &Path| -> Result<(String, Run)> {
        let n = runs.len();
        let mut it = runs.into_iter();
        match (it.next(), n) {
            (Some(r), 1) => Ok(r),
            _ => Err(CompareError::SeveralVariants {
                path: path.to_path_buf(),
                variants: n,
            }
            .into()),
        }
    };
    match files {
        [a] => {
            let runs = load(a)?;
            if runs.len() > 2 {
                let all = compare_variants(&runs, out)?;
                let (_, last) = all.into_iter().last().expect("more than two variants");
                return Ok(last);
            }
            if runs.len() != 2 {
                return Err(CompareError::NotTwoVariants {
                    path: a.to_path_buf(),
                    variants: runs.len(),
                }
                .into());
            }
            let mut it = runs.into_iter();
            let (Some((la, ra)), Some((lb, rb))) = (it.next(), it.next()) else {
                unreachable!("two variants checked above")
            };
            let heading = format!("comparison: A = {la}, B = {lb}\n");
            compare_runs(
                &ra,
                &rb,
                &format!("'{la}'"),
                &format!("'{lb}'"),
                &heading,
                out,
            )
        }
        [a, b] => {
            let (_, ra) = one(load(a)?, a)?;
            let (_, rb) = one(load(b)?, b)?;
            let (la, lb) = (a.display().to_string(), b.display().to_string());
            let heading = format!("comparison: A = {la}, B = {lb}\n");
            compare_runs(&ra, &rb, &la, &lb, &heading, out)
        }
        _ => Err(CompareError::FileCount.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against the published table (e.g. NIST/SEMATECH e-Handbook, t distribution,
    /// two-sided 95 %).
    #[test]
    fn t_quantiles_match_the_table() {
        for (df, t) in [
            (1, 12.706),
            (2, 4.303),
            (5, 2.571),
            (10, 2.228),
            (30, 2.042),
        ] {
            assert!((t95(df) - t).abs() < 5e-4, "df {df}: {}", t95(df));
        }
        assert!((t95(100) - 1.984).abs() < 5e-4, "{}", t95(100));
        assert!(t95(0).is_infinite());
    }

    fn run(rows: &[(&str, u64, f64)]) -> Run {
        rows.iter()
            .map(|&(k, n, t)| {
                (
                    (k.to_string(), "exact".to_string()),
                    Measured {
                        empties: 20,
                        nodes: vec![n],
                        times: vec![t],
                        ..Measured::default()
                    },
                )
            })
            .collect()
    }

    /// A scan of three variants: the speed-ups are the ratios of summed times, and each
    /// row is the variant against the first.
    #[test]
    fn variants_are_each_compared_with_the_first() {
        let one = run(&[("a", 100, 1.0), ("b", 200, 3.0)]);
        let two = run(&[("a", 110, 0.5), ("b", 220, 1.5)]);
        let four = run(&[("a", 121, 0.25), ("b", 242, 0.75), ("c", 5, 9.0)]);
        let runs = vec![
            ("t1".to_string(), one),
            ("t2".to_string(), two),
            ("t4".to_string(), four),
        ];
        let mut out = Vec::new();
        let all = compare_variants(&runs, &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!((all[0].0.as_str(), all[1].0.as_str()), ("t2", "t4"));
        assert!((all[0].1.node_ratio - 1.1).abs() < 1e-9, "{all:?}");
        assert!((all[1].1.node_ratio - 1.21).abs() < 1e-9, "{all:?}");
        assert!((all[1].1.time_ratio - 0.25).abs() < 1e-9, "{all:?}");
        // "c" is not in the first run: 2 positions each; times 4.0 against 2.0 and 1.0.
        let rows: Vec<Vec<&str>> = out
            .lines()
            .skip(2)
            .map(|l| l.split_whitespace().collect())
            .collect();
        assert_eq!(rows[0][..5], ["t2", "2", "4.000", "2.000", "2.00"], "{out}");
        assert_eq!(rows[1][..5], ["t4", "2", "4.000", "1.000", "4.00"], "{out}");
        assert!(
            compare_variants(&runs[..1], &mut Vec::new())
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn a_clear_speed_up_is_significant_and_noise_is_not() {
        let a = run(&[
            ("a", 100, 1.0),
            ("b", 200, 2.0),
            ("c", 300, 3.0),
            ("d", 50, 0.5),
        ]);
        let faster = run(&[
            ("a", 100, 0.80),
            ("b", 200, 1.62),
            ("c", 300, 2.37),
            ("d", 50, 0.41),
        ]);
        let c = compare_runs(&a, &faster, "A", "B", "", &mut Vec::new()).unwrap();
        assert_eq!(c.positions, 4);
        assert_eq!(c.node_differences, 0);
        assert!((c.time_ratio - 0.8).abs() < 0.01, "{c:?}");
        assert!(
            c.time_ratio_ci.1 < 1.0 && c.verdict.contains("faster"),
            "{c:?}"
        );

        let noisy = run(&[
            ("a", 100, 1.10),
            ("b", 210, 1.85),
            ("c", 300, 3.2),
            ("d", 50, 0.47),
        ]);
        let c = compare_runs(&a, &noisy, "A", "B", "", &mut Vec::new()).unwrap();
        assert_eq!(c.node_differences, 1);
        assert!(c.verdict.starts_with("no significant"), "{c:?}");
        assert!(compare_runs(&a, &run(&[("z", 1, 1.0)]), "A", "B", "", &mut Vec::new()).is_err());
    }
}
