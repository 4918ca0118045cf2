//! A window solve's question: the root searched with alpha A and beta B answers the exact
//! score when it lies strictly between them, and a proven bound otherwise (at most A, or
//! at least B). An exact solve is the window -64,64; a win/draw/loss solve is -1,1.

use crate::search::error::WindowError;
use std::fmt;

/// The alpha and beta of a window solve, -64 <= alpha < beta <= 64.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Window {
    alpha: i32,
    beta: i32,
}

impl Window {
    /// Every score: an exact solve.
    pub const FULL: Window = Window {
        alpha: -64,
        beta: 64,
    };
    /// Win, draw or loss: the question a wld solve answers.
    pub const WLD: Window = Window { alpha: -1, beta: 1 };

    /// The window (`alpha`, `beta`), or why it is none: empty or reversed (alpha not below
    /// beta), or reaching past the scores a game can end with.
    pub fn new(alpha: i32, beta: i32) -> Result<Window, WindowError> {
        for v in [alpha, beta] {
            if !(-64..=64).contains(&v) {
                return Err(WindowError::OutOfRange { alpha, beta });
            }
        }
        if alpha >= beta {
            return Err(WindowError::Empty { alpha, beta });
        }
        Ok(Window { alpha, beta })
    }

    /// `A,B` as given to `--window` (spaces allowed around each number).
    pub fn parse(s: &str) -> Result<Window, WindowError> {
        let bad = || WindowError::Syntax(s.to_string());
        let (a, b) = s.split_once(',').ok_or_else(bad)?;
        let a = a.trim().parse().map_err(|_| bad())?;
        let b = b.trim().parse().map_err(|_| bad())?;
        Window::new(a, b)
    }

    /// Its alpha: a score at or below it is answered as "at most alpha".
    pub fn alpha(self) -> i32 {
        self.alpha
    }

    /// Its beta: a score at or above it is answered as "at least beta".
    pub fn beta(self) -> i32 {
        self.beta
    }

    /// The window as seen by the opponent, after a pass.
    pub fn negated(self) -> Window {
        Window {
            alpha: -self.beta,
            beta: -self.alpha,
        }
    }

    /// What the window says of score `v`: `v` itself inside the window, else the edge it
    /// lies beyond (alpha for "at most alpha", beta for "at least beta"). In the window
    /// -1,1 this is the sign of `v`: win, draw or loss.
    pub fn class(self, v: i32) -> i32 {
        v.clamp(self.alpha, self.beta)
    }

    /// The bounds that answer `class` (a score in the window's terms) proves on the final
    /// disc difference: itself inside the window, else all beyond the edge. Every final
    /// disc difference is even, so an odd edge tightens: a wld win (+1) is at least +2.
    pub fn bounds_of(self, class: i32) -> (i32, i32) {
        let even_up = |v: i32| v + v.rem_euclid(2);
        let even_down = |v: i32| v - v.rem_euclid(2);
        if class <= self.alpha && self.alpha > -64 {
            (-64, even_down(self.alpha))
        } else if class >= self.beta && self.beta < 64 {
            (even_up(self.beta), 64)
        } else {
            (class, class)
        }
    }

    /// Whether proven bounds `lower..=upper` answer the window's question: an exact score,
    /// or an upper bound at most alpha, or a lower bound at least beta.
    pub fn answered_by(self, lower: i32, upper: i32) -> bool {
        lower == upper || upper <= self.alpha || lower >= self.beta
    }
}

impl fmt::Display for Window {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.alpha, self.beta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_is_refused_when_empty_reversed_or_out_of_range() {
        assert_eq!(
            Window::parse("-3, 5").map(|w| (w.alpha(), w.beta())),
            Ok((-3, 5))
        );
        assert_eq!(Window::parse("-64,64"), Ok(Window::FULL));
        assert_eq!(Window::parse("0,1").map(|w| w.beta()), Ok(1));
        assert_eq!(
            Window::parse("2,2"),
            Err(WindowError::Empty { alpha: 2, beta: 2 })
        );
        assert_eq!(
            Window::parse("4,-4"),
            Err(WindowError::Empty { alpha: 4, beta: -4 })
        );
        assert_eq!(
            Window::parse("-66,0"),
            Err(WindowError::OutOfRange {
                alpha: -66,
                beta: 0
            })
        );
        assert_eq!(
            Window::parse("0,65"),
            Err(WindowError::OutOfRange { alpha: 0, beta: 65 })
        );
        for bad in ["", "3", "a,b", "1,2,3", "1;2"] {
            assert_eq!(
                Window::parse(bad),
                Err(WindowError::Syntax(bad.into())),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_class_of_a_score_is_itself_inside_and_the_edge_outside() {
        let w = Window::new(-3, 5).expect("window");
        assert_eq!(w.class(-10), -3);
        assert_eq!(w.class(-3), -3);
        assert_eq!(w.class(0), 0);
        assert_eq!(w.class(5), 5);
        assert_eq!(w.class(12), 5);
        // The window -1,1 is win, draw or loss.
        for v in (-64..=64).step_by(2) {
            assert_eq!(Window::WLD.class(v), (v > 0) as i32 - (v < 0) as i32);
        }
        assert_eq!(w.negated(), Window::new(-5, 3).expect("window"));
    }

    #[test]
    fn a_class_answer_bounds_the_disc_difference_beyond_the_edge() {
        assert_eq!(Window::WLD.bounds_of(-1), (-64, -2));
        assert_eq!(Window::WLD.bounds_of(0), (0, 0));
        assert_eq!(Window::WLD.bounds_of(1), (2, 64));
        assert_eq!(Window::FULL.bounds_of(-64), (-64, -64));
        assert_eq!(Window::FULL.bounds_of(64), (64, 64));
        assert_eq!(Window::FULL.bounds_of(6), (6, 6));
        let w = Window::new(-3, 6).expect("window");
        assert_eq!(w.bounds_of(-3), (-64, -4));
        assert_eq!(w.bounds_of(6), (6, 64));
        assert_eq!(w.bounds_of(2), (2, 2));
    }

    #[test]
    fn bounds_answer_a_window_when_exact_or_beyond_an_edge() {
        let w = Window::new(-3, 5).expect("window");
        assert!(w.answered_by(2, 2));
        assert!(w.answered_by(-64, -4));
        assert!(w.answered_by(-64, -3));
        assert!(w.answered_by(6, 64));
        assert!(!w.answered_by(-64, 0));
        assert!(!w.answered_by(0, 64));
    }
}
