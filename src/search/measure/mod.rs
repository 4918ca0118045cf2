//! What a search measures of itself beyond its node count: the nodes per band
//! (`account.rs`, cargo feature `account`) and the work and span of a parallel search
//! (`span.rs`, cargo feature `span`). With both features off every type here is empty, so
//! measuring costs nothing. `Measure` is one thread's share.

pub mod account;
pub mod span;

/// One thread's measurements: nodes per band and work and span (empty without the
/// features).
#[derive(Default)]
pub(crate) struct Measure {
    /// Nodes per band, counted only with the `account` feature.
    pub(crate) counts: account::Counts,
    /// Work and span, accounted only with the `span` feature.
    pub(crate) span: span::Span,
}
