//! Reading positions: OBF lines and files, and move sequences from the start position.

use super::error::{MovesError, ObfError, ReadError};
use super::position::{Board, Color, Position};
use super::square::Square;

type Result<T> = std::result::Result<T, ReadError>;
use std::io::{BufRead, Read};
use std::path::Path;

/// Longest OBF line accepted. A real one is under 1 kB even when it lists the score of
/// every move; the limit keeps a file that is not text (or `/dev/zero`) from being read
/// into memory as one endless line.
pub const OBF_MAX_LINE_BYTES: usize = 1 << 20;

/// One OBF record: a position and the scores the file gives for some of its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfRecord {
    /// 1-based line number in its file.
    pub line: usize,
    /// The position.
    pub position: Position,
    /// `MOVE:SCORE` pairs in file order (best first in FFO files).
    pub expected: Vec<(Square, i32)>,
    /// A score given alone (`; +12;`): the position's exact score for the side to move,
    /// when no best move is known (a game record's theoretical score). Never given
    /// together with `MOVE:SCORE` pairs.
    pub score: Option<i32>,
    /// The window the line asks its solve for (`; window -3,3;`): alpha and beta, disc
    /// differences with alpha < beta, checked to be within -64..64. A batch solves such a
    /// line with this window instead of its run's mode (see `finale batch`).
    pub window: Option<(i32, i32)>,
}

impl ObfRecord {
    /// The expected score: the one given alone, or the best listed move's; `None` when
    /// the line gives neither.
    pub fn expected_score(&self) -> Option<i32> {
        self.score
            .or_else(|| self.expected.iter().map(|&(_, s)| s).max())
    }

    /// Moves the file gives the best score.
    pub fn expected_best_moves(&self) -> Vec<Square> {
        match self.expected_score() {
            Some(best) => self
                .expected
                .iter()
                .filter(|&&(_, s)| s == best)
                .map(|&(m, _)| m)
                .collect(),
            None => Vec::new(),
        }
    }
}

/// Parses one OBF line. `Ok(None)` for a blank or comment-only line.
///
/// Columns in errors are 1-based positions in `line`.
pub fn parse_obf_line(line: &str) -> std::result::Result<Option<ObfRecord>, ObfError> {
    // A byte-order mark, which some editors put at the start of a file, is invisible:
    // skipped, not reported as a square.
    let line = line.strip_prefix('\u{feff}').unwrap_or(line);
    let content = match line.find('%') {
        Some(i) => &line[..i],
        None => line,
    };
    let i = skip_space(content, 0);
    if i == content.len() {
        return Ok(None);
    }
    let (black, white, i) = parse_squares(content, i)?;
    let (side, i) = parse_side(content, skip_space(content, i))?;
    let board = match side {
        Color::Black => Board::new(black, white),
        Color::White => Board::new(white, black),
    };
    let values = parse_pairs(content, skip_space(content, i), &board)?;
    Ok(Some(ObfRecord {
        line: 0,
        position: Position { board, side },
        expected: values.expected,
        score: values.alone,
        window: values.window,
    }))
}

