//! OBF lines: `parse_obf_line`, `parse_position` and `ObfReader` on arbitrary bytes.
//!
//! Never a panic; on success the position must be the board the text spells (checked
//! here by an independent reading of the 64 squares), must print back to text that parses
//! to the same position and moves, and every error must point inside the line.

#![no_main]

use finale::board::{Color, ObfReader, ObfRecord, parse_obf_line, parse_position};
use finale::error::ObfError;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    check_line(&text);
    if let Ok(text) = std::str::from_utf8(data) {
        check_reader(text);
    }
});

fn check_line(text: &str) {
    let parsed = parse_obf_line(text);
    let as_position = parse_position(text, "fuzz");
    match parsed {
        Ok(Some(record)) => {
            check_record(text, &record);
            let p = as_position.expect("parse_position refuses what parse_obf_line accepts");
            assert_eq!(p.position, record.position);
            assert_eq!(p.expected, record.expected);
            assert_eq!(p.score, record.score);
            assert_eq!(p.line, 1);
        }
        Ok(None) => {
            // Only blank and comment-only lines give no record.
            let content = text.split('%').next().unwrap_or("");
            assert!(
                content.bytes().all(|b| b.is_ascii_whitespace()),
                "no record for {text:?}"
            );
            assert!(as_position.is_err());
        }
        Err(error) => {
            check_error(text, &error);
            let message = as_position
                .expect_err("parse_position accepts what parse_obf_line refuses")
                .to_string();
            assert!(message.starts_with("fuzz:1: "), "{message}");
        }
    }
}

fn check_record(text: &str, record: &ObfRecord) {
    let pos = record.position;
    let (black, white) = pos.black_white();
    assert_eq!(
        black & white,
        0,
        "a square both black and white in {text:?}"
    );

    // Independent reading: the first 64 characters of the first field, the next field the side.
    let content = text.split('%').next().unwrap_or("");
    let mut fields = content
        .split(|c: char| c.is_ascii_whitespace() || c == ';')
        .filter(|f| !f.is_empty());
    let squares: String = fields
        .next()
        .expect("a board field")
        .chars()
        .map(|c| match c {
            'X' | 'x' | '*' => 'X',
            'O' | 'o' => 'O',
            '-' | '.' => '-',
            other => panic!("accepted square character {other:?} in {text:?}"),
        })
        .collect();
    assert_eq!(squares, pos.squares_string(), "board of {text:?}");
    let side = match fields.next().expect("a side field") {
        "X" | "x" | "*" | "B" | "b" => Color::Black,
        "O" | "o" | "W" | "w" => Color::White,
        other => panic!("accepted side {other:?} in {text:?}"),
    };
    assert_eq!(side, pos.side, "side of {text:?}");

    for (i, &(mv, score)) in record.expected.iter().enumerate() {
        assert!(
            pos.board.is_legal(mv),
            "illegal listed move {mv} in {text:?}"
        );
        assert!((-64..=64).contains(&score), "score {score} in {text:?}");
        assert!(
            record.expected[..i].iter().all(|&(m, _)| m != mv),
            "{mv} listed twice in {text:?}"
        );
    }

    // Printed back, with and without its moves, it parses to the same record.
    let printed = pos.to_string();
    let back = parse_obf_line(&printed)
        .unwrap_or_else(|e| panic!("{printed:?} does not parse back: {e}"))
        .expect("a record");
    assert_eq!(back.position, pos, "{printed:?} from {text:?}");
    assert!(back.expected.is_empty() && back.score.is_none());
    // A score alone is the line's only value, never beside pairs.
    assert!(record.score.is_none() || record.expected.is_empty(), "{text:?}");
    if let Some(score) = record.score {
        assert!((-64..=64).contains(&score), "score {score} in {text:?}");
    }
    let pairs: String = match record.score {
        Some(score) => format!(" {score:+};"),
        None => record
            .expected
            .iter()
            .map(|(m, s)| format!(" {m}:{s:+};"))
            .collect(),
    };
    let full = format!("{printed};{pairs}");
    let back = parse_obf_line(&full)
        .unwrap_or_else(|e| panic!("{full:?} does not parse back: {e}"))
        .expect("a record");
    assert_eq!(back.position, pos, "{full:?}");
    assert_eq!(back.expected, record.expected, "{full:?}");
    assert_eq!(back.score, record.score, "{full:?}");
}

fn check_error(text: &str, error: &ObfError) {
    let message = error.to_string();
    assert!(!message.is_empty());
    assert!(
        !message.contains('\n') || text.contains('\n'),
        "{message:?}"
    );
    let column = match error {
        ObfError::BoardLength { found } => {
            assert_ne!(*found, 64);
            assert!(*found <= text.chars().count());
            return;
        }
        ObfError::BadSquare { column, ch } => {
            assert_eq!(
                text.chars().nth(column - 1),
                Some(*ch),
                "{message} in {text:?}"
            );
            assert!(!"XxOo*-.".contains(*ch));
            *column
        }
        ObfError::MissingSide { column } => *column,
        // The reader's checks of raw bytes (not text, too long): their column counts bytes.
        ObfError::NotText { .. } | ObfError::LineTooLong { .. } => return,
        ObfError::BadSide { column, .. }
        | ObfError::Trailing { column, .. }
        | ObfError::BadPair { column, .. }
        | ObfError::IllegalListedMove { column, .. }
        | ObfError::ScoreRange { column, .. }
        | ObfError::ExtraScore { column }
        | ObfError::DuplicateMove { column, .. } => {
            assert!(*column <= text.chars().count(), "{message} in {text:?}");
            *column
        }
    };
    assert!(column >= 1, "{message}");
    assert!(column <= text.chars().count() + 1, "{message} in {text:?}");
    assert!(
        message.starts_with(&format!("column {column}: ")),
        "{message}"
    );
}

/// Multi-line text through the streaming reader: each record is the one its line gives.
fn check_reader(text: &str) {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut last = 0;
    for item in ObfReader::new(text.as_bytes(), "fuzz") {
        match item {
            Ok(record) => {
                assert!(record.line > last && record.line <= lines.len());
                last = record.line;
                let alone = parse_obf_line(lines[record.line - 1])
                    .expect("the line parses alone")
                    .expect("a record");
                assert_eq!(alone.position, record.position);
                assert_eq!(alone.expected, record.expected);
                assert_eq!(alone.score, record.score);
            }
            Err(error) => {
                let message = error.to_string();
                assert!(message.starts_with("fuzz:"), "{message}");
                break;
            }
        }
    }
}
