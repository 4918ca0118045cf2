//! Probable answers are answers a game can have: in exact mode every finished game's disc
//! difference is even (64 discs, empty squares to the winner), so a multi-probcut pass must
//! never report an odd score, which would be a bound passed off as a score.

mod common;

use finale::board::parse_obf_line;
use finale::search::{Level, Mode, PassReport, SearchOptions, Solver, SolverOptions};

/// Positions of `results/selectivity/inputs/heldout-14-26.obf` (`finale generate --play
/// eval --seed 2002`) whose 73 % pass settled on an odd score before the root tightened odd
/// bounds (d8176d3: +27, +17, -3, -5, -19, -19, -1, +11, -7).
const ODD_BEFORE: [&str; 9] = [
    "--XO-OOO--XOOO--OXXOXOOOOXXXXXXO-XXXOOXOXXXXXXXX---XXX----XX---- O",
    "--XXXX----XXXX--X-XXXOXXXOOOOOXXXXOXOOXXXXXOOOOX--XXOO----X--OOO O",
    "-O--OX---OOOXX--OXOXOXXXOXXOOXX-OXOOOXO-OOXXOXXXOX-OOO--X-OO--O- O",
    "XXXXXXOO--XOOOOX-XXXOOXX-XOOXXOXXOXXXXXXOOOXXXXX--O-XXXX-------X X",
    "-OOOOOO--OOOOOO-XOOXOOOXXOOOXOOXXXXOOXOXXXXXO-X-X--OXO-----OXX-- O",
    "--XXXXX-X-XXXXX-XOOOOXO-XXOXXOO--OXXOOOOO-XXXOO---XOOX----OOO-X- X",
    "--XXXX----OOOX-O--OOXXOO--OXOOOOOOXXOOOOOOXXOOOO-XXXXX---XO--X-- O",
    "--OOOO--O-XXXO-OOXXXOXXOOXXXXOXOOXXXXOOOO-XXXOOO---XXO---OOOOO-- O",
    "--XXXX----OOXX--OOOOOOOO-OOOXX--XXOXXX--XXOXOOOOX-XOOO---XXXXXX- X",
];

#[test]
fn probable_scores_are_scores_a_game_can_end_with() {
    for percent in [73, 87, 95] {
        let mut solver = Solver::new(SolverOptions {
            hash_mb: 16,
            threads: 1,
            search: SearchOptions {
                selectivity: Level::from_percent(percent),
                ..Default::default()
            },
            ..Default::default()
        });
        for text in ODD_BEFORE {
            let record = parse_obf_line(text).unwrap().unwrap();
            solver.clear();
            let mut passes: Vec<PassReport> = Vec::new();
            let r = solver
                .solve_reporting(record.position.board, Mode::Exact, None, &mut |p| {
                    passes.push(p.clone())
                })
                .expect("no time limit");
            assert_eq!(r.score % 2, 0, "{text} at {percent} %: {:+}", r.score);
            assert!((-64..=64).contains(&r.score), "{text}: {}", r.score);
            for p in &passes {
                assert_eq!(p.score % 2, 0, "{text}, pass {}: {:+}", p.level, p.score);
            }
        }
    }
}

/// `finale generate --play random --seed 6 --count 16 --empties 33`, the 13th: 33
/// empties, deeper than any level's promise was checked at
/// (settings::MPC_CHECKED_MAX_EMPTIES), and quick at 73 % (one side is far ahead).
const DEEP: &str = "-----XO----XXX--XXXXOX--XXOOO---XOOOOOO--O--OOO-O---O-O--------O O";

/// 18 empties, within every level's checked range.
const SHALLOW: &str = ODD_BEFORE[5];

/// The standard output of a successful `finale` run with `args`.
fn finale(args: &[String]) -> String {
    common::run::finale_ok(args)
}

/// An answer from deeper than its level was checked at says so wherever it is shown:
/// the solve report, the pass lines, the suite's table and its CSV.
#[test]
fn answers_deeper_than_their_level_was_checked_at_are_marked() {
    let empties = DEEP.chars().take(64).filter(|&c| c == '-').count() as u32;
    assert!(
        finale::settings::MPC_CHECKED_MAX_EMPTIES
            .iter()
            .all(|&m| m < empties),
        "DEEP must lie beyond every level's checked range"
    );
    let level = "--selectivity 73 --threads 1 --hash-mb 16";
    let words = |s: &str| -> Vec<String> { s.split_whitespace().map(String::from).collect() };
    let text = finale(&words(&format!("solve {DEEP} --progress {level}")));
    let score = text
        .lines()
        .find(|l| l.starts_with("score"))
        .expect("score");
    assert!(
        score.contains("@73%? (probable: multi-probcut; 73% checked up to"),
        "{text}"
    );
    let pass = text
        .lines()
        .find(|l| l.trim_start().starts_with("73%"))
        .expect("pass");
    assert!(pass.trim_start().starts_with("73%?"), "{text}");

    let dir = tempfile::tempdir().expect("temp dir");
    let obf = dir.path().join("two.obf");
    std::fs::write(&obf, format!("{DEEP}\n{SHALLOW}\n")).expect("write");
    let csv = dir.path().join("two.csv");
    let text = finale(&words(&format!(
        "suite --no-progress {level} --csv {} {}",
        csv.display(),
        obf.display()
    )));
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("   ")).collect();
    let score_of = |row: &str| row.split_whitespace().nth(3).map(String::from);
    assert!(
        score_of(rows[1]).is_some_and(|s| s.ends_with('?')),
        "{text}"
    );
    assert!(
        score_of(rows[2]).is_some_and(|s| !s.ends_with('?')),
        "{text}"
    );
    let mut reader = csv::Reader::from_path(&csv).expect("csv");
    let promise = reader
        .headers()
        .expect("header")
        .iter()
        .position(|h| h == "promise")
        .expect("a promise column");
    let promises: Vec<String> = reader
        .records()
        .map(|r| r.expect("row")[promise].to_string())
        .collect();
    assert_eq!(promises, ["unchecked", "checked"]);
}

/// `--probcut-t` replaces the width of the asked level's pass only: its own width changes
/// nothing, and a width too wide for any cut (20 sigmas is beyond 64 discs) gives the
/// exact answer, which the level's own width need not.
#[test]
fn a_given_width_replaces_the_levels_own() {
    use finale::search::ProbcutT;
    let board = parse_obf_line(SHALLOW).unwrap().unwrap().position.board;
    let solve = |percent: u8, t: Option<&str>| {
        let mut solver = Solver::new(SolverOptions {
            hash_mb: 16,
            threads: 1,
            search: SearchOptions {
                selectivity: Level::from_percent(percent),
                probcut_t: t.map(|t| ProbcutT::parse(t).unwrap()),
                ..Default::default()
            },
            ..Default::default()
        });
        let r = solver.solve(board, Mode::Exact);
        (r.score, r.nodes)
    };
    let exact = solve(100, None);
    let own = solve(87, None);
    let own_t = finale::settings::MPC_LEVELS[1].1.to_string();
    assert_eq!(solve(87, Some(&own_t)), own, "87 % at its own width");
    let wide = solve(87, Some("20"));
    assert_eq!(wide.0, exact.0, "no cut at 20 sigmas");
    assert!(
        wide.1 > own.1,
        "no cut searches more: {wide:?} against {own:?}"
    );
    for bad in ["0", "-1", "x", "21", "NaN"] {
        assert!(ProbcutT::parse(bad).is_err(), "{bad}");
    }
}
