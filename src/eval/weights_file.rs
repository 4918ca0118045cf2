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
//!
//! Here: [`WeightFile`], its checks and its loading and saving (atomically, through
//! [`crate::durable`]). Beside it: the errors ([`WeightFileError`]), the layout read and
//! written (`container`), the deflated payload (`payload`) and the symmetry reduction
//! (`ties`).
//!
//! [`canonical_indices`]: crate::eval::pattern::canonical_indices
//! [`PATTERN_SET`]: crate::eval::pattern::PATTERN_SET
//! [`PER_PHASE`]: crate::eval::pattern::PER_PHASE
//! [`MOBILITY_SET`]: crate::eval::mobility::MOBILITY_SET
//! [`PER_PHASE_MOBILITY`]: crate::eval::mobility::PER_PHASE_MOBILITY

mod container;
mod error;
mod layout;
mod payload;
mod ties;
mod v1;

use std::borrow::Cow;
use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;

use crate::durable::{self, Access, Existing, Replacement, Step};
use container::Container;
pub use error::WeightFileError;
pub use layout::FORMAT_VERSION;
use layout::{MAX_FILE_BYTES, MAX_META_BYTES, MAX_WEIGHTS};
use payload::{deflate, inflate, weights_of_bytes};
use ties::{Ties, build_ties, expand, kept_per_phase, reduce};

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
        let payload = deflate(&stored, origin)?;
        let shape = [self.pattern_set, self.phases, self.per_phase];
        Ok(container::write(shape, &self.meta, &payload))
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
