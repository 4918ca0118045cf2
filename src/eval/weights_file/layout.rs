//! The numbers of the layout: the magic, the format versions read and written, the fixed
//! bytes and the limits that keep a corrupt header from making the reader allocate much.

/// Format version written by this build.
///
/// Bumped whenever the layout changes, so that an older build refuses a newer
/// file by name instead of misreading it.
pub const FORMAT_VERSION: u32 = 2;

/// The format version of the files [`v1`](super::v1) reads.
pub(super) const V1_VERSION: u32 = 1;

pub(super) const MAGIC: [u8; 8] = *b"FINALEWT";

/// Larger meta is a mistake (a whole log pasted in), not provenance.
pub(super) const MAX_META_BYTES: usize = 64 * 1024;

/// Far above any real pattern set, low enough that a corrupt header cannot make
/// the reader allocate gigabytes.
pub(super) const MAX_WEIGHTS: u64 = 64 * 1024 * 1024;

/// Everything before the meta and between it and the payload, plus the checksum.
pub(super) const FIXED_BYTES: usize = 8 + 5 * 4 + 8 + 4;

/// The largest file [`WeightFile::load`](super::WeightFile::load) reads: maximal meta and a version 1
/// zero-run payload of maximal weight count at its worst 6 bytes per weight
/// (deflate never comes near that). Anything larger is not a weight file, and
/// reading it whole would only waste memory.
pub(super) const MAX_FILE_BYTES: u64 =
    FIXED_BYTES as u64 + 4 + MAX_META_BYTES as u64 + 6 * MAX_WEIGHTS;
