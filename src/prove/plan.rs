//! Planning a round: from what the leaf rows prove, the goals the root can already be
//! shown to meet or miss, and the leaves (each with the window that decides its goal)
//! that the next step needs.
//!
//! A goal on a position is a bound on its value. `>= b` needs one move whose position
//! is `<= -b`; the moves are tried best predicted first, and the next is taken only once
//! the first is refuted. `<= a` needs every move's position `>= -a`. A position of
//! at most `frontier` empties is a leaf, unless a solve of it gave up at its time limit
//! (then its moves are planned as above, so no leaf holds up the proof): its goal goes out as a window solve (a null
//! window the first time; when a row of it did not decide the goal asked now, the window
//! that decides every goal the root's window can ask: exact for an exact value).
//! The root aims its goals at its estimated value inside what is proven so far, until
//! the bounds answer the window asked (both equal, for an exact value).
//!
//! A leaf goes out only when a probable check of its goal says it holds (`doubt.rs`);
//! one that the check says fails is a doubt, and the plan tries another move. Where
//! every move is doubted or refuted, the moves are planned again without believing
//! doubts below: one false doubt among the hundreds of leaves under a move must not
//! cost the move. Doubts order the work; only rows prove.

use super::doubt::Checker;
use super::estimate::Estimator;
use super::goal::{Goal, even, joined};
use super::known::Known;
use super::predict::Predictor;
use super::tree::{Node, node};
use crate::board::key::position_key;
use crate::board::{Position, Square};
use crate::interrupt::Interrupt;
use crate::search::Window;
use std::collections::{HashMap, HashSet};

/// A position whose solve the proof needs, with the window that decides its goals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leaf {
    /// The position.
    pub position: Position,
    /// The window of its solve.
    pub window: Window,
    /// The moves from the root that reach it (passes not written).
    pub path: Vec<Square>,
}

/// What planning found.
pub struct Plan {
    /// What the decided goals prove of the root's value: lower and upper bounds.
    pub bounds: (i32, i32),
    /// Leaves to solve next; none once the bounds answer the window asked.
    pub leaves: Vec<Leaf>,
    /// The moves from the root of every position it expanded (their children were
    /// looked at): the tree a check re-derives the bounds on.
    pub tree: Vec<Vec<Square>>,
}

/// Whether a goal holds, fails, or waits on leaves. A decided goal carries the bound it
/// proved in its own direction (fail-soft): for `>= b`, the lower bound when it holds and
/// the upper when it fails; for `<= a`, the upper when it holds and the lower when it
/// fails. Leaves' window solves prove tight bounds, so the root's bounds jump to them
/// instead of stepping by 2. A doubt is a goal that probable checks say fails: nothing
/// is proven, and nothing is sent for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Holds(i32),
    Fails(i32),
    Doubt,
    Open,
}

/// Indices in the plan's leaves of those a goal waits on.
type Waits = Vec<usize>;

impl Status {
    /// `goal`'s status given bounds `lower..=upper` that decide it.
    fn of(goal: Goal, (lower, upper): (i32, i32)) -> Option<Status> {
        let holds = goal.decided_by((lower, upper))?;
        Some(match (goal, holds) {
            (Goal::AtLeast(_), true) | (Goal::AtMost(_), false) => Status::from(holds, lower),
            (Goal::AtLeast(_), false) | (Goal::AtMost(_), true) => Status::from(holds, upper),
        })
    }

    fn from(holds: bool, bound: i32) -> Status {
        if holds {
            Status::Holds(bound)
        } else {
            Status::Fails(bound)
        }
    }

    /// A child's status as its parent sees it: the child's value negated.
    fn negated(self) -> Status {
        match self {
            Status::Holds(x) => Status::Holds(-x),
            Status::Fails(x) => Status::Fails(-x),
            s => s,
        }
    }

    /// Whether the goal is proven to hold or to fail.
    fn decided(self) -> bool {
        matches!(self, Status::Holds(_) | Status::Fails(_))
    }
}

/// A `>=` goal opens at most 2 to this power moves at once (after that many refuted).
const OPEN_MOVES_LOG2: u32 = 3;

/// Root goals tried in one plan at most: each decided one narrows the bounds, which
/// are 64 even values wide.
const MAX_ROOT_GOALS: usize = 200;

