//! Window solves (`--window A,B`, `Mode::Window`) against the naive reference in
//! `common/reference.rs`: inside the window the exact score, outside it a proven bound
//! beyond the edge, the bounds always holding the reference value; wld is the window -1,1;
//! the FFO positions' published values with windows around them; the CSV's columns.

mod common;

use common::reference::{self as r, RefBoard, Rng};
use common::run::finale_ok;
use finale::search::{Mode, SearchOptions, Solver, SolverOptions, Window};

fn solver() -> Solver {
    Solver::new(SolverOptions {
        hash_mb: 4,
        search: SearchOptions {
            ties: true,
            ..Default::default()
        },
        ..Default::default()
    })
}

/// What a window solve of a position of value `v` whose moves have `children` values
/// must answer; `Err` says what it did not.
fn check(
    w: Window,
    v: i32,
    children: &[(usize, i32)],
    res: &finale::search::SolveResult,
) -> Result<(), String> {
    let (a, b) = (w.alpha(), w.beta());
    let (l, u) = (res.lower, res.upper);
    if !(l <= v && v <= u) {
        return Err(format!("bounds {l}..{u} do not hold the value {v}"));
    }
    if a < v && v < b && l != u {
        return Err(format!("{v} inside the window but bounds {l}..{u}"));
    }
    if v <= a && u > a {
        return Err(format!("{v} at most alpha but upper bound {u}"));
    }
    if v >= b && l < b {
        return Err(format!("{v} at least beta but lower bound {l}"));
    }
    if res.score != v.clamp(a, b) {
        return Err(format!("score {} instead of {}", res.score, v.clamp(a, b)));
    }
    let mut got: Vec<usize> = res.best_moves.iter().map(|s| s.index()).collect();
    got.sort_unstable();
    let class = |x: i32| x.clamp(a, b);
    if a < v && v < b {
        // Exact, with ties: every move of the value.
        let want: Vec<usize> = children
            .iter()
            .filter(|&&(_, x)| x == v)
            .map(|&(s, _)| s)
            .collect();
        if got != want {
            return Err(format!("best {got:?} instead of {want:?}"));
        }
    } else if got.iter().any(|s| {
        children
            .iter()
            .any(|&(c, x)| c == *s && class(x) != class(v))
    }) {
        return Err(format!("best {got:?} includes a move of another class"));
    }
    if !children.is_empty() && got.is_empty() {
        return Err("no best move".into());
    }
    Ok(())
}

/// Windows that put the value below, at, inside and above each edge, and the extremes.
fn windows_around(v: i32, rng: &mut Rng) -> Vec<Window> {
    let mut edges: Vec<i32> = (-3..=3).map(|d| (v + d).clamp(-64, 64)).collect();
    edges.extend([-64, 64, rng.below(129) as i32 - 64]);
    edges.sort_unstable();
    edges.dedup();
    let mut out = Vec::new();
    for &a in &edges {
        for &b in &edges {
            if let Ok(w) = Window::new(a, b) {
                out.push(w);
            }
        }
    }
    out
}

fn value_and_children(b: &RefBoard) -> (i32, Vec<(usize, i32)>) {
    let moves = r::legal_moves(b);
    if moves.is_empty() {
        let v = if r::is_game_over(b) {
            r::final_score(b)
        } else {
            -r::solve(&r::pass(b))
        };
        return (v, Vec::new());
    }
    let children: Vec<(usize, i32)> = moves
        .iter()
        .map(|&sq| (sq, -r::solve(&r::play(b, sq).unwrap())))
        .collect();
    (children.iter().map(|&(_, x)| x).max().unwrap(), children)
}

/// Hundreds of small positions (1-10 empties, passes, games over), each with every
/// window placing its value below, at, inside and beyond each edge, the table kept
/// between solves so that bounds stored by one window meet the next.
#[test]
fn window_solves_agree_with_the_reference() {
    let mut rng = Rng::new(0x3140_0001);
    let list = r::small_positions(&mut rng, 30, 30, 20);
    let mut s = solver();
    let (mut solves, mut failed) = (0, Vec::new());
    for b in &list {
        let (v, children) = value_and_children(b);
        for w in windows_around(v, &mut rng) {
            let res = s.solve(r::to_board(b), Mode::Window(w));
            solves += 1;
            if let Err(e) = check(w, v, &children, &res) {
                failed.push(format!("window {w} on {}: {e}", r::show(b)));
            }
        }
    }
    assert!(
        list.len() >= 300 && solves > 10_000,
        "{} positions, {solves} solves",
        list.len()
    );
    assert!(
        failed.is_empty(),
        "{} of {solves} wrong, e.g. {:?}",
        failed.len(),
        &failed[..failed.len().min(5)]
    );
}

