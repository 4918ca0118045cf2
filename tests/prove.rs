//! `finale prove` against independent values: the naive reference's on random small
//! positions, the published ones of FFO #1-#5; windows and wld; a round planned here and
//! solved by an outside batch, a torn row, a damaged folder and a contradiction; and
//! `--check`, which derives the bounds again from the rows alone.

mod common;

use common::reference::{self as r, Rng};
use common::run::{finale_ok, one_line_error};
use finale::prove::{ProveOptions, Spec, proof_label, run_check, run_prove};
use finale::search::{EvalRef, SearchOptions, Window};
use finale::{Color, Position};
use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_finale");

/// A small proof's flags: leaves of 10 empties, 8 MB tables, no bar.
const SMALL: &[&str] = &["--frontier", "10", "--hash-mb", "8", "--no-progress"];

fn search() -> SearchOptions {
    SearchOptions {
        eval: EvalRef::shipped(),
        ..SearchOptions::default()
    }
}

/// A random position of `empties` empties (Black to move), its naive minimax value and
/// the position to prove.
fn random_root(rng: &mut Rng, empties: usize) -> (r::RefBoard, i32, Position) {
    let b = r::random_position(rng, empties);
    let v = r::solve(&b);
    let root = Position {
        board: r::to_board(&b),
        side: Color::Black,
    };
    (b, v, root)
}

/// Proves `root` for `window` in `dir` with small tables; the bounds.
fn prove(dir: &Path, root: Position, frontier: u32, window: Window) -> (i32, i32) {
    prove_in_rounds_of(dir, root, frontier, window, None).0
}

/// [`prove`] with rounds of at most `round_leaves` leaves; the bounds and the rounds.
fn prove_in_rounds_of(
    dir: &Path,
    root: Position,
    frontier: u32,
    window: Window,
    round_leaves: Option<usize>,
) -> ((i32, i32), usize) {
    prove_with(dir, root, (frontier, window), round_leaves, (None, None))
}

/// [`prove_in_rounds_of`] with leaf solves given up after `leaf_limit` or `leaf_nodes`.
fn prove_with(
    dir: &Path,
    root: Position,
    (frontier, window): (u32, Window),
    round_leaves: Option<usize>,
    (leaf_limit, leaf_nodes): (Option<std::time::Duration>, Option<u64>),
) -> ((i32, i32), usize) {
    let options = ProveOptions {
        dir: dir.to_path_buf(),
        spec: Some(Spec {
            root,
            frontier,
            window,
        }),
        threads: 1,
        hash_mb: 1,
        search: search(),
        plan_only: false,
        round_leaves,
        leaf_limit,
        leaf_nodes,
        save_tables: None,
        progress: false,
        interrupt: Default::default(),
    };
    let summary = run_prove(&options, &mut std::io::sink()).expect("proves");
    assert!(summary.answered, "{summary:?}");
    (summary.bounds, summary.rounds)
}

/// The window of every leaf row in `dir`'s CSVs.
fn row_windows(dir: &Path) -> Vec<(i32, i32)> {
    let mut windows = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "csv") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let col = |name| header.iter().position(|h| *h == name).unwrap();
        let (a, b) = (col("alpha"), col("beta"));
        for line in lines {
            let f: Vec<&str> = line.split(',').collect();
            windows.push((f[a].parse().unwrap(), f[b].parse().unwrap()));
        }
    }
    windows
}

fn check(dir: &Path) -> (i32, i32) {
    run_check(dir, 2, 1, &search(), &mut std::io::sink())
        .expect("checks")
        .bounds
}

