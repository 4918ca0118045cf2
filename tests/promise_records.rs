//! Each level's checked range (settings::MPC_CHECKED_MAX_EMPTIES, which decides where an
//! answer is labelled `?`) is backed by the committed calibrations of the shipped weights,
//! on generated and on real positions alike: in each kind, every band of empties up to it,
//! as `finale calibrate` bands them, has measured rows and keeps the level's promise there.
//! Raising a range past what either kind measured fails here.

use finale::settings::{MPC_CHECKED_MAX_EMPTIES, MPC_LEVELS};
use std::path::Path;

/// `finale calibrate` CSVs of held-out positions with the shipped weights (checksum
/// 7ec978cc) and their error model, read together per kind: generated positions (from 8
/// empties), and real ones from WTHOR's held-out years (from 20 empties, the fewest the
/// real calibration set has).
const RECORDS: [(&str, u32, &[&str]); 2] = [
    (
        "generated",
        8,
        &[
            "2026-12-07-real-weights/heldout-8-13.csv",
            "2026-12-07-real-weights/heldout-14-26.csv",
            "2026-12-07-real-weights/heldout-27-30.csv",
        ],
    ),
    (
        "real",
        20,
        &["2026-12-07-real-weights/real-heldout-calib.csv"],
    ),
];

/// The bands of empties of calibrate's table.
const BANDS: [(u32, u32); 5] = [(8, 13), (14, 19), (20, 24), (25, 29), (30, 34)];

/// A probable answer's record: empties, best move found, exact score found.
struct Answer {
    empties: u32,
    move_ok: bool,
    score_ok: bool,
}

fn answers(files: &[&str], percent: u8) -> Vec<Answer> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/selectivity");
    let mut out = Vec::new();
    for &name in files {
        let mut reader = csv::Reader::from_path(dir.join(name)).expect(name);
        let header = reader.headers().expect(name).clone();
        let col = |c: &str| header.iter().position(|h| h == c).expect(c);
        let (sel, emp, mv, sc) = (
            col("selectivity"),
            col("empties"),
            col("move_ok"),
            col("score_ok"),
        );
        for row in reader.records() {
            let row = row.expect(name);
            if row[sel] == *percent.to_string() {
                out.push(Answer {
                    empties: row[emp].parse().expect("empties"),
                    move_ok: &row[mv] == "true",
                    score_ok: &row[sc] == "true",
                });
            }
        }
    }
    out
}

#[test]
fn every_checked_range_is_measured_and_kept_in_every_band() {
    for (kind, from, files) in RECORDS {
        for (k, &(percent, _)) in MPC_LEVELS.iter().enumerate() {
            check_level(
                kind,
                from,
                &answers(files, percent),
                percent,
                MPC_CHECKED_MAX_EMPTIES[k],
            );
        }
    }
}

/// One level's promise in every band of one kind's records, from `from` to `max` empties.
fn check_level(kind: &str, from: u32, all: &[Answer], percent: u8, max: u32) {
    assert!(
        all.iter().any(|a| a.empties == max),
        "{kind}, {percent}%: nothing measured at {max} empties, its checked maximum"
    );
    let bands = BANDS.iter().filter(|&&(lo, hi)| lo <= max && hi >= from);
    for &(lo, hi) in bands {
        let top = hi.min(max);
        let band: Vec<&Answer> = all
            .iter()
            .filter(|a| (lo..=top).contains(&a.empties))
            .collect();
        assert!(
            !band.is_empty(),
            "{kind}, {percent}%: no rows at {lo}-{top} empties"
        );
        let share = |ok: fn(&Answer) -> bool| {
            band.iter().filter(|a| ok(a)).count() as f64 / band.len() as f64
        };
        let best = share(|a| a.move_ok);
        assert!(
            best >= f64::from(percent) / 100.0,
            "{kind}, {percent}% at {lo}-{top}: best move in {:.1}% of {}",
            100.0 * best,
            band.len()
        );
        let exact = share(|a| a.score_ok);
        assert!(
            percent < 95 || exact >= 0.9,
            "{kind}, {percent}% at {lo}-{top}: exact score in {:.1}% of {}",
            100.0 * exact,
            band.len()
        );
    }
}
