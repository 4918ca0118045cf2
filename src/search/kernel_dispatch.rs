//! The search's entry points, compiled once per kernel set with that set's CPU features.
//!
//! The band functions (`endgame.rs`, `shallow.rs`, `last.rs`, `evaluated.rs`) are generic
//! over a kernel set `K` and always inlined; each one a node calls without inlining is
//! reached through `K`'s entry here, a function compiled with `K`'s features, so that
//! the kernels and everything around them become vector code (and `count_ones` a
//! `popcnt`) in that copy. Recursion goes from entry to entry of the same set: the set is
//! chosen once per search (`Search::search`), never per node.
//!
//! [`Search::search`] is the way in: it chooses the set and sends each node to its band.
//! A search that records probcut's boards for training runs on a set of its own
//! ([`Sampling`]), chosen there too, so that the hook costs other searches nothing.
//!
//! Safety: an entry of a set may run only on a CPU that has the set's features. Searches
//! take their set from `SearchOptions::kernels`, which holds only sets the CPU has
//! ([`Isa::chosen`], or a set checked with [`Isa::supported`]).

use super::state::Search;
#[cfg(target_arch = "x86_64")]
use crate::board::kernels::{Avx2, Avx512};
use crate::board::kernels::{Isa, Kernels, Portable};
use crate::board::{Board, Square};
use crate::eval::{Evaluator, FeatureState};
use crate::settings::SHALLOW_MAX_EMPTIES;