/// Random positions of 9 and 10 empties proven exactly from a frontier of 5 (the tree
/// four and five moves deep): the value is the naive minimax's, and the check derives it
/// again; a window's answer holds the value too.
#[test]
fn proofs_agree_with_the_reference() {
    let mut rng = Rng::new(69);
    let tmp = tempfile::tempdir().unwrap();
    for i in 0..24 {
        let (b, v, root) = random_root(&mut rng, 9 + i % 2);
        let dir = tmp.path().join(format!("{i}"));
        assert_eq!(
            prove(&dir, root, 5, Window::FULL),
            (v, v),
            "{}",
            r::show(&b)
        );
        assert_eq!(check(&dir), (v, v), "{}", r::show(&b));
        let w = Window::new(v.clamp(-63, 64) - 1, (v + 5).min(64)).unwrap();
        let wdir = tmp.path().join(format!("{i}-window"));
        let (l, u) = prove(&wdir, root, 5, w);
        assert!(
            l <= v && v <= u && w.answered_by(l, u),
            "{w}: {l}..{u}, value {v}"
        );
        assert_eq!(check(&wdir), (l, u));
        // A bound's proof around the value in short rounds, where plans change and a
        // leaf is asked again: every goal is the root's bound or its negation, so no leaf
        // is solved wider than one disc past them (an exact solve cost 11.6 G nodes at a
        // +26 leaf of the drawn 36-empty proof).
        let t = Window::new((v - 1).max(-64), (v + 1).min(64)).unwrap();
        let tdir = tmp.path().join(format!("{i}-around"));
        let ((l, u), _) = prove_in_rounds_of(&tdir, root, 5, t, Some(2));
        assert!(
            l <= v && v <= u && t.answered_by(l, u),
            "{t}: {l}..{u}, value {v}"
        );
        let m = v.abs() + 2;
        for (alpha, beta) in row_windows(&tdir) {
            assert!(-m <= alpha && beta <= m, "{}: {alpha},{beta}", r::show(&b));
        }
    }
}

/// Leaf solves that give up at once (a time limit of zero, or a budget of one node, which
/// a search looks at before its first node): every leaf that gives up is split into its
/// moves, down to the end of the game if need be, and the proofs still give the naive
/// minimax's value, which the check derives again from rows and a tree that reaches below
/// the frontier.
#[test]
fn leaves_that_give_up_are_split() {
    let mut rng = Rng::new(6906);
    let tmp = tempfile::tempdir().unwrap();
    let mut timeouts = [0, 0];
    for i in 0..6 {
        let (b, v, root) = random_root(&mut rng, 9);
        let dir = tmp.path().join(format!("{i}"));
        let limits = if i % 2 == 0 {
            (Some(std::time::Duration::ZERO), None)
        } else {
            (None, Some(1))
        };
        let (bounds, _) = prove_with(&dir, root, (7, Window::FULL), None, limits);
        assert_eq!(bounds, (v, v), "{}", r::show(&b));
        assert_eq!(check(&dir), (v, v), "{}", r::show(&b));
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "csv") {
                let text = std::fs::read_to_string(&path).unwrap();
                timeouts[i % 2] += text.lines().filter(|l| l.contains(",timeout,")).count();
            }
        }
    }
    assert!(
        timeouts.iter().all(|&t| t > 0),
        "no leaf gave up: {timeouts:?}"
    );
}

/// Rounds cut short (2 leaves each, as `prove` does with deep leaves): each round file
/// holds at most 2 leaves, and the proofs still give the naive minimax's value, which the
/// check derives again.
#[test]
fn short_rounds_prove_the_reference_value() {
    let mut rng = Rng::new(6902);
    let tmp = tempfile::tempdir().unwrap();
    for i in 0..6 {
        let (b, v, root) = random_root(&mut rng, 10);
        let dir = tmp.path().join(format!("{i}"));
        let (bounds, rounds) = prove_in_rounds_of(&dir, root, 5, Window::FULL, Some(2));
        assert_eq!(bounds, (v, v), "{}", r::show(&b));
        assert_eq!(check(&dir), (v, v), "{}", r::show(&b));
        let mut files = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "obf") {
                let text = std::fs::read_to_string(&path).unwrap();
                let leaves = text.lines().filter(|l| !l.starts_with('%')).count();
                assert!((1..=2).contains(&leaves), "{}: {leaves}", path.display());
                files += 1;
            }
        }
        assert_eq!(files, rounds, "{}", dir.display());
    }
}

