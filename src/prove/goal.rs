//! What a proof asks of one position: a bound on its value for the side to move, and the
//! narrowest window whose solve decides it. Every final score is even (the discs and
//! the empties the winner takes make 64), so bounds round to even values.

use crate::search::Window;

/// A bound to prove on a position's value for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// The value is at least this.
    AtLeast(i32),
    /// The value is at most this.
    AtMost(i32),
}

impl Goal {
    /// What a child must prove for this goal, its value being minus the parent's after
    /// the move: one child for `AtLeast` (a move that reaches it), every child for
    /// `AtMost` (no move does better).
    pub fn for_child(self) -> Goal {
        match self {
            Goal::AtLeast(b) => Goal::AtMost(-b),
            Goal::AtMost(a) => Goal::AtLeast(-a),
        }
    }

    /// Whether the bounds `lower..=upper` prove it (`Some(true)`), refute it
    /// (`Some(false)`), or neither.
    pub fn decided_by(self, (lower, upper): (i32, i32)) -> Option<bool> {
        match self {
            Goal::AtLeast(b) if lower >= b => Some(true),
            Goal::AtLeast(b) if upper < b => Some(false),
            Goal::AtMost(a) if upper <= a => Some(true),
            Goal::AtMost(a) if lower > a => Some(false),
            _ => None,
        }
    }

    /// The narrowest window whose answer decides it: alpha below the bound and beta at it
    /// (`>= b` from `b-1,b`; `<= a` from `a,a+1`). `None` for a goal that no position can
    /// miss or meet (decided by -64..64 already).
    pub fn window(self) -> Option<Window> {
        match self {
            Goal::AtLeast(b) => Window::new(b - 1, b).ok(),
            Goal::AtMost(a) => Window::new(a, a + 1).ok(),
        }
    }
}

/// The narrowest window that decides what both `a` and `b` decide.
pub fn joined(a: Window, b: Window) -> Window {
    Window::new(a.alpha().min(b.alpha()), a.beta().max(b.beta())).unwrap_or(a)
}

/// Bounds with each end rounded inwards to an even value (scores are even).
pub fn even((lower, upper): (i32, i32)) -> (i32, i32) {
    (lower + lower.rem_euclid(2), upper - upper.rem_euclid(2))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A goal's window decides it for every value a position can have: the window's
    /// answer (exact inside, a bound beyond an edge) is on one side of the goal.
    #[test]
    fn a_goal_window_decides_it_for_every_value() {
        for b in -63..=64 {
            for goal in [Goal::AtLeast(b), Goal::AtMost(b - 1)] {
                let w = goal.window().expect("a window");
                for v in -64..=64 {
                    // The weakest answer the window can give for value v.
                    let answer = if v <= w.alpha() {
                        (-64, w.alpha())
                    } else if v >= w.beta() {
                        (w.beta(), 64)
                    } else {
                        (v, v)
                    };
                    let truth = match goal {
                        Goal::AtLeast(b) => v >= b,
                        Goal::AtMost(a) => v <= a,
                    };
                    assert_eq!(goal.decided_by(answer), Some(truth), "{goal:?} {w} {v}");
                }
            }
        }
        assert_eq!(Goal::AtLeast(-64).decided_by((-64, 64)), Some(true));
        assert_eq!(Goal::AtMost(64).decided_by((-64, 64)), Some(true));
        assert_eq!(Goal::AtLeast(0).decided_by((-64, 64)), None);
    }

    #[test]
    fn bounds_round_inwards_to_even() {
        assert_eq!(even((-3, 3)), (-2, 2));
        assert_eq!(even((-1, -1)), (0, -2));
        assert_eq!(even((2, 4)), (2, 4));
        assert_eq!(Goal::AtLeast(3).for_child(), Goal::AtMost(-3));
        let w = joined(Window::new(-1, 0).unwrap(), Window::new(2, 3).unwrap());
        assert_eq!((w.alpha(), w.beta()), (-1, 3));
    }
}
