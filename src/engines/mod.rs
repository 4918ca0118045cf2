//! Other Othello engines driven as suite variants: Zebra, Edax and Egaroucid (`finale suite
//! --engine NAME:PATH`), and another finale binary (`--binary PATH`). Their executables
//! checked before anything runs ([`executable`]); an engine named by `--engine` and one run
//! of it ([`engine`]); one adapter per engine that writes its input and reads its answer
//! ([`zebra`], [`edax`], [`egaroucid`], [`finale`]); the readers the adapters share
//! ([`output`]); and the one way every child process is run, in its own process group,
//! under a time limit and stop requests ([`process`]).

pub mod edax;
pub mod egaroucid;
pub mod engine;
pub mod executable;
pub mod finale;
pub mod output;
pub mod process;
pub mod zebra;

pub use engine::{Engine, EngineKind, EngineRun, EngineSettings};
pub use finale::{Finale, FinaleAnswer, FinaleRun};
pub use output::EngineAnswer;