/// The leaves' probable checks only order the plan: with every check turned into a lie
/// (a goal that holds said to fail, one that fails said to hold), proofs still give the
/// naive minimax's value, and the check derives it again (a tree that reaches one
/// position before and after a pass included).
#[test]
fn lying_checks_do_not_change_a_proof() {
    let mut rng = Rng::new(6905);
    let tmp = tempfile::tempdir().unwrap();
    let mut lies = 0;
    for i in 0..8 {
        let (b, v, root) = random_root(&mut rng, 10);
        let honest = tmp.path().join(format!("{i}-honest"));
        assert_eq!(prove(&honest, root, 5, Window::FULL), (v, v));
        // Line 4 of this seed transposes across a pass: the check must see it too.
        assert_eq!(check(&honest), (v, v), "{}", r::show(&b));
        let text = std::fs::read_to_string(honest.join("checks.txt")).expect("checks kept");
        let mut lying = String::new();
        for line in text.lines() {
            let f: Vec<&str> = line.split(' ').collect();
            if line.starts_with('%') {
                lying += &format!("{line}\n");
                continue;
            }
            let w = Window::parse(f[1]).unwrap();
            let (lower, upper): (i32, i32) = (f[2].parse().unwrap(), f[3].parse().unwrap());
            let lie = if lower >= w.beta() {
                (-64, w.alpha())
            } else if upper <= w.alpha() {
                (w.beta(), 64)
            } else {
                (lower, upper)
            };
            lies += usize::from(lie != (lower, upper));
            lying += &format!("{} {} {} {} {} {}\n", f[0], f[1], lie.0, lie.1, f[4], f[5]);
        }
        let dir = tmp.path().join(format!("{i}-lied-to"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("checks.txt"), lying).unwrap();
        assert_eq!(
            prove(&dir, root, 5, Window::FULL),
            (v, v),
            "{}",
            r::show(&b)
        );
        assert_eq!(check(&dir), (v, v), "{}", r::show(&b));
    }
    assert!(lies >= 8, "only {lies} checks to lie about");
}

/// FFO #1-#5 (14 empties each... see suites/) from a frontier of 10, through the CLI:
/// the published value, the last line `bounds V V`, and `--check` ends the same way.
#[test]
fn ffo_positions_prove_their_published_values() {
    let tmp = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("suites/fforum-1-19.obf"),
    )
    .unwrap();
    for (i, line) in text
        .lines()
        .filter(|l| !l.starts_with('%'))
        .take(5)
        .enumerate()
    {
        let record = finale::board::parse_obf_line(line).unwrap().unwrap();
        let v = record.expected_score().unwrap();
        let position = line.split(';').next().unwrap();
        let dir = tmp.path().join(format!("ffo{}", i + 1));
        let d = dir.to_str().unwrap();
        let mut args: Vec<&str> = vec!["prove"];
        args.extend(position.split_whitespace());
        args.extend(["--dir", d]);
        args.extend(SMALL);
        let out = finale_ok(&args);
        assert_eq!(
            out.lines().last().unwrap(),
            format!("bounds {v} {v}"),
            "{out}"
        );
        let out = finale_ok(&["prove", "--check", "--dir", d, "--sample", "3"]);
        assert_eq!(
            out.lines().last().unwrap(),
            format!("bounds {v} {v}"),
            "{out}"
        );
        assert!(out.contains("re-solved 3 (agree)"), "{out}");
    }
}

/// A round planned here and solved elsewhere (`--plan-only`, then `finale batch` into the
/// folder, its last row torn as by a kill), then the same command again: it reads those
/// rows, resumes, and proves the value; wld is the window -1,1.
#[test]
fn rounds_solved_by_outside_batches_resume() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("wld");
    let d = dir.to_str().unwrap();
    // FFO #1: G8 wins by 18, so wld proves a win (lower bound at least 1).
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let prove_args = |extra: &[&'static str]| {
        let mut a = vec![
            "prove",
            ffo1,
            "--dir",
            d,
            "--frontier",
            "10",
            "--mode",
            "wld",
        ];
        a.extend(["--hash-mb", "8", "--no-progress"]);
        a.extend(extra);
        a
    };
    let out = finale_ok(&prove_args(&["--plan-only"]));
    assert!(out.contains("round 1"), "{out}");
    assert_eq!(out.lines().last().unwrap(), "bounds -64 64");
    let round = dir.join("round-001.obf");
    let rows = dir.join("outside.csv");
    finale_ok(&[
        "batch",
        round.to_str().unwrap(),
        "--out",
        rows.to_str().unwrap(),
        "--hash-mb",
        "8",
        "--no-progress",
    ]);
    // A row cut short, as a killed batch leaves it: not read, and no error.
    let mut text = std::fs::read_to_string(&rows).unwrap();
    text.push_str("1,round-001.obf,10,X,window,+");
    std::fs::write(&rows, text).unwrap();
    let out = finale_ok(&prove_args(&[]));
    let last = out.lines().last().unwrap().to_string();
    let (l, u) = bounds_of(&last);
    assert!(l >= 1 && u >= l, "{out}");
    assert_eq!(
        finale_ok(&["prove", "--check", "--dir", d]).lines().last(),
        Some(last.as_str())
    );
}

