//! Real games (`finale::games`, `finale games`): WTHOR files and lines of moves built here,
//! byte by byte, from games of the naive reference implementation (tests/common), which
//! also gives every position they must replay to; damaged files and games; and the real
//! WTHOR files of the French Othello Federation (FFO) in ../shared/games, where the
//! theoretical scores are checked against exact solves.

mod common;

use common::reference::{self as r, RefBoard};
use finale::board::{Color, parse_moves, parse_obf_line};
use finale::commands::games::{CREDIT, GamesOptions, GamesSummary, run_games};
use finale::games::{Damage, Game, HeaderError, WthorFile, replay, text};
use std::path::{Path, PathBuf};

/// A WTHOR game file: the header for `year` and P3 `depth`, then `records`.
fn wtb(year: u16, depth: u8, records: &[Vec<u8>]) -> Vec<u8> {
    let mut b = vec![20, 26, 11, 29];
    b.extend((records.len() as u32).to_le_bytes());
    b.extend(0u16.to_le_bytes());
    b.extend(year.to_le_bytes());
    b.extend([8, 0, depth, 0]);
    for rec in records {
        b.extend(rec);
    }
    b
}

/// A 68-byte game record.
fn record(players: (u16, u16), tournament: u16, scores: (u8, u8), moves: &[u8]) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend(tournament.to_le_bytes());
    b.extend(players.0.to_le_bytes());
    b.extend(players.1.to_le_bytes());
    b.extend([scores.0, scores.1]);
    b.extend(moves);
    b.resize(68, 0);
    b
}

/// A WTHOR names file: `names` of `width` bytes each, NUL-padded, as Latin-1.
fn names_file(width: usize, names: &[&str]) -> Vec<u8> {
    let mut b = vec![20, 26, 11, 29, 0, 0, 0, 0];
    b.extend((names.len() as u16).to_le_bytes());
    b.extend([0; 6]);
    for n in names {
        let mut field: Vec<u8> = n.chars().map(|c| c as u32 as u8).collect();
        field.resize(width, 0);
        b.extend(field);
    }
    b
}

/// The WTHOR byte of square `sq` (a1 = 0): 10 x row + column, both from 1.
fn byte(sq: usize) -> u8 {
    (10 * (sq / 8 + 1) + sq % 8 + 1) as u8
}

/// The name of square `sq`, in lower case.
fn square_name(sq: usize) -> String {
    format!("{}{}", (b'a' + (sq % 8) as u8) as char, sq / 8 + 1)
}

/// A game of the reference implementation: its moves, each position a move was played
/// from (with whether black was to move), and black's final score.
struct RefGame {
    moves: Vec<usize>,
    before: Vec<(RefBoard, bool)>,
    black_final: i32,
    passes: usize,
}

impl RefGame {
    /// The seeded random game, to its end.
    fn new(seed: u64) -> RefGame {
        let boards = r::random_game(&mut r::Rng::new(seed));
        let (mut moves, mut before, mut passes) = (Vec::new(), Vec::new(), 0);
        let mut black = true;
        for w in boards.windows(2) {
            let (a, b) = (&w[0], &w[1]);
            if r::empties(a) == r::empties(b) {
                passes += 1;
            } else {
                let sq = (0..64).find(|&s| a[s] == r::EMPTY && b[s] != r::EMPTY);
                moves.push(sq.expect("a move fills a square"));
                before.push((*a, black));
            }
            black = !black;
        }
        let last = boards.last().expect("a game");
        let own = r::final_score(last);
        RefGame {
            moves,
            before,
            black_final: if black { own } else { -own },
            passes,
        }
    }

    fn bytes(&self) -> Vec<u8> {
        self.moves.iter().map(|&s| byte(s)).collect()
    }

    fn text(&self) -> String {
        self.moves.iter().map(|&s| square_name(s)).collect()
    }

