//! The container format: the magic, the format version, the shape of the weights, the
//! meta, the payload and the CRC32 of every byte before it, in that order (the layout is
//! in the parent module's doc). Writing lays the fields out; reading checks the magic
//! and version first, then that nothing trails and the checksum matches.

use super::WeightFileError;
use super::layout::{FIXED_BYTES, FORMAT_VERSION, MAGIC, V1_VERSION};

/// The bytes of a file of this build's version holding these fields and `payload`, and
/// their CRC32, which is also their last four bytes. `meta` is at most 64 KiB (checked).
pub(super) fn write(shape: [u32; 3], meta: &str, payload: &[u8]) -> (Vec<u8>, u32) {
    let mut out = Vec::with_capacity(FIXED_BYTES + meta.len() + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    for field in shape {
        out.extend_from_slice(&field.to_le_bytes());
    }
    // Checked to fit: at most 64 KiB.
    out.extend_from_slice(&(meta.len() as u32).to_le_bytes());
    out.extend_from_slice(meta.as_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(payload);
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    (out, crc)
}

/// A weight file's fields as stored, its magic, version and checksum checked.
pub(super) struct Container<'a> {
    pub(super) pattern_set: u32,
    pub(super) phases: u32,
    pub(super) per_phase: u32,
    pub(super) meta: &'a [u8],
    /// Version 1's payload encoding (later versions have one).
    pub(super) v1_encoding: Option<u32>,
    pub(super) payload: &'a [u8],
    /// The checksum, equal to the one computed.
    pub(super) stored: u32,
}

impl<'a> Container<'a> {
    /// Reads the fields of `bytes` in order, checking the magic and version first (a
    /// file of another kind or layout must be named as such, not reported as
    /// "corrupt"), then that nothing trails and the checksum matches.
    pub(super) fn read(bytes: &'a [u8], origin: &'a str) -> Result<Container<'a>, WeightFileError> {
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
        if version != FORMAT_VERSION && version != V1_VERSION {
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
            V1_VERSION => Some(r.u32("payload encoding")?),
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
