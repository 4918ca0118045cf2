//! The names of a WTHOR database: `WTHOR.JOU` (players) and `WTHOR.TRN` (tournaments), each
//! a 16-byte header whose bytes 8-9 count its records (N2), then N2 names of fixed width:
//! 20 bytes a player, 26 a tournament, each padded with NUL bytes (checked on the files of
//! 2014: 3 628 players of at most 19 characters, 425 tournaments of at most 25). A game
//! record names them by their index. The names are in a legacy 8-bit encoding, read as
//! Latin-1.

use super::error::NamesError;
use std::path::{Path, PathBuf};

/// Bytes of a player's name in `WTHOR.JOU`.
pub const PLAYER_BYTES: usize = 20;
/// Bytes of a tournament's name in `WTHOR.TRN`.
pub const TOURNAMENT_BYTES: usize = 26;
/// Bytes of either file's header.
const HEADER_BYTES: usize = 16;

/// The players and tournaments a directory's `WTHOR.JOU` and `WTHOR.TRN` name; each
/// `None` when its file is not there.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    /// Players by number.
    pub players: Option<Vec<String>>,
    /// Tournaments by number.
    pub tournaments: Option<Vec<String>>,
}

impl Names {
    /// Reads `WTHOR.JOU` and `WTHOR.TRN` (or their lower-case names) in `dir`. A file that
    /// is missing gives `None`; one that is there but unreadable or malformed, an error.
    pub fn read(dir: &Path) -> Result<Names, NamesError> {
        let read = |name: &str, width| match find(dir, name) {
            Some(path) => {
                let bytes = std::fs::read(&path).map_err(|source| NamesError::Io {
                    path: path.clone(),
                    source,
                })?;
                parse(&bytes, width, &path).map(Some)
            }
            None => Ok(None),
        };
        Ok(Names {
            players: read(FILES[0], PLAYER_BYTES)?,
            tournaments: read(FILES[1], TOURNAMENT_BYTES)?,
        })
    }

    /// Player `n`'s name, if the players file is there and names it.
    pub fn player(&self, n: u16) -> Option<&str> {
        self.players
            .as_ref()?
            .get(usize::from(n))
            .map(String::as_str)
    }

    /// Tournament `n`'s name, if the tournaments file is there and names it.
    pub fn tournament(&self, n: u16) -> Option<&str> {
        self.tournaments
            .as_ref()?
            .get(usize::from(n))
            .map(String::as_str)
    }
}

/// The names files a database directory holds.
const FILES: [&str; 2] = ["WTHOR.JOU", "WTHOR.TRN"];

/// Every path in `dir` that [`Names::read`] may read, there or not: `WTHOR.JOU` and
/// `WTHOR.TRN` under their names and their lower-case names (what no output may be).
pub fn paths(dir: &Path) -> Vec<PathBuf> {
    FILES.iter().flat_map(|name| spellings(dir, name)).collect()
}

/// `dir/name` and `dir/` its lower-case name.
fn spellings(dir: &Path, name: &str) -> [PathBuf; 2] {
    [dir.join(name), dir.join(name.to_ascii_lowercase())]
}

/// `dir/name`, or `dir/` its lower-case name, whichever is a file.
fn find(dir: &Path, name: &str) -> Option<PathBuf> {
    spellings(dir, name).into_iter().find(|p| p.is_file())
}

/// The names of a `.JOU` or `.TRN` file's bytes, `width` bytes each; `path` names the file
/// in errors.
pub fn parse(bytes: &[u8], width: usize, path: &Path) -> Result<Vec<String>, NamesError> {
    let found = bytes.len() as u64;
    let records = match bytes.first_chunk::<HEADER_BYTES>() {
        Some(h) => u16::from_le_bytes([h[8], h[9]]),
        None => 0,
    };
    let expected = (HEADER_BYTES + width * usize::from(records)) as u64;
    if found != expected {
        return Err(NamesError::Size {
            path: path.to_path_buf(),
            records,
            width,
            expected,
            found,
        });
    }
    Ok(bytes[HEADER_BYTES..]
        .chunks_exact(width)
        .map(name)
        .collect())
}

/// A name's bytes up to the first NUL, as Latin-1 (each byte the code point of its value),
/// trimmed; control characters, which would break an output line, become `?`.
pub fn name(bytes: &[u8]) -> String {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    bytes[..end]
        .iter()
        .map(|&b| match char::from(b) {
            c if c.is_control() => '?',
            c => c,
        })
        .collect::<String>()
        .trim()
        .to_string()
}
