//! Is a solver's answer right? Compares a result with the `MOVE:SCORE` pairs of an OBF
//! record, accepting any of several tied best moves, or with the score it gives alone.

use crate::board::Square;
use crate::search::Mode;

/// The outcome of checking one position. `None` fields mean the file gives nothing to
/// check against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Verdict {
    /// Whether the reported score (and in mode all, every listed move's score) is right.
    pub score_ok: Option<bool>,
    /// Whether the reported best moves are right.
    pub moves_ok: Option<bool>,
}

impl Verdict {
    /// `Some(true)` when everything checked is right, `None` when nothing was checked.
    pub fn ok(&self) -> Option<bool> {
        match (self.score_ok, self.moves_ok) {
            (None, None) => None,
            (s, m) => Some(s.unwrap_or(true) && m.unwrap_or(true)),
        }
    }
}

/// Checks `score`, `best_moves` and (mode all) `move_scores` against `expected`, the
/// pairs an OBF record lists (each the exact score of that move for the side to move).
///
/// A file need not list every move, so a reported best move the file does not list is
/// not held against the solver, but at least one reported move must be a listed best move:
/// otherwise the answer would be unverified. Empty `best_moves` means the side to move
/// passes, which is right only when the file lists no move.
pub fn check(
    mode: Mode,
    expected: &[(Square, i32)],
    score: i32,
    best_moves: &[Square],
    move_scores: &[(Square, i32)],
) -> Verdict {
    let Some(best) = expected.iter().map(|&(_, s)| s).max() else {
        return Verdict::default();
    };
    // In wld only the class of a score matters.
    let class = |v: i32| mode.class(v);
    let target = class(best);
    let listed = |m: Square| expected.iter().find(|&&(e, _)| e == m).map(|&(_, s)| s);

    let mut score_ok = score == target;
    if mode == Mode::All {
        score_ok &= expected.iter().all(|e| move_scores.contains(e));
    }
    if let Mode::Window(w) = mode
        && (target <= w.alpha() || target >= w.beta())
    {
        return Verdict {
            score_ok: Some(score_ok),
            moves_ok: bound_moves_ok(best_moves, target, listed, class),
        };
    }
    let moves_ok = !best_moves.is_empty()
        && best_moves
            .iter()
            .all(|&m| listed(m).is_none_or(|s| class(s) == target))
        && best_moves
            .iter()
            .any(|&m| listed(m).is_some_and(|s| class(s) == target));
    Verdict {
        score_ok: Some(score_ok),
        moves_ok: Some(moves_ok),
    }
}

/// The moves of a window's bound answer: any move that reaches the bound is right, and a
/// file that lists only best moves cannot say that an unlisted one does not, so they are
/// wrong only when a listed value contradicts them, checked only when one is listed.
fn bound_moves_ok(
    best_moves: &[Square],
    target: i32,
    listed: impl Fn(Square) -> Option<i32>,
    class: impl Fn(i32) -> i32,
) -> Option<bool> {
    let values: Vec<i32> = best_moves.iter().filter_map(|&m| listed(m)).collect();
    if values.iter().any(|&v| class(v) != target) {
        Some(false)
    } else if values.is_empty() {
        None
    } else {
        Some(true)
    }
}

