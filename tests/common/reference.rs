//! A deliberately naive Othello implementation used as the oracle for finale.
//!
//! Nothing here calls finale's move generation or search: squares are bytes, flips are
//! found by walking the eight directions square by square on (row, column)
//! coordinates, and the game value is plain negamax. Only the conversions at the end
//! touch finale's types, and they just copy bits.

/// A board from the side to move's point of view: `EMPTY`, `OWN` (side to move) or
/// `OPP` per square, index = row * 8 + col with a1 = 0, h1 = 7, a8 = 56.
pub type RefBoard = [u8; 64];

pub const EMPTY: u8 = 0;
pub const OWN: u8 = 1;
pub const OPP: u8 = 2;

/// (row step, column step) of the eight directions.
const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// The start position, black to move: black on d5 (35) and e4 (28), white on d4 (27)
/// and e5 (36).
pub fn start() -> RefBoard {
    let mut b = [EMPTY; 64];
    b[35] = OWN;
    b[28] = OWN;
    b[27] = OPP;
    b[36] = OPP;
    b
}

pub fn empties(b: &RefBoard) -> usize {
    b.iter().filter(|&&c| c == EMPTY).count()
}

/// Squares flipped when the side to move plays `sq`, in no particular order; empty when
/// `sq` is occupied or the move flips nothing (i.e. is illegal).
pub fn flips(b: &RefBoard, sq: usize) -> Vec<usize> {
    let mut out = Vec::new();
    if b[sq] != EMPTY {
        return out;
    }
    let (row, col) = ((sq / 8) as i32, (sq % 8) as i32);
    for (dr, dc) in DIRECTIONS {
        let mut run = Vec::new();
        let (mut r, mut c) = (row + dr, col + dc);
        while (0..8).contains(&r) && (0..8).contains(&c) && b[(r * 8 + c) as usize] == OPP {
            run.push((r * 8 + c) as usize);
            r += dr;
            c += dc;
        }
        // The run counts only when it is closed by one of our own discs on the board.
        if !run.is_empty()
            && (0..8).contains(&r)
            && (0..8).contains(&c)
            && b[(r * 8 + c) as usize] == OWN
        {
            out.extend(run);
        }
    }
    out
}

/// Legal moves of the side to move, in increasing square order.
pub fn legal_moves(b: &RefBoard) -> Vec<usize> {
    (0..64).filter(|&sq| !flips(b, sq).is_empty()).collect()
}

/// Colours swapped: the other side is now to move.
pub fn pass(b: &RefBoard) -> RefBoard {
    let mut n = *b;
    for c in n.iter_mut() {
        *c = match *c {
            OWN => OPP,
            OPP => OWN,
            e => e,
        };
    }
    n
}

/// The board after the side to move plays `sq` (sides swapped), or `None` if illegal.
pub fn play(b: &RefBoard, sq: usize) -> Option<RefBoard> {
    let f = flips(b, sq);
    if f.is_empty() {
        return None;
    }
    let mut n = *b;
    n[sq] = OWN;
    for s in f {
        n[s] = OWN;
    }
    Some(pass(&n))
}

pub fn is_game_over(b: &RefBoard) -> bool {
    legal_moves(b).is_empty() && legal_moves(&pass(b)).is_empty()
}

/// Own minus opponent discs, empty squares going to the winner; a draw stays 0.
pub fn final_score(b: &RefBoard) -> i32 {
    let own = b.iter().filter(|&&c| c == OWN).count() as i32;
    let opp = b.iter().filter(|&&c| c == OPP).count() as i32;
    let empty = 64 - own - opp;
    match own.cmp(&opp) {
        std::cmp::Ordering::Greater => own - opp + empty,
        std::cmp::Ordering::Less => own - opp - empty,
        std::cmp::Ordering::Equal => 0,
    }
}

/// Game value for the side to move by plain negamax over the whole tree, no pruning.
pub fn minimax(b: &RefBoard) -> i32 {
    let moves = legal_moves(b);
    if moves.is_empty() {
        let passed = pass(b);
        if legal_moves(&passed).is_empty() {
            return final_score(b);
        }
        return -minimax(&passed);
    }
    moves
        .iter()
        .map(|&sq| -minimax(&play(b, sq).unwrap()))
        .max()
        .unwrap()
}

