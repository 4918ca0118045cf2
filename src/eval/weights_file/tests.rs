//! Tests of the weight file: layouts built by hand, naive expansion, every corruption.

use super::layout::{FIXED_BYTES, MAGIC};
use super::*;
use crate::eval::mobility::{MOBILITY_SET, PER_PHASE_MOBILITY, canonical_indices_with_mobility};
use crate::eval::pattern::{PATTERN_SET, PER_PHASE, canonical_indices};
use flate2::Compression;
use proptest::prelude::*;
use std::ffi::OsString;
use std::fs;

const ORIGIN: &str = "weights/eval.bin";

/// Small deterministic generator, so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn weights(&mut self, n: usize, zero_percent: u64) -> Vec<i16> {
        (0..n)
            .map(|_| {
                if self.next() % 100 < zero_percent {
                    0
                } else {
                    (self.next() % 2001) as i16 - 1000
                }
            })
            .collect()
    }
}

/// A pattern set of this module's tests: 8 weights a phase, of which indices 2, 5
/// and 7 are the mirror images of 1, 3 and 0.
const TEST_SET: u32 = 0x7e57_0008;
const TEST_TIES: [u32; 8] = [0, 1, 1, 3, 4, 3, 6, 0];
/// The indices of a phase of the test set that the file stores.
const TEST_KEPT: [usize; 5] = [0, 1, 3, 4, 6];

/// The build's ties, and those of the test set.
fn test_ties(pattern_set: u32, per_phase: u32) -> Option<&'static [u32]> {
    if (pattern_set, per_phase) == (TEST_SET, 8) {
        return Some(&TEST_TIES);
    }
    build_ties(pattern_set, per_phase)
}

fn encode(file: &WeightFile) -> Result<Vec<u8>, WeightFileError> {
    file.encode(ORIGIN, test_ties).map(|(bytes, _)| bytes)
}

fn decode(bytes: &[u8]) -> Result<WeightFile, WeightFileError> {
    WeightFile::decode(bytes, ORIGIN, test_ties).map(|(file, _)| file)
}

/// Weights stored whole: a pattern set no ties are known of.
fn sample(phases: u32, per_phase: u32, zero_percent: u64, seed: u64) -> WeightFile {
    WeightFile {
        pattern_set: 0x5eed_0001,
        phases,
        per_phase,
        meta: format!("test sample: seed {seed}, {zero_percent}% zeros, é"),
        weights: Rng(seed).weights((phases * per_phase) as usize, zero_percent),
    }
}

/// Weights of `pattern_set`, whose ties are `ties`, that mirror images share.
fn tied(pattern_set: u32, ties: &[u32], phases: u32, zero_percent: u64, seed: u64) -> WeightFile {
    let per_phase = ties.len();
    let mut weights = Rng(seed).weights(phases as usize * per_phase, zero_percent);
    for p in 0..phases as usize {
        for i in 0..per_phase {
            weights[p * per_phase + i] = weights[p * per_phase + ties[i] as usize];
        }
    }
    WeightFile {
        pattern_set,
        phases,
        per_phase: per_phase as u32,
        meta: format!("tied sample: seed {seed}"),
        weights,
    }
}

fn test_sample(phases: u32, zero_percent: u64, seed: u64) -> WeightFile {
    tied(TEST_SET, &TEST_TIES, phases, zero_percent, seed)
}

