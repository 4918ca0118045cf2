//! Property tests of the input parsers: OBF lines (`parse_obf_line`, `parse_position`)
//! and move sequences (`parse_moves`).
//!
//! Expected results come from outside the parsers: boards are built square by square
//! here, legal moves and games come from the naive reference in `common/reference.rs`,
//! and error columns are computed from where a test put the fault. The fuzz targets in
//! fuzz/ (scripts/fuzz.sh) go further on arbitrary bytes.

mod common;

use common::reference::{self as r, RefBoard, Rng};
use finale::board::{Color, parse_moves, parse_obf_line, parse_position};
use finale::error::{MovesError, ObfError};
use finale::{Board, Square};
use proptest::prelude::*;
use proptest::sample::{Index, select};

const BLACK: [char; 3] = ['X', 'x', '*'];
const WHITE: [char; 2] = ['O', 'o'];
const EMPTY: [char; 2] = ['-', '.'];
const BLACK_SIDE: [&str; 5] = ["X", "x", "*", "B", "b"];
const WHITE_SIDE: [&str; 4] = ["O", "o", "W", "w"];
const SQUARE_CHARS: &str = "XxOo*-.";

/// Characters for random and mutated text: OBF's own, near misses, whitespace (ASCII and
/// not), and multi-byte characters.
const NOISE: &[char] = &[
    'X', 'O', '-', 'x', 'o', '*', '.', 'B', 'W', 'b', 'w', ' ', '\t', '\r', '\n', ';', ':', '%',
    '+', '0', '1', '4', '8', '9', 'a', 'g', 'h', 'A', 'H', 'Z', 'é', '\u{a0}', '\u{3000}',
    '\u{fffd}', '😀',
];

/// Square name as FFO files write it, computed here rather than by `Square`'s Display.
fn name(sq: usize, upper: bool) -> String {
    let col = if upper { b'A' } else { b'a' } + (sq % 8) as u8;
    format!("{}{}", col as char, sq / 8 + 1)
}

/// One generated OBF line and what it must parse to.
#[derive(Clone, Debug)]
struct Line {
    text: String,
    black: u64,
    white: u64,
    side: Color,
    expected: Vec<(usize, i32)>,
}

/// The board as the reference sees it: from the side to move's point of view.
fn ref_board(black: u64, white: u64, side: Color) -> RefBoard {
    let (own, opp) = match side {
        Color::Black => (black, white),
        Color::White => (white, black),
    };
    let mut b = [r::EMPTY; 64];
    for (sq, c) in b.iter_mut().enumerate() {
        if own >> sq & 1 != 0 {
            *c = r::OWN;
        } else if opp >> sq & 1 != 0 {
            *c = r::OPP;
        }
    }
    b
}

