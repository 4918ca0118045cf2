//! Text forms shared by the solve report, the suite table and the CSV.

use crate::board::{Board, Color, Position, Square};
use crate::search::{Level, Mode, PassReport, PvMove, Wld};

/// A score as reported: signed (`+18`, `+0`, `-4`); in wld the sign only (`+1`, `0`, `-1`);
/// in a window the edge a score lies beyond as a bound (`<=-2`, `>=+10`).
pub fn score_string(mode: Mode, score: i32) -> String {
    match (mode, Wld::of(score)) {
        (Mode::Wld, Wld::Win) => "+1".into(),
        (Mode::Wld, Wld::Draw) => "0".into(),
        (Mode::Wld, Wld::Loss) => "-1".into(),
        (Mode::Window(w), _) if score <= w.alpha() && w.alpha() > -64 => format!("<={score:+}"),
        (Mode::Window(w), _) if score >= w.beta() && w.beta() < 64 => format!(">={score:+}"),
        _ => format!("{score:+}"),
    }
}

/// Proven bounds in words: the exact score (`+4`), `at most -2` or `at least +10`, or
/// both bounds (`-2 to +6`) when neither edge is the game's.
pub fn bounds_string(lower: i32, upper: i32) -> String {
    match (lower, upper) {
        (l, u) if l == u => format!("{l:+}"),
        (-64, u) => format!("at most {u:+}"),
        (l, 64) => format!("at least {l:+}"),
        (l, u) => format!("{l:+} to {u:+}"),
    }
}

/// What a `?` after `level` means, in words for reports: `73% checked up to 29 empties
/// only`.
pub fn unchecked_note(level: Level) -> String {
    match level.checked_max_empties() {
        Some(max) => format!("{level} checked up to {max} empties only"),
        None => String::new(),
    }
}

/// The level of a finished pass: `73%` ... `99%` for a multi-probcut pass (`73%?` where
/// the level's promise was not checked at the position's number of empties), `narrow`
/// for the narrow first guess of an exact solve, `exact`.
pub fn pass_level(p: &PassReport) -> String {
    p.level.label(p.empties)
}

/// A pass's score as a probable answer with its level: `+64@95%`, `+16@73%?`, `+2@narrow`,
/// or the plain score of an exact pass.
pub fn probable_string(mode: Mode, p: &PassReport) -> String {
    let score = score_string(mode, p.score);
    if !p.level.is_exact() {
        format!("{score}@{}", pass_level(p))
    } else {
        score
    }
}

/// A pass's best move: its square, or `pass` when the side to move had none.
pub fn pass_move(p: &PassReport) -> String {
    p.best.map_or_else(|| "pass".to_string(), |m| m.to_string())
}

/// What reports say for a position without a legal move: `none (game over)` when neither
/// side has one, else `pass`.
pub fn no_move(board: &Board) -> &'static str {
    if board.is_game_over() {
        "none (game over)"
    } else {
        "pass"
    }
}

/// A wld score in words with its sign: `win (+1)`, `draw (0)`, `loss (-1)`.
pub fn wld_string(score: i32) -> String {
    match Wld::of(score) {
        Wld::Win => "win (+1)".into(),
        Wld::Draw => "draw (0)".into(),
        Wld::Loss => "loss (-1)".into(),
    }
}

/// The board as a diagram, row 1 at the top as in OBF: `X` black, `O` white, `.` a legal
/// move of the side to move, `-` another empty square; then the side to move and the disc
/// counts.
pub fn board_diagram(position: &Position) -> String {
    let b = position.board;
    let (black, white) = match position.side {
        Color::Black => (b.player, b.opponent),
        Color::White => (b.opponent, b.player),
    };
    let moves = b.moves();
    let mut out = String::from("  a b c d e f g h\n");
    for row in 0..8 {
        out.push_str(&format!("{}", row + 1));
        for col in 0..8 {
            let bit = 1u64 << (row * 8 + col);
            let c = if black & bit != 0 {
                'X'
            } else if white & bit != 0 {
                'O'
            } else if moves & bit != 0 {
                '.'
            } else {
                '-'
            };
            out.push(' ');
            out.push(c);
        }
        out.push_str(&format!(" {}\n", row + 1));
    }
    out.push_str("  a b c d e f g h\n");
    let side = match position.side {
        Color::Black => "X (black)",
        Color::White => "O (white)",
    };
    out.push_str(&format!(
        "{side} to move, {} legal moves; X {} O {}, {} empties\n",
        moves.count_ones(),
        black.count_ones(),
        white.count_ones(),
        b.empty_count()
    ));
    out
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
    use crate::board::parse_moves;

    #[test]
    fn start_position_diagram_marks_the_four_opening_moves() {
        // Black to move from the start: d3, c4, f5 and e6 are legal (the rules of the game,
        // written out by hand).
        let start = parse_moves("").expect("start position");
        let expected = "  a b c d e f g h\n\
                        1 - - - - - - - - 1\n\
                        2 - - - - - - - - 2\n\
                        3 - - - . - - - - 3\n\
                        4 - - . O X - - - 4\n\
                        5 - - - X O . - - 5\n\
                        6 - - - - . - - - 6\n\
                        7 - - - - - - - - 7\n\
                        8 - - - - - - - - 8\n\
                        \x20 a b c d e f g h\n\
                        X (black) to move, 4 legal moves; X 2 O 2, 60 empties\n";
        assert_eq!(board_diagram(&start), expected);
    }

    #[test]
    fn diagram_shows_white_to_move_after_f5() {
        // After f5 (flipping e5) white moves, at d6, f4 or f6.
        let p = parse_moves("f5").expect("f5 is legal");
        let d = board_diagram(&p);
        assert!(d.contains("5 - - - X X X - - 5"), "{d}");
        assert!(d.contains("4 - - - O X . - - 4"), "{d}");
        assert!(d.contains("6 - - - . - . - - 6"), "{d}");
        assert!(
            d.ends_with("O (white) to move, 3 legal moves; X 4 O 1, 59 empties\n"),
            "{d}"
        );
    }

    #[test]
    fn scores() {
        assert_eq!(score_string(Mode::Exact, 18), "+18");
        assert_eq!(score_string(Mode::Exact, 0), "+0");
        assert_eq!(score_string(Mode::All, -4), "-4");
        assert_eq!(score_string(Mode::Wld, 1), "+1");
        assert_eq!(score_string(Mode::Wld, 0), "0");
        assert_eq!(score_string(Mode::Wld, -1), "-1");
        assert_eq!(score_string(Mode::Wld, 18), "+1");
        let w = Mode::Window(crate::search::Window::new(-3, 5).expect("window"));
        assert_eq!(score_string(w, -3), "<=-3");
        assert_eq!(score_string(w, 2), "+2");
        assert_eq!(score_string(w, 5), ">=+5");
        assert_eq!(
            score_string(Mode::Window(crate::search::Window::FULL), 64),
            "+64"
        );
        assert_eq!(bounds_string(4, 4), "+4");
        assert_eq!(bounds_string(-64, -2), "at most -2");
        assert_eq!(bounds_string(10, 64), "at least +10");
        assert_eq!(bounds_string(-2, 6), "-2 to +6");
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
