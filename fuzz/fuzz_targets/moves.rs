//! Move sequences: `parse_moves` on arbitrary bytes.
//!
//! Never a panic. A sequence that parses played one disc per square named, so the board
//! holds 4 + that many discs, none of them both black and white, and its compact
//! lower-case form parses to the same position. An error names a move that exists, and
//! every move before it must parse.

#![no_main]

use finale::board::parse_moves;
use finale::error::MovesError;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    match parse_moves(&text) {
        Ok(pos) => {
            let (black, white) = pos.black_white();
            assert_eq!(black & white, 0, "{text:?}");
            assert_eq!(
                chars.len() % 2,
                0,
                "odd number of characters accepted: {text:?}"
            );
            let played = chars.len() / 2;
            assert_eq!(
                (black | white).count_ones() as usize,
                4 + played,
                "{text:?}"
            );
            // The centre squares are never emptied.
            assert_eq!(
                (black | white) & 0x0000_0018_1800_0000,
                0x0000_0018_1800_0000
            );
            let compact: String = chars.iter().collect::<String>().to_ascii_lowercase();
            assert_eq!(parse_moves(&compact), Ok(pos), "{text:?} vs {compact:?}");
        }
        Err(error) => {
            let (index, shown) = match &error {
                MovesError::NotASquare { index, found } => {
                    let chunk: String = chars.chunks(2).nth(index - 1).unwrap().iter().collect();
                    assert_eq!(&chunk, found);
                    (*index, None)
                }
                MovesError::Illegal { index, mv, .. } | MovesError::GameOver { index, mv } => {
                    (*index, Some(mv.clone()))
                }
            };
            assert!(
                index >= 1 && index <= chars.len().div_ceil(2),
                "{error} for {text:?}"
            );
            if let Some(mv) = shown {
                let chunk: String = chars[2 * (index - 1)..2 * index].iter().collect();
                assert_eq!(chunk.to_ascii_uppercase(), mv, "{error} for {text:?}");
            }
            let before: String = chars[..2 * (index - 1)].iter().collect();
            assert!(parse_moves(&before).is_ok(), "{before:?} before {error}");
            let message = error.to_string();
            assert!(message.starts_with(&format!("move {index} ")), "{message}");
        }
    }
});