/// A valid OBF line with every spelling the format allows: square and side letters in
/// either case or their alternatives, any ASCII blank between fields, and `MOVE:SCORE`
/// pairs for moves that the reference finds legal, in various spellings.
fn valid_line() -> impl Strategy<Value = Line> {
    (
        (0u32..=100, 0u32..=100),
        prop::collection::vec((0u32..100, 0u32..100, 0usize..6), 64),
        (any::<bool>(), 0usize..5),
        select(vec![" ", "\t", "  ", " \t"]),
        prop::collection::vec((any::<Index>(), -64i32..=64, 0usize..8), 0..5),
        select(vec![
            "",
            ";",
            " ;",
            "; % comment",
            " % comment",
            "\n",
            "\r\n",
            " \n",
        ]),
    )
        .prop_map(
            |((empty_pct, black_pct), cells, (white_to_move, side_v), sep, pairs, end)| {
                let (mut black, mut white) = (0u64, 0u64);
                let mut text = String::new();
                for (sq, &(e, b, v)) in cells.iter().enumerate() {
                    if e < empty_pct {
                        text.push(EMPTY[v % EMPTY.len()]);
                    } else if b < black_pct {
                        black |= 1 << sq;
                        text.push(BLACK[v % BLACK.len()]);
                    } else {
                        white |= 1 << sq;
                        text.push(WHITE[v % WHITE.len()]);
                    }
                }
                let side = if white_to_move {
                    Color::White
                } else {
                    Color::Black
                };
                text.push_str(sep);
                text.push_str(if white_to_move {
                    WHITE_SIDE[side_v % WHITE_SIDE.len()]
                } else {
                    BLACK_SIDE[side_v % BLACK_SIDE.len()]
                });
                let legal = r::legal_moves(&ref_board(black, white, side));
                let mut expected: Vec<(usize, i32)> = Vec::new();
                if !legal.is_empty() && !pairs.is_empty() {
                    text.push(';');
                    for (pick, score, style) in pairs {
                        let sq = legal[pick.index(legal.len())];
                        if expected.iter().any(|&(m, _)| m == sq) {
                            continue;
                        }
                        expected.push((sq, score));
                        let mv = name(sq, style & 1 == 0);
                        let sign = if score >= 0 && style & 2 == 0 {
                            "+"
                        } else {
                            ""
                        };
                        if style & 4 == 0 {
                            text.push_str(&format!(" {mv}:{sign}{score};"));
                        } else {
                            text.push_str(&format!("{mv} : {sign}{score} ;"));
                        }
                    }
                }
                text.push_str(end);
                Line {
                    text,
                    black,
                    white,
                    side,
                    expected,
                }
            },
        )
}

/// Checks an error's message: one line naming the column, or the board length, and a
/// column that lies in (or just past the end of) the text.
fn check_obf_error(text: &str, error: &ObfError) -> Result<(), TestCaseError> {
    let message = error.to_string();
    let chars = text.chars().count();
    match error {
        ObfError::BoardLength { found } => {
            prop_assert_ne!(*found, 64);
            prop_assert!(*found <= chars, "{} for {:?}", message, text);
            prop_assert!(
                message.starts_with(&format!("board has {found} squares")),
                "{}",
                message
            );
        }
        ObfError::BadSquare { column, ch } => {
            prop_assert_eq!(text.chars().nth(column - 1), Some(*ch), "{}", message);
            prop_assert!(
                message.starts_with(&format!("column {column}: ")),
                "{}",
                message
            );
        }
        ObfError::NotText { column } => {
            prop_assert_eq!(
                text.chars().nth(column - 1),
                Some('\u{fffd}'),
                "{}",
                message
            );
        }
        ObfError::LineTooLong { .. } => {
            prop_assert!(false, "a single line is never too long: {}", message);
        }
        ObfError::MissingSide { column }
        | ObfError::BadSide { column, .. }
        | ObfError::Trailing { column, .. }
        | ObfError::BadPair { column, .. }
        | ObfError::IllegalListedMove { column, .. }
        | ObfError::ScoreRange { column, .. }
        | ObfError::ExtraScore { column }
        | ObfError::BadWindow { column, .. }
        | ObfError::ExtraWindow { column }
        | ObfError::DuplicateMove { column, .. } => {
            prop_assert!(
                (1..=chars + 1).contains(column),
                "{} for {:?}",
                message,
                text
            );
            prop_assert!(
                message.starts_with(&format!("column {column}: ")),
                "{}",
                message
            );
        }
    }
    Ok(())
}

