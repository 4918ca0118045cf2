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

/// Something the endgame band does at a node, counted per number of empties: whether
/// a probe or a cutoff test pays is read off these (a probe that never hits at some
/// depth costs there for nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A node probes the table.
    Probe = 0,
    /// The probe finds the board.
    ProbeHit = 1,
    /// The entry's bounds end the node.
    ProbeCut = 2,
    /// Enhanced transposition cutoff probes a child (counted at the parent's empties).
    EtcProbe = 3,
    /// The child's probe finds it.
    EtcHit = 4,
    /// A child's bound ends the node.
    EtcCut = 5,
    /// The stability cutoff's stable discs are counted.
    StabilityTry = 6,
    /// The stable discs end the node.
    StabilityCut = 7,
    /// The first move searched (the table's move, or the first of the ordered list)
    /// reaches beta: the ordering found a cutting move at once.
    CutFirst = 8,
    /// A later move reaches beta: the ordering put a weaker move first.
    CutLater = 9,
    /// Not a count but a sum of nodes: those spent on the table's move at nodes where it
    /// fell short and a later move reached beta (what a right table move would have saved).
    TableMoveWaste = 10,
    /// A sum of nodes: those spent on ordered moves searched before the one that reached
    /// beta (what a perfect ordering of the list would have saved). Nodes that share out
    /// their moves to other threads are not summed.
    OrderedWaste = 11,
}

/// Number of events.
pub const EVENTS: usize = 12;

/// Names of the events, in [`Event`] order.
pub const EVENT_NAMES: [&str; EVENTS] = [
    "probe",
    "probe hit",
    "probe cut",
    "etc probe",
    "etc hit",
    "etc cut",
    "stability try",
    "stability cut",
    "cut first",
    "cut later",
    "table waste",
    "ordered waste",
];

/// One search thread's counts.
#[cfg_attr(not(feature = "account"), derive(Default))]
pub(crate) struct Counts {
    #[cfg(feature = "account")]
    nodes: [u64; BANDS],
    #[cfg(feature = "account")]
    events: Box<[[u64; 65]; EVENTS]>,
}

#[cfg(feature = "account")]
impl Default for Counts {
    fn default() -> Self {
        Counts {
            nodes: [0; BANDS],
            events: Box::new([[0; 65]; EVENTS]),
        }
    }
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

    /// Counts one `event` at a node of `n` empties.
    #[inline(always)]
    pub(crate) fn event(&mut self, event: Event, n: u32) {
        self.event_sum(event, n, 1);
    }

    /// Adds `k` to `event`'s sum at nodes of `n` empties (the waste events sum nodes).
    #[inline(always)]
    pub(crate) fn event_sum(&mut self, event: Event, n: u32, k: u64) {
        #[cfg(feature = "account")]
        {
            self.events[event as usize][n as usize] += k;
        }
        #[cfg(not(feature = "account"))]
        let _ = (event, n, k);
    }
}

#[cfg(feature = "account")]
static TOTALS: [std::sync::atomic::AtomicU64; BANDS] =
    [const { std::sync::atomic::AtomicU64::new(0) }; BANDS];

#[cfg(feature = "account")]
static EVENT_TOTALS: [[std::sync::atomic::AtomicU64; 65]; EVENTS] =
    [const { [const { std::sync::atomic::AtomicU64::new(0) }; 65] }; EVENTS];

#[cfg(feature = "account")]
impl Drop for Counts {
    fn drop(&mut self) {
        use std::sync::atomic::Ordering::Relaxed;
        for (t, n) in TOTALS.iter().zip(self.nodes) {
            t.fetch_add(n, Relaxed);
        }
        for (t, e) in EVENT_TOTALS.iter().zip(self.events.iter()) {
            for (t, n) in t.iter().zip(e) {
                t.fetch_add(*n, Relaxed);
            }
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

/// Events counted by every search that has ended so far, `[event][empties]` in [`Event`]
/// order; `None` when finale was built without the `account` feature.
pub fn event_snapshot() -> Option<[[u64; 65]; EVENTS]> {
    #[cfg(feature = "account")]
    {
        Some(std::array::from_fn(|e| {
            std::array::from_fn(|n| EVENT_TOTALS[e][n].load(std::sync::atomic::Ordering::Relaxed))
        }))
    }
    #[cfg(not(feature = "account"))]
    None
}