/// What a plan reads and searches besides the rows: predictions and probable checks.
pub struct Guides<'a, 'e> {
    /// Orders the moves and aims the root.
    pub predictor: &'a mut Predictor<'e>,
    /// Checks leaves before they go out.
    pub checker: &'a mut Checker,
}

/// Plans the proof of `root` for `target` (the full window for an exact value) from
/// what `known` proves, with leaves at `frontier` empties or fewer. Once `interrupt` is
/// requested the walk stops: the plan is then of no use.
pub fn plan(
    root: &Position,
    target: Window,
    known: &Known,
    frontier: u32,
    guides: &mut Guides,
    interrupt: &Interrupt,
) -> Plan {
    let checked = plan_with(root, target, known, frontier, guides, interrupt, true);
    if !checked.leaves.is_empty() || target.answered_by(checked.bounds.0, checked.bounds.1) {
        return checked;
    }
    plan_with(root, target, known, frontier, guides, interrupt, false)
}

/// [`plan`], believing the checks' doubts or not.
fn plan_with(
    root: &Position,
    target: Window,
    known: &Known,
    frontier: u32,
    guides: &mut Guides,
    interrupt: &Interrupt,
    doubts: bool,
) -> Plan {
    let mut planner = Planner {
        interrupt,
        known,
        frontier,
        predictor: &mut *guides.predictor,
        checker: &mut *guides.checker,
        believe: doubts,
        again: asked_again_window(target),
        memo: HashMap::new(),
        proven: HashMap::new(),
        expanded: HashSet::new(),
        leaves: Vec::new(),
        leaf_at: HashMap::new(),
        tree: Vec::new(),
        path: Vec::new(),
    };
    let mut bounds = (-64, 64);
    let mut waits = Waits::new();
    for _ in 0..MAX_ROOT_GOALS {
        if target.answered_by(bounds.0, bounds.1) || interrupt.requested() {
            break;
        }
        let aim = planner.estimate(root).clamp(bounds.0, bounds.1);
        let before = bounds;
        for goal in root_goals(target, aim, bounds) {
            match planner.need(*root, goal) {
                (Status::Open, w) => waits.extend(w),
                (Status::Doubt, _) => {}
                (decided, _) => bounds = narrowed(bounds, goal, decided),
            }
        }
        // Waiting on leaves, or nothing but doubts left at this aim.
        if !waits.is_empty() || bounds == before {
            break;
        }
    }
    // Only the leaves the root's open goals wait on: a goal that a later move decided,
    // or a doubt, leaves those of the moves looked at before it.
    let mut sent = HashSet::new();
    let leaves = if target.answered_by(bounds.0, bounds.1) {
        Vec::new()
    } else {
        waits
            .into_iter()
            .filter(|&i| sent.insert(i))
            .map(|i| planner.leaves[i].clone())
            .collect()
    };
    Plan {
        bounds,
        leaves,
        tree: planner.tree,
    }
}

/// The goals to try at the root: the window's edge when the aim is beyond it, else the
/// aim from both sides (those not proven already).
fn root_goals(target: Window, aim: i32, (lower, upper): (i32, i32)) -> Vec<Goal> {
    if aim <= target.alpha() {
        vec![Goal::AtMost(target.alpha())]
    } else if aim >= target.beta() {
        vec![Goal::AtLeast(target.beta())]
    } else {
        let mut goals = Vec::new();
        if aim > lower {
            goals.push(Goal::AtLeast(aim));
        }
        if aim < upper {
            goals.push(Goal::AtMost(aim));
        }
        goals
    }
}

/// The window that decides every goal a proof of `target` can ask of any position: the
/// goals are the root's bounds inside `target` and their negations, one ply down. A
/// leaf asked again gets it, so that it is not asked a third time; for a bound (`wld`
/// is -1,1) it is narrow, and a far value fails it at a null window's cost, where an
/// exact solve of a +26 leaf on the drawn proof took 11.6 G nodes.
fn asked_again_window(target: Window) -> Window {
    let m = target.alpha().abs().max(target.beta().abs());
    Window::new((-m - 1).max(-64), (m + 1).min(64)).unwrap_or(Window::FULL)
}

