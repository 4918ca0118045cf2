//! The parallel search: Young Brothers Wait. A node searches its first (eldest) move
//! alone; only when that does not cut off are the younger siblings shared out to every
//! thread of the solve. Results never depend on the number of threads: every bound
//! returned is a true bound, only the work done changes.
//!
//! - when a node splits: `policy.rs`, with the node types it expects (`node_type.rs`) and
//!   how many threads are idle (`busy.rs`);
//! - what a split does: `share.rs` shares out the siblings through a split point
//!   (`split_point.rs`) on rayon's pool (one or two threads) or on the solver's own pool
//!   (`pool.rs`, from `SPLIT_MANY_THREADS` on), and searches them in the Young Brothers
//!   Wait loop;
//! - the parallel part of one thread's search: `context.rs`;
//! - how many threads run: `threads.rs`.
//!
//! How the split rules were chosen, for two threads and for 16-64, and what the
//! work-and-span account (`measure/span.rs`) says of them:
//! [results/parallel/README.md](../../../results/parallel/README.md).

pub(crate) mod busy;
pub(crate) mod context;
pub(crate) mod node_type;
mod policy;
pub(crate) mod pool;
mod share;
pub(crate) mod split_point;
pub(crate) mod threads;
