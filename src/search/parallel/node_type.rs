//! The type a node is expected to have in a root probe's null-window tree, for deciding
//! splits: an all-node (every move fails low) must search all its moves, so sharing them
//! out after the eldest wastes nothing, even when the evaluation ordering says a younger
//! one comes near alpha.
//!
//! Below a root move expected to reach beta, the child is an all-node, its children
//! cut-nodes, and so on down, alternating; below a root move expected to fall short, the
//! child is a cut-node. Every move takes one empty square, so the type of a node of `n`
//! empties is the parity of `n` (a pass breaks the alternation for the rest of its
//! subtree; it is rare, and only decides splits, never a value).

/// Which nodes of a root move's subtree are expected to be all-nodes: those whose empties
/// have this parity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct AllNodes(Option<u32>);

impl AllNodes {
    /// None expected (outside a root probe, or a search that never splits).
    pub(crate) const NONE: AllNodes = AllNodes(None);

    /// Below the root move searched into `child_empties`: an all-node child when the move
    /// is expected to reach beta (the first one a probe searches), else a cut-node child.
    pub(crate) fn below_root_move(child_empties: u32, expected_to_reach: bool) -> AllNodes {
        let all_at = if expected_to_reach {
            child_empties
        } else {
            child_empties + 1
        };
        AllNodes(Some(all_at % 2))
    }

    /// True when a node of `n` empties is expected to be an all-node.
    #[inline(always)]
    pub(crate) fn expects_all(self, n: u32) -> bool {
        self.0 == Some(n % 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_types_alternate_down_from_the_root_move() {
        // A root of 30 empties: the first move's child (29) is an all-node, its children
        // (28) cut-nodes, their children (27) all-nodes.
        let first = AllNodes::below_root_move(29, true);
        assert!(first.expects_all(29));
        assert!(!first.expects_all(28));
        assert!(first.expects_all(27));
        // A move expected to fall short: its child (29) is a cut-node, the next (28) all.
        let later = AllNodes::below_root_move(29, false);
        assert!(!later.expects_all(29));
        assert!(later.expects_all(28));
        assert!(!AllNodes::NONE.expects_all(28) && !AllNodes::NONE.expects_all(29));
    }
}
