//! A game's positions: its moves played from the start position with the board's own move
//! generation, a side without a legal move passing when the other has one.

use super::error::Damage;
use crate::board::{Color, Position, Square};

/// What a game's moves give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// Each position a move was played from, then the last one when the game is not over:
    /// every one with a legal move for its side to move (a pass already made).
    pub positions: Vec<Position>,
    /// The position after the last move, as it stands (its side to move may have to pass).
    pub last: Position,
}

impl Replay {
    /// Whether neither side can move at the end.
    pub fn is_over(&self) -> bool {
        self.last.board.is_game_over()
    }

    /// Black's final disc difference, empty squares to the winner, when the game is over.
    pub fn final_for_black(&self) -> Option<i32> {
        let score = self.last.board.final_score();
        self.is_over().then_some(match self.last.side {
            Color::Black => score,
            Color::White => -score,
        })
    }
}

/// Plays `moves` from the start. An illegal move, or one after the game ended, is damage
/// naming the move's 1-based index.
pub fn replay(moves: &[Square]) -> Result<Replay, Damage> {
    let mut pos = Position::START;
    let mut positions = Vec::with_capacity(moves.len() + 1);
    for (k, &mv) in moves.iter().enumerate() {
        let index = k + 1;
        pos = with_pass(pos);
        if pos.board.moves() == 0 {
            return Err(Damage::AfterGameOver { index, mv });
        }
        positions.push(pos);
        pos = pos.play(mv).ok_or(Damage::Illegal {
            index,
            mv,
            side: match pos.side {
                Color::Black => "black",
                Color::White => "white",
            },
        })?;
    }
    let next = with_pass(pos);
    if next.board.moves() != 0 {
        positions.push(next);
    }
    Ok(Replay {
        positions,
        last: pos,
    })
}

/// `pos`, or the position after its side passes when only the other side can move.
fn with_pass(pos: Position) -> Position {
    if pos.board.moves() == 0 && !pos.board.is_game_over() {
        pos.pass()
    } else {
        pos
    }
}