/// Every one of the 8,256 windows on a few tiny positions.
#[test]
fn every_window_on_tiny_positions() {
    let mut rng = Rng::new(0x3140_0002);
    let mut s = solver();
    for n in 1..=4 {
        let b = r::random_position(&mut rng, n);
        let (v, children) = value_and_children(&b);
        for a in -64..64 {
            for beta in a + 1..=64 {
                let w = Window::new(a, beta).unwrap();
                s.clear();
                let res = s.solve(r::to_board(&b), Mode::Window(w));
                if let Err(e) = check(w, v, &children, &res) {
                    panic!("window {w} on {}: {e}", r::show(&b));
                }
            }
        }
    }
}

/// Wld answers what the window -1,1 does: the same score, and bounds that agree.
#[test]
fn wld_is_the_window_minus_one_one() {
    let mut rng = Rng::new(0x3140_0003);
    let mut s = solver();
    for b in r::small_positions(&mut rng, 10, 10, 10) {
        let board = r::to_board(&b);
        let wld = s.solve(board, Mode::Wld);
        let win = s.solve(board, Mode::Window(Window::WLD));
        assert_eq!(wld.score, win.score, "{}", r::show(&b));
        assert!(
            wld.lower <= win.upper && win.lower <= wld.upper,
            "{}",
            r::show(&b)
        );
    }
}

/// FFO #1-#9 (published values; deep enough for the evaluation's passes) with the windows
/// [v-1,v+1], [v+1,v+9] and [v-9,v-1]: the exact v, an upper bound in v..=v+1, a lower
/// bound in v-1..=v.
#[test]
fn ffo_windows_around_the_published_values() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/suites/fforum-1-19.obf"
    ))
    .unwrap();
    let mut s = Solver::new(SolverOptions {
        hash_mb: 16,
        ..Default::default()
    });
    for line in text.lines().take(9) {
        let rec = finale::board::parse_position(line, "ffo").unwrap();
        let v = rec
            .expected
            .iter()
            .map(|&(_, x)| x)
            .max()
            .expect("published value");
        let board = rec.position.board;
        for (a, b) in [(v - 1, v + 1), (v + 1, v + 9), (v - 9, v - 1)] {
            let Ok(w) = Window::new(a, b) else { continue };
            let res = s.solve(board, Mode::Window(w));
            let (l, u) = (res.lower, res.upper);
            assert!(
                l <= v && v <= u,
                "{line}: window {w}, bounds {l}..{u}, value {v}"
            );
            if a == v - 1 {
                assert_eq!((l, u), (v, v), "{line}: window {w}");
            } else if a == v + 1 {
                assert!(u <= v + 1, "{line}: window {w}, upper {u}");
            } else {
                assert!(l >= v - 1, "{line}: window {w}, lower {l}");
            }
        }
    }
}

/// The CLI: `--window` reaches the CSV's alpha, beta, lower and upper columns.
#[test]
fn the_csv_carries_the_window_and_the_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let obf = dir.path().join("ffo1.obf");
    std::fs::write(
        &obf,
        "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;\n",
    )
    .unwrap();
    let csv = dir.path().join("w.csv");
    let (o, c) = (obf.to_str().unwrap(), csv.to_str().unwrap());
    finale_ok(&["suite", o, "--csv", c, "--window", "-3,5", "--no-progress"]);
    let mut rd = csv::Reader::from_path(&csv).unwrap();
    let h = rd.headers().unwrap().clone();
    let row = rd.records().next().unwrap().unwrap();
    let col = |n: &str| {
        row.get(h.iter().position(|x| x == n).unwrap())
            .unwrap()
            .to_string()
    };
    assert_eq!(col("mode"), "window");
    assert_eq!((col("alpha"), col("beta")), ("-3".into(), "5".into()));
    assert_eq!(col("score"), "5");
    assert_eq!(col("upper"), "64");
    assert!(col("lower").parse::<i32>().unwrap() >= 6);
    assert_eq!(col("ok"), "true");
}