fn le(weights: &[i16]) -> Vec<u8> {
    weights.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Deflate by the crate's defaults, not the writer's level: any stream reads.
fn deflate(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::DeflateEncoder::new(Vec::new(), Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn inflate_all(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::DeflateDecoder::new(payload)
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// The meta and payload of a well-formed version 2 file, found by the layout.
fn sections(bytes: &[u8]) -> (&[u8], &[u8]) {
    let meta_len = u32::from_le_bytes(bytes[24..28].try_into().unwrap()) as usize;
    let at = 28 + meta_len;
    let payload_len = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
    (&bytes[28..at], &bytes[at + 8..at + 8 + payload_len])
}

/// Appends the checksum of everything in `body`.
fn reseal(mut body: Vec<u8>) -> Vec<u8> {
    let crc = crc32fast::hash(&body);
    body.extend_from_slice(&crc.to_le_bytes());
    body
}

/// A version 2 file around `payload`, for files that pass every structural check
/// and must be refused on content.
fn sealed(pattern_set: u32, phases: u32, per_phase: u32, meta: &[u8], payload: &[u8]) -> Vec<u8> {
    let mut out = b"FINALEWT".to_vec();
    for field in [2, pattern_set, phases, per_phase, meta.len() as u32] {
        out.extend_from_slice(&field.to_le_bytes());
    }
    out.extend_from_slice(meta);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(payload);
    reseal(out)
}

/// A version 1 file, as version 1 builds wrote them.
fn sealed_v1(
    pattern_set: u32,
    phases: u32,
    per_phase: u32,
    meta: &[u8],
    encoding: u32,
    payload: &[u8],
) -> Vec<u8> {
    let mut out = b"FINALEWT".to_vec();
    for field in [1, pattern_set, phases, per_phase, meta.len() as u32] {
        out.extend_from_slice(&field.to_le_bytes());
    }
    out.extend_from_slice(meta);
    out.extend_from_slice(&encoding.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(payload);
    reseal(out)
}

fn run(n: u32) -> Vec<u8> {
    let mut out = i16::MIN.to_le_bytes().to_vec();
    out.extend_from_slice(&n.to_le_bytes());
    out
}

/// The version 1 zero-run encoding of `weights` as version 1 builds wrote it: runs of
/// 4 zeros or more as one record, shorter ones as weights.
fn zero_runs(weights: &[i16]) -> Vec<u8> {
    let mut out = Vec::new();
    for group in weights.chunk_by(|a, b| (*a == 0) == (*b == 0)) {
        if group[0] == 0 && group.len() >= 4 {
            out.extend(run(group.len() as u32));
        } else {
            out.extend(le(group));
        }
    }
    out
}

/// The whole table of `phases` from the weights of `kept` indices of each (in
/// order), looking each index's weight up by its tie.
fn naive_expand(stored: &[i16], ties: &[u32], kept: &[usize], phases: usize) -> Vec<i16> {
    let mut out = Vec::new();
    for p in 0..phases {
        for &t in ties {
            let at = kept.binary_search(&(t as usize)).unwrap();
            out.push(stored[p * kept.len() + at]);
        }
    }
    out
}

/// The names of the files in `dir`.
fn names(dir: &Path) -> Vec<OsString> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect()
}

/// Checks `file` written as bytes and read back, and that its payload holds
/// exactly `stored`.
fn round_trip(file: &WeightFile, stored: &[i16]) {
    let bytes = encode(file).unwrap();
    let (meta, payload) = sections(&bytes);
    assert_eq!(meta, file.meta.as_bytes());
    assert_eq!(inflate_all(payload), le(stored));
    assert_eq!(bytes.len(), FIXED_BYTES + meta.len() + payload.len());
    let (back, checksum) = WeightFile::decode(&bytes, ORIGIN, test_ties).unwrap();
    assert!(back == *file, "bytes round trip changed the contents");
    assert_eq!(checksum, crc32fast::hash(&bytes[..bytes.len() - 4]));
    assert_eq!(bytes[bytes.len() - 4..], checksum.to_le_bytes());
}

#[test]
fn whole_weights_round_trip() {
    for (zeros, seed) in [(0, 1), (70, 2), (100, 3)] {
        let file = sample(3, 1000, zeros, seed);
        round_trip(&file, &file.weights);
    }
    let mut extremes = sample(2, 10, 0, 4);
    extremes.weights[3] = i16::MIN;
    extremes.weights[4] = i16::MAX;
    round_trip(&extremes, &extremes.weights);
    let empty = WeightFile {
        pattern_set: 0,
        phases: 0,
        per_phase: 0,
        meta: String::new(),
        weights: Vec::new(),
    };
    round_trip(&empty, &[]);
}

#[test]
fn tied_weights_are_stored_once() {
    for (phases, zeros, seed) in [(1, 0, 5), (3, 50, 6), (0, 0, 7)] {
        let file = test_sample(phases, zeros, seed);
        let stored: Vec<i16> = file
            .weights
            .chunks(8)
            .flat_map(|w| TEST_KEPT.map(|k| w[k]))
            .collect();
        round_trip(&file, &stored);
    }
}

#[test]
fn the_layout_is_the_documented_one() {
    let file = test_sample(2, 0, 8);
    let bytes = encode(&file).unwrap();
    let mut header = b"FINALEWT".to_vec();
    for field in [2, TEST_SET, 2, 8, file.meta.len() as u32] {
        header.extend_from_slice(&field.to_le_bytes());
    }
    header.extend_from_slice(file.meta.as_bytes());
    assert_eq!(bytes[..header.len()], header);
    // The payload length and the payload; the checksum ends the file.
    let payload_len = bytes.len() - header.len() - 8 - 4;
    assert_eq!(
        bytes[header.len()..header.len() + 8],
        (payload_len as u64).to_le_bytes()
    );
}

#[test]
fn stored_weights_expand_to_their_mirror_images() {
    let stored: Vec<i16> = (1..=10).collect();
    let bytes = sealed(TEST_SET, 2, 8, b"", &deflate(&le(&stored)));
    let file = decode(&bytes).unwrap();
    assert_eq!(
        file.weights,
        naive_expand(&stored, &TEST_TIES, &TEST_KEPT, 2)
    );
    assert_eq!(
        file.weights,
        [1, 2, 2, 3, 4, 3, 5, 1, 6, 7, 7, 8, 9, 8, 10, 6]
    );
}

#[test]
fn this_builds_pattern_set_is_stored_reduced() {
    let canon = canonical_indices();
    let kept: Vec<usize> = (0..PER_PHASE).filter(|&i| canon[i] as usize == i).collect();
    assert!(kept.len() < PER_PHASE * 7 / 10, "{} kept", kept.len());
    let file = tied(PATTERN_SET, &canon, 2, 60, 9);
    // Through the public functions, with the build's ties.
    let bytes = file.to_bytes(ORIGIN).unwrap();
    let stored: Vec<i16> = (0..2)
        .flat_map(|p| kept.iter().map(move |&k| p * PER_PHASE + k))
        .map(|i| file.weights[i])
        .collect();
    assert_eq!(inflate_all(sections(&bytes).1), le(&stored));
    let (back, _) = WeightFile::from_bytes(&bytes, ORIGIN).unwrap();
    assert!(back == file);
    assert!(naive_expand(&stored, &canon, &kept, 2) == file.weights);
}

#[test]
fn weights_unlike_their_mirror_image_are_refused() {
    let mut file = test_sample(2, 0, 10);
    file.weights[8 + 5] = file.weights[8 + 3] + 1;
    let err = encode(&file).unwrap_err();
    assert!(
        matches!(
            err,
            WeightFileError::Untied {
                phase: 1,
                index: 5,
                mirror: 3,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        format!(
            "weights/eval.bin: not saved: phase 1 has weight {} at index 5 but {} at its mirror image 3",
            file.weights[13], file.weights[11]
        )
    );

    // This build's pattern set, saved: nothing is written.
    let canon = canonical_indices();
    let mut file = tied(PATTERN_SET, &canon, 1, 0, 11);
    let i = (0..PER_PHASE).find(|&i| canon[i] as usize != i).unwrap();
    file.weights[i] = file.weights[i].wrapping_add(1);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("eval.bin");
    let err = file.save(&path).unwrap_err();
    assert!(matches!(err, WeightFileError::Untied { .. }), "{err:?}");
    assert!(
        err.to_string()
            .starts_with(&format!("{}: not saved: ", path.display()))
    );
    assert!(!path.exists());
    assert!(names(dir.path()).is_empty());
}

#[test]
fn the_shipped_file_is_this_versions_and_expands_by_the_ties() {
    let bytes = fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/weights/eval.bin")).unwrap();
    assert_eq!(bytes[8..12], 2u32.to_le_bytes());
    let (file, checksum) = WeightFile::from_bytes(&bytes, ORIGIN).unwrap();
    assert_eq!(bytes[bytes.len() - 4..], checksum.to_le_bytes());
    // The mobility weights (2026-11-27): patterns and mobility tables.
    assert_eq!(
        (file.pattern_set, file.per_phase as usize),
        (MOBILITY_SET, PER_PHASE_MOBILITY)
    );
    assert!(file.meta.contains("--mobility"), "meta: {}", file.meta);
    let canon = canonical_indices_with_mobility();
    let kept: Vec<usize> = (0..PER_PHASE_MOBILITY)
        .filter(|&i| canon[i] as usize == i)
        .collect();
    let stored: Vec<i16> = inflate_all(sections(&bytes).1)
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    assert!(naive_expand(&stored, &canon, &kept, file.phases as usize) == file.weights);
    // What this build writes for the same weights, byte for byte (else training
    // could no longer reproduce the file).
    assert!(file.to_bytes(ORIGIN).unwrap() == bytes);
}

#[test]
fn checksum_is_the_stored_crc_and_tracks_the_weights() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("eval.bin");
    let mut file = sample(2, 100, 50, 12);
    let saved = file.save(&path).unwrap();
    let bytes = fs::read(&path).unwrap();
    assert_eq!(saved, crc32fast::hash(&bytes[..bytes.len() - 4]));
    assert_eq!(WeightFile::load(&path).unwrap().1, saved);
    file.weights[7] = file.weights[7].wrapping_add(1);
    assert_ne!(file.save(&path).unwrap(), saved);
}

/// Small files of every kind: weights stored whole, tied ones, version 1 files of
/// both encodings.
fn small_files() -> Vec<Vec<u8>> {
    let whole = sample(2, 12, 60, 13);
    vec![
        encode(&whole).unwrap(),
        encode(&sample(2, 12, 0, 14)).unwrap(),
        encode(&test_sample(2, 30, 15)).unwrap(),
        sealed_v1(7, 2, 12, b"v1", 0, &le(&whole.weights)),
        sealed_v1(7, 2, 12, b"v1", 1, &zero_runs(&whole.weights)),
    ]
}

#[test]
fn every_bit_flip_is_rejected() {
    for bytes in small_files() {
        assert!(decode(&bytes).is_ok());
        for pos in 0..bytes.len() {
            for bit in 0..8 {
                let mut bad = bytes.clone();
                bad[pos] ^= 1 << bit;
                let result = decode(&bad);
                assert!(
                    result.is_err(),
                    "flip of bit {bit} at byte {pos} accepted: {result:?}"
                );
            }
        }
    }
}

#[test]
fn every_truncation_is_rejected() {
    for bytes in small_files() {
        for len in 0..bytes.len() {
            match decode(&bytes[..len]) {
                Err(WeightFileError::TruncatedField { len: l, .. }) => assert_eq!(l, len),
                Err(WeightFileError::Truncated { .. }) => {}
                other => panic!("cut to {len} bytes: {other:?}"),
            }
        }
    }
}

#[test]
fn truncated_payload_message() {
    let bytes = encode(&sample(1, 10, 0, 16)).unwrap();
    let payload = sections(&bytes).1.len();
    // The checksum and 10 payload bytes gone.
    let cut = &bytes[..bytes.len() - 4 - 10];
    let err = decode(cut).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "weights/eval.bin: truncated: header says {payload} payload bytes, file has {}",
            payload - 10
        )
    );
}

#[test]
fn wrong_magic() {
    let mut bytes = encode(&sample(1, 10, 0, 17)).unwrap();
    bytes[..8].copy_from_slice(b"PK\x03\x04zip!");
    let err = decode(&bytes).unwrap_err();
    assert!(matches!(err, WeightFileError::BadMagic { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "weights/eval.bin: not a finale weight file (bad magic)"
    );
    // Short and not a prefix of the magic: another kind of file, not a cut one.
    let err = decode(b"{}\n").unwrap_err();
    assert!(matches!(err, WeightFileError::BadMagic { .. }), "{err:?}");
}

#[test]
fn future_and_past_versions() {
    for version in [0, 3, 7] {
        let mut bytes = encode(&sample(1, 10, 0, 18)).unwrap();
        bytes[8..12].copy_from_slice(&u32::to_le_bytes(version));
        // Another layout may differ entirely; the checksum is not even looked at.
        let err = decode(&bytes).unwrap_err();
        assert!(
            matches!(err, WeightFileError::UnsupportedVersion { found, .. } if found == version),
            "{err:?}"
        );
        assert_eq!(
            err.to_string(),
            format!("weights/eval.bin: format version {version}, this build reads 1 and 2")
        );
    }
}

#[test]
fn trailing_bytes() {
    let mut bytes = encode(&sample(1, 10, 0, 19)).unwrap();
    bytes.extend_from_slice(b"abc");
    let err = decode(&bytes).unwrap_err();
    assert!(
        matches!(err, WeightFileError::TrailingBytes { count: 3, .. }),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "weights/eval.bin: 3 trailing bytes after the checksum"
    );
}

#[test]
fn checksum_mismatch() {
    let mut bytes = encode(&sample(1, 10, 0, 20)).unwrap();
    bytes[40] ^= 0x10;
    let err = decode(&bytes).unwrap_err();
    assert!(
        matches!(err, WeightFileError::ChecksumMismatch { .. }),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .starts_with("weights/eval.bin: checksum mismatch (file corrupt)"),
        "{err}"
    );
}

#[test]
fn version_1_files_read_as_they_were_written() {
    for (zeros, seed) in [(0, 21), (70, 22), (100, 23)] {
        let whole = sample(3, 50, zeros, seed);
        for (encoding, payload) in [(0, le(&whole.weights)), (1, zero_runs(&whole.weights))] {
            let bytes = sealed_v1(7, 3, 50, b"trained", encoding, &payload);
            let (file, checksum) = WeightFile::decode(&bytes, ORIGIN, test_ties).unwrap();
            assert_eq!(file.weights, whole.weights);
            assert_eq!((file.pattern_set, file.phases, file.per_phase), (7, 3, 50));
            assert_eq!(file.meta, "trained");
            // The checksum of the version 1 bytes, as training printed it.
            assert_eq!(bytes[bytes.len() - 4..], checksum.to_le_bytes());
        }
    }
    // Weights of the test set, which version 1 stored whole, read to the same
    // table and written again as version 2.
    let tied = test_sample(2, 40, 24);
    let bytes = sealed_v1(TEST_SET, 2, 8, b"", 1, &zero_runs(&tied.weights));
    let file = decode(&bytes).unwrap();
    assert_eq!(file.weights, tied.weights);
    assert_eq!(decode(&encode(&file).unwrap()).unwrap(), file);
    // Version 1 could hold mirror images apart: such weights load as they were, but
    // version 2 cannot hold them.
    let mut untied = tied.weights.clone();
    untied[7] += 1;
    let file = decode(&sealed_v1(TEST_SET, 2, 8, b"", 0, &le(&untied))).unwrap();
    assert_eq!(file.weights, untied);
    assert!(matches!(
        encode(&file),
        Err(WeightFileError::Untied {
            phase: 0,
            index: 7,
            mirror: 0,
            ..
        })
    ));
}

#[test]
fn version_1_files_with_bad_content_are_rejected() {
    // The control: hand-built files that are right.
    let ok = sealed_v1(7, 2, 3, b"m", 0, &le(&[1, 2, 3, 4, 5, 6]));
    assert_eq!(decode(&ok).unwrap().weights, [1, 2, 3, 4, 5, 6]);
    let ok = sealed_v1(7, 2, 3, b"m", 1, &[le(&[9]), run(5)].concat());
    assert_eq!(decode(&ok).unwrap().weights, [9, 0, 0, 0, 0, 0]);

    let err = |bytes: Vec<u8>| decode(&bytes).unwrap_err();
    let e = err(sealed_v1(7, 2, 3, b"", 0, &le(&[1, 2, 3, 4, 5])));
    assert!(
        matches!(
            e,
            WeightFileError::WeightCount {
                decoded: 5,
                expected: 6,
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "weights/eval.bin: payload decodes to 5 weights, header says 6"
    );
    let e = err(sealed_v1(7, 2, 3, b"", 1, &[run(6), le(&[1])].concat()));
    assert!(
        matches!(
            e,
            WeightFileError::WeightCount {
                decoded: 7,
                expected: 6,
                ..
            }
        ),
        "{e:?}"
    );
    // Billions of zeros claimed in six bytes: refused by counting, not by allocating.
    let e = err(sealed_v1(
        7,
        2,
        3,
        b"",
        1,
        &[run(u32::MAX), run(u32::MAX)].concat(),
    ));
    assert!(matches!(e, WeightFileError::WeightCount { .. }), "{e:?}");
    let e = err(sealed_v1(7, 65, 1 << 20, b"", 1, &run(65 << 20)));
    assert!(matches!(e, WeightFileError::TooManyWeights { .. }), "{e:?}");

    let e = err(sealed_v1(7, 1, 1, b"", 2, &le(&[1])));
    assert!(
        matches!(e, WeightFileError::UnknownEncoding { found: 2, .. }),
        "{e:?}"
    );
    for (encoding, payload) in [
        (0, vec![1u8, 0, 2]),                           // raw, odd length
        (1, vec![1u8, 0, 2]),                           // runs, ends inside a weight
        (1, [le(&[1]), run(3)[..4].to_vec()].concat()), // ends inside a count
        (1, [le(&[1]), run(0)].concat()),               // empty run
    ] {
        let e = err(sealed_v1(7, 1, 1, b"", encoding, &payload));
        assert!(
            matches!(e, WeightFileError::MalformedPayload { .. }),
            "{e:?}"
        );
    }
}

#[test]
fn version_2_files_with_bad_content_are_rejected() {
    let err = |bytes: Vec<u8>| decode(&bytes).unwrap_err();
    let e = err(sealed(7, 1, 1, b"\xff\xfe", &deflate(&le(&[1]))));
    assert!(matches!(e, WeightFileError::MetaNotUtf8 { .. }), "{e:?}");
    assert_eq!(e.to_string(), "weights/eval.bin: meta is not UTF-8");
    let long = vec![b'a'; MAX_META_BYTES + 1];
    let e = err(sealed(7, 1, 1, &long, &deflate(&le(&[1]))));
    assert!(matches!(e, WeightFileError::MetaTooLong { .. }), "{e:?}");
    let e = err(sealed(7, u32::MAX, u32::MAX, b"", &deflate(&[])));
    assert!(matches!(e, WeightFileError::TooManyWeights { .. }), "{e:?}");

    // Too few and too many weights, whole and tied: 2 phases store 6 weights of 3
    // a phase, and 10 of the test set's 8 (5 each). Too many is known without
    // inflating them all.
    for (set, per_phase, stored, weights) in [
        (7, 3, 6, 5),
        (7, 3, 6, 7),
        (TEST_SET, 8, 10, 9),
        (TEST_SET, 8, 10, 11),
        (TEST_SET, 8, 10, 16),
    ] {
        let e = err(sealed(
            set,
            2,
            per_phase,
            b"",
            &deflate(&le(&vec![1; weights])),
        ));
        if weights < stored {
            assert!(
                matches!(e, WeightFileError::WeightCount { decoded, expected, .. }
                    if decoded == weights as u64 && expected == stored as u64),
                "{e:?}"
            );
        } else {
            assert!(
                matches!(e, WeightFileError::MalformedPayload { .. }),
                "{e:?}"
            );
        }
    }
    let e = err(sealed(7, 2, 3, b"", &deflate(&le(&[1, 2, 3, 4, 5]))));
    assert_eq!(
        e.to_string(),
        "weights/eval.bin: payload decodes to 5 weights, header says 6"
    );
}

#[test]
fn payloads_that_do_not_inflate_are_refused() {
    let good = deflate(&le(&[1, 2, 3, 4, 5, 6]));
    assert!(decode(&sealed(7, 2, 3, b"", &good)).is_ok());
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        ("garbage", vec![0xff; 12]),
        ("cut short", good[..good.len() - 1].to_vec()),
        ("followed by more", [&good[..], b"\0"].concat()),
        (
            "odd length",
            deflate(&[1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7]),
        ),
        ("a bomb", deflate(&vec![0; 100_000_000])),
    ];
    for (what, payload) in cases {
        let e = decode(&sealed(7, 2, 3, b"", &payload)).unwrap_err();
        assert!(
            matches!(e, WeightFileError::MalformedPayload { .. }),
            "{what}: {e:?}"
        );
        let message = e.to_string();
        assert!(
            message.starts_with("weights/eval.bin: malformed payload: "),
            "{message}"
        );
        assert!(!message.contains('\n'), "{message}");
    }
}

#[test]
fn messages_are_one_line_naming_the_file() {
    let bytes = encode(&sample(1, 10, 0, 25)).unwrap();
    let mut cases = vec![
        bytes[..3].to_vec(),
        bytes[..30].to_vec(),
        bytes[..bytes.len() - 1].to_vec(),
        [&bytes[..], b"x"].concat(),
        sealed_v1(7, 1, 1, b"", 9, &[]),
        sealed_v1(7, 1, 2, b"", 1, &[0, 0x80, 0]),
        sealed(7, 1, 2, b"", &[1, 2, 3]),
    ];
    let mut flipped = bytes.clone();
    flipped[50] ^= 1;
    cases.push(flipped);
    for case in cases {
        let message = decode(&case).unwrap_err().to_string();
        assert!(message.starts_with("weights/eval.bin: "), "{message}");
        assert!(!message.contains('\n'), "{message}");
    }
}

#[test]
fn save_replaces_an_existing_file_and_leaves_no_temporaries() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("eval.bin");
    fs::write(&path, b"old weights, longer than nothing at all").unwrap();
    let first = sample(2, 500, 70, 26);
    first.save(&path).unwrap();
    assert!(WeightFile::load(&path).unwrap().0 == first);
    assert_eq!(fs::read(&path).unwrap(), first.to_bytes(ORIGIN).unwrap());
    let second = sample(1, 10, 0, 27);
    second.save(&path).unwrap();
    assert!(WeightFile::load(&path).unwrap().0 == second);
    assert_eq!(names(dir.path()), ["eval.bin"]);
}

#[cfg(unix)]
#[test]
fn a_saved_file_has_the_mode_of_a_file_created_plainly() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("eval.bin");
    sample(1, 10, 0, 28).save(&path).unwrap();
    let plain = dir.path().join("plain");
    fs::write(&plain, b"").unwrap();
    let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode();
    assert_eq!(mode(&path), mode(&plain));
}

/// Saves to `path`, which must fail with an I/O error of one line that names the path,
/// then says `says`.
fn save_fails(path: &Path, says: &str) {
    let err = sample(1, 10, 0, 29).save(path).unwrap_err();
    assert!(matches!(err, WeightFileError::Io { .. }), "{err:?}");
    let message = err.to_string();
    assert!(
        message.starts_with(&format!("{}: {says}", path.display())),
        "{message}"
    );
    assert!(!message.contains('\n'), "{message}");
}

#[test]
fn a_failed_rename_leaves_the_target_and_no_temporaries() {
    // A directory where the file should go: everything succeeds but the rename.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("eval.bin");
    fs::create_dir(&path).unwrap();
    fs::write(path.join("inside"), b"kept").unwrap();
    save_fails(&path, "cannot rename ");
    assert_eq!(fs::read(path.join("inside")).unwrap(), b"kept");
    assert_eq!(names(dir.path()), ["eval.bin"]);
}

#[test]
fn save_into_a_missing_directory_names_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("no-such-dir").join("eval.bin");
    save_fails(&path, "cannot create a temporary file in ");
    assert!(!path.exists());
}

#[test]
fn load_of_a_missing_file_names_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("eval.bin");
    let err = WeightFile::load(&path).unwrap_err();
    assert!(matches!(err, WeightFileError::Io { .. }), "{err:?}");
    assert!(
        err.to_string()
            .starts_with(&format!("{}: cannot open: ", path.display())),
        "{err}"
    );
}

#[test]
fn save_refuses_what_could_not_be_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("eval.bin");
    let mut file = sample(2, 10, 0, 31);
    file.weights.pop();
    let err = file.save(&path).unwrap_err();
    assert!(
        matches!(err, WeightFileError::Inconsistent { .. }),
        "{err:?}"
    );
    assert!(matches!(
        file.to_bytes(ORIGIN),
        Err(WeightFileError::Inconsistent { .. })
    ));
    let mut file = sample(1, 1, 0, 32);
    file.meta = "x".repeat(MAX_META_BYTES + 1);
    let err = file.save(&path).unwrap_err();
    assert!(
        matches!(err, WeightFileError::MetaTooLong { .. }),
        "{err:?}"
    );
    let file = WeightFile {
        phases: u32::MAX,
        per_phase: 2,
        weights: Vec::new(),
        ..sample(0, 0, 0, 33)
    };
    let err = file.save(&path).unwrap_err();
    assert!(
        matches!(err, WeightFileError::TooManyWeights { .. }),
        "{err:?}"
    );
    assert!(!path.exists());
}

fn arb_file() -> impl Strategy<Value = WeightFile> {
    let whole = (0u32..4, 0u32..40, any::<u32>());
    let test_set = (0u32..4, Just(8u32), Just(TEST_SET));
    (prop_oneof![whole, test_set], ".{0,20}").prop_flat_map(
        |((phases, per_phase, pattern_set), meta)| {
            let weight = prop_oneof![
                6 => Just(0i16),
                3 => any::<i16>(),
                1 => Just(i16::MIN),
            ];
            proptest::collection::vec(weight, (phases * per_phase) as usize).prop_map(
                move |mut weights| {
                    if let Some(ties) = test_ties(pattern_set, per_phase) {
                        for (i, &t) in ties.iter().cycle().enumerate().take(weights.len()) {
                            weights[i] = weights[i - i % ties.len() + t as usize];
                        }
                    }
                    WeightFile {
                        pattern_set,
                        phases,
                        per_phase,
                        meta: meta.clone(),
                        weights,
                    }
                },
            )
        },
    )
}

/// Byte positions and replacement values; positions wrap to the file length.
fn arb_mutations() -> impl Strategy<Value = Vec<(usize, u8)>> {
    proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6)
}

