//! Work and span of a search (cargo feature `span`): how much of it could run at once.
//!
//! A span build searches on one thread, in the order one thread does, but decides every
//! split by the rules of P threads (`--threads P --oversubscribe` sets P; the rules are the
//! search's own: `Search::should_split` below the root, `root_should_split` at it).
//! Where P threads would share out the younger moves of a node, this thread searches them
//! one after another and charges the node, not their sum, but the longest of them:
//!
//! - the work W is every node searched, the same count as one thread's;
//! - the span S is the nodes of the longest chain that must run one after another with
//!   unlimited threads: a node's own cost (its ordering and probcut searches included,
//!   in turn; with many threads a deep node's ordering searches are a split of their
//!   own, `Search::share_out_all`), then its children's spans, summed where they run in
//!   turn (the eldest, the moves of a node that does not split, a re-search after its
//!   null-window search, pass after pass, probe after probe at the root), and at a split
//!   the longest of the siblings shared out.
//!
//! Kept as nodes that the splits saved from the chain: S = W - saved. At a split each
//! sibling's own span is its nodes less what splits inside it saved; the split saves the
//! sum of those spans less the longest. With the feature off every type here is empty and
//! every function does nothing, so the search is what it was.

use crate::search::selectivity::level::Level;

/// One search's account: the nodes splits took off the chain, the splits, and where each
/// pass at the root ended.
#[derive(Clone, Debug, Default)]
pub(crate) struct Span {
    /// Decide splits by P threads' rules but search in turn, on this thread.
    #[cfg(feature = "span")]
    pub(crate) in_turn: bool,
    #[cfg(feature = "span")]
    saved: u64,
    #[cfg(feature = "span")]
    splits: u64,
    #[cfg(feature = "span")]
    passes: Vec<PassSpan>,
}

/// Work and span of a solve from its start to the end of one of its passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassSpan {
    /// The pass's level.
    pub level: Level,
    /// Nodes searched since the solve started.
    pub work: u64,
    /// The span since the solve started.
    pub span: u64,
}

/// Work, span and splits of one solve (a span build's record, see [`records`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpanReport {
    /// Empty squares of the position solved.
    pub empties: u32,
    /// The work: every node searched.
    pub work: u64,
    /// The span: the nodes of the longest chain that must run in turn.
    pub span: u64,
    /// Splits P threads would have made: nodes whose younger moves (or, with many
    /// threads, whose ordering searches) they would have shared out.
    pub splits: u64,
    /// The account at the end of each pass, in order: the passes run in turn, so each
    /// one's own work and span are the differences.
    pub passes: Vec<PassSpan>,
}

impl SpanReport {
    /// The parallelism W / S: the most threads that could be kept busy on average.
    pub fn parallelism(&self) -> f64 {
        self.work as f64 / self.span.max(1) as f64
    }
}

/// The siblings of one split so far: where the one being searched began, and the sum and
/// longest of the spans of those done.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SplitSpan {
    #[cfg(feature = "span")]
    nodes_at: u64,
    #[cfg(feature = "span")]
    saved_at: u64,
    #[cfg(feature = "span")]
    sum: u64,
    #[cfg(feature = "span")]
    longest: u64,
}

impl Span {
    /// True when splits are searched in turn and accounted (a span build with P > 1);
    /// always false without the feature, so the code behind it compiles away.
    #[inline(always)]
    pub(crate) fn in_turn(&self) -> bool {
        #[cfg(feature = "span")]
        {
            self.in_turn
        }
        #[cfg(not(feature = "span"))]
        false
    }

    /// The account of a search that ended having searched `work` nodes from the position
    /// of `empties` empties; `None` without the feature.
    pub(crate) fn report(&self, empties: u32, work: u64) -> Option<SpanReport> {
        #[cfg(feature = "span")]
        {
            Some(SpanReport {
                empties,
                work,
                span: work - self.saved,
                splits: self.splits,
                passes: self.passes.clone(),
            })
        }
        #[cfg(not(feature = "span"))]
        {
            let _ = (empties, work);
            None
        }
    }
}

impl Span {
    /// Marks the end of a pass at `level`, `nodes` searched since the solve started.
    pub(crate) fn pass_finished(&mut self, level: Level, nodes: u64) {
        #[cfg(feature = "span")]
        self.passes.push(PassSpan {
            level,
            work: nodes,
            span: nodes - self.saved,
        });
        #[cfg(not(feature = "span"))]
        let _ = (level, nodes);
    }

    /// Starts the siblings of a split at node count `nodes`: the first begins now.
    #[inline(always)]
    pub(crate) fn split_begin(&self, nodes: u64) -> SplitSpan {
        #[cfg(feature = "span")]
        {
            SplitSpan {
                nodes_at: nodes,
                saved_at: self.saved,
                sum: 0,
                longest: 0,
            }
        }
        #[cfg(not(feature = "span"))]
        {
            let _ = nodes;
            SplitSpan::default()
        }
    }

    /// Ends the sibling being searched at node count `nodes` (a null-window search and its
    /// re-search are one sibling); the next begins now.
    #[inline(always)]
    pub(crate) fn split_next(&self, split: &mut SplitSpan, nodes: u64) {
        #[cfg(feature = "span")]
        {
            let own = (nodes - split.nodes_at) - (self.saved - split.saved_at);
            split.sum += own;
            split.longest = split.longest.max(own);
            split.nodes_at = nodes;
            split.saved_at = self.saved;
        }
        #[cfg(not(feature = "span"))]
        let _ = (split, nodes);
    }