    /// Black's discs at the end, empty squares to the winner (a record's byte 6).
    fn real(&self) -> u8 {
        ((self.black_final + 64) / 2) as u8
    }

    /// The position a move was played from with `empties` empty squares, if any.
    fn at(&self, empties: usize) -> Option<(RefBoard, bool)> {
        self.before
            .iter()
            .find(|(b, _)| r::empties(b) == empties)
            .copied()
    }
}

/// The reference board and whether black is to move, of a finale position.
fn as_ref(p: &finale::Position) -> (RefBoard, bool) {
    (r::from_board(p.board), p.side == Color::Black)
}

/// Every game of `bytes` read as a WTHOR file, which must have a sound header.
fn wthor_games(bytes: Vec<u8>) -> Vec<Result<Game, finale::games::Damaged>> {
    WthorFile::parse(bytes)
        .expect("a sound header")
        .games()
        .collect()
}

#[test]
fn move_bytes_and_names_as_published() {
    use finale::board::Square;
    use finale::games::names::{name, parse};
    use finale::games::wthor::square;
    for (b, sq) in [
        (11, "a1"),
        (18, "h1"),
        (81, "a8"),
        (88, "h8"),
        (56, "f5"),
        (43, "c4"),
    ] {
        assert_eq!(square(b), Square::parse(sq), "{b}");
    }
    for b in [0, 9, 10, 19, 20, 89, 90, 91, 255] {
        assert_eq!(square(b), None, "{b}");
    }
    // Latin-1, cut at the first NUL, trimmed; a control character would break a line.
    assert_eq!(name(b"Pr\xe9qualif de Paris\0\0x"), "Préqualif de Paris");
    assert_eq!(name(b" Tastet\nMarc \0"), "Tastet?Marc");
    let jou = names_file(20, &["???", "Tastet Marc"]);
    let path = Path::new("WTHOR.JOU");
    assert_eq!(
        parse(&jou, 20, path).expect("sound"),
        vec!["???", "Tastet Marc"]
    );
    let e = parse(&jou[..50], 20, path).expect_err("short").to_string();
    assert_eq!(
        e,
        "WTHOR.JOU: 50 bytes, but its header counts 2 names of 20 bytes (56 bytes with the header)"
    );
}

#[test]
fn reference_games_replay_position_by_position() {
    let games: Vec<RefGame> = (0..300).map(RefGame::new).collect();
    assert!(games.iter().any(|g| g.passes > 0), "some games pass");
    let records: Vec<Vec<u8>> = games
        .iter()
        .map(|g| record((1, 2), 3, (g.real(), 32), &g.bytes()))
        .collect();
    let read = wthor_games(wtb(2001, 24, &records));
    assert_eq!(read.len(), games.len());
    for (k, (g, item)) in games.iter().zip(read).enumerate() {
        let game = item.unwrap_or_else(|d| panic!("game {k}: {d:?}"));
        assert_eq!(game.number, k + 1);
        assert_eq!(game.record.map(|r| r.real), Some(g.real()));
        let played = replay(&game.moves).unwrap_or_else(|d| panic!("game {k}: {d}"));
        let got: Vec<(RefBoard, bool)> = played.positions.iter().map(as_ref).collect();
        assert_eq!(
            got, g.before,
            "game {k}: the positions moves were played from"
        );
        assert_eq!(played.final_for_black(), Some(g.black_final), "game {k}");
        // The same moves as text, through the text reader and through parse_moves.
        let line = text::parse_line(&g.text().to_uppercase()).expect("squares");
        assert_eq!(line, game.moves, "game {k}");
        assert_eq!(
            parse_moves(&g.text()).expect("legal"),
            played.last,
            "game {k}"
        );
    }
}

/// A game that ends before the board is full, and a square still empty at its end.
fn early_game() -> (RefGame, usize) {
    let g = (0..10_000)
        .map(RefGame::new)
        .find(|g| g.moves.len() < 60)
        .expect("a game that ends early");
    let empty = (0..64).find(|s| !g.moves.contains(s) && ![27, 28, 35, 36].contains(s));
    (g, empty.expect("an empty square"))
}

