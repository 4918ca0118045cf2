//! `finale report`: pictures of runs, so a user can look rather than read. One SVG with
//! three panels: time per position against empties (log scale), node rate against
//! empties, and, when there are two or more runs or variants, each one's time relative
//! to the first on the positions they share.

use super::run_csv::RunCsv;
use crate::durable::{Access, Existing, Replacement};
use crate::error::{CompareError, Error, Result};
use crate::interrupt::Interrupt;
use plotters::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};

/// One solved position of one run.
#[derive(Clone, Debug)]
struct Point {
    key: String,
    empties: u32,
    time: f64,
    nps: f64,
}

/// Runs by label: a file name, plus the variant when a file holds several. In the order
/// given: files as listed, the variants of a file as they first appear in it (the order a
/// suite ran them in).
fn load(files: &[PathBuf]) -> Result<Vec<(String, Vec<Point>)>> {
    let mut runs: Vec<(String, Vec<Point>)> = Vec::new();
    let mut by_label: HashMap<String, usize> = HashMap::new();
    for path in files {
        let mut csv = RunCsv::open(path)?;
        csv.need(&["empties", "time_s", "nodes"])?;
        let has_key = csv.has("key");
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        csv.for_each_solved(|solved| {
            let row = &solved.row;
            let t = solved.seconds()?;
            // A count: a float column would take `inf` and `NaN` (the row type's u64
            // refuses them).
            let n = solved.nodes()? as f64;
            let label = match row.variant.as_str() {
                "" => stem.clone(),
                v => format!("{stem} [{v}]"),
            };
            let r = *by_label.entry(label.clone()).or_insert_with(|| {
                runs.push((label, Vec::new()));
                runs.len() - 1
            });
            runs[r].1.push(Point {
                key: if has_key {
                    row.key.clone()
                } else {
                    solved.line.to_string()
                },
                empties: solved.empties()?,
                time: t.max(1e-6),
                // Times below the clock's microsecond are not measured: a rate from
                // them would be meaningless, and from a denormal time infinite.
                nps: if t > 0.0 { n / t.max(1e-6) } else { 0.0 },
            });
            Ok(())
        })?;
        if let Some(note) = csv.torn_note() {
            eprintln!("{note}");
        }
    }
    if runs.iter().all(|(_, v)| v.is_empty()) {
        return Err(CompareError::NothingToReport.into());
    }
    Ok(runs)
}

const COLORS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

fn plot_error(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::from(CompareError::Draw {
        path: path.to_path_buf(),
        why: e.to_string(),
    })
}

/// Draws the report of `files` into the SVG `svg`, and prints a line per run to `out`.
/// The SVG is drawn in memory and replaces `svg` whole (an existing file only when
/// `force`); stopped by `stop`, nothing is written. The caller has checked the files with
/// [`crate::durable::guard`] (`svg` not an input, not a device).
pub fn run_report(
    files: &[PathBuf],
    svg: &Path,
    force: bool,
    stop: &Interrupt,
    out: &mut impl Write,
) -> Result<()> {
    let runs = load(files)?;
    let kept = || format!("nothing written, {} as it was", svg.display());
    stop.check("report", kept)?;
    let text = draw(&runs, svg)?;
    stop.check("report", kept)?;
    save(svg, &text, force)?;
    for (label, pts) in &runs {
        let total: f64 = pts.iter().map(|p| p.time).sum();
        writeln!(out, "{label}: {} positions, {total:.3} s", pts.len()).map_err(Error::Output)?;
    }
    writeln!(out, "svg           {}", svg.display()).map_err(Error::Output)?;
    Ok(())
}

/// The SVG text of the panels of `runs` (`svg` names it in errors).
fn draw(runs: &[(String, Vec<Point>)], svg: &Path) -> Result<String> {
    let ratios = relative_times(runs);
    let panels = if ratios.is_empty() { 2 } else { 3 };
    let mut text = String::new();
    {
        let root =
            SVGBackend::with_string(&mut text, (1000, 380 * panels as u32)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| plot_error(svg, e))?;
        let areas = root.split_evenly((panels, 1));
        let x = empties_range(runs);
        draw_times(&areas[0], runs, x).map_err(|e| plot_error(svg, e))?;
        draw_rates(&areas[1], runs, x).map_err(|e| plot_error(svg, e))?;
        if !ratios.is_empty() {
            let first = runs.first().map(|(l, _)| l.as_str()).unwrap_or_default();
            draw_ratios(&areas[2], &ratios, first, x).map_err(|e| plot_error(svg, e))?;
        }
        root.present().map_err(|e| plot_error(svg, e))?;
    }
    Ok(text)
}

/// Writes `text` beside `svg` and renames it over it once on disk (an existing file only
/// when `force`, also one that appeared meanwhile).
fn save(svg: &Path, text: &str, force: bool) -> Result<()> {
    let err = |source| Error::Write {
        path: svg.to_path_buf(),
        source,
    };
    let mut tmp = Replacement::beside(svg, ".finale-report-", Access::Plain).map_err(err)?;
    tmp.write_all(text.as_bytes()).map_err(err)?;
    let existing = if force {
        Existing::Replace
    } else {
        Existing::Refuse
    };
    tmp.commit(existing).map_err(|e| err(e.source))
}