/// Checks an answer against an OBF record's values: the score it gives alone (`alone`),
/// which checks the score only, since no best move is known; or else its pairs
/// (`expected`, see [`check`]).
pub fn check_values(
    mode: Mode,
    expected: &[(Square, i32)],
    alone: Option<i32>,
    score: i32,
    best_moves: &[Square],
    move_scores: &[(Square, i32)],
) -> Verdict {
    match alone {
        Some(value) => Verdict {
            score_ok: Some(score == mode.class(value)),
            moves_ok: None,
        },
        None => check(mode, expected, score, best_moves, move_scores),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name).expect("valid square")
    }

    fn sqs(names: &str) -> Vec<Square> {
        names.split_whitespace().map(sq).collect()
    }

    /// FFO #59: G8, H4 and E8 all win by 64.
    fn ffo59() -> Vec<(Square, i32)> {
        vec![
            (sq("G8"), 64),
            (sq("H4"), 64),
            (sq("E8"), 64),
            (sq("A1"), 10),
        ]
    }

    fn verdict(score: Option<bool>, moves: Option<bool>) -> Verdict {
        Verdict {
            score_ok: score,
            moves_ok: moves,
        }
    }

    #[test]
    fn exact_accepts_any_tied_best_move() {
        let e = ffo59();
        for moves in ["G8", "H4", "E8", "E8 G8", "G8 H4 E8"] {
            let v = check(Mode::Exact, &e, 64, &sqs(moves), &[]);
            assert_eq!(v, verdict(Some(true), Some(true)), "{moves}");
            assert_eq!(v.ok(), Some(true));
        }
    }

    #[test]
    fn exact_rejects_a_wrong_tie() {
        let e = ffo59();
        // A1 is listed with +10: claiming it ties for +64 is wrong.
        let v = check(Mode::Exact, &e, 64, &sqs("G8 A1"), &[]);
        assert_eq!(v, verdict(Some(true), Some(false)));
        assert_eq!(v.ok(), Some(false));
        // Only A1.
        assert_eq!(
            check(Mode::Exact, &e, 64, &sqs("A1"), &[]).moves_ok,
            Some(false)
        );
    }

    #[test]
    fn exact_unlisted_moves() {
        let e = ffo59();
        // An unlisted extra tie is not disproved by the file.
        assert_eq!(
            check(Mode::Exact, &e, 64, &sqs("B2 G8"), &[]).moves_ok,
            Some(true)
        );
        // But an answer made only of unlisted moves is unverified, so wrong.
        assert_eq!(
            check(Mode::Exact, &e, 64, &sqs("B2"), &[]).moves_ok,
            Some(false)
        );
    }

    #[test]
    fn exact_wrong_score() {
        let v = check(Mode::Exact, &ffo59(), 62, &sqs("G8"), &[]);
        assert_eq!(v, verdict(Some(false), Some(true)));
        assert_eq!(v.ok(), Some(false));
    }

    #[test]
    fn a_window_bound_is_checked_by_its_class_and_its_moves_only_where_listed() {
        let e = vec![(sq("G8"), 18), (sq("A1"), 2)];
        let w = Mode::Window(crate::search::Window::new(-3, 5).expect("window"));
        // H1 reached "at least 5": unlisted, so not held against the answer.
        assert_eq!(check(w, &e, 5, &sqs("H1"), &[]), verdict(Some(true), None));
        assert_eq!(
            check(w, &e, 5, &sqs("G8"), &[]),
            verdict(Some(true), Some(true))
        );
        // A1 is listed at +2, which does not reach 5.
        assert_eq!(
            check(w, &e, 5, &sqs("A1"), &[]),
            verdict(Some(true), Some(false))
        );
        assert_eq!(check(w, &e, -3, &sqs("G8"), &[]).score_ok, Some(false));
        // Inside the window an exact answer is checked as exact.
        let wide = Mode::Window(crate::search::Window::new(-3, 30).expect("window"));
        assert_eq!(
            check(wide, &e, 18, &sqs("A1"), &[]),
            verdict(Some(true), Some(false))
        );
    }

    #[test]
    fn wld_compares_signs() {
        let e = vec![
            (sq("G8"), 18),
            (sq("H1"), 12),
            (sq("B1"), -4),
            (sq("G2"), 0),
        ];
        // Any winning move is a right wld answer.
        assert_eq!(
            check(Mode::Wld, &e, 1, &sqs("H1 G8"), &[]),
            verdict(Some(true), Some(true))
        );
        assert_eq!(
            check(Mode::Wld, &e, 0, &sqs("G8"), &[]).score_ok,
            Some(false)
        );
        assert_eq!(
            check(Mode::Wld, &e, 18, &sqs("G8"), &[]).score_ok,
            Some(false)
        );
        // A drawing or losing move among the reported wins is wrong.
        assert_eq!(
            check(Mode::Wld, &e, 1, &sqs("G8 G2"), &[]).moves_ok,
            Some(false)
        );
        assert_eq!(
            check(Mode::Wld, &e, 1, &sqs("B1"), &[]).moves_ok,
            Some(false)
        );

        let draw = vec![(sq("H8"), 0), (sq("A5"), 0), (sq("B6"), -4)];
        assert_eq!(
            check(Mode::Wld, &draw, 0, &sqs("A5"), &[]),
            verdict(Some(true), Some(true))
        );
        let loss = vec![(sq("A1"), -2), (sq("B1"), -10)];
        assert_eq!(
            check(Mode::Wld, &loss, -1, &sqs("A1 B1"), &[]),
            verdict(Some(true), Some(true))
        );
    }

    #[test]
    fn all_checks_every_listed_move() {
        let e = vec![(sq("G8"), 18), (sq("H1"), 12), (sq("H7"), 6)];
        let right = vec![
            (sq("G8"), 18),
            (sq("H1"), 12),
            (sq("H7"), 6),
            (sq("A4"), -22),
        ];
        assert_eq!(
            check(Mode::All, &e, 18, &sqs("G8"), &right),
            verdict(Some(true), Some(true))
        );
        // One non-best move off by two: the best move and score are right, the scores not.
        let wrong = vec![
            (sq("G8"), 18),
            (sq("H1"), 10),
            (sq("H7"), 6),
            (sq("A4"), -22),
        ];
        assert_eq!(
            check(Mode::All, &e, 18, &sqs("G8"), &wrong),
            verdict(Some(false), Some(true))
        );
        // A listed move missing from the scores.
        let missing = vec![(sq("G8"), 18), (sq("H1"), 12)];
        assert_eq!(
            check(Mode::All, &e, 18, &sqs("G8"), &missing).score_ok,
            Some(false)
        );
    }

    #[test]
    fn passing_and_unlisted_positions() {
        // Nothing listed: nothing to check, whatever the answer.
        assert_eq!(check(Mode::Exact, &[], 10, &[], &[]), Verdict::default());
        assert_eq!(check(Mode::Exact, &[], 10, &sqs("A1"), &[]).ok(), None);
        // The file lists moves but the solver says the side passes.
        let e = vec![(sq("G8"), 18)];
        assert_eq!(
            check(Mode::Exact, &e, 18, &[], &[]),
            verdict(Some(true), Some(false))
        );
    }

    #[test]
    fn a_score_alone_checks_the_score_only() {
        let ok = check_values(Mode::Exact, &[], Some(-6), -6, &sqs("A1"), &[]);
        assert_eq!(ok, verdict(Some(true), None));
        let wrong = check_values(Mode::Exact, &[], Some(-6), -4, &sqs("A1"), &[]);
        assert_eq!(wrong.ok(), Some(false));
        // In wld only the class counts: a loss by 6 is a loss.
        let wld = check_values(Mode::Wld, &[], Some(-6), -1, &sqs("A1"), &[]);
        assert_eq!(wld, verdict(Some(true), None));
        // Without a score alone the pairs decide, as `check` does.
        let e = ffo59();
        assert_eq!(
            check_values(Mode::Exact, &e, None, 64, &sqs("G8"), &[]),
            check(Mode::Exact, &e, 64, &sqs("G8"), &[])
        );
    }
}
