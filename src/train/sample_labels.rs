//! Labelled positions: a self-play position with its value (an exact score or a shallow
//! search's), made into a row of the fit and a row of `train --data`.

use super::fit::FitRow;
use super::self_play::Sample;
use crate::board::Board;
use crate::eval::UNITS_PER_DISC;
use crate::eval::mobility::{MOBILITY_TABLES, mobility_indices};
use crate::eval::pattern::{FEATURES, PER_PHASE, bias, features};
use crate::search::Solver;

/// A labelled position.
#[derive(Clone, Copy, Debug)]
pub(super) struct Labelled {
    pub(super) sample: Sample,
    /// Label in evaluation units.
    pub(super) label: i32,
}

pub(super) fn held_out(s: &Sample) -> bool {
    s.game % 10 == 9
}

/// The columns of `train --data`, in [`LabelRow`] order.
pub const LABEL_HEADER: [&str; 5] = ["game", "empties", "board", "label", "set"];

/// One labelled position of `train --data`.
#[derive(Debug, serde::Serialize)]
pub struct LabelRow {
    /// Number of its game.
    pub game: u32,
    /// Empty squares.
    pub empties: u32,
    /// The 64 squares, `X` the side to move.
    pub board: String,
    /// Its label, discs for the side to move.
    pub label: String,
    /// `train` or `test` (held out).
    pub set: &'static str,
}

/// The exact score of `b` by null-window probes (MTD(f) from 0), the table carrying each
/// probe's work to the next: the same value as one full-window search, in fewer nodes
/// once the positions have more than a few empties.
pub(super) fn exact_value(solver: &mut Solver, b: Board) -> i32 {
    let (mut lo, mut hi) = (-64, 64);
    let mut beta = 1;
    while lo < hi {
        beta = beta.clamp(lo + 1, hi);
        let (v, _) = solver.search(b, beta - 1, beta);
        if v >= beta {
            lo = v;
            beta = v + 1;
        } else {
            hi = v;
            beta = v;
        }
    }
    lo
}

pub(super) fn to_fit_row(l: &Labelled, canon: &[u32], mobility: bool) -> FitRow {
    let mut f = [0u32; FEATURES];
    features(&l.sample.board, &mut f);
    for x in f.iter_mut() {
        *x = canon[*x as usize];
    }
    let mut extra = mobility_indices(&l.sample.board);
    for x in extra.iter_mut() {
        *x += PER_PHASE as u32;
    }
    FitRow {
        features: f,
        bias: bias(l.sample.board.empty_count()) as u32,
        target: l.label as f32 / UNITS_PER_DISC as f32,
        extra,
        extras: if mobility { MOBILITY_TABLES as u8 } else { 0 },
    }
}

/// The board as 64 characters, `X` for the side to move, `O` for the other, `-` empty.
pub(super) fn board_string(b: &Board) -> String {
    (0..64)
        .map(|i| {
            if b.player >> i & 1 != 0 {
                'X'
            } else if b.opponent >> i & 1 != 0 {
                'O'
            } else {
                '-'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::random::{SplitMix64, random_position};
    use crate::search::SolverOptions;

    /// The null-window driver finds what one full-window search finds (the search itself
    /// is checked against plain minimax in tests/solver.rs), on positions of 10-14 empties.
    #[test]
    fn exact_value_matches_a_full_window_search() {
        let mut rng = SplitMix64::new(7);
        let mut solver = Solver::new(SolverOptions {
            hash_mb: 4,
            ..Default::default()
        });
        for k in 0..40 {
            let b = random_position(&mut rng, 10 + k % 5).board;
            let full = solver.search(b, -64, 64).0;
            solver.clear();
            assert_eq!(exact_value(&mut solver, b), full, "{}", board_string(&b));
            solver.clear();
        }
    }

    #[test]
    fn the_label_row_has_the_header_columns_in_order() {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(LabelRow {
            game: 3,
            empties: 12,
            board: "-".repeat(64),
            label: "-0.5".into(),
            set: "test",
        })
        .unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some(LABEL_HEADER.join(",").as_str()));
        assert_eq!(
            lines.next(),
            Some(format!("3,12,{},-0.5,test", "-".repeat(64)).as_str())
        );
    }
}