#[test]
fn each_kind_of_damage_is_found_at_its_move() {
    let good = RefGame::new(1);
    let (early, empty) = early_game();
    let mut illegal = good.bytes();
    illegal[4] = 11; // a1 as the fifth move
    let mut out_of_range = good.bytes();
    out_of_range[6] = 19;
    let mut after_end = good.bytes();
    after_end.truncate(10);
    after_end.extend([0, 56]);
    let mut after_over = early.bytes();
    after_over.push(byte(empty));
    let records = [
        record((1, 2), 0, (good.real(), 40), &good.bytes()),
        record((1, 2), 0, (32, 40), &illegal),
        record((1, 2), 0, (32, 40), &out_of_range),
        record((1, 2), 0, (32, 40), &after_end),
        record((1, 2), 0, (early.real(), 40), &after_over),
        record((1, 2), 0, (32, 65), &good.bytes()),
    ];
    let read = wthor_games(wtb(2001, 24, &records));
    let damage = |i: usize| match &read[i] {
        Ok(game) => replay(&game.moves).expect_err("damaged"),
        Err(d) => d.damage.clone(),
    };
    assert!(read[0].as_ref().is_ok_and(|g| replay(&g.moves).is_ok()));
    assert!(matches!(
        damage(1),
        Damage::Illegal {
            index: 5,
            side: "black",
            ..
        }
    ));
    assert_eq!(damage(2), Damage::ByteOutOfRange { index: 7, byte: 19 });
    assert_eq!(
        damage(3),
        Damage::AfterEndMarker {
            index: 12,
            byte: 56
        }
    );
    let index = early.moves.len() + 1;
    assert!(matches!(damage(4), Damage::AfterGameOver { index: i, .. } if i == index));
    let range = Damage::ScoreRange {
        which: "theoretical",
        value: 65,
    };
    assert_eq!(damage(5), range);
}

#[test]
fn a_truncated_file_keeps_its_whole_records() {
    let g = RefGame::new(2);
    let rec = record((1, 2), 0, (g.real(), 40), &g.bytes());
    let whole = wtb(2001, 24, &[rec.clone(), rec.clone(), rec.clone(), rec]);
    // Cut 30 bytes into the third record: two games read, two missing.
    let cut = whole[..16 + 68 * 2 + 30].to_vec();
    let read = wthor_games(cut);
    assert_eq!(read.len(), 3);
    assert!(read[0].is_ok() && read[1].is_ok());
    let d = read[2].as_ref().expect_err("truncated");
    assert_eq!(d.number, 3);
    assert_eq!(
        d.damage,
        Damage::Truncated {
            index: 23,
            bytes: 30,
            missing: 2
        }
    );
    assert_eq!(d.damage.games(), 2);
    // Cut at a record's end: the missing record starts before its moves.
    let read = wthor_games(whole[..16 + 68 * 3].to_vec());
    let d = read[3].as_ref().expect_err("truncated");
    assert_eq!(
        d.damage,
        Damage::Truncated {
            index: 1,
            bytes: 0,
            missing: 1
        }
    );
}

