//! The probcut error model the search ships (settings::MPC_MEAN, MPC_SIGMA) is the one
//! `finale train-mpc --from-labels` fits to the labelled probcut nodes committed in
//! tests/fixtures/selectivity/deep-27-32/, up to `MPC_MODEL_MAX_EMPTIES` (the label
//! batches go on deeper; deeper rows check the model, they did not fit it).

mod common;

use finale::settings::{MPC_MEAN, MPC_MODEL_MAX_EMPTIES, MPC_SIGMA};
use std::path::Path;

const LABELS: [&str; 3] = [
    "labels-nodes-fit-14-26.csv",
    "labels-deepnodes-fit.csv",
    "labels-deepnodes-fit-b.csv",
];

/// The numbers of `text` after each `=`, `+` or `*`-separated term, in order: the six
/// coefficients of train-mpc's model line.
fn coefficients(line: &str) -> Vec<f64> {
    line.split(['=', '+', '*', ';', ' '])
        .filter_map(|w| w.trim().parse::<f64>().ok())
        .collect()
}

#[test]
fn the_shipped_error_model_is_what_the_committed_labels_give() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/selectivity/deep-27-32");
    let tmp = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for name in LABELS {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let mut lines = text.lines();
        let header = lines.next().unwrap();
        let col = header.split(',').position(|c| c == "empties").unwrap();
        let mut kept = vec![header.to_string()];
        kept.extend(
            lines
                .filter(|l| {
                    let e: u32 = l.split(',').nth(col).unwrap().parse().unwrap();
                    e <= MPC_MODEL_MAX_EMPTIES
                })
                .map(String::from),
        );
        let path = tmp.path().join(name);
        std::fs::write(&path, kept.join("\n") + "\n").unwrap();
        files.push(path.display().to_string());
    }
    let list = files.join(",");
    let text = common::run::finale_ok(&["train-mpc", "--from-labels", &list, "--max-depth", "7"]);
    let model = text
        .lines()
        .find(|l| l.starts_with("# over every cell"))
        .unwrap_or_else(|| panic!("no model line in:\n{text}"));
    assert!(
        model.contains(&format!("empties 8-{MPC_MODEL_MAX_EMPTIES}:")),
        "{model}"
    );
    let after = &model[model.find(':').unwrap() + 1..];
    let c = coefficients(after);
    assert_eq!(c.len(), 6, "{model}: {c:?}");
    let shipped: Vec<f64> = MPC_MEAN
        .iter()
        .chain(MPC_SIGMA.iter())
        .map(|&x| f64::from(x))
        .collect();
    for (fitted, ship) in c.iter().zip(&shipped) {
        assert!(
            (fitted - ship).abs() < 5e-4,
            "fitted {c:?}, shipped {shipped:?}"
        );
    }
}
