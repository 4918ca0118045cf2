//! The root of a solve: what it is asked for and answers (`answer.rs`), the pass schedule
//! of rising selectivity (`passes.rs`), the null-window probes of the root moves within
//! one pass (`probes.rs`) and the principal variation (`pv.rs`).

pub(crate) mod answer;
pub(crate) mod passes;
pub(crate) mod probes;
pub(crate) mod pv;