#[test]
fn a_wrong_header_is_refused_with_what_is_wrong() {
    let g = RefGame::new(3);
    let good = wtb(2001, 24, &[record((0, 0), 0, (32, 32), &g.bytes())]);
    let with = |at: usize, value: u8| {
        let mut b = good.clone();
        b[at] = value;
        WthorFile::parse(b).err()
    };
    assert_eq!(
        WthorFile::parse(good[..10].to_vec()).err(),
        Some(HeaderError::Short { len: 10 })
    );
    let mut long = good.clone();
    long.push(0);
    assert_eq!(
        WthorFile::parse(long).err(),
        Some(HeaderError::Size {
            games: 1,
            expected: 84,
            found: 85
        })
    );
    assert_eq!(with(12, 10), Some(HeaderError::BoardSize { size: 10 }));
    assert_eq!(with(12, 0), None);
    assert_eq!(with(14, 0), Some(HeaderError::Depth { depth: 0 }));
    assert_eq!(with(14, 61), Some(HeaderError::Depth { depth: 61 }));
    assert_eq!(with(14, 22), None);
    // A players file given as games.
    let jou = names_file(20, &["???", "Tastet Marc"]);
    assert_eq!(
        WthorFile::parse(jou).err(),
        Some(HeaderError::NameFile { records: 2 })
    );
    // An empty game file is sound.
    assert!(WthorFile::parse(wtb(2001, 24, &[])).is_ok_and(|f| f.games().count() == 0));
}

#[test]
fn lines_of_moves_in_either_case_and_a_damaged_line() {
    let g = RefGame::new(4);
    let lower = g.text();
    let spaced: String = g
        .moves
        .iter()
        .map(|&s| square_name(s).to_uppercase() + " ")
        .collect();
    let mixed: String = lower
        .chars()
        .enumerate()
        .map(|(i, c)| {
            if i % 3 == 0 {
                c.to_ascii_uppercase()
            } else {
                c
            }
        })
        .collect();
    let file =
        format!("% a comment\n{lower}\n\n{spaced}\r\n# another\n{mixed}\nf5d6z9\nf5a1\nf5d6c\n");
    let read: Vec<_> = text::games(&file).collect();
    assert_eq!(read.len(), 6);
    for (item, line) in read[..3].iter().zip([2, 4, 6]) {
        let game = item.as_ref().expect("a game");
        assert_eq!(game.number, line);
        assert!(game.record.is_none());
        let played = replay(&game.moves).expect("legal");
        let got: Vec<(RefBoard, bool)> = played.positions.iter().map(as_ref).collect();
        assert_eq!(got, g.before);
    }
    let d = read[3].as_ref().expect_err("damaged");
    assert_eq!(
        (d.number, &d.damage),
        (
            7,
            &Damage::NotASquare {
                index: 3,
                found: "z9".into()
            }
        )
    );
    let bad = read[4].as_ref().expect("squares");
    assert!(matches!(
        replay(&bad.moves),
        Err(Damage::Illegal { index: 2, .. })
    ));
    let half = read[5].as_ref().expect_err("half a move");
    assert_eq!(
        half.damage,
        Damage::NotASquare {
            index: 3,
            found: "c".into()
        }
    );
}

/// A directory holding `files` (name, bytes).
fn dir_with(files: &[(&str, Vec<u8>)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).expect("write");
    }
    dir
}

fn options(file: &Path, out: &Path) -> GamesOptions {
    GamesOptions {
        files: vec![file.to_path_buf()],
        out: out.to_path_buf(),
        ..Default::default()
    }
}

/// The output's position lines, parsed, with their comments.
fn output(path: &Path) -> (Vec<String>, Vec<(finale::board::ObfRecord, String)>) {
    let text = std::fs::read_to_string(path).expect("output written");
    let (head, body): (Vec<&str>, Vec<&str>) = text.lines().partition(|l| l.starts_with('%'));
    let records = body
        .iter()
        .map(|l| {
            let rec = parse_obf_line(l).expect("an OBF line").expect("a position");
            (
                rec,
                l.split_once('%').expect("a comment").1.trim().to_string(),
            )
        })
        .collect();
    (head.iter().map(|s| s.to_string()).collect(), records)
}

