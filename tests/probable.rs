//! Probable answers are answers a game can have: in exact mode every finished game's disc
//! difference is even (64 discs, empty squares to the winner), so a multi-probcut pass must
//! never report an odd score, which would be a bound passed off as a score.

use finale::board::parse_obf_line;
use finale::search::{Level, Mode, PassReport, SearchOptions, Solver, SolverOptions};

/// Positions of `results/selectivity/heldout-14-26.obf` (`finale generate --play eval
/// --seed 2002`) whose 73 % pass settled on an odd score before the root tightened odd
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
