//! The root of a solve: what it is asked for and answers (`answer.rs`), the pass schedule
//! of rising selectivity (`passes.rs`), the null-window probes of the root moves within
//! one pass (`probes.rs`), the principal variation (`pv.rs`) and the window a solve asks
//! about (`window.rs`).

pub(crate) mod answer;
pub(crate) mod passes;
pub(crate) mod probes;
pub(crate) mod pv;
pub(crate) mod window;