/// The bounds of a `bounds L U` line.
fn bounds_of(line: &str) -> (i32, i32) {
    let mut w = line.split_whitespace().skip(1).map(|x| x.parse().unwrap());
    (w.next().unwrap(), w.next().unwrap())
}

/// Refusals, one line each: a folder of another proof, a --dir that is a file, no
/// position for a new folder, a damaged prediction, and a leaf row that contradicts
/// another.
#[test]
fn refusals_and_contradictions_are_one_line_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("p");
    let d = dir.to_str().unwrap();
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    finale_ok(&[&["prove", ffo1, "--dir", d], SMALL].concat());
    let run = |args: &[&str]| Command::new(BIN).args(args).output().unwrap();
    let o = run(&["prove", ffo1, "--dir", d, "--frontier", "9"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(one_line_error(&o).contains("proves frontier 10, this command asks 9"));
    let file = tmp.path().join("file");
    std::fs::write(&file, "x").unwrap();
    let o = run(&["prove", ffo1, "--dir", file.to_str().unwrap()]);
    assert!(one_line_error(&o).contains("not a directory"));
    let o = run(&["prove", "--dir", tmp.path().join("new").to_str().unwrap()]);
    assert!(one_line_error(&o).contains("no position given"));
    // The root's recorded prediction, damaged: named, not taken as some score.
    let prediction = dir.join("prediction.txt");
    let kept = std::fs::read_to_string(&prediction).unwrap();
    assert!(kept.lines().any(|l| l.starts_with("score ")), "{kept}");
    std::fs::write(&prediction, "score ten percent 87 nodes 5\n").unwrap();
    let o = run(&["prove", "--dir", d]);
    assert_eq!(o.status.code(), Some(2));
    let err = one_line_error(&o);
    assert!(
        err.contains("prediction.txt") && err.contains("score S"),
        "{err}"
    );
    std::fs::write(&prediction, kept).unwrap();
    // A copy of a leaf row whose score and bounds say 2 more: a contradiction, named.
    let csv = dir.join("round-001.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let header: Vec<String> = lines[0].split(',').map(String::from).collect();
    let at = |c: &str| header.iter().position(|h| h == c).unwrap();
    let mut f: Vec<String> = lines[1].split(',').map(String::from).collect();
    let (l, u): (i32, i32) = (
        f[at("lower")].parse().unwrap(),
        f[at("upper")].parse().unwrap(),
    );
    // Bounds beyond the row's, answering its window the other way round.
    let (a, b): (i32, i32) = (
        f[at("alpha")].parse().unwrap(),
        f[at("beta")].parse().unwrap(),
    );
    let (nl, nu) = if u <= a { (b, 64) } else { (-64, a) };
    assert!(nl > u || nu < l, "a contradiction of {l}..{u}");
    f[at("lower")] = nl.to_string();
    f[at("upper")] = nu.to_string();
    f[at("score")] = if u <= a { b.to_string() } else { a.to_string() };
    lines.truncate(1);
    lines.push(f.join(","));
    std::fs::write(dir.join("z-forged.csv"), lines.join("\n") + "\n").unwrap();
    let o = run(&["prove", "--check", "--dir", d]);
    let err = one_line_error(&o);
    assert!(
        err.contains("z-forged.csv:2") && err.contains("contradiction"),
        "{err}"
    );
}

/// A proven folder is an exact label (`calibrate --labels DIR`): on random positions of 10 empties its score is the naive minimax's and every
/// move it names reaches that value by the naive minimax too; a folder whose rows only
/// bound the value (a window's proof) is refused; and `calibrate` takes the proven
/// folder's answer instead of solving the position again.
#[test]
fn a_proven_folder_is_a_label_with_its_best_moves() {
    let mut rng = Rng::new(70);
    let tmp = tempfile::tempdir().unwrap();
    for i in 0..12 {
        let (b, v, root) = random_root(&mut rng, 10);
        let dir = tmp.path().join(format!("{i}"));
        prove(&dir, root, 6, Window::FULL);
        let label = proof_label(&dir).expect("a proven folder is a label");
        assert_eq!(label.score, v, "{}", r::show(&b));
        assert_eq!(label.position, root);
        assert!(!label.best_moves.is_empty(), "{}", r::show(&b));
        for m in label.best_moves.split(' ') {
            let sq = finale::Square::parse(m).expect("a square");
            let child = r::play(&b, sq.index()).expect("a legal move");
            assert_eq!(-r::solve(&child), v, "{m} of {}", r::show(&b));
        }
        assert!(label.nodes > 0);
        // `--check` names the same moves, on the line before its bounds.
        let mut text = Vec::new();
        run_check(&dir, 0, 1, &search(), &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[lines.len() - 2],
            format!("best moves {}", label.best_moves)
        );
        // A bound only: the value above v - 1 (or below v + 1 at +64).
        let w = match v {
            64 => Window::new(v - 1, v).unwrap(),
            _ => Window::new(v, v + 1).unwrap(),
        };
        let wdir = tmp.path().join(format!("{i}-bound"));
        let (l, u) = prove(&wdir, root, 6, w);
        if l != u {
            let e = proof_label(&wdir).unwrap_err().to_string();
            assert!(e.contains("bound the value to"), "{e}");
        }
    }
    // The CLI: calibrate on the last root takes the folder's answer (its exact columns
    // are the proof's), and refuses a folder that proves a bound.
    let (b, v, root) = random_root(&mut rng, 12);
    let dir = tmp.path().join("cli");
    prove(&dir, root, 8, Window::FULL);
    let obf = tmp.path().join("root.obf");
    std::fs::write(&obf, format!("{}\n", r::show(&b))).unwrap();
    let csv = tmp.path().join("cal.csv");
    let (o, d, c) = (
        obf.to_str().unwrap(),
        dir.to_str().unwrap(),
        csv.to_str().unwrap(),
    );
    finale_ok(&[
        "calibrate",
        o,
        "--levels",
        "73",
        "--hash-mb",
        "4",
        "--labels",
        d,
        "--csv",
        c,
        "--no-progress",
    ]);
    let rows = common::csv_rows::rows(&csv);
    let exact = rows
        .iter()
        .find(|r| r["selectivity"] == "100")
        .expect("the exact row");
    assert_eq!(exact["score"], v.to_string(), "{}", r::show(&b));
    assert_eq!(exact["git_rev"], "proof");
    let wdir = tmp.path().join("cli-bound");
    let (l, u) = prove(
        &wdir,
        root,
        8,
        Window::new(v.min(63), v.min(63) + 1).unwrap(),
    );
    if l != u {
        let err = refused_calibrate(&obf, &wdir, &tmp.path().join("cal2.csv"));
        assert!(err.contains("bound the value to"), "{err}");
    }
    // A directory no proof made: named, and no CSV begun.
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let err = refused_calibrate(&obf, &empty, &tmp.path().join("cal3.csv"));
    assert!(err.contains("holds no prove.txt"), "{err}");
}

/// The one error line of a calibrate of `obf` with the labels `dir` into `csv`, which
/// must be refused (exit 2) before the CSV is begun.
fn refused_calibrate(obf: &Path, dir: &Path, csv: &Path) -> String {
    let out = Command::new(BIN)
        .args(["calibrate", "--levels", "73", "--hash-mb", "4"])
        .arg(obf)
        .arg("--labels")
        .arg(dir)
        .arg("--csv")
        .arg(csv)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(!csv.exists());
    one_line_error(&out)
}