fn mutate(bytes: &mut [u8], mutations: &[(usize, u8)]) {
    if bytes.is_empty() {
        return;
    }
    let len = bytes.len();
    for &(pos, value) in mutations {
        bytes[pos % len] = value;
    }
}

proptest! {
    #[test]
    fn any_file_round_trips(file in arb_file()) {
        let back = decode(&encode(&file).unwrap()).unwrap();
        prop_assert_eq!(back, file);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = decode(&bytes);
    }

    #[test]
    fn arbitrary_bytes_after_a_valid_start_never_panic(
        version in 1u32..=2,
        tail in proptest::collection::vec(any::<u8>(), 0..200),
    ) {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&version.to_le_bytes());
        bytes.extend_from_slice(&tail);
        let _ = decode(&bytes);
        let _ = decode(&reseal(bytes));
    }

    #[test]
    fn mutated_files_never_panic(
        file in arb_file(),
        mutations in arb_mutations(),
        cut in any::<usize>(),
        extra in proptest::collection::vec(any::<u8>(), 0..8),
    ) {
        let mut bytes = encode(&file).unwrap();
        mutate(&mut bytes, &mutations);
        let _ = decode(&bytes);
        let cut = cut % (bytes.len() + 1);
        let _ = decode(&bytes[..cut]);
        bytes.extend_from_slice(&extra);
        let _ = decode(&bytes);
    }

    /// Mutations with the checksum recomputed reach the checks behind it.
    #[test]
    fn resealed_mutations_never_panic(file in arb_file(), mutations in arb_mutations()) {
        let mut body = encode(&file).unwrap();
        body.truncate(body.len() - 4);
        // Spare the magic and version, which would stop the reader first.
        let mut tail = body.split_off(12);
        mutate(&mut tail, &mutations);
        body.extend_from_slice(&tail);
        if let Ok(read) = decode(&reseal(body)) {
            let again = decode(&encode(&read).unwrap()).unwrap();
            prop_assert_eq!(again, read);
        }
    }
}
