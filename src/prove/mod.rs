//! Proofs of one deep position split into leaves that any number of machines solve:
//! the tree grown down to a frontier of empties, the leaves a proof needs chosen by
//! predictions and solved with windows (as batches), their bounds combined back up,
//! round after round until the root is proven; and a check that derives the root's
//! bounds again from the leaf rows alone.

mod check;
mod doubt;
mod estimate;
mod folder;
mod goal;
mod known;
mod label;
mod plan;
mod predict;
mod run;
mod tree;

pub use check::{CheckSummary, run_check};
pub use folder::Spec;
pub use label::{ProofAnswer, proof_answer, proof_label};
pub use run::{EXACT, ProveOptions, ProveSummary, run_prove};
