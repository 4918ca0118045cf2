//! The trained weights of the pattern evaluation, kept in a versioned binary file.
//!
//! Training is slow and the solver loads the result at every start, so the file
//! has to refuse loudly anything it was not written to hold: another program's
//! file, a newer layout, a file cut short by a full disk, a flipped bit. Every
//! such file is an error naming the file and the fault, never a panic and never
//! a silently different set of weights.
//!
//! Layout, all integers little-endian:
//!
//! | bytes | content                                                 |
//! |-------|---------------------------------------------------------|
//! | 8     | magic `FINALEWT`                                        |
//! | 4     | format version ([`FORMAT_VERSION`])                     |
//! | 4     | pattern set                                             |
//! | 4     | phases                                                  |
//! | 4     | weights per phase                                       |
//! | 4     | meta length *m* (at most 64 KiB)                        |
//! | *m*   | meta, UTF-8                                             |
//! | 8     | payload length *p*                                      |
//! | *p*   | payload: the stored weights as `i16`s, in raw deflate   |
//! | 4     | CRC32 of every byte before it                           |
//!
//! A pattern reads a board and its mirror image into two indices that the training
//! gives one weight ([`canonical_indices`]), so of each phase only the weights of
//! canonical indices are stored, in index order, and the reader copies each to its
//! mirror images. This build knows the mirrors of its own pattern set only
//! ([`PATTERN_SET`] with [`PER_PHASE`] weights per phase, and [`MOBILITY_SET`], the same
//! with mobility tables, with [`PER_PHASE_MOBILITY`]); weights of any other shape
//! are stored whole, and the writer refuses weights that differ from their mirror
//! image's rather than drop one of the two.
//!
//! Trained tables hold many zeros and small values, which deflate halves (the shipped
//! weights: 3.6 MB stored, 1.8 MB in the file). It runs at a fixed level, so equal
//! weights give equal bytes (training is checked to be reproducible byte for byte) as
//! long as the deflate implementation, pinned by Cargo.lock, is the same; reading does
//! not depend on it.
//!
//! Files of version 1, which stored every weight, are still read (the `v1` submodule).

mod v1;

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::OnceLock;

use flate2::Compression;
use thiserror::Error;

use super::mobility::{MOBILITY_SET, PER_PHASE_MOBILITY, canonical_indices_with_mobility};
use super::pattern::{PATTERN_SET, PER_PHASE, canonical_indices};
use crate::durable::{self, Access, Existing, Replacement, Step};

/// Format version written by this build.
///
/// Bumped whenever the layout changes, so that an older build refuses a newer
/// file by name instead of misreading it.
pub const FORMAT_VERSION: u32 = 2;

const MAGIC: [u8; 8] = *b"FINALEWT";

/// Larger meta is a mistake (a whole log pasted in), not provenance.
const MAX_META_BYTES: usize = 64 * 1024;

/// Far above any real pattern set, low enough that a corrupt header cannot make
/// the reader allocate gigabytes.
const MAX_WEIGHTS: u64 = 64 * 1024 * 1024;

/// Part of the bytes written: another level gives other (equally readable) files.
const DEFLATE_LEVEL: u32 = 9;

/// Everything before the meta and between it and the payload, plus the checksum.
const FIXED_BYTES: usize = 8 + 5 * 4 + 8 + 4;

/// The largest file [`WeightFile::load`] reads: maximal meta and a version 1
/// zero-run payload of maximal weight count at its worst 6 bytes per weight
/// (deflate never comes near that). Anything larger is not a weight file, and
/// reading it whole would only waste memory.
const MAX_FILE_BYTES: u64 = FIXED_BYTES as u64 + 4 + MAX_META_BYTES as u64 + 6 * MAX_WEIGHTS;

