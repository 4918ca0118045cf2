//! The weight files of `--eval FILE`: `WeightFile::from_bytes` and `Evaluator::from_bytes`
//! on arbitrary bytes.
//!
//! Each input is tried twice: as it is, and with its last four bytes replaced by the
//! checksum of the rest, since the checksum alone stops almost every mutation before the
//! checks behind it.
//!
//! Never a panic; every refusal is one line naming the file. An accepted file holds
//! exactly phases x weights per phase weights and gives the checksum it stores; writing
//! it out again gives bytes that read back to the same value, unless it is a version 1
//! file whose weights differ from their mirror image's (version 2 stores one weight for
//! both, and refuses). The evaluator accepts it exactly when it is this build's pattern
//! set and shape, and then evaluates any board.

#![no_main]

use finale::board::Board;
use finale::eval::Evaluator;
use finale::eval::pattern::{PATTERN_SET, PER_PHASE, PHASES};
use finale::eval::weights_file::{WeightFile, WeightFileError};
use libfuzzer_sys::fuzz_target;

const ORIGIN: &str = "fuzz/eval.bin";

fn check(bytes: &[u8]) {
    let (file, checksum) = match WeightFile::from_bytes(bytes, ORIGIN) {
        Ok(read) => read,
        Err(e) => {
            let message = e.to_string();
            assert!(message.starts_with("fuzz/eval.bin: "), "{message}");
            assert!(!message.contains('\n'), "{message}");
            return;
        }
    };
    assert_eq!(
        file.weights.len() as u64,
        u64::from(file.phases) * u64::from(file.per_phase)
    );
    assert_eq!(bytes[bytes.len() - 4..], checksum.to_le_bytes());
    match file.to_bytes(ORIGIN) {
        Ok(written) => {
            let (back, written_checksum) =
                WeightFile::from_bytes(&written, ORIGIN).expect("its own bytes read back");
            assert!(back == file, "written and read back, the weights changed");
            assert_eq!(
                back.to_bytes(ORIGIN).expect("written again"),
                written,
                "writing is deterministic"
            );
            assert_eq!(written[written.len() - 4..], written_checksum.to_le_bytes());
        }
        Err(WeightFileError::Untied { .. }) => {
            assert_eq!(bytes[8..12], 1u32.to_le_bytes(), "a version 2 file untied");
        }
        Err(e) => panic!("an accepted file not written: {e}"),
    }

    let fits = file.pattern_set == PATTERN_SET
        && file.phases as usize == PHASES
        && file.per_phase as usize == PER_PHASE;
    match Evaluator::from_bytes(bytes, ORIGIN) {
        Ok(eval) => {
            assert!(fits, "an evaluator from weights of another shape");
            assert_eq!(eval.checksum(), checksum);
            // Boards of every phase: the start and boards made from the input's bytes.
            let mut boards = vec![Board::START, Board::START.pass()];
            for chunk in bytes.chunks_exact(16).take(8) {
                let a = u64::from_le_bytes(chunk[..8].try_into().unwrap());
                let b = u64::from_le_bytes(chunk[8..].try_into().unwrap());
                boards.push(Board::new(a & !b, b & !a));
            }
            for b in boards {
                let _ = eval.evaluate(&b);
            }
        }
        Err(e) => {
            assert!(!fits, "weights of this build's shape refused: {e}");
            let message = e.to_string();
            assert!(message.starts_with("fuzz/eval.bin: "), "{message}");
            assert!(!message.contains('\n'), "{message}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    check(data);
    if let Some(body) = data.len().checked_sub(4).map(|n| &data[..n]) {
        let mut sealed = body.to_vec();
        sealed.extend_from_slice(&crc32fast::hash(body).to_le_bytes());
        check(&sealed);
    }
});
