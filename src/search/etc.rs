//! Enhanced transposition cutoff: before searching any child, look each one up in the
//! table; a child already known to be bad enough for the opponent cuts at once.

use super::Search;
use super::endgame::MoveList;

impl Search<'_> {
    /// `Some((score, move))` when a child (of a node with `n` empties) has a stored upper
    /// bound `u` that proves `-u >= beta`.
    #[inline]
    pub(crate) fn etc_cutoff(&self, list: &MoveList, beta: i32, n: u32) -> Option<(i32, u8)> {
        let table = self.table(n - 1);
        for mv in list {
            if let Some(h) = table.probe(&mv.child)
                && h.level >= self.level
                && -h.upper >= beta
            {
                return Some((-h.upper, mv.sq));
            }
        }
        None
    }
}