/// Why a weight file could not be read or written.
///
/// Every message is one line that starts with the file (path or the caller's
/// `origin`), so that a failed start of the solver says which file to fix.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum WeightFileError {
    /// The first 8 bytes are not the magic: some other file was given.
    #[error("{origin}: not a finale weight file (bad magic)")]
    BadMagic {
        /// The file.
        origin: String,
    },
    /// Written by a build with another layout; reading on would misread it.
    #[error(
        "{origin}: format version {found}, this build reads {} and {FORMAT_VERSION}",
        v1::VERSION
    )]
    UnsupportedVersion {
        /// The file.
        origin: String,
        /// The version stored in the file.
        found: u32,
    },
    /// The file ends inside a fixed-size field.
    #[error("{origin}: truncated: file ends inside the {field} ({len} bytes in all)")]
    TruncatedField {
        /// The file.
        origin: String,
        /// The field cut short.
        field: &'static str,
        /// Length of the whole file.
        len: usize,
    },
    /// The file ends inside the meta or payload whose length the header gives.
    #[error("{origin}: truncated: header says {declared} {section} bytes, file has {available}")]
    Truncated {
        /// The file.
        origin: String,
        /// `meta` or `payload`.
        section: &'static str,
        /// Length the header gives.
        declared: u64,
        /// Bytes left in the file where the section starts.
        available: u64,
    },
    /// Bytes after the checksum: something was appended, or two files concatenated.
    #[error("{origin}: {count} trailing bytes after the checksum")]
    TrailingBytes {
        /// The file.
        origin: String,
        /// How many.
        count: u64,
    },
    /// The bytes are not the ones that were written.
    #[error(
        "{origin}: checksum mismatch (file corrupt): stored {stored:08x}, computed {computed:08x}"
    )]
    ChecksumMismatch {
        /// The file.
        origin: String,
        /// The CRC32 in the file.
        stored: u32,
        /// The CRC32 of the bytes before it.
        computed: u32,
    },
    /// Meta over the 64 KiB limit.
    #[error("{origin}: meta is {len} bytes, at most {MAX_META_BYTES} allowed")]
    MetaTooLong {
        /// The file.
        origin: String,
        /// Length of the meta.
        len: usize,
    },
    /// Meta must be text that can be printed as it is.
    #[error("{origin}: meta is not UTF-8")]
    MetaNotUtf8 {
        /// The file.
        origin: String,
    },
    /// Phases times weights per phase overflows or exceeds the 64 M limit.
    #[error(
        "{origin}: {phases} phases x {per_phase} weights is more than the {MAX_WEIGHTS} allowed"
    )]
    TooManyWeights {
        /// The file.
        origin: String,
        /// Phases in the header.
        phases: u32,
        /// Weights per phase in the header.
        per_phase: u32,
    },
    /// A version 1 payload encoding this build does not know.
    #[error("{origin}: unknown payload encoding {found} (this build reads 0 and 1)")]
    UnknownEncoding {
        /// The file.
        origin: String,
        /// The encoding stored in the file.
        found: u32,
    },
    /// The payload is not a valid deflate stream (or, in version 1, sequence of
    /// records) of weights.
    #[error("{origin}: malformed payload: {detail}")]
    MalformedPayload {
        /// The file.
        origin: String,
        /// What is wrong.
        detail: &'static str,
    },
    /// The payload holds another number of weights than the header promises (in
    /// version 2, of weights stored: one per mirror pair of this build's pattern set).
    #[error("{origin}: payload decodes to {decoded} weights, header says {expected}")]
    WeightCount {
        /// The file.
        origin: String,
        /// Weights in the payload.
        decoded: u64,
        /// Weights the header's shape stores.
        expected: u64,
    },
    /// [`WeightFile::save`] refuses a value whose weights do not fill its phases,
    /// since the file would be unreadable.
    #[error(
        "{origin}: not saved: {len} weights, but {phases} phases x {per_phase} need {expected}"
    )]
    Inconsistent {
        /// The path not written.
        origin: String,
        /// Length of `weights`.
        len: usize,
        /// `phases`.
        phases: u32,
        /// `per_phase`.
        per_phase: u32,
        /// Their product.
        expected: u64,
    },
    /// [`WeightFile::save`] refuses weights that differ from their mirror image's,
    /// since the file stores one weight for both.
    #[error(
        "{origin}: not saved: phase {phase} has weight {value} at index {index} but {mirror_value} at its mirror image {mirror}"
    )]
    Untied {
        /// The path not written.
        origin: String,
        /// The phase, from 0.
        phase: usize,
        /// The index within the phase.
        index: usize,
        /// Its weight.
        value: i16,
        /// The index that holds the same weight in the file.
        mirror: usize,
        /// Its weight.
        mirror_value: i16,
    },
    /// [`WeightFile::load`] met a file larger than any weight file can be.
    #[error("{origin}: more than {MAX_FILE_BYTES} bytes, too large for a weight file")]
    FileTooLarge {
        /// The file.
        origin: String,
    },
    /// The operating system refused a read or write.
    #[error("{origin}: {action}: {source}")]
    Io {
        /// The file.
        origin: String,
        /// What was being done.
        action: String,
        /// The system's error.
        source: io::Error,
    },
}

