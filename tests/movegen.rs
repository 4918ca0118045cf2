//! Move generation, flips, play/pass/game-over/score and perft checked against the naive
//! reference in `common/reference.rs`.

mod common;

use common::reference::{self as r, RefBoard, Rng};
use finale::board::moves::{flips, legal_moves};
use finale::board::perft;
use finale::{Board, Square};

/// Compares every board-level operation of finale on one position with the reference.
fn check_position(b: &RefBoard) {
    let (p, o) = r::to_bits(b);
    let board = Board::new(p, o);
    let pos = r::show(b);

    let ref_moves = r::legal_moves(b);
    let ref_mask = r::mask(&ref_moves);
    assert_eq!(legal_moves(p, o), ref_mask, "legal_moves of {pos}");
    assert_eq!(board.moves(), ref_mask, "Board::moves of {pos}");
    let listed: Vec<usize> = board.legal_moves().map(|s| s.index()).collect();
    assert_eq!(listed, ref_moves, "Board::legal_moves of {pos}");

    for sq in 0..64 {
        let square = Square::new(sq as u8).unwrap();
        if b[sq] == r::EMPTY {
            // flips() is only specified for empty squares.
            assert_eq!(
                flips(p, o, square),
                r::mask(&r::flips(b, sq)),
                "flips at {square} of {pos}"
            );
        }
        assert_eq!(
            board.is_legal(square),
            ref_mask >> sq & 1 != 0,
            "is_legal {square} of {pos}"
        );
        let played = board.play(square).map(r::from_board);
        assert_eq!(played, r::play(b, sq), "play {square} of {pos}");
    }

    assert_eq!(r::from_board(board.pass()), r::pass(b), "pass of {pos}");
    assert_eq!(
        board.is_game_over(),
        r::is_game_over(b),
        "is_game_over of {pos}"
    );
    // final_score is a pure disc count, defined for any board, not only finished ones.
    assert_eq!(
        board.final_score(),
        r::final_score(b),
        "final_score of {pos}"
    );
    assert_eq!(
        board.empty_count() as usize,
        r::empties(b),
        "empty_count of {pos}"
    );
}

#[test]
fn reference_start_is_finale_start() {
    assert_eq!(r::to_board(&r::start()), Board::START);
    assert_eq!(r::legal_moves(&r::start()), vec![19, 26, 37, 44]);
}

/// Every position of random games: all stages of play, passes and game ends included.
/// One game in four squeezes the opponent throughout, since uniform play seldom ends a
/// game with empty squares left.
#[test]
fn game_positions_match_reference() {
    let mut rng = Rng::new(0x5EED_0001);
    let (mut games, mut positions, mut passes, mut early_ends) = (0usize, 0usize, 0usize, 0usize);
    while positions < 60_000 {
        games += 1;
        let line = if games % 4 == 0 {
            r::squeezing_game(&mut rng, 60, 100)
        } else {
            r::random_game(&mut rng)
        };
        for b in &line {
            check_position(b);
            if r::legal_moves(b).is_empty() && !r::is_game_over(b) {
                passes += 1;
            }
        }
        if r::empties(line.last().unwrap()) > 0 {
            early_ends += 1;
        }
        positions += line.len();
    }
    // Guard against a generator that silently stopped producing the rare cases.
    assert!(
        passes > 500 && early_ends > 20,
        "passes {passes}, early ends {early_ends}"
    );
}

/// Arbitrary boards (unreachable shapes, any density, one-coloured boards).
#[test]
fn arbitrary_boards_match_reference() {
    let mut rng = Rng::new(0x5EED_0002);
    for _ in 0..60_000 {
        check_position(&r::random_board(&mut rng));
    }
    let mut full = [r::OWN; 64];
    check_position(&full);
    full[0] = r::OPP;
    check_position(&full);
    check_position(&[r::EMPTY; 64]);
}

/// Every maximal-or-shorter run: own disc, 1..=6 opponent discs, then the empty target,
/// along each direction from each square, the other squares random. Random boards
/// seldom hold long runs or runs ending exactly on an edge, which is where shift-based
/// generators wrap or stop short.
#[test]
fn line_boards_match_reference() {
    let mut rng = Rng::new(0x5EED_0003);
    let dirs = [
        (-1i32, -1i32),
        (-1, 0),
        (-1, 1),
        (0, -1),
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
    ];
    let mut count = 0;
    for target in 0..64i32 {
        for (dr, dc) in dirs {
            for len in 1..=6 {
                // Opponent run then own disc, beyond the target along (dr, dc).
                let end = (target / 8 + dr * (len + 1), target % 8 + dc * (len + 1));
                if !(0..8).contains(&end.0) || !(0..8).contains(&end.1) {
                    continue;
                }
                for closer in [r::OWN, r::EMPTY, r::OPP] {
                    let mut b = r::random_board(&mut rng);
                    b[target as usize] = r::EMPTY;
                    for k in 1..=len {
                        b[((target / 8 + dr * k) * 8 + target % 8 + dc * k) as usize] = r::OPP;
                    }
                    b[(end.0 * 8 + end.1) as usize] = closer;
                    check_position(&b);
                    count += 1;
                }
            }
        }
    }
    assert!(count > 2000);
}

#[test]
fn perft_start_matches_published_counts() {
    let expected = [4u64, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(
            perft(Board::START, d as u32 + 1),
            n,
            "perft depth {}",
            d + 1
        );
    }
}

#[test]
fn perft_start_matches_reference() {
    for depth in 1..=7 {
        assert_eq!(
            perft(Board::START, depth),
            r::perft(&r::start(), depth),
            "depth {depth}"
        );
    }
}

/// Perft from late positions, where passes and finished games occur inside the tree, so
/// both counting conventions (pass = ply, finished game = leaf) are exercised.
#[test]
fn perft_late_positions_match_reference() {
    let mut rng = Rng::new(0x5EED_0004);
    for i in 0..300 {
        let b = r::random_position(&mut rng, 4 + i % 9);
        let depth = 1 + (i % 5) as u32;
        assert_eq!(
            perft(r::to_board(&b), depth),
            r::perft(&b, depth),
            "depth {depth} of {}",
            r::show(&b)
        );
    }
}
