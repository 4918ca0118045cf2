//! Text forms shared by the solve report, the suite table and the CSV.

use crate::board::Square;
use crate::search::{Mode, PvMove};

/// A score as reported: signed (`+18`, `+0`, `-4`); in wld the sign only (`+1`, `0`, `-1`).
pub fn score_string(mode: Mode, score: i32) -> String {
    if mode == Mode::Wld {
        match score.signum() {
            1 => "+1".into(),
            0 => "0".into(),
            _ => "-1".into(),
        }
    } else {
        format!("{score:+}")
    }
}

/// A wld score in words with its sign: `win (+1)`, `draw (0)`, `loss (-1)`.
pub fn wld_string(score: i32) -> String {
    match score.signum() {
        1 => "win (+1)".into(),
        0 => "draw (0)".into(),
        _ => "loss (-1)".into(),
    }
}

/// Squares separated by spaces: `G8 H4`.
pub fn moves_string(moves: &[Square]) -> String {
    let v: Vec<String> = moves.iter().map(Square::to_string).collect();
    v.join(" ")
}

/// Move scores, best first as given: `G8:+18 H1:+12`.
pub fn move_scores_string(scores: &[(Square, i32)]) -> String {
    let v: Vec<String> = scores.iter().map(|(m, s)| format!("{m}:{s:+}")).collect();
    v.join(" ")
}

/// The first `n` moves of a principal variation, `...` when it goes on.
pub fn pv_head(pv: &[PvMove], n: usize) -> String {
    let v: Vec<String> = pv.iter().take(n).map(PvMove::to_string).collect();
    let mut s = v.join(" ");
    if pv.len() > n {
        s += " ...";
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores() {
        assert_eq!(score_string(Mode::Exact, 18), "+18");
        assert_eq!(score_string(Mode::Exact, 0), "+0");
        assert_eq!(score_string(Mode::All, -4), "-4");
        assert_eq!(score_string(Mode::Wld, 1), "+1");
        assert_eq!(score_string(Mode::Wld, 0), "0");
        assert_eq!(score_string(Mode::Wld, -1), "-1");
        assert_eq!(score_string(Mode::Wld, 18), "+1");
        assert_eq!(wld_string(-1), "loss (-1)");
    }

    #[test]
    fn lists() {
        let g8 = Square::parse("G8").expect("square");
        let h1 = Square::parse("h1").expect("square");
        assert_eq!(moves_string(&[g8, h1]), "G8 H1");
        assert_eq!(move_scores_string(&[(g8, 18), (h1, 0)]), "G8:+18 H1:+0");
        let pv = [PvMove::Play(g8), PvMove::Pass, PvMove::Play(h1)];
        assert_eq!(pv_head(&pv, 3), "G8 pass H1");
        assert_eq!(pv_head(&pv, 2), "G8 pass ...");
    }
}