/// `bounds` after `goal` was decided as `status` says, rounded to even values.
fn narrowed((lower, upper): (i32, i32), goal: Goal, status: Status) -> (i32, i32) {
    let (l, u) = match (goal, status) {
        (Goal::AtLeast(_), Status::Holds(x)) | (Goal::AtMost(_), Status::Fails(x)) => (x, 64),
        (Goal::AtLeast(_), Status::Fails(x)) | (Goal::AtMost(_), Status::Holds(x)) => (-64, x),
        (_, Status::Open | Status::Doubt) => (-64, 64),
    };
    even((lower.max(l), upper.min(u)))
}

/// The walk of one plan.
struct Planner<'a, 'e> {
    interrupt: &'a Interrupt,
    known: &'a Known,
    frontier: u32,
    predictor: &'a mut Predictor<'e>,
    /// Checks leaves' goals.
    checker: &'a mut Checker,
    /// Whether the walk believes doubts where it is (false: every leaf it reaches
    /// goes out).
    believe: bool,
    /// The window of a leaf asked again.
    again: Window,
    /// Goals already decided or waiting (on which leaves), by position key and belief.
    memo: HashMap<(u64, Goal, bool), (Status, Waits)>,
    /// What the decided goals prove of the positions above the leaves, by key.
    proven: HashMap<u64, (i32, i32)>,
    /// The positions whose children were looked at.
    expanded: HashSet<u64>,
    leaves: Vec<Leaf>,
    /// Where each leaf's position is in `leaves`, by key.
    leaf_at: HashMap<u64, usize>,
    tree: Vec<Vec<Square>>,
    /// The moves from the root to the position being looked at.
    path: Vec<Square>,
}

/// What the rows and the decided goals prove of the position `key`.
fn bounds_of(known: &Known, proven: &HashMap<u64, (i32, i32)>, key: u64) -> (i32, i32) {
    let (l, u) = known.get(key).unwrap_or((-64, 64));
    let (pl, pu) = proven.get(&key).copied().unwrap_or((-64, 64));
    (l.max(pl), u.min(pu))
}

impl Planner<'_, '_> {
    /// What is proven of the position `key` so far.
    fn bounds(&self, key: u64) -> (i32, i32) {
        bounds_of(self.known, &self.proven, key)
    }

    /// The estimated value of `p` from everything this plan knows.
    fn estimate(&mut self, p: &Position) -> i32 {
        let (known, proven) = (self.known, &self.proven);
        let bounds = |key| bounds_of(known, proven, key);
        Estimator {
            bounds: &bounds,
            expanded: &self.expanded,
            predictor: &mut *self.predictor,
        }
        .value(p)
    }

    /// Whether `p` meets `goal`, or which leaves that waits on (added to the plan).
    fn need(&mut self, p: Position, goal: Goal) -> (Status, Waits) {
        if self.interrupt.requested() {
            return (Status::Open, Waits::new());
        }
        let key = position_key(&p);
        let proven = self.bounds(key);
        if let Some(s) = Status::of(goal, proven) {
            return (s, Waits::new());
        }
        if let Some(found) = self.memo.get(&(key, goal, self.believe)) {
            return found.clone();
        }
        let (s, waits) = match node(&p) {
            Node::Over(score) => (
                Status::of(goal, (score, score)).unwrap_or(Status::Open),
                Waits::new(),
            ),
            _ if p.board.empty_count() <= self.frontier && !self.known.gave_up(key) => {
                self.leaf(p, key, goal)
            }
            Node::Pass(q) => {
                self.expand(key);
                let (s, waits) = self.need(q, goal.for_child());
                (s.negated(), waits)
            }
            Node::Moves(moves) => {
                self.expand(key);
                self.moves(moves, goal)
            }
        };
        if s.decided() && (p.board.empty_count() > self.frontier || self.known.gave_up(key)) {
            let b = narrowed(proven, goal, s);
            self.proven.insert(key, b);
        }
        self.memo
            .insert((key, goal, self.believe), (s, waits.clone()));
        (s, waits)
    }

    /// Records that the position at `self.path` (key `key`) has its children looked at.
    fn expand(&mut self, key: u64) {
        if self.expanded.insert(key) {
            self.tree.push(self.path.clone());
        }
    }