/// One panel of the SVG.
type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;
/// What drawing a panel can fail with.
type DrawResult<'a> =
    std::result::Result<(), DrawingAreaErrorKind<<SVGBackend<'a> as DrawingBackend>::ErrorType>>;

/// The x axis: every run's empties, half a square of margin each side.
fn empties_range(runs: &[(String, Vec<Point>)]) -> (f64, f64) {
    let (lo, hi) = runs
        .iter()
        .flat_map(|(_, v)| v)
        .fold((u32::MAX, 0), |(lo, hi), p| {
            (lo.min(p.empties), hi.max(p.empties))
        });
    (f64::from(lo) - 0.5, f64::from(hi) + 0.5)
}

/// Each run after the first, its times over the first run's on the positions they share:
/// (run index, (empties, ratio) per position).
fn relative_times(runs: &[(String, Vec<Point>)]) -> Vec<(usize, Vec<(f64, f64)>)> {
    let base: BTreeMap<&str, f64> = runs
        .first()
        .map(|(_, v)| v.iter().map(|p| (p.key.as_str(), p.time)).collect())
        .unwrap_or_default();
    runs.iter()
        .map(|(_, v)| v)
        .enumerate()
        .skip(1)
        .map(|(i, v)| {
            let pts = v
                .iter()
                .filter_map(|p| {
                    base.get(p.key.as_str())
                        .map(|b| (f64::from(p.empties), p.time / b))
                })
                .collect();
            (i, pts)
        })
        .collect()
}

/// Time per position against empties, log scale, one colour per run, with a legend.
fn draw_times<'a>(
    area: &Area<'a>,
    runs: &[(String, Vec<Point>)],
    (x0, x1): (f64, f64),
) -> DrawResult<'a> {
    let times = runs.iter().flat_map(|(_, v)| v).map(|p| p.time);
    let t_min = times.clone().fold(f64::INFINITY, f64::min);
    let t_max = times.fold(0.0, f64::max);
    let mut chart = ChartBuilder::on(area)
        .caption("time per position (s, log scale)", ("sans-serif", 20))
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, (t_min / 2.0..t_max * 2.0).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("empty squares")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0e}"))
        .draw()?;
    for (i, (label, pts)) in runs.iter().enumerate() {
        let c = COLORS[i % COLORS.len()];
        chart
            .draw_series(
                pts.iter()
                    .map(|p| Circle::new((f64::from(p.empties), p.time), 4, c.filled())),
            )?
            .label(label.clone())
            .legend(move |(x, y)| Circle::new((x, y), 4, c.filled()));
    }
    chart
        .configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE.mix(0.8))
        .draw()
}

/// Million nodes per second per position against empties.
fn draw_rates<'a>(
    area: &Area<'a>,
    runs: &[(String, Vec<Point>)],
    (x0, x1): (f64, f64),
) -> DrawResult<'a> {
    let n_max = runs
        .iter()
        .flat_map(|(_, v)| v)
        .map(|p| p.nps)
        .fold(0.0, f64::max)
        / 1e6;
    let mut chart = ChartBuilder::on(area)
        .caption("million nodes per second per position", ("sans-serif", 20))
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, 0.0..n_max * 1.1 + 1e-9)?;
    chart
        .configure_mesh()
        .x_desc("empty squares")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .draw()?;
    for (i, (_, pts)) in runs.iter().enumerate() {
        let c = COLORS[i % COLORS.len()];
        chart.draw_series(
            pts.iter()
                .map(|p| Circle::new((f64::from(p.empties), p.nps / 1e6), 4, c.filled())),
        )?;
    }
    Ok(())
}

/// Each later run's time relative to the first run (`first`), log scale, with the line
/// of equal time.
fn draw_ratios<'a>(
    area: &Area<'a>,
    ratios: &[(usize, Vec<(f64, f64)>)],
    first: &str,
    (x0, x1): (f64, f64),
) -> DrawResult<'a> {
    let all_r = ratios.iter().flat_map(|(_, v)| v.iter().map(|p| p.1));
    let lo = all_r.clone().fold(1.0, f64::min);
    let hi = all_r.fold(1.0, f64::max);
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!("time relative to {first} (log scale; below 1 is faster)"),
            ("sans-serif", 20),
        )
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, (lo / 1.2..hi * 1.2).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("empty squares")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.2}"))
        .draw()?;
    chart.draw_series(LineSeries::new([(x0, 1.0), (x1, 1.0)], BLACK))?;
    for (i, pts) in ratios {
        let c = COLORS[i % COLORS.len()];
        chart.draw_series(pts.iter().map(|&(x, y)| Circle::new((x, y), 4, c.filled())))?;
    }
    Ok(())
}
