//! What can go wrong in `finale games` (`crate::commands::games`), as a type library
//! callers can match; each message is one line naming the file and, for a game, its number
//! and move. Defined here, below the commands, so that [`crate::Error`] can wrap it.

use crate::games::{Damage, HeaderError, NamesError};
use std::path::PathBuf;
use thiserror::Error;

/// A `games` error.
#[derive(Debug, Error)]
pub enum GamesError {
    /// A WTHOR file whose header is not one.
    #[error("{}: {error}", path.display())]
    Header {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: HeaderError,
    },
    /// A damaged game under `--strict`.
    #[error("{}: {} {game}: {damage} (--strict)", path.display(), if *text { "line" } else { "game" })]
    Damaged {
        /// The file.
        path: PathBuf,
        /// The game's 1-based number in its file: its record, or its line.
        game: usize,
        /// Whether the file is lines of moves (the number is a line's).
        text: bool,
        /// What is wrong.
        damage: Damage,
    },
    /// A players or tournaments file that cannot be read.
    #[error(transparent)]
    Names(#[from] NamesError),
    /// A name filter without the names it needs beside the game file.
    #[error(
        "{flag}: {} has no {file} beside it to name its {what} (give --names DIR)",
        path.display()
    )]
    NoNames {
        /// `--player` or `--tournament`.
        flag: &'static str,
        /// The game file.
        path: PathBuf,
        /// `WTHOR.JOU` or `WTHOR.TRN`.
        file: &'static str,
        /// `players` or `tournaments`.
        what: &'static str,
    },
    /// A name filter without the names it needs in the `--names` directory.
    #[error(
        "{flag}: --names {} has no {file} to name the {what} of {}",
        dir.display(),
        path.display()
    )]
    NoNamesIn {
        /// `--player` or `--tournament`.
        flag: &'static str,
        /// The `--names` directory.
        dir: PathBuf,
        /// The game file.
        path: PathBuf,
        /// `WTHOR.JOU` or `WTHOR.TRN`.
        file: &'static str,
        /// `players` or `tournaments`.
        what: &'static str,
    },
    /// A name filter on lines of moves, which name nobody.
    #[error("{flag}: {} is lines of moves, which name no {what}", path.display())]
    TextNames {
        /// `--player` or `--tournament`.
        flag: &'static str,
        /// The text file.
        path: PathBuf,
        /// `player` or `tournament`.
        what: &'static str,
    },
    /// `--years` on lines of moves, which have no year.
    #[error("--years: {} is lines of moves, which have no year", path.display())]
    TextYear {
        /// The text file.
        path: PathBuf,
    },
    /// Lines of moves without `--empties`: they have no theoretical score, hence no
    /// default depth.
    #[error(
        "{}: lines of moves have no theoretical score's depth to default to: give --empties A-B",
        path.display()
    )]
    TextDepth {
        /// The text file.
        path: PathBuf,
    },
    /// `--years A-B` with A > B.
    #[error("--years {first}-{last}: the first year is after the last")]
    Years {
        /// A.
        first: u16,
        /// B.
        last: u16,
    },
}