/// A kernel set's copies of the search functions that are called, not inlined.
pub(crate) trait Entries: Kernels + Sized {
    /// True for the one set that records where probcut is tried ([`Sampling`]).
    const SAMPLES: bool;
    /// `Search::search_in`: the way into a subtree (a root move, a split point's sibling).
    fn search(s: &mut Search<'_>, b: Board, alpha: i32, beta: i32, n: u32) -> i32;
    /// `Search::search_endgame`.
    fn endgame(s: &mut Search<'_>, b: Board, moves: u64, alpha: i32, beta: i32, n: u32) -> i32;
    /// `Search::search_rest`, with the split rules when `SPLITS`, in the window (alpha,
    /// beta).
    fn rest<const SPLITS: bool>(
        s: &mut Search<'_>,
        b: Board,
        moves: u64,
        window: (i32, i32),
        n: u32,
        searched: usize,
        tt_move: Option<Square>,
    ) -> Option<(i32, u8)>;
    /// `Search::search_shallow`.
    fn shallow(s: &mut Search<'_>, b: Board, moves: u64, alpha: i32, beta: i32, n: u32) -> i32;
    /// `Search::solve_last`.
    fn last(s: &mut Search<'_>, b: Board, alpha: i32, beta: i32, n: u32) -> i32;
    /// `Search::solve_last_3`.
    fn last_3<const PASSED: bool>(
        s: &mut Search<'_>,
        b: Board,
        alpha: i32,
        beta: i32,
        sq: [Square; 3],
    ) -> i32;
    /// `Search::evaluated`.
    fn evaluated(
        s: &mut Search<'_>,
        eval: &Evaluator,
        b: Board,
        state: &FeatureState,
        alpha: i32,
        beta: i32,
        depth: u32,
    ) -> i32;
}

/// One entry of a kernel set: the trait method, and inside it the function compiled with
/// the set's features that calls the band method (`method`, always inlined into it).
macro_rules! entry {
    (
        $set:ty, [$($features:literal)?],
        fn $name:ident<$(const $c:ident: $ct:ty)?>(s $(, $arg:ident: $ty:ty)*) -> $ret:ty
        => $method:ident
    ) => {
        #[inline(always)]
        fn $name<$(const $c: $ct)?>(s: &mut Search<'_> $(, $arg: $ty)*) -> $ret {
            $(#[target_feature(enable = $features)])?
            unsafe fn f<$(const $c: $ct)?>(s: &mut Search<'_> $(, $arg: $ty)*) -> $ret {
                s.$method::<$set $(, $c)?>($($arg),*)
            }
            // SAFETY: the set's features are present (module comment).
            unsafe { f::<$($c)?>(s $(, $arg)*) }
        }
    };
}

/// The entries of kernel set `$set`, compiled with `$features` (none: portable).
macro_rules! entries {
    ($set:ty, samples: $samples:literal $(, $features:literal)?) => {
        impl Entries for $set {
            const SAMPLES: bool = $samples;
            entry!($set, [$($features)?],
                fn search<>(s, b: Board, alpha: i32, beta: i32, n: u32) -> i32
                => search_in);
            entry!($set, [$($features)?],
                fn endgame<>(s, b: Board, moves: u64, alpha: i32, beta: i32, n: u32) -> i32
                => search_endgame);
            entry!($set, [$($features)?],
                fn rest<const SPLITS: bool>(s, b: Board, moves: u64, window: (i32, i32), n: u32, searched: usize,
                    tt_move: Option<Square>)
                    -> Option<(i32, u8)>
                => search_rest);
            entry!($set, [$($features)?],
                fn shallow<>(s, b: Board, moves: u64, alpha: i32, beta: i32, n: u32) -> i32
                => search_shallow);
            entry!($set, [$($features)?],
                fn last<>(s, b: Board, alpha: i32, beta: i32, n: u32) -> i32
                => solve_last);
            entry!($set, [$($features)?],
                fn last_3<const PASSED: bool>(s, b: Board, alpha: i32, beta: i32, sq: [Square; 3])
                    -> i32
                => solve_last_3);
            entry!($set, [$($features)?],
                fn evaluated<>(
                    s, eval: &Evaluator, b: Board, state: &FeatureState, alpha: i32, beta: i32,
                    depth: u32
                ) -> i32
                => evaluated);
        }
    };
}

entries!(Portable, samples: false);
entries!(Sampling, samples: true);
#[cfg(target_arch = "x86_64")]
entries!(Avx2, samples: false, "avx2,bmi1,bmi2,popcnt,lzcnt");
#[cfg(target_arch = "x86_64")]
entries!(
    Avx512,
    samples: false,
    "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512cd,avx512vl,avx512bw"
);

/// The portable set, recording the boards where probcut is tried into the search's
/// [`ProbcutSamples`](super::selectivity::samples::ProbcutSamples): training's hook, in a
/// set of its own so that no other search looks for it. Its nodes are the portable set's,
/// which are every set's.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sampling;

impl Kernels for Sampling {
    const ISA: Isa = Isa::Portable;
    #[inline(always)]
    fn legal_moves(p: u64, o: u64) -> u64 {
        Portable::legal_moves(p, o)
    }
    #[inline(always)]
    fn flips(p: u64, o: u64, sq: Square) -> u64 {
        Portable::flips(p, o, sq)
    }
    #[inline(always)]
    fn count_last_flips(p: u64, sq: Square) -> u32 {
        Portable::count_last_flips(p, sq)
    }
}

/// Calls `$body` with `$k` the kernel set type of `$isa`.
macro_rules! with_kernels {
    ($isa:expr, $k:ident => $body:expr) => {
        match $isa {
            #[cfg(target_arch = "x86_64")]
            $crate::board::kernels::Isa::Avx512 => {
                type $k = $crate::board::kernels::Avx512;
                $body
            }
            #[cfg(target_arch = "x86_64")]
            $crate::board::kernels::Isa::Avx2 => {
                type $k = $crate::board::kernels::Avx2;
                $body
            }
            #[allow(unreachable_patterns)]
            _ => {
                type $k = $crate::board::kernels::Portable;
                $body
            }
        }
    };
}
pub(crate) use with_kernels;

impl Search<'_> {
    /// Exact score of `b` (with `n` empties) within (`alpha`, `beta`), fail-soft:
    /// a result `<= alpha` is an upper bound, `>= beta` a lower bound. Runs on the kernel
    /// set of the options, chosen here once for the whole subtree, through the set's
    /// entry: inlined here, without the set's features, the move generation's vector
    /// kernels became calls, 1.6 % of the CPU time at two threads, where every split
    /// point's sibling comes in this way (perf, FFO #50).
    pub(crate) fn search(&mut self, b: Board, alpha: i32, beta: i32, n: u32) -> i32 {
        if self.samples.is_some() {
            return Sampling::search(self, b, alpha, beta, n);
        }
        with_kernels!(self.options.kernels, K => K::search(self, b, alpha, beta, n))
    }

    /// [`Search::search`] on kernel set `K`.
    #[inline(always)]
    pub(crate) fn search_in<K: Entries>(&mut self, b: Board, alpha: i32, beta: i32, n: u32) -> i32 {
        if n > 4 {
            let moves = K::legal_moves(b.player, b.opponent);
            self.search_child_in::<K>(b, moves, alpha, beta, n)
        } else {
            K::last(self, b, alpha, beta, n)
        }
    }

    /// As [`Self::search_in`], given the legal moves of `b`'s side to move (computed by
    /// the parent's ordering). Only the bands above the last four take them.
    #[inline(always)]
    pub(crate) fn search_child_in<K: Entries>(
        &mut self,
        b: Board,
        moves: u64,
        alpha: i32,
        beta: i32,
        n: u32,
    ) -> i32 {
        if n > SHALLOW_MAX_EMPTIES {
            K::endgame(self, b, moves, alpha, beta, n)
        } else if n > 4 {
            K::shallow(self, b, moves, alpha, beta, n)
        } else {
            K::last(self, b, alpha, beta, n)
        }
    }
}

/// The features string of each set must match `Isa::features` (the entries above take
/// them as literals).
#[cfg(test)]
mod tests {
    use crate::board::kernels::Isa;

    #[test]
    fn entry_features_match_the_sets() {
        assert_eq!(
            Isa::Avx2.features().join(","),
            "avx2,bmi1,bmi2,popcnt,lzcnt"
        );
        assert_eq!(
            Isa::Avx512.features().join(","),
            "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512cd,avx512vl,avx512bw"
        );
    }
}