/// Fail-hard alpha-beta: the result is exact when it lies strictly inside
/// (`alpha`, `beta`), else it is the crossed bound. With the window (-65, 65) it is the
/// game value. Used where `minimax` would be too slow; a test checks they agree.
pub fn alphabeta(b: &RefBoard, mut alpha: i32, beta: i32) -> i32 {
    let moves = legal_moves(b);
    if moves.is_empty() {
        let passed = pass(b);
        if legal_moves(&passed).is_empty() {
            return final_score(b).clamp(alpha, beta);
        }
        return -alphabeta(&passed, -beta, -alpha);
    }
    for sq in moves {
        let v = -alphabeta(&play(b, sq).unwrap(), -beta, -alpha);
        if v >= beta {
            return beta;
        }
        if v > alpha {
            alpha = v;
        }
    }
    alpha
}

/// Exact game value (alpha-beta over the full window).
pub fn solve(b: &RefBoard) -> i32 {
    alphabeta(b, -65, 65)
}

/// Leaves `depth` plies below `b`; a pass is a ply, a finished game is a leaf at any
/// remaining depth.
pub fn perft(b: &RefBoard, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(b);
    if moves.is_empty() {
        let passed = pass(b);
        if legal_moves(&passed).is_empty() {
            return 1;
        }
        return perft(&passed, depth - 1);
    }
    moves
        .iter()
        .map(|&sq| perft(&play(b, sq).unwrap(), depth - 1))
        .sum()
}

/// splitmix64: tiny, deterministic, good enough to pick moves and squares.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in 0..n (the modulo bias is irrelevant for tests).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// One random game from the start to its end: every position met, the final one
/// included (passes give a position each too).
pub fn random_game(rng: &mut Rng) -> Vec<RefBoard> {
    let mut b = start();
    let mut line = vec![b];
    loop {
        let moves = legal_moves(&b);
        if moves.is_empty() {
            let passed = pass(&b);
            if legal_moves(&passed).is_empty() {
                return line;
            }
            b = passed;
        } else {
            b = play(&b, moves[rng.below(moves.len())]).unwrap();
        }
        line.push(b);
    }
}

/// A position reached by random play from the start with exactly `n` empties (side to
/// move may have to pass or the game may be over there). Restarts when a game ends
/// with more empties.
pub fn random_position(rng: &mut Rng, n: usize) -> RefBoard {
    loop {
        let mut b = start();
        loop {
            if empties(&b) == n {
                return b;
            }
            let moves = legal_moves(&b);
            if moves.is_empty() {
                let passed = pass(&b);
                if legal_moves(&passed).is_empty() {
                    break;
                }
                b = passed;
            } else {
                b = play(&b, moves[rng.below(moves.len())]).unwrap();
            }
        }
    }
}

/// An arbitrary board, not necessarily reachable: each square empty with a probability
/// drawn per board (so nearly empty and nearly full boards both occur), otherwise own or
/// opponent with a per-board bias (so one-coloured boards occur too).
pub fn random_board(rng: &mut Rng) -> RefBoard {
    let empty_pct = rng.below(101) as u64;
    let own_pct = rng.below(101) as u64;
    let mut b = [EMPTY; 64];
    for c in b.iter_mut() {
        *c = if rng.next_u64() % 100 < empty_pct {
            EMPTY
        } else if rng.next_u64() % 100 < own_pct {
            OWN
        } else {
            OPP
        };
    }
    b
}

// Bridge to finale's representation: bit copies only.

pub fn to_bits(b: &RefBoard) -> (u64, u64) {
    let (mut p, mut o) = (0u64, 0u64);
    for (sq, &c) in b.iter().enumerate() {
        match c {
            OWN => p |= 1 << sq,
            OPP => o |= 1 << sq,
            _ => {}
        }
    }
    (p, o)
}

pub fn to_board(b: &RefBoard) -> finale::Board {
    let (p, o) = to_bits(b);
    finale::Board::new(p, o)
}

pub fn from_board(board: finale::Board) -> RefBoard {
    let mut b = [EMPTY; 64];
    for (sq, c) in b.iter_mut().enumerate() {
        if board.player >> sq & 1 != 0 {
            *c = OWN;
        } else if board.opponent >> sq & 1 != 0 {
            *c = OPP;
        }
    }
    b
}

pub fn mask(squares: &[usize]) -> u64 {
    squares.iter().fold(0, |m, &sq| m | 1 << sq)
}

/// Compact one-line form for failure messages: OBF-like, side to move is `X`.
pub fn show(b: &RefBoard) -> String {
    b.iter()
        .map(|&c| match c {
            OWN => 'X',
            OPP => 'O',
            _ => '-',
        })
        .collect::<String>()
        + " X"
}