/// The byte offset of the first character at or after `i` that is not white space.
fn skip_space(content: &str, mut i: usize) -> usize {
    let bytes = content.as_bytes();
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The 64 squares starting at byte `i`: black's and white's discs, and the offset after
/// them.
fn parse_squares(content: &str, mut i: usize) -> std::result::Result<(u64, u64, usize), ObfError> {
    let bytes = content.as_bytes();
    let mut black = 0u64;
    let mut white = 0u64;
    let mut n = 0usize;
    while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b';' {
        // Count characters, not bytes, so a multi-byte character is reported whole.
        let ch = content[i..].chars().next().unwrap_or('?');
        if n < 64 {
            match ch {
                'X' | 'x' | '*' => black |= 1u64 << n,
                'O' | 'o' => white |= 1u64 << n,
                '-' | '.' => {}
                // What a byte that is not UTF-8 became (a binary file, another encoding).
                '\u{fffd}' => {
                    return Err(ObfError::NotText {
                        column: char_column(content, i),
                    });
                }
                _ => {
                    return Err(ObfError::BadSquare {
                        column: char_column(content, i),
                        ch,
                    });
                }
            }
        }
        n += 1;
        i += ch.len_utf8();
    }
    if n != 64 {
        // A board and side written without a space ("...-X") is still a length error,
        // but say so clearly: 65 squares means the side is glued on.
        return Err(ObfError::BoardLength { found: n });
    }
    Ok((black, white, i))
}

/// The side to move starting at byte `i`, and the offset after it.
fn parse_side(content: &str, mut i: usize) -> std::result::Result<(Color, usize), ObfError> {
    let bytes = content.as_bytes();
    if i == bytes.len() || bytes[i] == b';' {
        return Err(ObfError::MissingSide {
            column: char_column(content, i),
        });
    }
    let side_start = i;
    while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b';' {
        i += 1;
    }
    let side_text = &content[side_start..i];
    let side = match side_text {
        "X" | "x" | "*" | "B" | "b" => Color::Black,
        "O" | "o" | "W" | "w" => Color::White,
        _ => {
            return Err(ObfError::BadSide {
                column: char_column(content, side_start),
                found: side_text.to_string(),
            });
        }
    };
    Ok((side, i))
}

/// What follows the side to move: `MOVE:SCORE` pairs, or one score alone, and a window.
#[derive(Default)]
struct Values {
    expected: Vec<(Square, i32)>,
    alone: Option<i32>,
    window: Option<(i32, i32)>,
}

/// The `;MOVE:SCORE` pairs from byte `i` to the end: each move legal on `board`, listed
/// once, its score a disc difference. Or, instead of pairs, one score alone (`; +12;`).
/// Beside either, at most one `window A,B` field.
fn parse_pairs(content: &str, i: usize, board: &Board) -> std::result::Result<Values, ObfError> {
    let mut values = Values::default();
    if i == content.len() {
        return Ok(values);
    }
    if content.as_bytes()[i] != b';' {
        return Err(ObfError::Trailing {
            column: char_column(content, i),
            found: content[i..].trim_end().to_string(),
        });
    }
    let mut start = i + 1;
    for field in content[i + 1..].split(';') {
        let field_start = start;
        start += field.len() + 1;
        let lead = field.len() - field.trim_start().len();
        let pair = field.trim();
        if pair.is_empty() {
            continue;
        }
        let column = char_column(content, field_start + lead);
        let bad = || ObfError::BadPair {
            column,
            found: pair.to_string(),
        };
        if let Some(edges) = pair.strip_prefix(WINDOW_FIELD) {
            if values.window.is_some() {
                return Err(ObfError::ExtraWindow { column });
            }
            values.window = Some(parse_window(edges, column, pair)?);
            continue;
        }
        let (expected, alone) = (&mut values.expected, &mut values.alone);
        // A field without a move is a score alone, the line's only value.
        let Some((mv, score)) = pair.split_once(':') else {
            let score = parse_score(pair, column).ok_or_else(bad)??;
            if alone.is_some() || !expected.is_empty() {
                return Err(ObfError::ExtraScore { column });
            }
            *alone = Some(score);
            continue;
        };
        if alone.is_some() {
            return Err(ObfError::ExtraScore { column });
        }
        let sq = Square::parse(mv.trim()).ok_or_else(bad)?;
        let score = parse_score(score.trim(), column).ok_or_else(bad)??;
        if !board.is_legal(sq) {
            return Err(ObfError::IllegalListedMove {
                column,
                mv: mv.trim().to_string(),
            });
        }
        if expected.iter().any(|&(m, _)| m == sq) {
            return Err(ObfError::DuplicateMove {
                column,
                mv: mv.trim().to_string(),
            });
        }
        expected.push((sq, score));
    }
    Ok(values)
}

/// The word that starts a line's window field: `window -3,3`.
pub const WINDOW_FIELD: &str = "window";

/// The edges of a window field after its word (` -3,3`): two scores, the first below
/// the second. `field` is the whole field, for the error.
fn parse_window(
    edges: &str,
    column: usize,
    field: &str,
) -> std::result::Result<(i32, i32), ObfError> {
    let bad = || ObfError::BadWindow {
        column,
        found: field.to_string(),
    };
    // The word stands alone: `windows` or `window-3,3` is not this field.
    if !edges.starts_with(char::is_whitespace) {
        return Err(bad());
    }
    let (a, b) = edges.trim().split_once(',').ok_or_else(bad)?;
    let score = |t: &str| parse_score(t.trim(), column).and_then(|s| s.ok());
    let (alpha, beta) = (score(a).ok_or_else(bad)?, score(b).ok_or_else(bad)?);
    if alpha >= beta {
        return Err(bad());
    }
    Ok((alpha, beta))
}

/// A score: one optional sign, then digits only (`++4` and `+-4` are typos, not scores),
/// within -64..64. `None` when it is not a number; the range error at `column`.
fn parse_score(text: &str, column: usize) -> Option<std::result::Result<i32, ObfError>> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let score: i64 = text.strip_prefix('+').unwrap_or(text).parse().ok()?;
    if !(-64..=64).contains(&score) {
        return Some(Err(ObfError::ScoreRange { column, score }));
    }
    Some(Ok(score as i32))
}

