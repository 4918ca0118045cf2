//! Reading version 1 of the weight file, so that weights trained before version 2 still
//! load (training takes hours); nothing writes it any more.
//!
//! Version 1 is version 2's layout with every weight stored, mirror images included, and
//! a 4-byte payload encoding before the payload length: 0, raw `i16`s; 1, zero runs, a
//! sequence of `i16` records where any value but `i16::MIN` is one weight and `i16::MIN`
//! followed by a `u32` count *n* (never 0) is *n* zeros.

use super::WeightFileError;
use super::payload::weights_of_bytes;

const ENCODING_RAW: u32 = 0;
const ENCODING_ZERO_RUNS: u32 = 1;
const RUN_MARKER: i16 = i16::MIN;

/// The `expected` weights of a version 1 payload written with `encoding`.
pub(super) fn decode(
    encoding: u32,
    payload: &[u8],
    expected: usize,
    origin: &str,
) -> Result<Vec<i16>, WeightFileError> {
    match encoding {
        ENCODING_RAW => weights_of_bytes(payload, expected, origin),
        ENCODING_ZERO_RUNS => decode_zero_runs(payload, expected, origin),
        found => Err(WeightFileError::UnknownEncoding {
            origin: origin.to_owned(),
            found,
        }),
    }
}

/// One record of the zero-run encoding.
enum Record {
    Weight(i16),
    Zeros(u32),
}

/// Iterates over the records, stopping at the first malformed one.
fn records(mut rest: &[u8]) -> impl Iterator<Item = Result<Record, &'static str>> + '_ {
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let Some((value, tail)) = rest.split_first_chunk::<2>() else {
            rest = &[];
            return Some(Err("payload ends inside a weight"));
        };
        let value = i16::from_le_bytes(*value);
        if value != RUN_MARKER {
            rest = tail;
            return Some(Ok(Record::Weight(value)));
        }
        let Some((count, tail)) = tail.split_first_chunk::<4>() else {
            rest = &[];
            return Some(Err("payload ends inside a zero-run count"));
        };
        rest = tail;
        match u32::from_le_bytes(*count) {
            0 => Some(Err("zero run of length 0")),
            n => Some(Ok(Record::Zeros(n))),
        }
    })
}

fn decode_zero_runs(
    payload: &[u8],
    expected: usize,
    origin: &str,
) -> Result<Vec<i16>, WeightFileError> {
    let malformed = |detail| WeightFileError::MalformedPayload {
        origin: origin.to_owned(),
        detail,
    };
    // Count first: a few bytes of runs can claim billions of zeros, and nothing
    // is allocated until the count is known to match the bounded header.
    let mut decoded: u64 = 0;
    for record in records(payload) {
        decoded = decoded.saturating_add(match record.map_err(malformed)? {
            Record::Weight(_) => 1,
            Record::Zeros(n) => u64::from(n),
        });
    }
    if decoded != expected as u64 {
        return Err(WeightFileError::WeightCount {
            origin: origin.to_owned(),
            decoded,
            expected: expected as u64,
        });
    }
    let mut weights = Vec::with_capacity(expected);
    for record in records(payload) {
        match record.map_err(malformed)? {
            Record::Weight(w) => weights.push(w),
            Record::Zeros(n) => weights.resize(weights.len() + n as usize, 0),
        }
    }
    Ok(weights)
}
