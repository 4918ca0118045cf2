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
//! | bytes | content                                               |
//! |-------|-------------------------------------------------------|
//! | 8     | magic `FINALEWT`                                      |
//! | 4     | format version ([`FORMAT_VERSION`])                   |
//! | 4     | pattern set                                           |
//! | 4     | phases                                                |
//! | 4     | weights per phase                                     |
//! | 4     | meta length *m* (at most 64 KiB)                      |
//! | *m*   | meta, UTF-8                                           |
//! | 4     | payload encoding: 0 raw `i16`s, 1 zero runs           |
//! | 8     | payload length *p*                                    |
//! | *p*   | payload                                               |
//! | 4     | CRC32 of every byte before it                         |
//!
//! Encoding 1 is a sequence of `i16` records: any value but `i16::MIN` is one
//! weight; `i16::MIN` followed by a `u32` count *n* (never 0) is *n* zeros.
//! Trained tables hold many zeros (pattern configurations never seen in
//! training); at 70 % zeros this saves about a quarter of the file when they
//! are scattered, about two thirds when they come in long runs. The writer
//! uses it only when it is strictly smaller and no weight is `i16::MIN`, which
//! it cannot express.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;

use thiserror::Error;

/// Format version written by this build.
///
/// Bumped whenever the layout changes, so that an older build refuses a newer
/// file by name instead of misreading it.
pub const FORMAT_VERSION: u32 = 1;

const MAGIC: [u8; 8] = *b"FINALEWT";

/// Larger meta is a mistake (a whole log pasted in), not provenance.
const MAX_META_BYTES: usize = 64 * 1024;

/// Far above any real pattern set, low enough that a corrupt header cannot make
/// the reader allocate gigabytes.
const MAX_WEIGHTS: u64 = 64 * 1024 * 1024;

const ENCODING_RAW: u32 = 0;
const ENCODING_ZERO_RUNS: u32 = 1;
const RUN_MARKER: i16 = i16::MIN;

/// A run this long costs 6 bytes, less than its literals; at 3 both cost 6 and
/// literals are simpler.
const MIN_RUN: usize = 4;

/// Everything before the meta and between it and the payload, plus the checksum.
const FIXED_BYTES: usize = 8 + 5 * 4 + 4 + 8 + 4;