/// Two games between named players, the first twice: the database of the tests below.
/// Its P3 is 23 (24 in the real files, 22 in some years), so that the theoretical scores
/// are written for white to move: the record's is black's.
fn database() -> (tempfile::TempDir, [RefGame; 2]) {
    let (a, b) = (RefGame::new(11), RefGame::new(12));
    assert!(
        [&a, &b]
            .iter()
            .all(|g| g.at(23).is_some_and(|(_, black)| !black))
    );
    let games = wtb(
        2001,
        23,
        &[
            record((1, 2), 1, (a.real(), 40), &a.bytes()),
            record((3, 1), 0, (b.real(), 21), &b.bytes()),
            record((2, 3), 0, (a.real(), 40), &a.bytes()),
        ],
    );
    let jou = names_file(
        20,
        &["???", "Tastet Marc", "Penloup Dominique", "Dupont Élise"],
    );
    let trn = names_file(26, &["Diverses parties", "Préqualif de Paris"]);
    let dir = dir_with(&[
        ("WTH_2001.wtb", games),
        ("WTHOR.JOU", jou),
        ("WTHOR.TRN", trn),
    ]);
    (dir, [a, b])
}

/// The theoretical score `t` of a game as the score of its position `p` for the side to
/// move: black's 2 t - 64, negated for white.
fn for_side((_, black): (RefBoard, bool), t: i32) -> i32 {
    if black { 2 * t - 64 } else { 64 - 2 * t }
}

#[test]
fn the_command_writes_each_position_once_with_its_theoretical_score() {
    let (dir, [a, b]) = database();
    let file = dir.path().join("WTH_2001.wtb");
    let out = dir.path().join("p23.obf");
    let summary = run_games(&options(&file, &out), &mut Vec::new()).expect("runs");
    let (head, lines) = output(&out);
    assert_eq!(
        head[0],
        format!("% finale games {} --out {}", file.display(), out.display())
    );
    assert_eq!(head[1], CREDIT);
    assert_eq!(lines.len(), 2);
    for ((rec, comment), (g, t, names)) in lines.iter().zip([
        (
            &a,
            40,
            "Tastet Marc - Penloup Dominique, Préqualif de Paris",
        ),
        (&b, 21, "Dupont Élise - Tastet Marc, Diverses parties"),
    ]) {
        let want = g.at(23).expect("23 empties");
        assert_eq!(as_ref(&rec.position), want);
        assert_eq!(rec.score, Some(for_side(want, t)));
        assert!(rec.expected.is_empty());
        assert!(
            comment.starts_with("2001 game ") && comment.ends_with(names),
            "{comment}"
        );
    }
    let want = GamesSummary {
        files: 1,
        games: 3,
        replayed: 3,
        positions: 3,
        duplicates: 1,
        written: 2,
        scored: 2,
        ..Default::default()
    };
    assert_eq!(summary, want);
}

#[test]
fn empties_samples_and_filters() {
    let (dir, [a, b]) = database();
    let file = dir.path().join("WTH_2001.wtb");
    let out = dir.path().join("out.obf");
    let run = |o: GamesOptions| {
        let s = run_games(&o, &mut Vec::new()).expect("runs");
        (s, output(&out).1)
    };
    let base = || options(&file, &out);
    // 20-30 empties: both games' positions there, each once, scores only at P3.
    let (s, all) = run(GamesOptions {
        empties: Some((20, 30)),
        ..base()
    });
    let mut want: Vec<(RefBoard, bool)> = Vec::new();
    for g in [&a, &b] {
        for p in g
            .before
            .iter()
            .filter(|(x, _)| (20..=30).contains(&r::empties(x)))
        {
            if !want.contains(p) {
                want.push(*p);
            }
        }
    }
    let got: Vec<(RefBoard, bool)> = all.iter().map(|(rec, _)| as_ref(&rec.position)).collect();
    assert_eq!(got, want);
    assert_eq!(s.duplicates, s.positions - want.len() as u64);
    for (rec, _) in &all {
        assert_eq!(rec.score.is_some(), rec.position.board.empty_count() == 23);
    }
    // A seeded sample: a subset, the same for the same seed.
    let sampled = GamesOptions {
        empties: Some((20, 30)),
        sample: Some(5),
        seed: 9,
        ..base()
    };
    let (s, five) = run(sampled.clone());
    assert_eq!((five.len(), s.sampled_out), (5, all.len() as u64 - 5));
    assert!(five.iter().all(|l| all.contains(l)));
    assert_eq!(run(sampled).1, five);
    // Filters: a player in any case, a tournament, years.
    let (s, lines) = run(GamesOptions {
        player: Some("PENLOUP".into()),
        ..base()
    });
    assert_eq!((s.filtered, lines.len()), (1, 1));
    assert!(lines[0].1.contains("Penloup"));
    let (s, lines) = run(GamesOptions {
        tournament: Some("paris".into()),
        ..base()
    });
    assert_eq!((s.filtered, s.duplicates, lines.len()), (2, 0, 1));
    let (s, lines) = run(GamesOptions {
        years: Some((2002, 2014)),
        ..base()
    });
    assert_eq!((s.games, s.filtered, lines.len()), (3, 3, 0));
}

