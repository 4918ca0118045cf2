//! WTHOR game files (`WTH_YYYY.wtb`), as the French Othello Federation (FFO) publishes its
//! database: a 16-byte little-endian header, then N1 records of 68 bytes.
//!
//! Header: byte 0 the century of the file's date, 1-3 its year, month and day; 4-7 N1, the
//! games; 8-9 N2 (records of a `.JOU` or `.TRN` file, 0 here); 10-11 the games' year; 12
//! the board size (0 or 8 for 8x8); 13 the game type; 14 P3, the empties from which the
//! theoretical score was computed; 15 reserved. Record: bytes 0-1 the tournament, 2-3 and
//! 4-5 the black and white players' numbers, 6 black's discs at the end (the real score),
//! 7 black's discs under perfect play from the position with P3 empties (the theoretical
//! score), 8-67 the moves, each 10 x row + column (11 = a1, 88 = h8), 0 after the last.
//! Passes are not written. Checked against the 38 files of 1977-2014: every size is
//! 16 + 68 x N1, board size 8, P3 24.

use super::error::{Damage, HeaderError};
use super::game::{Damaged, Game, Record};
use crate::board::Square;

/// Bytes of the header.
pub const HEADER_BYTES: usize = 16;
/// Bytes of a game record.
pub const RECORD_BYTES: usize = 68;
/// Moves a record holds.
const MOVE_BYTES: usize = 60;

/// What a WTHOR header says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// The file's date: century, year within it, month, day.
    pub created: [u8; 4],
    /// N1: the games the file holds.
    pub games: u32,
    /// The year of the games.
    pub year: u16,
    /// The game type (byte 13).
    pub game_type: u8,
    /// P3: the empties of the position the theoretical score was computed from.
    pub depth: u8,
}

/// A WTHOR game file whose header has been checked against its bytes.
#[derive(Clone, Debug)]
pub struct WthorFile {
    /// The header.
    pub header: Header,
    bytes: Vec<u8>,
}

impl WthorFile {
    /// Reads the header of `bytes` (the whole file) and checks it: a header, no more bytes
    /// than N1 records take, an 8x8 board, a P3 of 1 to 60. Fewer bytes than N1 records is
    /// not a header error: the games the file lacks come out as one truncated game.
    pub fn parse(bytes: Vec<u8>) -> Result<WthorFile, HeaderError> {
        let found = bytes.len() as u64;
        let Some(h) = bytes.first_chunk::<HEADER_BYTES>() else {
            return Err(HeaderError::Short { len: found });
        };
        let games = u32::from_le_bytes([h[4], h[5], h[6], h[7]]);
        let records = u16::from_le_bytes([h[8], h[9]]);
        let expected = HEADER_BYTES as u64 + RECORD_BYTES as u64 * u64::from(games);
        if games == 0 && records > 0 {
            return Err(HeaderError::NameFile { records });
        }
        if found > expected {
            return Err(HeaderError::Size {
                games,
                expected,
                found,
            });
        }
        if h[12] != 0 && h[12] != 8 {
            return Err(HeaderError::BoardSize { size: h[12] });
        }
        if !(1..=60).contains(&h[14]) {
            return Err(HeaderError::Depth { depth: h[14] });
        }
        let header = Header {
            created: [h[0], h[1], h[2], h[3]],
            games,
            year: u16::from_le_bytes([h[10], h[11]]),
            game_type: h[13],
            depth: h[14],
        };
        Ok(WthorFile { header, bytes })
    }

    /// Every game in file order: each whole record, a game or a damaged one; then, when
    /// the file ends before the N1 records, one truncated game standing for all it lacks.
    pub fn games(&self) -> impl Iterator<Item = Result<Game, Damaged>> + '_ {
        let body = &self.bytes[HEADER_BYTES..];
        let whole = body.len() / RECORD_BYTES;
        let missing = u64::from(self.header.games) - whole as u64;
        let bytes = body.len() % RECORD_BYTES;
        let truncated = (missing > 0).then(|| Damaged {
            number: whole + 1,
            record: None,
            damage: Damage::Truncated {
                index: bytes.saturating_sub(8) + 1,
                bytes,
                missing,
            },
        });
        body.chunks_exact(RECORD_BYTES)
            .enumerate()
            .map(|(i, r)| game(i + 1, r))
            .chain(truncated.map(Err))
    }
}

/// Game `number` from its 68-byte record.
fn game(number: usize, r: &[u8]) -> Result<Game, Damaged> {
    let record = Record {
        tournament: u16::from_le_bytes([r[0], r[1]]),
        black: u16::from_le_bytes([r[2], r[3]]),
        white: u16::from_le_bytes([r[4], r[5]]),
        real: r[6],
        theoretical: r[7],
    };
    let damaged = |damage| Damaged {
        number,
        record: Some(record),
        damage,
    };
    for (which, value) in [("real", r[6]), ("theoretical", r[7])] {
        if value > 64 {
            return Err(damaged(Damage::ScoreRange { which, value }));
        }
    }
    let moves = moves(&r[8..8 + MOVE_BYTES]).map_err(damaged)?;
    Ok(Game {
        number,
        record: Some(record),
        moves,
    })
}

/// The squares of a record's move bytes, up to the first 0; nothing but 0 may follow it.
fn moves(bytes: &[u8]) -> Result<Vec<Square>, Damage> {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    if let Some(k) = bytes[end..].iter().position(|&b| b != 0) {
        return Err(Damage::AfterEndMarker {
            index: end + k + 1,
            byte: bytes[end + k],
        });
    }
    bytes[..end]
        .iter()
        .enumerate()
        .map(|(i, &byte)| square(byte).ok_or(Damage::ByteOutOfRange { index: i + 1, byte }))
        .collect()
}

/// The square of a move byte 10 x row + column (both 1..8); `None` for any other byte.
pub fn square(byte: u8) -> Option<Square> {
    let (row, col) = (byte / 10, byte % 10);
    if (1..=8).contains(&row) && (1..=8).contains(&col) {
        Square::new((row - 1) * 8 + (col - 1))
    } else {
        None
    }
}