/// The trained weights of a pattern evaluation, as stored in one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WeightFile {
    /// Identifies the pattern set the weights belong to (the evaluation checks it).
    pub pattern_set: u32,
    /// Number of game phases.
    pub phases: u32,
    /// Weights of one phase.
    pub per_phase: u32,
    /// Free text: how the file was made (command, seed, date). UTF-8, at most 64 KiB.
    pub meta: String,
    /// phases * per_phase weights, phase by phase.
    pub weights: Vec<i16>,
}

/// For a pattern set and its weights per phase, the index whose weight each index
/// shares ([`canonical_indices`]), or `None` when every weight is stored. A map has
/// `per_phase` entries; entry `i` is at most `i` and an index that maps to itself.
/// A parameter of reading and writing so that tests can tie small pattern sets.
type Ties = fn(u32, u32) -> Option<&'static [u32]>;

/// The mirrors this build knows: those of its own pattern set, with and without the
/// mobility tables.
fn build_ties(pattern_set: u32, per_phase: u32) -> Option<&'static [u32]> {
    static CANON: OnceLock<Vec<u32>> = OnceLock::new();
    static CANON_MOBILITY: OnceLock<Vec<u32>> = OnceLock::new();
    match (pattern_set, per_phase as usize) {
        (PATTERN_SET, PER_PHASE) => Some(CANON.get_or_init(canonical_indices).as_slice()),
        (MOBILITY_SET, PER_PHASE_MOBILITY) => Some(
            CANON_MOBILITY
                .get_or_init(canonical_indices_with_mobility)
                .as_slice(),
        ),
        _ => None,
    }
}

impl WeightFile {
    /// The file's bytes, ready to write; `origin` names the value in errors.
    ///
    /// Refuses what could not be read back (weights not filling the phases, meta
    /// over 64 KiB, over 64 M weights) and weights that differ from their mirror
    /// image's in this build's pattern set. Equal values give equal bytes.
    pub fn to_bytes(&self, origin: &str) -> Result<Vec<u8>, WeightFileError> {
        self.encode(origin, build_ties).map(|(bytes, _)| bytes)
    }

    /// Reads a file's bytes; `origin` names them in errors (usually the path).
    ///
    /// Gives the weights and the CRC32 stored in the file, its identity as finale
    /// prints it (for a version 1 file, not what saving the weights again stores).
    /// Never panics, whatever the bytes, and allocates for the weights only once
    /// the payload is known to hold exactly the (bounded) number the header gives.
    pub fn from_bytes(bytes: &[u8], origin: &str) -> Result<(WeightFile, u32), WeightFileError> {
        Self::decode(bytes, origin, build_ties)
    }

    /// Writes atomically: a temporary file in the same directory, fsync, then
    /// rename; never leaves a half-written file under `path`. Returns the CRC32
    /// stored in the file.
    ///
    /// A crash mid-write therefore leaves the previous weights in place, at worst
    /// with a stray temporary file beside them; any error (a full disk) removes the
    /// temporary file. A value [`to_bytes`](Self::to_bytes) refuses is refused
    /// before anything is written.
    pub fn save(&self, path: &Path) -> Result<u32, WeightFileError> {
        let origin = path.display().to_string();
        let (bytes, checksum) = self.encode(&origin, build_ties)?;
        write_atomically(path, &bytes, &origin)?;
        Ok(checksum)
    }