#[test]
fn without_names_players_are_numbers_and_name_filters_are_refused() {
    let (dir, _) = database();
    let bare = dir_with(&[]);
    let file = bare.path().join("WTH_2001.wtb");
    std::fs::copy(dir.path().join("WTH_2001.wtb"), &file).expect("copy");
    let out = bare.path().join("out.obf");
    run_games(&options(&file, &out), &mut Vec::new()).expect("runs");
    assert!(output(&out).1[0].1.ends_with("game 1: #1 - #2, #1"));
    let o = GamesOptions {
        player: Some("Tastet".into()),
        ..options(&file, &out)
    };
    let e = run_games(&o, &mut Vec::new())
        .expect_err("no names")
        .to_string();
    assert!(
        e.starts_with("--player: ") && e.contains("WTHOR.JOU"),
        "{e}"
    );
    // --names DIR names them.
    let o = GamesOptions {
        names: Some(dir.path().to_path_buf()),
        ..o
    };
    let s = run_games(&o, &mut Vec::new()).expect("names found");
    // Games 1 and 2 have Tastet Marc (black, then white); game 3 has not.
    assert_eq!((s.filtered, s.written), (1, 2));
}

#[test]
fn damaged_games_are_skipped_and_counted_or_refused_when_strict() {
    let g = RefGame::new(5);
    let mut illegal = g.bytes();
    illegal[4] = 11;
    let mut out_of_range = g.bytes();
    out_of_range[0] = 90;
    let records = [
        record((1, 2), 0, (g.real(), 40), &g.bytes()),
        record((1, 2), 0, (32, 40), &illegal),
        record((1, 2), 0, (32, 40), &out_of_range),
        record((1, 2), 0, (32, 40), &illegal),
    ];
    let mut bytes = wtb(2001, 24, &records);
    bytes.truncate(bytes.len() - 20);
    let dir = dir_with(&[("WTH_2001.wtb", bytes)]);
    let file = dir.path().join("WTH_2001.wtb");
    let out = dir.path().join("out.obf");
    let mut report = Vec::new();
    let s = run_games(&options(&file, &out), &mut report).expect("runs");
    assert_eq!(
        (s.games, s.replayed, s.skipped_total(), s.written),
        (4, 1, 3, 1)
    );
    let kinds: Vec<(&str, u64)> = s.skipped.iter().map(|(k, n)| (*k, *n)).collect();
    let want = [
        ("illegal move", 1),
        ("move byte out of range", 1),
        ("truncated record", 1),
    ];
    assert_eq!(kinds, want);
    let report = String::from_utf8(report).expect("text");
    assert!(
        report.contains("skipped: 1 illegal move, 1 move byte out of range, 1 truncated record"),
        "{report}"
    );
    let strict = GamesOptions {
        strict: true,
        ..options(&file, &out)
    };
    let e = run_games(&strict, &mut Vec::new())
        .expect_err("strict")
        .to_string();
    let want = format!(
        "{}: game 2: move 5 (A1): illegal for black (--strict)",
        file.display()
    );
    assert_eq!(e, want);
}

