//! The payload: the stored weights as little-endian `i16`s in raw deflate, at a fixed
//! level so that equal weights give equal bytes.

use super::WeightFileError;
use flate2::Compression;
use std::io::{Read, Write};

/// Part of the bytes written: another level gives other (equally readable) files.
pub(super) const DEFLATE_LEVEL: u32 = 9;

/// The deflated bytes of `stored`; `origin` names the value in errors.
pub(super) fn deflate(stored: &[i16], origin: &str) -> Result<Vec<u8>, WeightFileError> {
    let raw: Vec<u8> = stored.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut deflate =
        flate2::write::DeflateEncoder::new(Vec::new(), Compression::new(DEFLATE_LEVEL));
    // Writing to memory fails only if memory runs out, which aborts anyway.
    deflate
        .write_all(&raw)
        .and_then(|()| deflate.finish())
        .map_err(|source| WeightFileError::Io {
            origin: origin.to_owned(),
            action: "cannot compress the weights".to_owned(),
            source,
        })
}

/// The bytes of a deflate stream that holds exactly `weights` weights; reads no
/// more than that (plus one byte), however much the stream claims.
pub(super) fn inflate(
    payload: &[u8],
    weights: usize,
    origin: &str,
) -> Result<Vec<u8>, WeightFileError> {
    let malformed = |detail| WeightFileError::MalformedPayload {
        origin: origin.to_owned(),
        detail,
    };
    let limit = 2 * weights as u64;
    let mut stream = flate2::bufread::DeflateDecoder::new(payload);
    let mut raw = Vec::new();
    (&mut stream)
        .take(limit + 1)
        .read_to_end(&mut raw)
        .map_err(|_| malformed("not a deflate stream, or one cut short"))?;
    if raw.len() as u64 > limit {
        return Err(malformed(
            "deflate stream holds more weights than the header gives",
        ));
    }
    // What follows the stream could hide anything; a file has one way to be written.
    if stream.total_in() != payload.len() as u64 {
        return Err(malformed("bytes after the end of the deflate stream"));
    }
    Ok(raw)
}

/// The `expected` little-endian `i16`s of `bytes`, which must hold that many.
pub(super) fn weights_of_bytes(
    bytes: &[u8],
    expected: usize,
    origin: &str,
) -> Result<Vec<i16>, WeightFileError> {
    if !bytes.len().is_multiple_of(2) {
        return Err(WeightFileError::MalformedPayload {
            origin: origin.to_owned(),
            detail: "weights end inside a weight (odd number of bytes)",
        });
    }
    let decoded = bytes.len() / 2;
    if decoded != expected {
        return Err(WeightFileError::WeightCount {
            origin: origin.to_owned(),
            decoded: decoded as u64,
            expected: expected as u64,
        });
    }
    Ok(bytes
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect())
}