    /// Reads and checks the file at `path`, as [`from_bytes`](Self::from_bytes) does;
    /// errors name it.
    pub fn load(path: &Path) -> Result<(WeightFile, u32), WeightFileError> {
        let origin = path.display().to_string();
        let io_error = |action: &str, source| WeightFileError::Io {
            origin: origin.clone(),
            action: action.to_owned(),
            source,
        };
        let file = File::open(path).map_err(|e| io_error("cannot open", e))?;
        let mut bytes = Vec::new();
        // Reading one byte past the limit is how to tell "too large" without
        // trusting the file system's size (pipes and /proc have none).
        file.take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| io_error("cannot read", e))?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Err(WeightFileError::FileTooLarge { origin });
        }
        Self::from_bytes(&bytes, &origin)
    }

    /// The bytes and their CRC32, which is also their last four bytes.
    fn encode(&self, origin: &str, ties: Ties) -> Result<(Vec<u8>, u32), WeightFileError> {
        self.check(origin)?;
        let stored = match ties(self.pattern_set, self.per_phase) {
            Some(canon) => Cow::Owned(reduce(&self.weights, canon, origin)?),
            None => Cow::Borrowed(&self.weights[..]),
        };
        let raw: Vec<u8> = stored.iter().flat_map(|w| w.to_le_bytes()).collect();
        let mut deflate =
            flate2::write::DeflateEncoder::new(Vec::new(), Compression::new(DEFLATE_LEVEL));
        // Writing to memory fails only if memory runs out, which aborts anyway.
        let payload = deflate
            .write_all(&raw)
            .and_then(|()| deflate.finish())
            .map_err(|source| WeightFileError::Io {
                origin: origin.to_owned(),
                action: "cannot compress the weights".to_owned(),
                source,
            })?;
        let mut out = Vec::with_capacity(FIXED_BYTES + self.meta.len() + payload.len());
        out.extend_from_slice(&MAGIC);
        for field in [
            FORMAT_VERSION,
            self.pattern_set,
            self.phases,
            self.per_phase,
            // Checked to fit: at most 64 KiB.
            self.meta.len() as u32,
        ] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        out.extend_from_slice(self.meta.as_bytes());
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&payload);
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        Ok((out, crc))
    }

    fn decode(
        bytes: &[u8],
        origin: &str,
        ties: Ties,
    ) -> Result<(WeightFile, u32), WeightFileError> {
        let c = Container::read(bytes, origin)?;
        // From here the bytes are as written; what remains is a writer that broke
        // the rules, checked anyway since the file may not come from this module.
        if c.meta.len() > MAX_META_BYTES {
            return Err(WeightFileError::MetaTooLong {
                origin: origin.to_owned(),
                len: c.meta.len(),
            });
        }
        let meta = std::str::from_utf8(c.meta).map_err(|_| WeightFileError::MetaNotUtf8 {
            origin: origin.to_owned(),
        })?;
        let (phases, per_phase) = (c.phases, c.per_phase);
        let expected =
            weight_count(phases, per_phase).ok_or_else(|| WeightFileError::TooManyWeights {
                origin: origin.to_owned(),
                phases,
                per_phase,
            })?;
        let payload = c.payload;
        let weights = match (c.v1_encoding, ties(c.pattern_set, per_phase)) {
            (Some(encoding), _) => v1::decode(encoding, payload, expected, origin)?,
            (None, None) => {
                weights_of_bytes(&inflate(payload, expected, origin)?, expected, origin)?
            }
            (None, Some(canon)) => {
                let kept = phases as usize * kept_per_phase(canon);
                let stored = weights_of_bytes(&inflate(payload, kept, origin)?, kept, origin)?;
                expand(&stored, phases as usize, canon)
            }
        };
        let file = WeightFile {
            pattern_set: c.pattern_set,
            phases,
            per_phase,
            meta: meta.to_owned(),
            weights,
        };
        Ok((file, c.stored))
    }

    /// Refuses what [`from_bytes`](Self::from_bytes) would refuse, before a
    /// save replaces good weights with an unreadable file.
    fn check(&self, origin: &str) -> Result<(), WeightFileError> {
        if self.meta.len() > MAX_META_BYTES {
            return Err(WeightFileError::MetaTooLong {
                origin: origin.to_owned(),
                len: self.meta.len(),
            });
        }
        let expected = weight_count(self.phases, self.per_phase).ok_or_else(|| {
            WeightFileError::TooManyWeights {
                origin: origin.to_owned(),
                phases: self.phases,
                per_phase: self.per_phase,
            }
        })?;
        if self.weights.len() as u64 != expected as u64 {
            return Err(WeightFileError::Inconsistent {
                origin: origin.to_owned(),
                len: self.weights.len(),
                phases: self.phases,
                per_phase: self.per_phase,
                expected: expected as u64,
            });
        }
        Ok(())
    }
}