/// Like `random_game`, but once `late` or fewer squares are empty each move is, with
/// probability `greedy_pct`%, one leaving the opponent the fewest moves. Such play
/// forces passes and ends games with empty squares far more often than uniform play,
/// which seldom does.
pub fn squeezing_game(rng: &mut Rng, late: usize, greedy_pct: u64) -> Vec<RefBoard> {
    let mut b = start();
    let mut line = vec![b];
    loop {
        let moves = legal_moves(&b);
        if moves.is_empty() {
            let passed = pass(&b);
            if legal_moves(&passed).is_empty() {
                return line;
            }
            b = passed;
        } else if empties(&b) <= late && rng.next_u64() % 100 < greedy_pct {
            let children: Vec<RefBoard> = moves.iter().map(|&sq| play(&b, sq).unwrap()).collect();
            let fewest = children.iter().map(|c| legal_moves(c).len()).min().unwrap();
            let squeezing: Vec<&RefBoard> = children
                .iter()
                .filter(|c| legal_moves(c).len() == fewest)
                .collect();
            b = *squeezing[rng.below(squeezing.len())];
        } else {
            b = play(&b, moves[rng.below(moves.len())]).unwrap();
        }
        line.push(b);
    }
}

/// Inverse of `show` (the side to move is always `X` there).
pub fn parse(text: &str) -> RefBoard {
    let (squares, side) = text.split_once(' ').expect("64 squares, a space, X");
    assert_eq!(side, "X", "{text}");
    let mut b = [EMPTY; 64];
    assert_eq!(squares.len(), 64, "{text}");
    for (c, ch) in b.iter_mut().zip(squares.chars()) {
        *c = match ch {
            'X' => OWN,
            'O' => OPP,
            '-' => EMPTY,
            _ => panic!("bad square {ch} in {text}"),
        };
    }
    b
}

/// The value of `b` searched `depth` moves ahead by plain negamax, no pruning, with
/// finale's static evaluation `eval` at the leaves (evaluation units): a forced pass is not
/// counted as a move, a game found over before the leaves scores its disc difference, and
/// a leaf is evaluated even when the game ends there, as finale's evaluated search does (its
/// probcut error model was fitted so). The oracle of finale's evaluated search; only the
/// leaves call finale.
pub fn eval_negamax(eval: &finale::eval::Evaluator, b: &RefBoard, depth: u32) -> i32 {
    if depth == 0 {
        return eval.evaluate(&to_board(b));
    }
    if is_game_over(b) {
        return final_score(b) * finale::eval::UNITS_PER_DISC;
    }
    let moves = legal_moves(b);
    if moves.is_empty() {
        return -eval_negamax(eval, &pass(b), depth);
    }
    moves
        .iter()
        .map(|&m| -eval_negamax(eval, &play(b, m).expect("legal"), depth - 1))
        .max()
        .expect("a move")
}

/// Test positions with 1..=10 empties: `per_count` from random play for each number of
/// empties, then `passes` where the side to move must pass and `finished` games over
/// with empties left (both from squeezing play, which makes them common), plus a few full
/// boards; shuffled so that solves of different sizes and kinds alternate.
pub fn small_positions(
    rng: &mut Rng,
    per_count: usize,
    passes: usize,
    finished: usize,
) -> Vec<RefBoard> {
    let mut out = Vec::new();
    for n in 1..=10 {
        for _ in 0..per_count {
            out.push(random_position(rng, n));
        }
    }
    let (mut got_passes, mut got_finished, mut got_full) = (0, 0, 0);
    while got_passes < passes || got_finished < finished || got_full < 5 {
        let line = squeezing_game(rng, 20, 100);
        // At most one forced pass per game, for variety.
        if got_passes < passes
            && let Some(b) = line.iter().find(|b| {
                (1..=10).contains(&empties(b)) && legal_moves(b).is_empty() && !is_game_over(b)
            })
        {
            out.push(*b);
            got_passes += 1;
        }
        let last = *line.last().unwrap();
        let e = empties(&last);
        if (1..=10).contains(&e) && got_finished < finished {
            out.push(last);
            got_finished += 1;
        } else if e == 0 && got_full < 5 {
            out.push(last);
            got_full += 1;
        }
    }
    for i in (1..out.len()).rev() {
        out.swap(i, rng.below(i + 1));
    }
    out
}
