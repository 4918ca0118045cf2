//! The search's entry points, compiled once per kernel set with that set's CPU features.
//!
//! The band functions (`endgame.rs`, `shallow.rs`, `last.rs`, `evaluated.rs`) are generic
//! over a kernel set `K` and always inlined; each one a node calls without inlining is
//! reached through `K`'s entry here, a function compiled with `K`'s features, so that
//! the kernels and everything around them become vector code (and `count_ones` a
//! `popcnt`) in that copy. Recursion goes from entry to entry of the same set: the set is
//! chosen once per search (`Search::search`), never per node.
//!
//! Safety: an entry of a set may run only on a CPU that has the set's features. Searches
//! take their set from `SearchOptions::kernels`, which holds only sets the CPU has
//! ([`Isa::chosen`], or a set checked with [`Isa::supported`]).

use super::Search;
#[cfg(target_arch = "x86_64")]
use crate::board::kernels::{Avx2, Avx512};
use crate::board::kernels::{Kernels, Portable};
use crate::board::{Board, Square};
use crate::eval::{Evaluator, FeatureState};

/// A kernel set's copies of the search functions that are called, not inlined.
pub(crate) trait Entries: Kernels + Sized {
    /// `Search::search_endgame`.
    fn endgame(s: &mut Search<'_>, b: Board, alpha: i32, beta: i32, n: u32) -> i32;
    /// `Search::search_rest`.
    fn rest(
        s: &mut Search<'_>,
        b: Board,
        moves: u64,
        alpha: i32,
        beta: i32,
        n: u32,
        searched: usize,
    ) -> Option<(i32, u8)>;
    /// `Search::search_shallow`.
    fn shallow(s: &mut Search<'_>, b: Board, alpha: i32, beta: i32, n: u32) -> i32;
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
    #[allow(clippy::too_many_arguments)]
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

macro_rules! entries {
    ($set:ty $(, $features:literal)?) => {
        impl Entries for $set {
            #[inline(always)]
            fn endgame(s: &mut Search<'_>, b: Board, alpha: i32, beta: i32, n: u32) -> i32 {
                $(#[target_feature(enable = $features)])?
                unsafe fn f(s: &mut Search<'_>, b: Board, alpha: i32, beta: i32, n: u32) -> i32 {
                    s.search_endgame::<$set>(b, alpha, beta, n)
                }
                // SAFETY: the set's features are present (module comment).
                unsafe { f(s, b, alpha, beta, n) }
            }

            #[inline(always)]
            fn rest(
                s: &mut Search<'_>,
                b: Board,
                moves: u64,
                alpha: i32,
                beta: i32,
                n: u32,
                searched: usize,
            ) -> Option<(i32, u8)> {
                $(#[target_feature(enable = $features)])?
                unsafe fn f(
                    s: &mut Search<'_>,
                    b: Board,
                    moves: u64,
                    alpha: i32,
                    beta: i32,
                    n: u32,
                    searched: usize,
                ) -> Option<(i32, u8)> {
                    s.search_rest::<$set>(b, moves, alpha, beta, n, searched)
                }
                // SAFETY: as above.
                unsafe { f(s, b, moves, alpha, beta, n, searched) }
            }

            #[inline(always)]
            fn shallow(s: &mut Search<'_>, b: Board, alpha: i32, beta: i32, n: u32) -> i32 {
                $(#[target_feature(enable = $features)])?
                unsafe fn f(s: &mut Search<'_>, b: Board, alpha: i32, beta: i32, n: u32) -> i32 {
                    s.search_shallow::<$set>(b, alpha, beta, n)
                }
                // SAFETY: as above.
                unsafe { f(s, b, alpha, beta, n) }
            }

            #[inline(always)]
            fn last(s: &mut Search<'_>, b: Board, alpha: i32, beta: i32, n: u32) -> i32 {
                $(#[target_feature(enable = $features)])?
                unsafe fn f(s: &mut Search<'_>, b: Board, alpha: i32, beta: i32, n: u32) -> i32 {
                    s.solve_last::<$set>(b, alpha, beta, n)
                }
                // SAFETY: as above.
                unsafe { f(s, b, alpha, beta, n) }
            }

            #[inline(always)]
            fn last_3<const PASSED: bool>(
                s: &mut Search<'_>,
                b: Board,
                alpha: i32,
                beta: i32,
                sq: [Square; 3],
            ) -> i32 {
                $(#[target_feature(enable = $features)])?
                unsafe fn f<const PASSED: bool>(
                    s: &mut Search<'_>,
                    b: Board,
                    alpha: i32,
                    beta: i32,
                    sq: [Square; 3],
                ) -> i32 {
                    s.solve_last_3::<$set, PASSED>(b, alpha, beta, sq)
                }
                // SAFETY: as above.
                unsafe { f::<PASSED>(s, b, alpha, beta, sq) }
            }

            #[inline(always)]
            fn evaluated(
                s: &mut Search<'_>,
                eval: &Evaluator,
                b: Board,
                state: &FeatureState,
                alpha: i32,
                beta: i32,
                depth: u32,
            ) -> i32 {
                $(#[target_feature(enable = $features)])?
                unsafe fn f(
                    s: &mut Search<'_>,
                    eval: &Evaluator,
                    b: Board,
                    state: &FeatureState,
                    alpha: i32,
                    beta: i32,
                    depth: u32,
                ) -> i32 {
                    s.evaluated::<$set>(eval, b, state, alpha, beta, depth)
                }
                // SAFETY: as above.
                unsafe { f(s, eval, b, state, alpha, beta, depth) }
            }

        }
    };
}

entries!(Portable);
#[cfg(target_arch = "x86_64")]
entries!(Avx2, "avx2,bmi1,bmi2,popcnt,lzcnt");
#[cfg(target_arch = "x86_64")]
entries!(
    Avx512,
    "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512cd,avx512vl,avx512bw"
);

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