#[test]
fn an_unwritable_output_is_an_error_and_no_file() {
    let (dir, _) = database();
    let file = dir.path().join("WTH_2001.wtb");
    let out = dir.path().join("missing/out.obf");
    let e = run_games(&options(&file, &out), &mut Vec::new()).expect_err("no dir");
    assert!(
        e.to_string()
            .starts_with(&format!("cannot write {}", out.display())),
        "{e}"
    );
    assert!(!out.exists());
}

// The real files: the WTHOR database of the French Othello Federation (FFO), 1977-2014.

fn real_file(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/games/wthor")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every game of 2010 replays from the start (2 172 games), and each ends, finished, with its
/// record's real score (as an independent replay in Python found: none unfinished, none
/// with another score).
#[test]
#[cfg_attr(
    no_wthor_games,
    ignore = "no ../shared/games/wthor here (the WTHOR database of the FFO): the tests on real games are skipped"
)]
fn every_game_of_2010_replays() {
    let file = WthorFile::parse(real_file("WTH_2010.wtb")).expect("a sound header");
    assert_eq!(
        (file.header.games, file.header.year, file.header.depth),
        (2172, 2010, 24)
    );
    let (mut games, mut unfinished, mut differ) = (0, 0, 0);
    for item in file.games() {
        let game = item.unwrap_or_else(|d| panic!("game {}: {}", d.number, d.damage));
        let played = replay(&game.moves).unwrap_or_else(|d| panic!("game {}: {d}", game.number));
        games += 1;
        match played.final_for_black() {
            None => unfinished += 1,
            Some(s) if s != game.record.expect("a record").real_for_black() => differ += 1,
            Some(_) => {}
        }
    }
    assert_eq!((games, unfinished, differ), (2172, 0, 0));
}

/// All 38 files, 1977-2014, through the command at 24 empties: every game replays, with the
/// counts an independent replay in Python gives: 115 509 games, 413 unfinished, none
/// finished with another score than its record's, 114 360 distinct positions with 24
/// empties and a move, one of them given two theoretical scores (games 1990 and 2001 of
/// 2013: -4 and -28 for black, to move; finale's exact solve says -4).
#[test]
#[cfg_attr(
    no_wthor_games,
    ignore = "no ../shared/games/wthor here (the WTHOR database of the FFO): the tests on real games are skipped"
)]
fn every_game_of_1977_to_2014_replays() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/games/wthor");
    let files: Vec<PathBuf> = (1977..=2014)
        .map(|y| dir.join(format!("WTH_{y}.wtb")))
        .collect();
    let tmp = tempfile::tempdir().expect("temp dir");
    let out = tmp.path().join("all24.obf");
    let o = GamesOptions {
        empties: Some((24, 24)),
        files,
        out: out.clone(),
        ..Default::default()
    };
    let s = run_games(&o, &mut Vec::new()).expect("runs");
    assert_eq!(
        (s.files, s.games, s.skipped_total(), s.replayed),
        (38, 115_509, 0, 115_509)
    );
    assert_eq!((s.unfinished, s.real_differs), (413, 0));
    assert_eq!(
        (s.written, s.scored, s.score_conflicts),
        (114_360, 114_360, 1)
    );
}

/// The theoretical score of three games of 2010 is finale's exact score of their position
/// with P3 = 24 empties (about a second each).
#[test]
#[cfg_attr(
    no_wthor_games,
    ignore = "no ../shared/games/wthor here (the WTHOR database of the FFO): the tests on real games are skipped"
)]
fn theoretical_scores_are_exact_scores() {
    use finale::search::{Mode, Solver, SolverOptions};
    let file = WthorFile::parse(real_file("WTH_2010.wtb")).expect("a sound header");
    let games: Vec<Game> = file.games().map(|g| g.expect("sound")).collect();
    let mut solver = Solver::new(SolverOptions {
        hash_mb: 64,
        ..Default::default()
    });
    for n in [1, 1086, 2172] {
        let game = &games[n - 1];
        let played = replay(&game.moves).expect("replays");
        let pos = played
            .positions
            .iter()
            .find(|p| p.board.empty_count() == 24);
        let pos = pos.expect("a position with 24 empties");
        let black = game.record.expect("a record").theoretical_for_black();
        let want = if pos.side == Color::Black {
            black
        } else {
            -black
        };
        solver.clear();
        assert_eq!(solver.solve(pos.board, Mode::Exact).score, want, "game {n}");
    }
}

