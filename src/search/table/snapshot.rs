//! The shared table on disk, so that a deep solve stopped by a restart resumes with what
//! it had learnt instead of from nothing. Every entry holds its whole board, so entries
//! are facts about their boards whatever the root: loaded back, they cut the subtrees
//! already searched, as they would have in the run that stored them.
//!
//! The file: a 16-byte magic line, then little-endian words (buckets, generation, date,
//! the root's two board words, the seconds the solve had run when it was saved, as f64
//! bits, and the nodes it had searched), every bucket's eight words, and last the CRC-32
//! of everything before it. It is
//! read back only into a table of the same size, for the same root, and whole: a file
//! that fails its checksum leaves the table empty. Saving reads the buckets while the
//! search may be writing them; an entry torn that way fails its own check when probed,
//! as it would have in memory.

use super::shared::{TranspositionTable, WORDS_PER_BUCKET};
use crate::board::Board;
use crate::search::error::TableFileError;
use std::io::{self, Read, Write};

/// The first bytes of a table file, with its format's version.
const MAGIC: &[u8; 16] = b"finale table v1\n";

/// Words of the header after the magic.
const HEADER_WORDS: usize = 7;

/// Buckets written or read at a time.
const CHUNK_BUCKETS: usize = 1 << 14;

/// Bytes of a bucket in the file.
const BUCKET_BYTES: usize = 8 * WORDS_PER_BUCKET;

/// What a table file says of the solve that saved it: its work up to the save.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SavedTable {
    /// Seconds that solve had run when it saved the table (earlier runs' included).
    pub seconds: f64,
    /// Nodes it had searched by then, about (earlier runs' included).
    pub nodes: u64,
}

/// The CRC-32 of what passes through, as a writer or a reader.
struct Crc<T> {
    inner: T,
    hasher: crc32fast::Hasher,
}

impl<T> Crc<T> {
    fn new(inner: T) -> Crc<T> {
        Crc {
            inner,
            hasher: crc32fast::Hasher::new(),
        }
    }

    fn sum(&self) -> u32 {
        self.hasher.clone().finalize()
    }
}

impl<W: Write> Crc<W> {
    fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.hasher.update(bytes);
        self.inner.write_all(bytes)
    }
}

impl<R: Read> Crc<R> {
    /// Fills `buf`, or says the file ended first.
    fn take(&mut self, buf: &mut [u8]) -> Result<(), TableFileError> {
        self.inner.read_exact(buf).map_err(|e| match e.kind() {
            io::ErrorKind::UnexpectedEof => TableFileError::Truncated,
            _ => TableFileError::Io(e),
        })?;
        self.hasher.update(buf);
        Ok(())
    }
}

fn words_le(words: &[u64], out: &mut Vec<u8>) {
    out.clear();
    for w in words {
        out.extend_from_slice(&w.to_le_bytes());
    }
}

fn word_at(bytes: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(bytes[8 * i..8 * i + 8].try_into().expect("8 bytes"))
}

impl TranspositionTable {
    /// Writes the table to `w` in the file format above, for a solve of `root` that has
    /// done `work`. Safe while searches write the table.
    pub fn save_to(&self, w: impl Write, root: &Board, work: SavedTable) -> io::Result<()> {
        let mut w = Crc::new(w);
        w.put(MAGIC)?;
        let (generation, date) = self.counters();
        let header = [
            self.buckets_len() as u64,
            generation,
            date,
            root.player,
            root.opponent,
            work.seconds.to_bits(),
            work.nodes,
        ];
        let mut bytes = Vec::with_capacity(CHUNK_BUCKETS * BUCKET_BYTES);
        words_le(&header, &mut bytes);
        w.put(&bytes)?;
        let mut words = Vec::with_capacity(CHUNK_BUCKETS * WORDS_PER_BUCKET);
        for start in (0..self.buckets_len()).step_by(CHUNK_BUCKETS) {
            let end = (start + CHUNK_BUCKETS).min(self.buckets_len());
            words.clear();
            self.read_words(start..end, &mut words);
            words_le(&words, &mut bytes);
            w.put(&bytes)?;
        }
        let sum = w.sum();
        w.inner.write_all(&sum.to_le_bytes())?;
        w.inner.flush()
    }

    /// Replaces the table's contents with the table file read from `r`, which must have
    /// been saved by a table of this size solving `root`. On any error the table is left
    /// empty.
    pub fn load_from(&mut self, r: impl Read, root: &Board) -> Result<SavedTable, TableFileError> {
        let loaded = self.try_load(r, root);
        if loaded.is_err() {
            self.forget_all();
        }
        loaded
    }

