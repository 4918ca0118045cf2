//! Real positions in training (`finale train --real F.obf`): positions of tournament games,
//! as `finale games` writes them, trained on beside the self-play positions. A line that
//! gives its score (alone, as a game's theoretical score at its depth, or as its best
//! listed move's) is labelled by that score; the others are labelled as self-play
//! positions are.

use super::self_play::Sample;
use crate::board::parse::ObfRecord;

/// Real positions to train on, and the files they were read from (named in the weight
/// file's command line).
#[derive(Clone, Debug, Default)]
pub struct RealPositions {
    /// The files, as given.
    pub files: Vec<String>,
    /// Their positions, numbered from 0 (the run renumbers them after its games).
    pub samples: Vec<Sample>,
}

impl RealPositions {
    /// The positions of `files`' records, each file's in order.
    pub fn from_records(files: Vec<(String, Vec<ObfRecord>)>) -> RealPositions {
        let mut out = RealPositions::default();
        for (name, records) in files {
            out.files.push(name);
            let more = real_samples(&records, 0);
            out.samples.extend(more);
        }
        out
    }
}

/// The training samples of `records`, numbered from `first_game` in record order (so that
/// one in ten, numbered 9 mod 10, is held out of the fit to stop it, as self-play games
/// are). A side to move without a legal move passes (its score negated); a finished game
/// is left out, having nothing to learn from.
pub fn real_samples(records: &[ObfRecord], first_game: u32) -> Vec<Sample> {
    let mut out = Vec::with_capacity(records.len());
    for r in records {
        let mut board = r.position.board;
        let mut known = r.expected_score();
        if board.moves() == 0 {
            board = board.pass();
            known = known.map(|s| -s);
            if board.moves() == 0 {
                continue;
            }
        }
        out.push(Sample {
            game: first_game.wrapping_add(out.len() as u32),
            board,
            known: known.map(|s| s as i8),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse::parse_obf_line;

    fn record(line: &str) -> ObfRecord {
        parse_obf_line(line).unwrap().unwrap()
    }

    #[test]
    fn a_score_alone_labels_the_position_and_a_pass_negates_it() {
        // WTHOR 2010 game 1 at 24 empties, its theoretical score for black to move.
        let a = record("--O-X------O-O--XXXOOOOOXXOOOOOOXXOOOOOOXXXOOOOO--XXO------X---- X; +8;");
        // White has no move here (independent: every empty square checked by hand below);
        // black, to move after the pass, has.
        let b = record("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO--- O; -4;");
        let c = record("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX O;");
        let s = real_samples(&[a.clone(), b.clone(), c], 10);
        assert_eq!(s.len(), 2, "the finished game is left out");
        assert_eq!((s[0].game, s[0].known), (10, Some(8)));
        assert_eq!(s[0].board, a.position.board);
        // After white's pass black is to move: the score is black's, +4.
        assert_eq!((s[1].game, s[1].known), (11, Some(4)));
        assert_eq!(s[1].board.player, b.position.board.opponent);
        let line = record("--O-X------O-O--XXXOOOOOXXOOOOOOXXOOOOOOXXXOOOOO--XXO------X---- X;");
        assert_eq!(real_samples(&[line], 0)[0].known, None);
    }
}