/// `phases * per_phase` if it is within the limit, which also makes it a safe
/// allocation size.
fn weight_count(phases: u32, per_phase: u32) -> Option<usize> {
    let n = u64::from(phases).checked_mul(u64::from(per_phase))?;
    if n > MAX_WEIGHTS {
        return None;
    }
    usize::try_from(n).ok()
}

/// Weights a phase stores under the ties `canon`: one per canonical index.
fn kept_per_phase(canon: &[u32]) -> usize {
    canon
        .iter()
        .enumerate()
        .filter(|&(i, &c)| c as usize == i)
        .count()
}

/// The weights of canonical indices, phase by phase, or the first weight that differs
/// from its canonical index's. `weights` fills whole phases of `canon.len()`.
fn reduce(weights: &[i16], canon: &[u32], origin: &str) -> Result<Vec<i16>, WeightFileError> {
    let mut kept = Vec::with_capacity(weights.len() / canon.len() * kept_per_phase(canon));
    for (phase, w) in weights.chunks_exact(canon.len()).enumerate() {
        for (index, (&value, &c)) in w.iter().zip(canon).enumerate() {
            let mirror = c as usize;
            if mirror == index {
                kept.push(value);
            } else if w[mirror] != value {
                return Err(WeightFileError::Untied {
                    origin: origin.to_owned(),
                    phase,
                    index,
                    value,
                    mirror,
                    mirror_value: w[mirror],
                });
            }
        }
    }
    Ok(kept)
}

/// The whole table of `phases` back from the weights [`reduce`] kept, which are
/// `kept_per_phase(canon)` a phase: an index whose canonical index is smaller
/// copies that one's weight, already in place.
fn expand(stored: &[i16], phases: usize, canon: &[u32]) -> Vec<i16> {
    let mut weights = Vec::with_capacity(phases * canon.len());
    let mut stored = stored.iter();
    for _ in 0..phases {
        let base = weights.len();
        for (i, &c) in canon.iter().enumerate() {
            let w = match c as usize {
                c if c == i => stored.next().copied().unwrap_or_default(),
                c => weights[base + c],
            };
            weights.push(w);
        }
    }
    weights
}

/// The bytes of a deflate stream that holds exactly `weights` weights; reads no
/// more than that (plus one byte), however much the stream claims.
fn inflate(payload: &[u8], weights: usize, origin: &str) -> Result<Vec<u8>, WeightFileError> {
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
fn weights_of_bytes(
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

/// A weight file's fields as stored, its magic, version and checksum checked.
struct Container<'a> {
    pattern_set: u32,
    phases: u32,
    per_phase: u32,
    meta: &'a [u8],
    /// Version 1's payload encoding (later versions have one).
    v1_encoding: Option<u32>,
    payload: &'a [u8],
    /// The checksum, equal to the one computed.
    stored: u32,
}

impl<'a> Container<'a> {
    /// Reads the fields of `bytes` in order, checking the magic and version first (a
    /// file of another kind or layout must be named as such, not reported as
    /// "corrupt"), then that nothing trails and the checksum matches.
    fn read(bytes: &'a [u8], origin: &'a str) -> Result<Container<'a>, WeightFileError> {
        let mut r = Reader {
            rest: bytes,
            len: bytes.len(),
            origin,
        };
        match bytes.first_chunk::<8>() {
            Some(magic) if *magic == MAGIC => r.skip(MAGIC.len()),
            // Only a start of the magic is a cut weight file; anything else,
            // however short, is some other file.
            None if MAGIC.starts_with(bytes) => return Err(r.truncated_field("magic")),
            _ => {
                return Err(WeightFileError::BadMagic {
                    origin: origin.to_owned(),
                });
            }
        }
        let version = r.u32("format version")?;
        if version != FORMAT_VERSION && version != v1::VERSION {
            return Err(WeightFileError::UnsupportedVersion {
                origin: origin.to_owned(),
                found: version,
            });
        }
        let pattern_set = r.u32("pattern set")?;
        let phases = r.u32("phase count")?;
        let per_phase = r.u32("weights per phase")?;
        let meta_len = r.u32("meta length")?;
        let meta = r.section("meta", u64::from(meta_len))?;
        let v1_encoding = match version {
            v1::VERSION => Some(r.u32("payload encoding")?),
            _ => None,
        };
        let payload_len = r.u64("payload length")?;
        let payload = r.section("payload", payload_len)?;
        let body_len = bytes.len() - r.rest.len();
        let stored = r.u32("checksum")?;
        if !r.rest.is_empty() {
            return Err(WeightFileError::TrailingBytes {
                origin: origin.to_owned(),
                count: r.rest.len() as u64,
            });
        }
        // `body_len` counts bytes already consumed, so `get` cannot fail; it
        // stands in for slicing that could panic.
        let computed = crc32fast::hash(bytes.get(..body_len).unwrap_or_default());
        if stored != computed {
            return Err(WeightFileError::ChecksumMismatch {
                origin: origin.to_owned(),
                stored,
                computed,
            });
        }
        Ok(Container {
            pattern_set,
            phases,
            per_phase,
            meta,
            v1_encoding,
            payload,
            stored,
        })
    }
}