    /// Adds the leaf `p` for `goal`, joining the window of a leaf already planned,
    /// unless its check doubts the goal.
    fn leaf(&mut self, p: Position, key: u64, goal: Goal) -> (Status, Waits) {
        // Undecided by -64..64, so the goal has a window. A leaf asked again (its rows
        // bound it, but not where this goal needs) gets the window that settles every
        // goal the proof can ask of it; it is checked like any other leaf, since a row
        // proving one side says nothing of the other.
        let Some(window) = goal.window() else {
            return (Status::Open, Waits::new());
        };
        let asked_again = self.known.get(key).is_some();
        if self.believe && self.checker.doubts(&p, goal) {
            return (Status::Doubt, Waits::new());
        }
        let window = if asked_again { self.again } else { window };
        let i = match self.leaf_at.get(&key) {
            Some(&i) => {
                self.leaves[i].window = joined(self.leaves[i].window, window);
                i
            }
            None => {
                self.leaf_at.insert(key, self.leaves.len());
                self.leaves.push(Leaf {
                    position: p,
                    window,
                    path: self.path.clone(),
                });
                self.leaves.len() - 1
            }
        };
        (Status::Open, vec![i])
    }

    /// `goal` at a position with `moves`: one move for `>=`, every move for `<=`, the
    /// best predicted (lowest value for the opponent) first.
    fn moves(&mut self, moves: Vec<(Square, Position)>, goal: Goal) -> (Status, Waits) {
        let ordered = self.ordered(moves);
        let (s, waits) = self.walk(&ordered, goal);
        if s != Status::Doubt || !matches!(goal, Goal::AtLeast(_)) || !self.believe {
            return (s, waits);
        }
        // Every move doubted or refuted: the moves again, believing no doubt below.
        self.believe = false;
        let again = self.walk(&ordered, goal);
        self.believe = true;
        again
    }

    /// `moves` ordered by their prediction held inside what is proven of each.
    fn ordered(&mut self, moves: Vec<(Square, Position)>) -> Vec<((i32, i32), Square, Position)> {
        let mut ordered: Vec<((i32, i32), Square, Position)> = moves
            .into_iter()
            .map(|(sq, q)| {
                let (lower, upper) = self.bounds(position_key(&q));
                let discs = self.predictor.score(&q).clamp(lower, upper);
                ((discs, self.predictor.value(&q)), sq, q)
            })
            .collect();
        ordered.sort_by_key(|&(v, sq, _)| (v, sq.index()));
        ordered
    }

    /// `goal` over the `ordered` moves.
    fn walk(&mut self, ordered: &[((i32, i32), Square, Position)], goal: Goal) -> (Status, Waits) {
        let child = goal.for_child();
        // `>=`: one move that holds; `<=`: every move. Either way the parent's bound is
        // the best of what the children decided. A `>=` waits on one move at a time
        // while the predictions hold; each move its rows refuted doubles the moves it
        // opens at once, so that bad predictions cost rounds in log2, not one each.
        // A doubted move is passed over (`>=`) or doubts the goal (`<=`).
        let any = matches!(goal, Goal::AtLeast(_));
        let (mut open, mut best, mut refuted, mut doubted) = (0u32, -64, 0u32, false);
        let mut waits = Waits::new();
        for &(_, sq, q) in ordered {
            if any && open > 0 && open >= 1 << refuted.min(OPEN_MOVES_LOG2) {
                break;
            }
            self.path.push(sq);
            let (s, w) = self.need(q, child);
            self.path.pop();
            match (any, s.negated()) {
                (true, s @ Status::Holds(_)) | (false, s @ (Status::Fails(_) | Status::Doubt)) => {
                    return (s, Waits::new());
                }
                (true, Status::Doubt) => doubted = true,
                (_, Status::Open) => {
                    open += 1;
                    waits.extend(w);
                }
                (_, Status::Holds(x)) | (_, Status::Fails(x)) => {
                    best = best.max(x);
                    refuted += u32::from(any);
                }
            }
        }
        let s = match (open > 0, any) {
            (true, _) => Status::Open,
            (false, true) if doubted => Status::Doubt,
            (false, true) => Status::Fails(best),
            (false, false) => Status::Holds(best),
        };
        (s, waits)
    }
}