    /// Ends the last sibling and the split at node count `nodes`: the chain keeps only
    /// the longest sibling.
    #[inline(always)]
    pub(crate) fn split_end(&mut self, mut split: SplitSpan, nodes: u64) {
        self.split_next(&mut split, nodes);
        #[cfg(feature = "span")]
        {
            self.saved += split.sum - split.longest;
            self.splits += 1;
        }
    }
}

#[cfg(feature = "span")]
static RECORDS: std::sync::Mutex<Vec<SpanReport>> = std::sync::Mutex::new(Vec::new());

/// Keeps the account of a finished solve for [`records`] (nothing without the feature).
pub(crate) fn record(report: Option<SpanReport>) {
    #[cfg(feature = "span")]
    if let Some(r) = report {
        RECORDS.lock().unwrap_or_else(|e| e.into_inner()).push(r);
    }
    #[cfg(not(feature = "span"))]
    let _ = report;
}

/// The account of every solve finished so far, in the order they finished; `None` when
/// finale was built without the `span` feature.
pub fn records() -> Option<Vec<SpanReport>> {
    #[cfg(feature = "span")]
    {
        Some(RECORDS.lock().unwrap_or_else(|e| e.into_inner()).clone())
    }
    #[cfg(not(feature = "span"))]
    None
}

#[cfg(test)]
#[cfg(feature = "span")]
mod tests {
    use super::*;
    use crate::search::measure::account::Band;
    use crate::search::options::{EvalRef, SearchOptions};
    use crate::search::state::Search;
    use crate::search::table::TranspositionTable;

    /// A hand-built search tree: a node, whether it shares out its children after the
    /// eldest, and its children.
    struct Tree {
        split: bool,
        children: Vec<Tree>,
    }

    /// Walks `t` as the search does: the node counted, the eldest searched, then at a split
    /// the younger siblings each opened with `split_next`.
    fn walk(s: &mut Search, t: &Tree) {
        s.count_node(Band::Last);
        let Some((eldest, younger)) = t.children.split_first() else {
            return;
        };
        walk(s, eldest);
        if t.split && !younger.is_empty() {
            let mut split = s.measure.span.split_begin(s.nodes);
            for (i, c) in younger.iter().enumerate() {
                if i > 0 {
                    s.measure.span.split_next(&mut split, s.nodes);
                }
                walk(s, c);
            }
            s.measure.span.split_end(split, s.nodes);
        } else {
            for c in younger {
                walk(s, c);
            }
        }
    }

    /// The definition, independently: (work, span, splits).
    fn reference(t: &Tree) -> (u64, u64, u64) {
        let kids: Vec<_> = t.children.iter().map(reference).collect();
        let work = 1 + kids.iter().map(|k| k.0).sum::<u64>();
        let splits = kids.iter().map(|k| k.2).sum::<u64>();
        match kids.split_first() {
            Some((eldest, younger)) if t.split && !younger.is_empty() => {
                let longest = younger.iter().map(|k| k.1).max().unwrap_or(0);
                (work, 1 + eldest.1 + longest, splits + 1)
            }
            _ => (work, 1 + kids.iter().map(|k| k.1).sum::<u64>(), splits),
        }
    }

    /// A tree from a seed: up to `depth` levels, 0-4 children a node, some nodes split.
    fn random_tree(seed: &mut u64, depth: u32) -> Tree {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let r = *seed >> 33;
        let children = if depth == 0 { 0 } else { r % 5 };
        Tree {
            split: r & 0x100 != 0,
            children: (0..children)
                .map(|_| random_tree(seed, depth - 1))
                .collect(),
        }
    }

    fn account(t: &Tree) -> SpanReport {
        let tt = TranspositionTable::new(0);
        let options = SearchOptions {
            tt: false,
            eval: EvalRef(None),
            ..SearchOptions::default()
        };
        let mut s = Search::new(&tt, &options);
        s.measure.span.in_turn = true;
        walk(&mut s, t);
        s.measure.span.report(0, s.nodes).expect("a span build")
    }

    fn leaf() -> Tree {
        Tree {
            split: false,
            children: Vec::new(),
        }
    }

    #[test]
    fn a_split_keeps_the_eldest_and_the_longest_younger_sibling() {
        // Root splits after its eldest (1 node); the younger ones are a chain of 3 and a
        // leaf: span 1 + 1 + 3 = 5, work 1 + 1 + 3 + 1 = 6.
        let chain = Tree {
            split: false,
            children: vec![Tree {
                split: false,
                children: vec![leaf()],
            }],
        };
        let t = Tree {
            split: true,
            children: vec![leaf(), chain, leaf()],
        };
        let r = account(&t);
        assert_eq!((r.work, r.span, r.splits), (6, 5, 1));
        // Without the split every node is in turn.
        let t = Tree { split: false, ..t };
        assert_eq!(account(&t).span, 6);
    }

    #[test]
    fn nested_splits_add_up_as_the_definition_says() {
        let mut seed = 47;
        for _ in 0..200 {
            let t = random_tree(&mut seed, 6);
            let r = account(&t);
            assert_eq!((r.work, r.span, r.splits), reference(&t));
        }
    }
}