/// 1-based character column of byte offset `at`.
fn char_column(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].chars().count() + 1
}

/// Parses a position given as text (one OBF line); `origin` names it in errors.
pub fn parse_position(text: &str, origin: &str) -> Result<ObfRecord> {
    match parse_obf_line(text) {
        Ok(Some(mut r)) => {
            r.line = 1;
            Ok(r)
        }
        Ok(None) => Err(ReadError::Empty(origin.to_string(), "no position given")),
        Err(error) => Err(ReadError::Obf {
            origin: origin.to_string(),
            line: 1,
            error,
        }),
    }
}

/// Streams the records of an OBF source, skipping blank and comment lines.
pub struct ObfReader<R> {
    reader: R,
    origin: String,
    line: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> ObfReader<R> {
    /// Reads from `reader`; `origin` (usually the file name) prefixes errors.
    pub fn new(reader: R, origin: impl Into<String>) -> Self {
        ObfReader {
            reader,
            origin: origin.into(),
            line: 0,
            buf: Vec::new(),
        }
    }
}

impl<R: BufRead> Iterator for ObfReader<R> {
    type Item = Result<ObfRecord>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            self.buf.clear();
            self.line += 1;
            // Bounded: a file that is not text must not be read into memory as one line.
            let limit = OBF_MAX_LINE_BYTES as u64 + 1;
            match (&mut self.reader)
                .take(limit)
                .read_until(b'\n', &mut self.buf)
            {
                Ok(0) => return None,
                Ok(_) => {}
                Err(source) => {
                    return Some(Err(ReadError::Io {
                        path: self.origin.clone().into(),
                        source,
                    }));
                }
            }
            if self.buf.len() > OBF_MAX_LINE_BYTES && self.buf.last() != Some(&b'\n') {
                return Some(Err(ReadError::Obf {
                    origin: self.origin.clone(),
                    line: self.line,
                    error: ObfError::LineTooLong {
                        max: OBF_MAX_LINE_BYTES,
                    },
                }));
            }
            // Bytes that are not UTF-8 become U+FFFD, reported with their line and column.
            match parse_obf_line(&String::from_utf8_lossy(&self.buf)) {
                Ok(None) => continue,
                Ok(Some(mut r)) => {
                    r.line = self.line;
                    return Some(Ok(r));
                }
                Err(error) => {
                    return Some(Err(ReadError::Obf {
                        origin: self.origin.clone(),
                        line: self.line,
                        error,
                    }));
                }
            }
        }
    }
}

