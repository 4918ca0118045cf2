//! The board seen from the side to move, and a position that also knows that side's colour.

use super::moves::{flips, legal_moves};
use super::square::{Bitboard, Square};
use std::fmt;

/// Two bitboards: the discs of the side to move and of its opponent.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the side that moved last.
    pub opponent: u64,
}

impl Board {
    /// The standard start position, black (`X`) to move.
    pub const START: Board = Board {
        player: (1u64 << 28) | (1u64 << 35),
        opponent: (1u64 << 27) | (1u64 << 36),
    };

    /// Builds a board; the two sets must not overlap.
    pub const fn new(player: u64, opponent: u64) -> Board {
        debug_assert!(player & opponent == 0);
        Board { player, opponent }
    }

    /// A well-mixed 64-bit hash of the two bitboards (stable across versions), for
    /// sampling and sharding boards.
    pub const fn hash64(&self) -> u64 {
        let mut h = self.player.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ self
                .opponent
                .rotate_left(31)
                .wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        h ^= h >> 29;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^ (h >> 32)
    }

    /// Empty squares.
    #[inline]
    pub const fn empty(&self) -> u64 {
        !(self.player | self.opponent)
    }

    /// Number of empty squares.
    #[inline]
    pub const fn empty_count(&self) -> u32 {
        self.empty().count_ones()
    }

    /// Legal moves of the side to move.
    #[inline]
    pub fn moves(&self) -> u64 {
        legal_moves(self.player, self.opponent)
    }

    /// Legal moves of the side to move as a set of squares.
    pub fn legal_moves(&self) -> Bitboard {
        Bitboard(self.moves())
    }

    /// True when `sq` is a legal move of the side to move.
    pub fn is_legal(&self, sq: Square) -> bool {
        self.moves() & sq.bit() != 0
    }

    /// The board after the side to move plays `sq` flipping `f`; sides swap.
    #[inline]
    pub const fn play_with_flips(&self, sq: Square, f: u64) -> Board {
        Board {
            player: self.opponent ^ f,
            opponent: self.player | f | sq.bit(),
        }
    }

    /// The board after the side to move plays `sq`, or `None` when the move is illegal.
    pub fn play(&self, sq: Square) -> Option<Board> {
        if self.empty() & sq.bit() == 0 {
            return None;
        }
        let f = flips(self.player, self.opponent, sq);
        if f == 0 {
            None
        } else {
            Some(self.play_with_flips(sq, f))
        }
    }

    /// The board after the side to move passes.
    #[inline]
    pub const fn pass(&self) -> Board {
        Board {
            player: self.opponent,
            opponent: self.player,
        }
    }

    /// True when neither side can move.
    pub fn is_game_over(&self) -> bool {
        self.moves() == 0 && legal_moves(self.opponent, self.player) == 0
    }

    /// Final score of a finished game for the side to move: own minus opponent discs,
    /// empty squares going to the winner.
    #[inline]
    pub const fn final_score(&self) -> i32 {
        let p = self.player.count_ones() as i32;
        let o = self.opponent.count_ones() as i32;
        let e = 64 - p - o;
        let diff = p - o;
        if diff > 0 {
            diff + e
        } else if diff < 0 {
            diff - e
        } else {
            0
        }
    }
}

/// Side colour: black (`X`) moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// `X`, the first player.
    Black,
    /// `O`.
    White,
}

impl Color {
    /// The other colour.
    pub const fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `X` or `O`.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }
}

/// A board with the colour of the side to move, as read from OBF or a move sequence.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    /// The discs, from the side to move's point of view.
    pub board: Board,
    /// Colour of the side to move.
    pub side: Color,
}

impl Position {
    /// The start position, black to move.
    pub const START: Position = Position {
        board: Board::START,
        side: Color::Black,
    };

    /// Black and white discs.
    pub const fn black_white(&self) -> (u64, u64) {
        match self.side {
            Color::Black => (self.board.player, self.board.opponent),
            Color::White => (self.board.opponent, self.board.player),
        }
    }

    /// The 64 squares a1..h8 as `X`, `O` and `-`.
    pub fn squares_string(&self) -> String {
        let (b, w) = self.black_white();
        (0..64)
            .map(|i| {
                if b >> i & 1 != 0 {
                    'X'
                } else if w >> i & 1 != 0 {
                    'O'
                } else {
                    '-'
                }
            })
            .collect()
    }

    /// The position [`Position::squares_string`] wrote: `squares` of exactly 64 `X`, `O`
    /// and `-`, and `side` `X` or `O`; `None` for anything else.
    pub fn from_squares(squares: &str, side: &str) -> Option<Position> {
        let side = match side {
            "X" => Color::Black,
            "O" => Color::White,
            _ => return None,
        };
        if squares.len() != 64 {
            return None;
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (i, b) in squares.bytes().enumerate() {
            match b {
                b'X' => black |= 1 << i,
                b'O' => white |= 1 << i,
                b'-' => {}
                _ => return None,
            }
        }
        let board = match side {
            Color::Black => Board::new(black, white),
            Color::White => Board::new(white, black),
        };
        Some(Position { board, side })
    }

    /// The position after `sq` is played, or `None` when it is illegal.
    pub fn play(&self, sq: Square) -> Option<Position> {
        self.board.play(sq).map(|board| Position {
            board,
            side: self.side.other(),
        })
    }

    /// The position after the side to move passes.
    pub fn pass(&self) -> Position {
        Position {
            board: self.board.pass(),
            side: self.side.other(),
        }
    }
}

impl fmt::Display for Position {
    /// OBF form: 64 squares, a space, the side to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.squares_string(), self.side.letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `from_squares` reads back what `squares_string` writes, and nothing else.
    #[test]
    fn squares_read_back() {
        let p = crate::board::parse_moves("f5d6c3").expect("legal");
        let side = p.side.letter().to_string();
        assert_eq!(Position::from_squares(&p.squares_string(), &side), Some(p));
        let q = p.pass();
        let side = q.side.letter().to_string();
        assert_eq!(Position::from_squares(&q.squares_string(), &side), Some(q));
        let squares = p.squares_string();
        assert_eq!(Position::from_squares(&squares, "Q"), None);
        assert_eq!(Position::from_squares(&squares, "x"), None);
        assert_eq!(Position::from_squares(&squares[1..], "X"), None);
        assert_eq!(
            Position::from_squares(&squares.replace('-', "."), "X"),
            None
        );
        assert_eq!(Position::from_squares(&(squares + "-"), "X"), None);
    }

    #[test]
    fn final_score_gives_empties_to_winner() {
        // 3 own, 1 opponent, 60 empty: +2 + 60.
        let b = Board::new(0b111, 0b1000);
        assert_eq!(b.final_score(), 62);
        assert_eq!(b.pass().final_score(), -62);
        let d = Board::new(0b1, 0b10);
        assert_eq!(d.final_score(), 0);
    }

    #[test]
    fn start_string() {
        assert_eq!(
            Position::START.to_string(),
            "---------------------------OX------XO--------------------------- X"
        );
    }
}