/// Whatever `text` is, the parsers answer without panicking, and their answers hang
/// together.
fn check_any_obf(text: &str) -> Result<(), TestCaseError> {
    let as_position = parse_position(text, "arg");
    match parse_obf_line(text) {
        Ok(None) => {
            let content = text.split('%').next().unwrap();
            prop_assert!(
                content.bytes().all(|b| b.is_ascii_whitespace()),
                "{:?}",
                text
            );
            prop_assert!(as_position.is_err());
        }
        Ok(Some(record)) => {
            let (black, white) = record.position.black_white();
            prop_assert_eq!(black & white, 0, "{:?}", text);
            let back = parse_obf_line(&record.position.to_string());
            prop_assert_eq!(
                back.map(|b| b.map(|b| b.position)),
                Ok(Some(record.position))
            );
            prop_assert_eq!(as_position.map(|p| p.position).ok(), Some(record.position));
        }
        Err(error) => {
            check_obf_error(text, &error)?;
            let message = as_position.err().map(|e| e.to_string());
            prop_assert_eq!(message, Some(format!("arg:1: {error}")));
        }
    }
    Ok(())
}

/// `parse_moves` replayed by the reference: the position, or the 1-based index of the
/// move it must refuse.
fn ref_moves(text: &str) -> Result<(RefBoard, Color), usize> {
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut b = r::start();
    let mut side = Color::Black;
    for (k, pair) in chars.chunks(2).enumerate() {
        let sq = match *pair {
            [c, d] if ('a'..='h').contains(&c.to_ascii_lowercase()) && ('1'..='8').contains(&d) => {
                (d as usize - '1' as usize) * 8 + (c.to_ascii_lowercase() as usize - 'a' as usize)
            }
            _ => return Err(k + 1),
        };
        if r::legal_moves(&b).is_empty() {
            if r::is_game_over(&b) {
                return Err(k + 1);
            }
            b = r::pass(&b);
            side = side.other();
        }
        b = r::play(&b, sq).ok_or(k + 1)?;
        side = side.other();
    }
    Ok((b, side))
}

/// `parse_moves` agrees with the reference on `text`.
fn check_moves(text: &str) -> Result<(), TestCaseError> {
    let got = parse_moves(text);
    match (ref_moves(text), &got) {
        (Ok((b, side)), Ok(pos)) => {
            prop_assert_eq!(pos.board, r::to_board(&b), "{:?}", text);
            prop_assert_eq!(pos.side, side, "{:?}", text);
        }
        (Err(index), Err(error)) => {
            let found = match error {
                MovesError::NotASquare { index, .. }
                | MovesError::Illegal { index, .. }
                | MovesError::GameOver { index, .. } => *index,
            };
            prop_assert_eq!(found, index, "{} for {:?}", error, text);
            prop_assert!(
                error.to_string().starts_with(&format!("move {index} (")),
                "{}",
                error
            );
        }
        (want, _) => prop_assert!(
            false,
            "{:?}: reference {:?}, parse_moves {:?}",
            text,
            want.map(|w| w.1),
            got
        ),
    }
    Ok(())
}

/// A random game of at most `max` moves, played by the reference: the moves and the
/// position after the last one (passes only where a move follows them).
fn ref_game(seed: u64, max: usize) -> (Vec<usize>, RefBoard, Color) {
    let mut rng = Rng::new(seed);
    let (mut b, mut side, mut moves) = (r::start(), Color::Black, Vec::new());
    while moves.len() < max {
        let legal = r::legal_moves(&b);
        if legal.is_empty() {
            if r::is_game_over(&b) {
                break;
            }
            b = r::pass(&b);
            side = side.other();
            continue;
        }
        let sq = legal[rng.below(legal.len())];
        b = r::play(&b, sq).unwrap();
        side = side.other();
        moves.push(sq);
    }
    (moves, b, side)
}

/// How a move list is written: each move's case and what follows it.
fn spell(moves: &[usize], style: &[(bool, &str)]) -> String {
    moves
        .iter()
        .enumerate()
        .map(|(i, &sq)| {
            let (upper, sep) = style[i % style.len()];
            name(sq, upper) + sep
        })
        .collect()
}