// The binary.

/// `finale games` with `args`: exit code, stdout and stderr.
fn finale_games(args: &[&std::ffi::OsStr]) -> (Option<i32>, String, String) {
    let out = assert_cmd::cargo::cargo_bin_cmd!("finale")
        .arg("games")
        .args(args)
        .output()
        .expect("finale runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn the_binary_writes_the_positions_and_a_summary_on_stderr() {
    let (dir, _) = database();
    let file = dir.path().join("WTH_2001.wtb");
    let out = dir.path().join("out.obf");
    let (code, stdout, stderr) = finale_games(&[
        file.as_os_str(),
        "--empties".as_ref(),
        "23-24".as_ref(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stdout, "");
    let (head, lines) = output(&out);
    assert_eq!(head[1], CREDIT);
    let tail = format!("--empties 23-24 --out {}", out.display());
    assert!(
        head[0].starts_with("% finale games ") && head[0].ends_with(&tail),
        "{}",
        head[0]
    );
    assert_eq!(lines.len(), 4);
    let want = "games: 3 read from 1 file, 0 filtered out, 0 skipped, 3 replayed";
    assert!(stderr.starts_with(want), "{stderr}");
    let want = "positions: 4 written (2 with a theoretical score), 2 duplicates dropped";
    assert!(stderr.contains(want), "{stderr}");
}

/// Runs `finale games` and checks the bad-input contract: exit code 2, stderr exactly
/// one line `error: ...` holding every string of `culprits`, and no output file.
fn assert_refused(args: &[&std::ffi::OsStr], out: &Path, culprits: &[&str]) {
    let (code, _, stderr) = finale_games(args);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: "), "{stderr}");
    for c in culprits {
        assert!(stderr.contains(c), "'{c}' missing from: {stderr}");
    }
    assert!(!out.exists(), "{}", out.display());
}

#[test]
fn the_binary_refuses_a_bad_header_and_a_damaged_game_when_strict() {
    let g = RefGame::new(6);
    let mut bytes = wtb(2001, 24, &[record((1, 2), 0, (32, 40), &g.bytes())]);
    bytes[12] = 10;
    let mut damaged = g.bytes();
    damaged[9] = 0;
    let dir = dir_with(&[
        ("WTH_2001.wtb", bytes),
        (
            "bad.wtb",
            wtb(2001, 24, &[record((1, 2), 0, (32, 40), &damaged)]),
        ),
    ]);
    let out = dir.path().join("out.obf");
    let file = dir.path().join("WTH_2001.wtb");
    let flags = ["--out".as_ref(), out.as_os_str()];
    let name = file.display().to_string();
    assert_refused(
        &[file.as_os_str(), flags[0], flags[1]],
        &out,
        &[&name, "board size 10 (header byte 12): only 8x8 games"],
    );
    let bad = dir.path().join("bad.wtb");
    let name = bad.display().to_string();
    let args = [bad.as_os_str(), "--strict".as_ref(), flags[0], flags[1]];
    assert_refused(
        &args,
        &out,
        &[&name, "game 1: move 11: byte", "after the 0", "--strict"],
    );
    // Without --strict the damaged game is skipped and counted.
    let (code, _, stderr) = finale_games(&[bad.as_os_str(), flags[0], flags[1]]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("skipped: 1 move after the end marker"),
        "{stderr}"
    );
}