    fn try_load(&mut self, r: impl Read, root: &Board) -> Result<SavedTable, TableFileError> {
        let mut r = Crc::new(r);
        let mut magic = [0u8; 16];
        r.take(&mut magic).map_err(|e| match e {
            TableFileError::Truncated => TableFileError::NotATable,
            e => e,
        })?;
        if &magic != MAGIC {
            return Err(TableFileError::NotATable);
        }
        let mut bytes = vec![0u8; 8 * HEADER_WORDS];
        r.take(&mut bytes)?;
        let h: Vec<u64> = (0..HEADER_WORDS).map(|i| word_at(&bytes, i)).collect();
        let mb = |buckets: u64| (buckets as usize * BUCKET_BYTES) >> 20;
        if h[0] != self.buckets_len() as u64 {
            return Err(TableFileError::Size {
                saved: mb(h[0]),
                here: mb(self.buckets_len() as u64),
            });
        }
        if (h[3], h[4]) != (root.player, root.opponent) {
            return Err(TableFileError::OtherRoot);
        }
        let generation = u8::try_from(h[1])
            .ok()
            .filter(|&g| g > 0)
            .ok_or(TableFileError::Damaged)?;
        let mut words = Vec::with_capacity(CHUNK_BUCKETS * WORDS_PER_BUCKET);
        for start in (0..self.buckets_len()).step_by(CHUNK_BUCKETS) {
            let end = (start + CHUNK_BUCKETS).min(self.buckets_len());
            bytes.resize((end - start) * BUCKET_BYTES, 0);
            r.take(&mut bytes)?;
            words.clear();
            words.extend((0..(end - start) * WORDS_PER_BUCKET).map(|i| word_at(&bytes, i)));
            self.write_words(start, &words);
        }
        let expected = r.sum();
        let mut sum = [0u8; 4];
        r.take(&mut sum)?;
        if u32::from_le_bytes(sum) != expected {
            return Err(TableFileError::Damaged);
        }
        self.set_counters(u64::from(generation), h[2]);
        Ok(SavedTable {
            seconds: f64::from_bits(h[5]),
            nodes: h[6],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::random::{SplitMix64, random_position};
    use crate::search::selectivity::level::Level;
    use crate::search::table::Stored;

    /// A 1 MB table holding bounds for `n` random boards, and the boards.
    fn filled(n: usize) -> (TranspositionTable, Vec<Board>) {
        let tt = TranspositionTable::new(1);
        let mut rng = SplitMix64::new(7);
        let boards: Vec<Board> = (0..n)
            .map(|i| random_position(&mut rng, 10 + (i % 30) as u32).board)
            .collect();
        for (i, b) in boards.iter().enumerate() {
            let score = (i % 129) as i32 - 64;
            tt.store(
                b,
                Stored::new((-64, 64), score, None, Level::EXACT, 1 << (i % 20)),
            );
        }
        (tt, boards)
    }

    fn saved(tt: &TranspositionTable, root: &Board) -> Vec<u8> {
        let mut bytes = Vec::new();
        let work = SavedTable {
            seconds: 12.5,
            nodes: 1234,
        };
        tt.save_to(&mut bytes, root, work).unwrap();
        bytes
    }

    #[test]
    fn a_loaded_table_answers_every_probe_as_the_saved_one() {
        let (tt, boards) = filled(5000);
        let root = boards[0];
        let bytes = saved(&tt, &root);
        assert_eq!(bytes.len(), 16 + 8 * HEADER_WORDS + tt.bytes() + 4);
        let mut back = TranspositionTable::new(1);
        let got = back.load_from(bytes.as_slice(), &root).unwrap();
        assert_eq!((got.seconds, got.nodes), (12.5, 1234));
        let mut found = 0;
        for b in &boards {
            assert_eq!(back.probe(b), tt.probe(b));
            found += usize::from(tt.probe(b).is_some());
        }
        // Most boards are still in the 1 MB table (16,384 buckets of two).
        assert!(found > 4000, "{found}");
    }

    #[test]
    fn a_file_that_does_not_fit_leaves_the_table_empty() {
        let (tt, boards) = filled(500);
        let root = boards[0];
        let bytes = saved(&tt, &root);
        let empty = |t: &TranspositionTable| boards.iter().all(|b| t.probe(b).is_none());
        let mut other = TranspositionTable::new(2);
        assert!(matches!(
            other.load_from(bytes.as_slice(), &root),
            Err(TableFileError::Size { saved: 1, here: 2 })
        ));
        let mut back = TranspositionTable::new(1);
        let wrong_root = boards[1];
        assert!(matches!(
            back.load_from(bytes.as_slice(), &wrong_root),
            Err(TableFileError::OtherRoot)
        ));
        let mut damaged = bytes.clone();
        damaged[bytes.len() / 2] ^= 0x10;
        assert!(matches!(
            back.load_from(damaged.as_slice(), &root),
            Err(TableFileError::Damaged)
        ));
        assert!(empty(&back), "a damaged file's entries were kept");
        assert!(matches!(
            back.load_from(&bytes[..bytes.len() - 1], &root),
            Err(TableFileError::Truncated)
        ));
        assert!(empty(&back));
        assert!(matches!(
            back.load_from(&b"finale table v0\nrest"[..], &root),
            Err(TableFileError::NotATable)
        ));
        assert!(matches!(
            back.load_from(&b"short"[..], &root),
            Err(TableFileError::NotATable)
        ));
        back.load_from(bytes.as_slice(), &root).unwrap();
        assert!(!empty(&back));
    }
}