/// The largest file [`WeightFile::load`] reads: maximal meta and a zero-run
/// payload of maximal weight count at its worst 6 bytes per weight. Anything
/// larger is not a weight file, and reading it whole would only waste memory.
const MAX_FILE_BYTES: u64 = FIXED_BYTES as u64 + MAX_META_BYTES as u64 + 6 * MAX_WEIGHTS;

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
    #[error("{origin}: format version {found}, this build reads {FORMAT_VERSION}")]
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
    /// An encoding this build does not know.
    #[error("{origin}: unknown payload encoding {found} (this build reads 0 and 1)")]
    UnknownEncoding {
        /// The file.
        origin: String,
        /// The encoding stored in the file.
        found: u32,
    },
    /// The payload is not a valid sequence of records for its encoding.
    #[error("{origin}: malformed payload: {detail}")]
    MalformedPayload {
        /// The file.
        origin: String,
        /// What is wrong.
        detail: &'static str,
    },
    /// The payload holds another number of weights than the header promises.
    #[error("{origin}: payload decodes to {decoded} weights, header says {expected}")]
    WeightCount {
        /// The file.
        origin: String,
        /// Weights in the payload.
        decoded: u64,
        /// Phases times weights per phase.
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

impl WeightFile {
    /// The file's bytes, ready to write.
    ///
    /// Fields are written as they are: a value whose `weights` do not number
    /// `phases * per_phase`, or whose meta is over 64 KiB, gives bytes that
    /// [`from_bytes`](Self::from_bytes) refuses ([`save`](Self::save) refuses
    /// to write it at all). The encoding is chosen deterministically, so equal
    /// values always give equal bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.encode().0
    }

    /// Reads a file's bytes; `origin` names them in errors (usually the path).
    ///
    /// Never panics, whatever the bytes, and allocates for the weights only once
    /// the payload is known to hold exactly the (bounded) number the header gives.
    pub fn from_bytes(bytes: &[u8], origin: &str) -> Result<WeightFile, WeightFileError> {
        let mut r = Reader {
            rest: bytes,
            len: bytes.len(),
            origin,
        };
        // The magic and version come first: a file of another kind or layout
        // must be named as such, not reported as "corrupt".
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
        if version != FORMAT_VERSION {
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
        let encoding = r.u32("payload encoding")?;
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

        // From here the bytes are as written; what remains is a writer that broke
        // the rules, checked anyway since the file may not come from this module.
        if meta.len() > MAX_META_BYTES {
            return Err(WeightFileError::MetaTooLong {
                origin: origin.to_owned(),
                len: meta.len(),
            });
        }
        let meta = std::str::from_utf8(meta).map_err(|_| WeightFileError::MetaNotUtf8 {
            origin: origin.to_owned(),
        })?;
        let expected =
            weight_count(phases, per_phase).ok_or_else(|| WeightFileError::TooManyWeights {
                origin: origin.to_owned(),
                phases,
                per_phase,
            })?;
        let weights = match encoding {
            ENCODING_RAW => decode_raw(payload, expected, origin)?,
            ENCODING_ZERO_RUNS => decode_zero_runs(payload, expected, origin)?,
            found => {
                return Err(WeightFileError::UnknownEncoding {
                    origin: origin.to_owned(),
                    found,
                });
            }
        };
        Ok(WeightFile {
            pattern_set,
            phases,
            per_phase,
            meta: meta.to_owned(),
            weights,
        })
    }

    /// Writes atomically: a temporary file in the same directory, fsync, then
    /// rename; never leaves a half-written file under `path`.
    ///
    /// A crash mid-write therefore leaves the previous weights in place, at worst
    /// with a stray temporary file beside them; any error (a full disk) removes the
    /// temporary file. A value that could not be read back (weights not filling the
    /// phases, meta over 64 KiB, over 64 M weights) is refused before anything is
    /// written.
    pub fn save(&self, path: &Path) -> Result<(), WeightFileError> {
        let origin = path.display().to_string();
        self.check(&origin)?;
        write_atomically(path, &self.to_bytes(), &origin)
    }

    /// Reads and checks the file at `path`; errors name it.
    pub fn load(path: &Path) -> Result<WeightFile, WeightFileError> {
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

    /// The CRC32 stored in the file (for printing a short identity of the weights).
    ///
    /// Computed by encoding the value, which is deterministic: equal values give
    /// equal checksums, and a file written by this module stores this very number.
    /// Costs one encoding, so meant for printing, not for loops.
    pub fn checksum(&self) -> u32 {
        self.encode().1
    }

    /// The bytes and their CRC32, which is also their last four bytes.
    fn encode(&self) -> (Vec<u8>, u32) {
        let runs = encode_zero_runs(&self.weights);
        let (encoding, payload_len) = match &runs {
            Some(runs) => (ENCODING_ZERO_RUNS, runs.len()),
            None => (ENCODING_RAW, 2 * self.weights.len()),
        };
        // A meta too long for its length field is written with a length the
        // reader refuses (over 64 KiB) instead of a wrapped one it might accept.
        let meta_len = u32::try_from(self.meta.len()).unwrap_or(u32::MAX);
        let mut out = Vec::with_capacity(FIXED_BYTES + self.meta.len() + payload_len);
        out.extend_from_slice(&MAGIC);
        for field in [
            FORMAT_VERSION,
            self.pattern_set,
            self.phases,
            self.per_phase,
            meta_len,
        ] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        out.extend_from_slice(self.meta.as_bytes());
        out.extend_from_slice(&encoding.to_le_bytes());
        out.extend_from_slice(&(payload_len as u64).to_le_bytes());
        match runs {
            Some(runs) => out.extend_from_slice(&runs),
            None => {
                for w in &self.weights {
                    out.extend_from_slice(&w.to_le_bytes());
                }
            }
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        (out, crc)
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

/// The zero-run encoding of `weights`, or `None` when raw is the one to write:
/// not strictly smaller, or a weight equal to the run marker.
fn encode_zero_runs(weights: &[i16]) -> Option<Vec<u8>> {
    let raw_len = 2 * weights.len();
    let mut out = Vec::new();
    let mut i = 0;
    while i < weights.len() {
        let w = weights[i];
        if w == RUN_MARKER {
            return None;
        }
        if w != 0 {
            out.extend_from_slice(&w.to_le_bytes());
            i += 1;
            continue;
        }
        let run = weights[i..].iter().take_while(|&&x| x == 0).count();
        if run < MIN_RUN {
            for _ in 0..run {
                out.extend_from_slice(&0i16.to_le_bytes());
            }
        } else {
            // Runs past u32::MAX (only possible beyond the 64 M limit) split.
            let mut left = run;
            while left > 0 {
                let n = left.min(u32::MAX as usize);
                out.extend_from_slice(&RUN_MARKER.to_le_bytes());
                out.extend_from_slice(&(n as u32).to_le_bytes());
                left -= n;
            }
        }
        i += run;
        if out.len() >= raw_len {
            return None;
        }
    }
    (out.len() < raw_len).then_some(out)
}

fn decode_raw(payload: &[u8], expected: usize, origin: &str) -> Result<Vec<i16>, WeightFileError> {
    if !payload.len().is_multiple_of(2) {
        return Err(WeightFileError::MalformedPayload {
            origin: origin.to_owned(),
            detail: "raw payload has an odd number of bytes",
        });
    }
    let decoded = payload.len() / 2;
    if decoded != expected {
        return Err(WeightFileError::WeightCount {
            origin: origin.to_owned(),
            decoded: decoded as u64,
            expected: expected as u64,
        });
    }
    Ok(payload
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect())
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

fn write_atomically(path: &Path, bytes: &[u8], origin: &str) -> Result<(), WeightFileError> {
    let io_error = |action: String, source| WeightFileError::Io {
        origin: origin.to_owned(),
        action,
        source,
    };
    // Same directory, so the rename stays within one file system and is atomic.
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    // Named after the file, so that one left by a crash says whose it was.
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(path.file_name().unwrap_or_default());
    prefix.push(".");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // Temporary files are private by default; the weights are for whoever runs
    // finale, as any file created plainly would be.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut temp = builder.tempfile_in(dir).map_err(|e| {
        io_error(
            format!("cannot create a temporary file in {}", dir.display()),
            e,
        )
    })?;
    // From here an error drops `temp`, which removes it.
    let temp_name = temp.path().display().to_string();
    // Through the file itself: tempfile's own writer repeats the path in its errors.
    temp.as_file_mut()
        .write_all(bytes)
        .map_err(|e| io_error(format!("cannot write {temp_name}"), e))?;
    // The data must be on disk before the rename makes it the file;
    // otherwise a crash could leave the new name on empty blocks.
    temp.as_file()
        .sync_all()
        .map_err(|e| io_error(format!("cannot sync {temp_name}"), e))?;
    temp.persist(path)
        .map_err(|e| io_error(format!("cannot rename {temp_name} over it"), e.error))?;
    sync_dir(dir).map_err(|e| {
        io_error(
            format!("saved, but cannot sync directory {}", dir.display()),
            e,
        )
    })
}

/// Makes the rename itself durable, not just the data.
#[cfg(unix)]
fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Other systems have no portable way to sync a directory.
#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
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

        fn weight(&mut self) -> i16 {
            // Non-zero and never the run marker.
            let w = (self.next() % 2001) as i16 - 1000;
            if w == 0 { 1 } else { w }
        }
    }

    fn sample(phases: u32, per_phase: u32, zero_percent: u64, seed: u64) -> WeightFile {
        let mut rng = Rng(seed);
        let weights = (0..phases as usize * per_phase as usize)
            .map(|_| {
                if rng.next() % 100 < zero_percent {
                    0
                } else {
                    rng.weight()
                }
            })
            .collect();
        WeightFile {
            pattern_set: 0x5eed_0001,
            phases,
            per_phase,
            meta: format!("test sample: seed {seed}, {zero_percent}% zeros, é"),
            weights,
        }
    }

    /// The stored encoding field of a well-formed file.
    fn encoding_of(bytes: &[u8]) -> u32 {
        let meta_len = u32::from_le_bytes(bytes[24..28].try_into().unwrap()) as usize;
        let at = 28 + meta_len;
        u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
    }

    /// Header fields followed by `payload` and a correct checksum, for files that
    /// pass every structural check and must be refused on content.
    fn sealed(phases: u32, per_phase: u32, meta: &[u8], encoding: u32, payload: &[u8]) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for field in [FORMAT_VERSION, 7, phases, per_phase, meta.len() as u32] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        out.extend_from_slice(meta);
        out.extend_from_slice(&encoding.to_le_bytes());
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(payload);
        reseal(out)
    }

    /// Appends the checksum of everything in `body`.
    fn reseal(mut body: Vec<u8>) -> Vec<u8> {
        let crc = crc32fast::hash(&body);
        body.extend_from_slice(&crc.to_le_bytes());
        body
    }

    fn round_trip(file: &WeightFile, expected_encoding: u32) {
        let bytes = file.to_bytes();
        assert_eq!(encoding_of(&bytes), expected_encoding);
        let back = WeightFile::from_bytes(&bytes, ORIGIN).unwrap();
        assert!(back == *file, "bytes round trip changed the contents");

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("eval.bin");
        file.save(&path).unwrap();
        assert_eq!(fs::read(&path).unwrap(), bytes);
        let loaded = WeightFile::load(&path).unwrap();
        assert!(loaded == *file, "save/load round trip changed the contents");
        assert_eq!(loaded.checksum(), file.checksum());
    }

    #[test]
    fn round_trip_raw_favouring_data() {
        let file = sample(3, 1000, 0, 1);
        round_trip(&file, ENCODING_RAW);
        assert_eq!(file.to_bytes().len(), FIXED_BYTES + file.meta.len() + 6000);
    }

    #[test]
    fn round_trip_zero_heavy_data() {
        let file = sample(4, 5000, 90, 2);
        round_trip(&file, ENCODING_ZERO_RUNS);
        // Under half the 40 000 raw payload bytes.
        assert!(file.to_bytes().len() < FIXED_BYTES + file.meta.len() + 20_000);
    }

    #[test]
    fn run_marker_weight_forces_raw() {
        let mut file = sample(2, 3000, 95, 3);
        file.weights[1234] = i16::MIN;
        round_trip(&file, ENCODING_RAW);
    }

    #[test]
    fn zero_runs_of_every_short_length_and_at_the_edges() {
        // Runs of 0..=9 zeros, between non-zeros, leading and trailing.
        let mut weights = vec![0; 5];
        for run in 0..10 {
            weights.push(i16::MAX);
            weights.extend(std::iter::repeat_n(0, run));
            weights.push(-1);
        }
        weights.extend([0; 7]);
        let file = WeightFile {
            pattern_set: 1,
            phases: 1,
            per_phase: weights.len() as u32,
            meta: String::new(),
            weights,
        };
        round_trip(&file, ENCODING_ZERO_RUNS);
    }

    #[test]
    fn all_zero_and_empty_files() {
        let zeros = WeightFile {
            pattern_set: 9,
            phases: 16,
            per_phase: 10_000,
            meta: "zeros".into(),
            weights: vec![0; 160_000],
        };
        round_trip(&zeros, ENCODING_ZERO_RUNS);
        // One run record: marker plus count.
        assert_eq!(zeros.to_bytes().len(), FIXED_BYTES + 5 + 6);

        let empty = WeightFile {
            pattern_set: 0,
            phases: 0,
            per_phase: 0,
            meta: String::new(),
            weights: Vec::new(),
        };
        round_trip(&empty, ENCODING_RAW);
        assert_eq!(empty.to_bytes().len(), FIXED_BYTES);
    }

    #[test]
    fn checksum_is_the_stored_crc_and_tracks_the_weights() {
        let mut file = sample(2, 100, 50, 4);
        let bytes = file.to_bytes();
        let stored = u32::from_le_bytes(bytes[bytes.len() - 4..].try_into().unwrap());
        assert_eq!(file.checksum(), stored);
        assert_eq!(file.checksum(), crc32fast::hash(&bytes[..bytes.len() - 4]));
        let before = file.checksum();
        file.weights[7] = file.weights[7].wrapping_add(1);
        assert_ne!(file.checksum(), before);
    }

    #[test]
    fn every_bit_flip_is_rejected() {
        for file in [sample(2, 12, 60, 5), sample(2, 12, 0, 6)] {
            let bytes = file.to_bytes();
            for pos in 0..bytes.len() {
                for bit in 0..8 {
                    let mut bad = bytes.clone();
                    bad[pos] ^= 1 << bit;
                    let result = WeightFile::from_bytes(&bad, ORIGIN);
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
        for file in [sample(2, 12, 60, 7), sample(2, 12, 0, 8)] {
            let bytes = file.to_bytes();
            for len in 0..bytes.len() {
                match WeightFile::from_bytes(&bytes[..len], ORIGIN) {
                    Err(WeightFileError::TruncatedField { len: l, .. }) => assert_eq!(l, len),
                    Err(WeightFileError::Truncated { .. }) => {}
                    other => panic!("cut to {len} bytes: {other:?}"),
                }
            }
        }
    }

    #[test]
    fn truncated_payload_message() {
        let bytes = sample(1, 10, 0, 9).to_bytes();
        // The checksum and half the 20 payload bytes gone.
        let cut = &bytes[..bytes.len() - 4 - 10];
        let err = WeightFile::from_bytes(cut, ORIGIN).unwrap_err();
        assert_eq!(
            err.to_string(),
            "weights/eval.bin: truncated: header says 20 payload bytes, file has 10"
        );
    }

    #[test]
    fn wrong_magic() {
        let mut bytes = sample(1, 10, 0, 10).to_bytes();
        bytes[..8].copy_from_slice(b"PK\x03\x04zip!");
        let err = WeightFile::from_bytes(&bytes, ORIGIN).unwrap_err();
        assert!(matches!(err, WeightFileError::BadMagic { .. }), "{err:?}");
        assert_eq!(
            err.to_string(),
            "weights/eval.bin: not a finale weight file (bad magic)"
        );
        // Short and not a prefix of the magic: another kind of file, not a cut one.
        let err = WeightFile::from_bytes(b"{}\n", ORIGIN).unwrap_err();
        assert!(matches!(err, WeightFileError::BadMagic { .. }), "{err:?}");
    }

    #[test]
    fn future_version() {
        let mut bytes = sample(1, 10, 0, 11).to_bytes();
        bytes[8..12].copy_from_slice(&7u32.to_le_bytes());
        // A future layout may differ entirely; the checksum is not even looked at.
        let err = WeightFile::from_bytes(&bytes, ORIGIN).unwrap_err();
        assert!(
            matches!(err, WeightFileError::UnsupportedVersion { found: 7, .. }),
            "{err:?}"
        );
        assert_eq!(
            err.to_string(),
            "weights/eval.bin: format version 7, this build reads 1"
        );
    }

    #[test]
    fn trailing_bytes() {
        let mut bytes = sample(1, 10, 0, 12).to_bytes();
        bytes.extend_from_slice(b"abc");
        let err = WeightFile::from_bytes(&bytes, ORIGIN).unwrap_err();
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
        let mut bytes = sample(1, 10, 0, 13).to_bytes();
        bytes[40] ^= 0x10;
        let err = WeightFile::from_bytes(&bytes, ORIGIN).unwrap_err();
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

    fn raw(weights: &[i16]) -> Vec<u8> {
        weights.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    fn run(n: u32) -> Vec<u8> {
        let mut out = RUN_MARKER.to_le_bytes().to_vec();
        out.extend_from_slice(&n.to_le_bytes());
        out
    }

    #[test]
    fn sealed_files_with_bad_content_are_rejected() {
        // The control: a hand-built file that is right.
        let ok = sealed(2, 3, b"m", ENCODING_RAW, &raw(&[1, 2, 3, 4, 5, 6]));
        let file = WeightFile::from_bytes(&ok, ORIGIN).unwrap();
        assert_eq!(file.weights, [1, 2, 3, 4, 5, 6]);
        let ok = sealed(
            2,
            3,
            b"m",
            ENCODING_ZERO_RUNS,
            &[raw(&[9]), run(5)].concat(),
        );
        let file = WeightFile::from_bytes(&ok, ORIGIN).unwrap();
        assert_eq!(file.weights, [9, 0, 0, 0, 0, 0]);

        let err = |bytes: Vec<u8>| WeightFile::from_bytes(&bytes, ORIGIN).unwrap_err();
        let e = err(sealed(2, 3, b"", ENCODING_RAW, &raw(&[1, 2, 3, 4, 5])));
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
        let e = err(sealed(
            2,
            3,
            b"",
            ENCODING_ZERO_RUNS,
            &[run(6), raw(&[1])].concat(),
        ));
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
        let e = err(sealed(
            2,
            3,
            b"",
            ENCODING_ZERO_RUNS,
            &[run(u32::MAX), run(u32::MAX)].concat(),
        ));
        assert!(matches!(e, WeightFileError::WeightCount { .. }), "{e:?}");

        let e = err(sealed(1, 1, b"\xff\xfe", ENCODING_RAW, &raw(&[1])));
        assert!(matches!(e, WeightFileError::MetaNotUtf8 { .. }), "{e:?}");
        assert_eq!(e.to_string(), "weights/eval.bin: meta is not UTF-8");
        let long = vec![b'a'; MAX_META_BYTES + 1];
        let e = err(sealed(1, 1, &long, ENCODING_RAW, &raw(&[1])));
        assert!(matches!(e, WeightFileError::MetaTooLong { .. }), "{e:?}");

        let e = err(sealed(u32::MAX, u32::MAX, b"", ENCODING_RAW, &[]));
        assert!(matches!(e, WeightFileError::TooManyWeights { .. }), "{e:?}");
        let e = err(sealed(65, 1 << 20, b"", ENCODING_ZERO_RUNS, &run(65 << 20)));
        assert!(matches!(e, WeightFileError::TooManyWeights { .. }), "{e:?}");

        let e = err(sealed(1, 1, b"", 2, &raw(&[1])));
        assert!(
            matches!(e, WeightFileError::UnknownEncoding { found: 2, .. }),
            "{e:?}"
        );

        for (i, payload) in [
            vec![1u8, 0, 2],                            // raw, odd length
            vec![1u8, 0, 2],                            // runs, ends inside a weight
            [raw(&[1]), run(3)[..4].to_vec()].concat(), // ends inside a count
            [raw(&[1]), run(0)].concat(),               // empty run
        ]
        .into_iter()
        .enumerate()
        {
            let encoding = if i == 0 {
                ENCODING_RAW
            } else {
                ENCODING_ZERO_RUNS
            };
            let e = err(sealed(1, 1, b"", encoding, &payload));
            assert!(
                matches!(e, WeightFileError::MalformedPayload { .. }),
                "{e:?}"
            );
        }
    }

    #[test]
    fn messages_are_one_line_naming_the_file() {
        let bytes = sample(1, 10, 0, 14).to_bytes();
        let mut cases = vec![
            bytes[..3].to_vec(),
            bytes[..30].to_vec(),
            bytes[..bytes.len() - 1].to_vec(),
            [&bytes[..], b"x"].concat(),
            sealed(1, 1, b"", 9, &[]),
            sealed(1, 2, b"", ENCODING_ZERO_RUNS, &[0, 0x80, 0]),
        ];
        let mut flipped = bytes.clone();
        flipped[50] ^= 1;
        cases.push(flipped);
        for case in cases {
            let message = WeightFile::from_bytes(&case, ORIGIN)
                .unwrap_err()
                .to_string();
            assert!(message.starts_with("weights/eval.bin: "), "{message}");
            assert!(!message.contains('\n'), "{message}");
        }
    }

    #[test]
    fn save_replaces_an_existing_file_and_leaves_no_temporaries() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("eval.bin");
        fs::write(&path, b"old weights, longer than nothing at all").unwrap();
        let first = sample(2, 500, 70, 15);
        first.save(&path).unwrap();
        assert!(WeightFile::load(&path).unwrap() == first);
        let second = sample(1, 10, 0, 16);
        second.save(&path).unwrap();
        assert!(WeightFile::load(&path).unwrap() == second);
        assert_eq!(names(dir.path()), ["eval.bin"]);
    }

    /// The names of the files in `dir`.
    fn names(dir: &Path) -> Vec<OsString> {
        fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect()
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

    /// Saves to `path`, which must fail with an I/O error of one line that names the
    /// path, then says `says`.
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
        let mut file = sample(2, 10, 0, 18);
        file.weights.pop();
        let err = file.save(&path).unwrap_err();
        assert!(
            matches!(err, WeightFileError::Inconsistent { .. }),
            "{err:?}"
        );
        let mut file = sample(1, 1, 0, 19);
        file.meta = "x".repeat(MAX_META_BYTES + 1);
        let err = file.save(&path).unwrap_err();
        assert!(
            matches!(err, WeightFileError::MetaTooLong { .. }),
            "{err:?}"
        );
        assert!(!path.exists());
        // What to_bytes writes for them is refused on reading.
        assert!(WeightFile::from_bytes(&file.to_bytes(), ORIGIN).is_err());
    }

    fn arb_file() -> impl Strategy<Value = WeightFile> {
        (0u32..4, 0u32..40, ".{0,20}", any::<u32>()).prop_flat_map(
            |(phases, per_phase, meta, pattern_set)| {
                let weight = prop_oneof![
                    6 => Just(0i16),
                    3 => any::<i16>(),
                    1 => Just(i16::MIN),
                ];
                proptest::collection::vec(weight, (phases * per_phase) as usize).prop_map(
                    move |weights| WeightFile {
                        pattern_set,
                        phases,
                        per_phase,
                        meta: meta.clone(),
                        weights,
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
            let back = WeightFile::from_bytes(&file.to_bytes(), ORIGIN).unwrap();
            prop_assert_eq!(back, file);
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = WeightFile::from_bytes(&bytes, ORIGIN);
        }

        #[test]
        fn arbitrary_bytes_after_a_valid_start_never_panic(
            tail in proptest::collection::vec(any::<u8>(), 0..200),
        ) {
            let mut bytes = MAGIC.to_vec();
            bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
            bytes.extend_from_slice(&tail);
            let _ = WeightFile::from_bytes(&bytes, ORIGIN);
        }

        #[test]
        fn mutated_files_never_panic(
            file in arb_file(),
            mutations in arb_mutations(),
            cut in any::<usize>(),
            extra in proptest::collection::vec(any::<u8>(), 0..8),
        ) {
            let mut bytes = file.to_bytes();
            mutate(&mut bytes, &mutations);
            let _ = WeightFile::from_bytes(&bytes, ORIGIN);
            let cut = cut % (bytes.len() + 1);
            let _ = WeightFile::from_bytes(&bytes[..cut], ORIGIN);
            bytes.extend_from_slice(&extra);
            let _ = WeightFile::from_bytes(&bytes, ORIGIN);
        }

        /// Mutations with the checksum recomputed reach the checks behind it.
        #[test]
        fn resealed_mutations_never_panic(file in arb_file(), mutations in arb_mutations()) {
            let mut body = file.to_bytes();
            body.truncate(body.len() - 4);
            // Spare the magic and version, which would stop the reader first.
            let tail = body.split_off(12);
            let mut tail = tail;
            mutate(&mut tail, &mutations);
            body.extend_from_slice(&tail);
            if let Ok(read) = WeightFile::from_bytes(&reseal(body), ORIGIN) {
                let again = WeightFile::from_bytes(&read.to_bytes(), ORIGIN).unwrap();
                prop_assert_eq!(again, read);
            }
        }
    }
}