fn move_style() -> impl Strategy<Value = Vec<(bool, &'static str)>> {
    prop::collection::vec(
        (
            any::<bool>(),
            select(vec!["", "", "", " ", "  ", "\t", "\n", " \u{3000}"]),
        ),
        1..8,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_strings_never_panic(
        text in prop_oneof![
            any::<String>(),
            prop::collection::vec(select(NOISE), 0..160).prop_map(String::from_iter),
            (valid_line(), prop::collection::vec(select(NOISE), 0..40))
                .prop_map(|(l, tail)| l.text[..64].to_string() + &String::from_iter(tail)),
        ]
    ) {
        check_any_obf(&text)?;
        check_moves(&text)?;
    }

    #[test]
    fn valid_lines_parse_to_their_board(line in valid_line()) {
        let record = parse_obf_line(&line.text)
            .map_err(|e| TestCaseError::fail(format!("{e} for {:?}", line.text)))?
            .expect("a record");
        let pos = record.position;
        prop_assert_eq!(pos.black_white(), (line.black, line.white), "{:?}", line.text);
        prop_assert_eq!(pos.side, line.side);
        let (own, opp) = match line.side {
            Color::Black => (line.black, line.white),
            Color::White => (line.white, line.black),
        };
        prop_assert_eq!(pos.board, Board::new(own, opp));
        let expected: Vec<(Square, i32)> = line
            .expected
            .iter()
            .map(|&(sq, s)| (Square::new(sq as u8).unwrap(), s))
            .collect();
        prop_assert_eq!(&record.expected, &expected, "{:?}", line.text);
        prop_assert_eq!(record.expected_score(), line.expected.iter().map(|&(_, s)| s).max());

        // Printed canonically (X, O, -) it reads back the same, with or without a leading
        // blank and in lower case.
        let printed = pos.to_string();
        let canonical: String = line.text[..64]
            .chars()
            .map(|c| if BLACK.contains(&c) { 'X' } else if WHITE.contains(&c) { 'O' } else { '-' })
            .collect();
        prop_assert_eq!(&printed[..64], canonical.as_str());
        for text in [printed.clone(), format!("\t {printed}  "), printed.to_lowercase()] {
            let back = parse_obf_line(&text).unwrap().unwrap();
            prop_assert_eq!(back.position, pos, "{:?}", text);
        }
        let from_arg = parse_position(&line.text, "arg").unwrap();
        prop_assert_eq!(from_arg.position, pos);
        prop_assert_eq!(from_arg.line, 1);
    }

    #[test]
    fn listed_moves_are_checked_at_their_column(
        line in valid_line(),
        pick in any::<Index>(),
        score_out in prop_oneof![Just(65i64), Just(-65i64), 66i64..1000, -1000i64..=-66],
    ) {
        let side = line.side;
        let legal = r::legal_moves(&ref_board(line.black, line.white, side));
        let illegal: Vec<usize> = (0..64).filter(|sq| !legal.contains(sq)).collect();
        let sq = illegal[pick.index(illegal.len())];
        let body = line.text.split(['%', ';', '\n', '\r']).next().unwrap().trim_end();
        let text = format!("{body}; {}:+2;", name(sq, true));
        prop_assert_eq!(
            parse_obf_line(&text),
            Err(ObfError::IllegalListedMove { column: body.len() + 3, mv: name(sq, true) })
        );
        // A legal move listed twice is refused at the second listing, and so is a score
        // outside -64..=64.
        if let Some(&mv) = legal.first() {
            let text = format!("{body}; {}:+2; {}:-2;", name(mv, true), name(mv, false));
            prop_assert_eq!(
                parse_obf_line(&text),
                Err(ObfError::DuplicateMove { column: body.len() + 10, mv: name(mv, false) })
            );
            let text = format!("{body}; {}:{};", name(mv, false), score_out);
            prop_assert_eq!(
                parse_obf_line(&text),
                Err(ObfError::ScoreRange { column: body.len() + 3, score: score_out })
            );
        }
    }

    #[test]
    fn faults_after_the_board_are_reported_at_their_column(
        line in valid_line(),
        junk in select(vec!["Z", "junk here", "X", "O;", "é"]),
        pair in select(vec!["G8+18", "G8:", "G8:1.5", "I9:+2", "G8:+1:2", ":4", "g8:99999999999999999999"]),
    ) {
        let body = line.text.split(['%', ';', '\n', '\r']).next().unwrap().trim_end();
        let board = &body[..64];
        let n = body.len();
        // Text after the side that does not start the `;` list.
        prop_assert_eq!(
            parse_obf_line(&format!("{body} {junk}")),
            Err(ObfError::Trailing { column: n + 2, found: junk.into() })
        );
        // ... unless it is a comment.
        let position = parse_obf_line(body).unwrap().unwrap().position;
        prop_assert_eq!(
            parse_obf_line(&format!("{body} % {junk}")).map(|r| r.map(|r| r.position)),
            Ok(Some(position))
        );
        // No side, or a side that is not one.
        prop_assert_eq!(parse_obf_line(&format!("{board}  ")), Err(ObfError::MissingSide { column: 67 }));
        prop_assert_eq!(parse_obf_line(&format!("{board};")), Err(ObfError::MissingSide { column: 65 }));
        let side_word = junk.split([' ', ';']).next().unwrap();
        let want = match side_word {
            "X" | "O" => None,
            w => Some(ObfError::BadSide { column: 66, found: w.into() }),
        };
        prop_assert_eq!(parse_obf_line(&format!("{board}\t{junk}")).err(), want);
        // A pair that does not parse.
        prop_assert_eq!(
            parse_obf_line(&format!("{body};  {pair}; ")),
            Err(ObfError::BadPair { column: n + 4, found: pair.into() })
        );
    }

    #[test]
    fn a_score_alone_reads_back(line in valid_line(), score in -64i32..=64, style in 0usize..4) {
        let body = line.text.split(['%', ';', '\n', '\r']).next().unwrap().trim_end();
        let sign = if score >= 0 && style & 1 == 0 { "+" } else { "" };
        let text = if style & 2 == 0 {
            format!("{body}; {sign}{score};")
        } else {
            format!("{body};{sign}{score} % a comment")
        };
        let record = parse_obf_line(&text).unwrap().unwrap();
        prop_assert_eq!(record.position.black_white(), (line.black, line.white));
        prop_assert_eq!((record.score, record.expected_score()), (Some(score), Some(score)));
        prop_assert!(record.expected.is_empty());
        // A second score is refused at its column.
        let twice = format!("{body}; {sign}{score}; {score}");
        let column = twice.chars().count() - score.to_string().len() + 1;
        prop_assert_eq!(parse_obf_line(&twice), Err(ObfError::ExtraScore { column }));
    }

    #[test]
    fn one_char_mutations_parse_or_say_where(
        line in valid_line(),
        at in any::<Index>(),
        kind in 0u8..3,
        ch in select(NOISE),
    ) {
        let chars: Vec<char> = line.text.chars().collect();
        let i = at.index(chars.len() + 1);
        let mut mutated = chars.clone();
        match kind {
            0 if i < chars.len() => { mutated.remove(i); }
            1 => mutated.insert(i, ch),
            _ if i < chars.len() => mutated[i] = ch,
            _ => mutated.push(ch),
        }
        let text: String = mutated.iter().collect();
        check_any_obf(&text)?;
        let result = parse_obf_line(&text);
        // Faults put in the board (past its first square) are reported exactly.
        let ends_field = ch.is_ascii_whitespace() || ch == ';' || ch == '%';
        if (1..64).contains(&i) {
            let want = match kind {
                0 => Some(ObfError::BoardLength { found: 63 }),
                1 if SQUARE_CHARS.contains(ch) => Some(ObfError::BoardLength { found: 65 }),
                _ if ends_field => Some(ObfError::BoardLength { found: i }),
                // What a byte that is not UTF-8 became: said to be no text.
                _ if ch == '\u{fffd}' => Some(ObfError::NotText { column: i + 1 }),
                _ if !SQUARE_CHARS.contains(ch) => Some(ObfError::BadSquare { column: i + 1, ch }),
                _ => None,
            };
            if let Some(want) = want {
                prop_assert_eq!(result, Err(want), "{:?}", text);
            }
        }
    }

    #[test]
    fn reference_games_parse_back(seed in any::<u64>(), max in 0usize..=60, style in move_style()) {
        let (moves, b, side) = ref_game(seed, max);
        let text = spell(&moves, &style);
        let pos = parse_moves(&text).map_err(|e| TestCaseError::fail(format!("{e} for {text:?}")))?;
        prop_assert_eq!(pos.board, r::to_board(&b), "{:?}", text);
        prop_assert_eq!(pos.side, side, "{:?}", text);
        prop_assert_eq!(pos.board.empty_count() as usize, 60 - moves.len());
        // The position printed as OBF reads back as the same position.
        let back = parse_obf_line(&pos.to_string()).unwrap().unwrap();
        prop_assert_eq!(back.position, pos);
    }

    #[test]
    fn bad_moves_are_refused_at_their_index(
        seed in any::<u64>(),
        max in 0usize..=60,
        pick in any::<Index>(),
        junk in select(vec!["i1", "a9", "a0", "11", "zz", "a", "é1", "--"]),
    ) {
        let (moves, b, _) = ref_game(seed, max);
        let index = moves.len() + 1;
        let text = spell(&moves, &[(false, "")]);
        // An occupied square: illegal, or the game is already over.
        let occupied: Vec<usize> = (0..64).filter(|&sq| b[sq] != r::EMPTY).collect();
        let sq = occupied[pick.index(occupied.len())];
        let got = parse_moves(&format!("{text}{}", name(sq, false)));
        if r::is_game_over(&b) {
            prop_assert_eq!(got, Err(MovesError::GameOver { index, mv: name(sq, true) }));
        } else {
            prop_assert!(
                matches!(&got, Err(MovesError::Illegal { index: i, mv, .. }) if *i == index && *mv == name(sq, true)),
                "{:?}", got
            );
        }
        let got = parse_moves(&format!("{text}{junk}"));
        prop_assert_eq!(got, Err(MovesError::NotASquare { index, found: junk.to_string() }));
    }

    #[test]
    fn move_noise_matches_the_reference(
        seed in any::<u64>(),
        max in 0usize..=60,
        edits in prop::collection::vec((any::<Index>(), select(vec!['a', 'h', 'C', '1', '8', '4', ' ', 'z', '0', 'é'])), 0..3),
    ) {
        let (moves, _, _) = ref_game(seed, max);
        let mut chars: Vec<char> = spell(&moves, &[(false, "")]).chars().collect();
        for (at, ch) in edits {
            let i = at.index(chars.len() + 1);
            if i < chars.len() { chars[i] = ch } else { chars.push(ch) }
        }
        check_moves(&String::from_iter(chars))?;
    }
}

/// The suites' lines parse, and every one-character deletion of the first line of each
/// either parses or names what is wrong.
#[test]
fn suite_lines_parse_and_survive_deletions() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("suites");
    let mut files = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "obf") {
            continue;
        }
        files += 1;
        let text = std::fs::read_to_string(&path).unwrap();
        let first = text
            .lines()
            .find(|l| !l.trim_start().starts_with('%'))
            .unwrap();
        for line in text.lines() {
            check_any_obf(line).unwrap();
            assert!(parse_obf_line(line).is_ok(), "{}: {line}", path.display());
        }
        for i in 0..first.len() {
            let mut cut = first.to_string();
            cut.remove(i);
            check_any_obf(&cut).unwrap();
        }
    }
    assert!(files > 0);
}