/// Cursor over the file that turns every short read into an error naming the field.
struct Reader<'a> {
    rest: &'a [u8],
    len: usize,
    origin: &'a str,
}

impl<'a> Reader<'a> {
    fn truncated_field(&self, field: &'static str) -> WeightFileError {
        WeightFileError::TruncatedField {
            origin: self.origin.to_owned(),
            field,
            len: self.len,
        }
    }

    fn skip(&mut self, n: usize) {
        self.rest = self.rest.get(n..).unwrap_or_default();
    }

    fn array<const N: usize>(&mut self, field: &'static str) -> Result<[u8; N], WeightFileError> {
        let (head, rest) = self
            .rest
            .split_first_chunk::<N>()
            .ok_or_else(|| self.truncated_field(field))?;
        self.rest = rest;
        Ok(*head)
    }

    fn u32(&mut self, field: &'static str) -> Result<u32, WeightFileError> {
        self.array(field).map(u32::from_le_bytes)
    }

    fn u64(&mut self, field: &'static str) -> Result<u64, WeightFileError> {
        self.array(field).map(u64::from_le_bytes)
    }

    fn section(&mut self, section: &'static str, len: u64) -> Result<&'a [u8], WeightFileError> {
        let available = self.rest.len();
        match usize::try_from(len) {
            Ok(n) if n <= available => {
                let (head, rest) = self.rest.split_at(n);
                self.rest = rest;
                Ok(head)
            }
            _ => Err(WeightFileError::Truncated {
                origin: self.origin.to_owned(),
                section,
                declared: len,
                available: available as u64,
            }),
        }
    }
}

fn write_atomically(path: &Path, bytes: &[u8], origin: &str) -> Result<(), WeightFileError> {
    let io_error = |action: String, source| WeightFileError::Io {
        origin: origin.to_owned(),
        action,
        source,
    };
    let dir = durable::dir_of(path);
    // Named after the file, so that one left by a crash says whose it was.
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(path.file_name().unwrap_or_default());
    prefix.push(".");
    let mut temp = Replacement::beside(path, &prefix, Access::Plain).map_err(|e| {
        io_error(
            format!("cannot create a temporary file in {}", dir.display()),
            e,
        )
    })?;
    // From here an error drops `temp`, which removes it.
    let temp_name = temp.path().display().to_string();
    // Through the file itself: tempfile's own writer repeats the path in its errors.
    temp.file_mut()
        .write_all(bytes)
        .map_err(|e| io_error(format!("cannot write {temp_name}"), e))?;
    temp.commit(Existing::Replace).map_err(|e| {
        let action = match e.step {
            Step::Sync => format!("cannot sync {temp_name}"),
            Step::Rename => format!("cannot rename {temp_name} over it"),
            Step::SyncDir => format!("saved, but cannot sync directory {}", dir.display()),
        };
        io_error(action, e.source)
    })
}

#[cfg(test)]
mod tests;