/// Reads every record of an OBF file; the first malformed line is an error.
pub fn read_obf_file(path: &Path) -> Result<Vec<ObfRecord>> {
    let file = std::fs::File::open(path).map_err(|source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let reader = std::io::BufReader::new(file);
    let records: Vec<ObfRecord> =
        ObfReader::new(reader, path.display().to_string()).collect::<Result<_>>()?;
    if records.is_empty() {
        return Err(ReadError::Empty(
            path.display().to_string(),
            "no positions in file",
        ));
    }
    Ok(records)
}

/// Plays a move sequence such as `f5d6c3d3c4` (spaces allowed) from the start position.
/// A side with no legal move passes automatically.
pub fn parse_moves(text: &str) -> std::result::Result<Position, MovesError> {
    let mut pos = Position::START;
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    for (k, pair) in chars.chunks(2).enumerate() {
        let index = k + 1;
        let found: String = pair.iter().collect();
        let sq = Square::parse(&found).ok_or_else(|| MovesError::NotASquare {
            index,
            found: found.clone(),
        })?;
        if pos.board.moves() == 0 {
            if pos.board.is_game_over() {
                return Err(MovesError::GameOver {
                    index,
                    mv: sq.to_string(),
                });
            }
            pos = pos.pass();
        }
        pos = pos.play(sq).ok_or(MovesError::Illegal {
            index,
            mv: sq.to_string(),
            side: match pos.side {
                Color::Black => "black",
                Color::White => "white",
            },
        })?;
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FFO1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6;";

    #[test]
    fn parses_ffo_line() {
        let r = parse_obf_line(FFO1).unwrap().unwrap();
        assert_eq!(r.position.side, Color::Black);
        assert_eq!(r.position.board.empty_count(), 14);
        assert_eq!(r.expected.len(), 3);
        assert_eq!(r.expected[0], (Square::parse("g8").unwrap(), 18));
        assert_eq!(r.expected_score(), Some(18));
        assert_eq!(r.position.squares_string(), FFO1[..64]);
    }

    #[test]
    fn skips_comments_and_blanks() {
        assert_eq!(parse_obf_line("   % just a comment").unwrap(), None);
        assert_eq!(parse_obf_line("").unwrap(), None);
        let alt = FFO1[..64]
            .replace('X', "x")
            .replace('O', "o")
            .replace('-', ".");
        let r = parse_obf_line(&format!("{alt} o % white to move"))
            .unwrap()
            .unwrap();
        assert_eq!(r.position.side, Color::White);
    }

    #[test]
    fn reports_columns() {
        let mut bad = FFO1.to_string();
        bad.replace_range(10..11, "Z");
        assert_eq!(
            parse_obf_line(&bad).unwrap_err(),
            ObfError::BadSquare {
                column: 11,
                ch: 'Z'
            }
        );
        assert_eq!(
            parse_obf_line(&FFO1[..63]).unwrap_err(),
            ObfError::BoardLength { found: 63 }
        );
        assert_eq!(
            parse_obf_line(&FFO1[..64]).unwrap_err(),
            ObfError::MissingSide { column: 65 }
        );
        assert!(matches!(
            parse_obf_line(&format!("{} Q", &FFO1[..64])).unwrap_err(),
            ObfError::BadSide { column: 66, .. }
        ));
        assert!(matches!(
            parse_obf_line(&format!("{} X; A1:+4;", &FFO1[..64])).unwrap_err(),
            ObfError::IllegalListedMove { column: 69, .. }
        ));
        assert!(matches!(
            parse_obf_line(&format!("{} X; G8:+99;", &FFO1[..64])).unwrap_err(),
            ObfError::ScoreRange { score: 99, .. }
        ));
        for typo in ["++18", "+-18", "+", "1 8", "18x"] {
            assert!(
                matches!(
                    parse_obf_line(&format!("{} X; G8:{typo};", &FFO1[..64])).unwrap_err(),
                    ObfError::BadPair { .. }
                ),
                "{typo}"
            );
        }
        assert!(matches!(
            parse_obf_line(&format!("{} X; G8+18;", &FFO1[..64])).unwrap_err(),
            ObfError::BadPair { .. }
        ));
    }

    /// A score alone (`; +12;`) is the expected score without a best move; it stands alone.
    #[test]
    fn a_score_alone() {
        let board = &FFO1[..64];
        for (text, score) in [("+18", 18), ("-4", -4), ("0", 0), ("+0", 0), ("64", 64)] {
            let r = parse_obf_line(&format!("{board} X; {text}; % theory"))
                .unwrap()
                .unwrap();
            assert_eq!((r.score, r.expected_score()), (Some(score), Some(score)));
            assert!(r.expected.is_empty() && r.expected_best_moves().is_empty());
        }
        let r = parse_obf_line(&format!("{board} X;-2")).unwrap().unwrap();
        assert_eq!(r.score, Some(-2));
        // A line of pairs has no score alone; its expected score is the best pair's.
        assert_eq!(parse_obf_line(FFO1).unwrap().unwrap().score, None);
        for (tail, column) in [
            ("; +18; +18;", 74),
            ("; G8:+18; +18;", 77),
            ("; +18; G8:+18;", 74),
        ] {
            assert_eq!(
                parse_obf_line(&format!("{board} X{tail}")).unwrap_err(),
                ObfError::ExtraScore { column },
                "{tail}"
            );
        }
        assert!(matches!(
            parse_obf_line(&format!("{board} X; -65;")).unwrap_err(),
            ObfError::ScoreRange {
                score: -65,
                column: 69
            }
        ));
        for typo in ["++18", "+", "1 8", "18x", "G8"] {
            assert!(
                matches!(
                    parse_obf_line(&format!("{board} X; {typo};")).unwrap_err(),
                    ObfError::BadPair { column: 69, .. }
                ),
                "{typo}"
            );
        }
    }

    /// A window field (`; window -3,3;`) beside the values or alone; one per line, two
    /// scores in order.
    #[test]
    fn a_window_field() {
        let board = &FFO1[..64];
        for (tail, window, score) in [
            ("; window -3,3;", (-3, 3), None),
            (";window +1,+9", (1, 9), None),
            ("; +18; window  17 , 19 ;", (17, 19), Some(18)),
            ("; window -64,64; +0;", (-64, 64), Some(0)),
        ] {
            let r = parse_obf_line(&format!("{board} X{tail}"))
                .unwrap()
                .unwrap();
            assert_eq!((r.window, r.score), (Some(window), score), "{tail}");
        }
        let r = parse_obf_line(&format!("{} ; window 0,1;", FFO1.trim_end_matches(';')))
            .unwrap()
            .unwrap();
        assert_eq!((r.window, r.expected.len()), (Some((0, 1)), 3));
        assert_eq!(parse_obf_line(FFO1).unwrap().unwrap().window, None);
        let bads = "window 3,3|window 4,-2|window -65,0|window 0,65|window 1|window a,b|window";
        for bad in bads.split('|').chain(["windows 1,2", "window1,2"]) {
            assert!(
                matches!(
                    parse_obf_line(&format!("{board} X; {bad};")).unwrap_err(),
                    ObfError::BadWindow { column: 69, .. }
                ),
                "{bad}"
            );
        }
        assert_eq!(
            parse_obf_line(&format!("{board} X; window 1,2; window 1,2;")).unwrap_err(),
            ObfError::ExtraWindow { column: 81 }
        );
    }

    #[test]
    fn move_sequences() {
        let p = parse_moves("f5d6c3d3c4").unwrap();
        assert_eq!(p.side, Color::White);
        assert_eq!(p.board.empty_count(), 55);
        assert_eq!(
            parse_moves("f5d6z9").unwrap_err(),
            MovesError::NotASquare {
                index: 3,
                found: "z9".into()
            }
        );
        assert!(matches!(
            parse_moves("f5a1").unwrap_err(),
            MovesError::Illegal { index: 2, .. }
        ));
    }
}
