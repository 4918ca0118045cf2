//! Selective search: the levels of trust a result carries (`level.rs`) and the
//! multi-probcut that gives up exactness for speed at them (`probcut.rs`).

pub(crate) mod level;
pub(crate) mod probcut;
pub(crate) mod samples;
