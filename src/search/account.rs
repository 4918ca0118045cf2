//! Where the nodes go: a count of nodes per band of the search (cargo feature `account`).
//!
//! With the feature off, counting a node is only the total's increment and
//! [`snapshot`] gives `None`, so the search costs what it did. With it on, every search
//! thread adds its counts to process-wide totals when it ends; the per-band account
//! (`results/speed/`) divides a profile's time per band by these counts.

/// A band of the search, by the function that counts the node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Band {
    /// The last 1-4 empties (and finished games): `last.rs`.
    Last = 0,
    /// `shallow.rs`, 5 ..= `SHALLOW_MAX_EMPTIES` empties.
    Shallow = 1,
    /// `endgame.rs` with this thread's local table (up to `LOCAL_TABLE_MAX_EMPTIES`).
    EndgameLocal = 2,
    /// `endgame.rs` with the shared table, and the root.
    EndgameShared = 3,
    /// The evaluated searches that order moves and decide probcut (`evaluated.rs`).
    Evaluated = 4,
}

/// Number of bands.
pub const BANDS: usize = 5;

/// Names of the bands, in [`Band`] order.
pub const BAND_NAMES: [&str; BANDS] = [
    "last 1-4",
    "shallow",
    "endgame (local table)",
    "endgame (shared table)",
    "ordering and probcut searches",
];

/// One search thread's counts.
#[derive(Default)]
pub(crate) struct Counts {
    #[cfg(feature = "account")]
    nodes: [u64; BANDS],
}

impl Counts {
    /// Counts `k` nodes of `band` (negative: takes back nodes counted too early).
    #[inline(always)]
    pub(crate) fn add(&mut self, band: Band, k: i64) {
        #[cfg(feature = "account")]
        {
            self.nodes[band as usize] = self.nodes[band as usize].wrapping_add(k as u64);
        }
        #[cfg(not(feature = "account"))]
        let _ = (band, k);
    }
}

#[cfg(feature = "account")]
static TOTALS: [std::sync::atomic::AtomicU64; BANDS] =
    [const { std::sync::atomic::AtomicU64::new(0) }; BANDS];

#[cfg(feature = "account")]
impl Drop for Counts {
    fn drop(&mut self) {
        for (t, n) in TOTALS.iter().zip(self.nodes) {
            t.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// Nodes per band counted by every search that has ended so far, in [`Band`] order; `None`
/// when finale was built without the `account` feature.
pub fn snapshot() -> Option<[u64; BANDS]> {
    #[cfg(feature = "account")]
    {
        Some(std::array::from_fn(|i| {
            TOTALS[i].load(std::sync::atomic::Ordering::Relaxed)
        }))
    }
    #[cfg(not(feature = "account"))]
    None
}
