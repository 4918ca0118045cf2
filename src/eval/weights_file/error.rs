//! Why a weight file could not be read or written: one variant per fault, each a one-line
//! message that starts with the file.

use super::layout::{FORMAT_VERSION, MAX_FILE_BYTES, MAX_META_BYTES, MAX_WEIGHTS, V1_VERSION};
use std::io;
use thiserror::Error;

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
        V1_VERSION
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
    /// [`WeightFile::save`](super::WeightFile::save) refuses a value whose weights do not fill its phases,
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
    /// [`WeightFile::save`](super::WeightFile::save) refuses weights that differ from their mirror image's,
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
    /// [`WeightFile::load`](super::WeightFile::load) met a file larger than any weight file can be.
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
