//! Real games: the WTHOR database of the French Othello Federation (FFO) and lines of moves
//! (`f5d6c3...`, the common text format of game archives), read and replayed from the
//! start position with the board's own move generation.
//!
//! One concept a file: [`wthor`] the binary game files, [`names`] their players and
//! tournaments (`WTHOR.JOU`, `WTHOR.TRN`), [`text`] lines of moves, [`game`] a game as a
//! file gives it, [`replay`](mod@replay) its positions, [`error`] what can be wrong with a
//! file or a game. What to write of them is the `games` command's
//! (`crate::commands::games`).

pub mod error;
pub mod game;
pub mod names;
pub mod replay;
pub mod text;
pub mod wthor;

pub use error::{Damage, HeaderError, NamesError};
pub use game::{Damaged, Game, Record};
pub use names::Names;
pub use replay::{Replay, replay};
pub use wthor::{Header, WthorFile};
