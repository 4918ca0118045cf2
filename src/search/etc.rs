//! Enhanced transposition cutoff: before searching any child, look each one up in the
//! table; a child already known to be bad enough for the opponent cuts at once.

use super::measure::account::Event;
use super::move_list::MoveList;
use super::state::Search;

impl Search<'_> {
    /// `Some((score, move))` when a child (of a node with `n` empties) has a stored upper
    /// bound `u` that proves `-u >= beta`.
    #[inline(always)]
    pub(crate) fn etc_cutoff(&mut self, list: &MoveList, beta: i32, n: u32) -> Option<(i32, u8)> {
        for mv in list {
            self.measure.counts.event(Event::EtcProbe, n);
            if let Some(h) = self.table(n - 1).probe(&mv.child) {
                self.measure.counts.event(Event::EtcHit, n);
                if h.level >= self.level && -h.upper >= beta {
                    self.measure.counts.event(Event::EtcCut, n);
                    return Some((-h.upper, mv.sq));
                }
            }
        }
        None
    }
}
