//! Other Othello engines (Zebra, Edax, Egaroucid) driven as suite variants
//! (`finale suite --engine NAME:PATH`): the checked executable and one run of it
//! ([`engine`]), one adapter per engine that writes its input and reads its answer
//! ([`zebra`], [`edax`], [`egaroucid`]), the readers the adapters share ([`output`]) and the
//! running of the engine's process under a time limit and stop requests ([`process`]).

pub mod edax;
pub mod egaroucid;
pub mod engine;
pub mod output;
pub mod process;
pub mod zebra;

pub use engine::{Engine, EngineKind, EngineRun, EngineSettings};
pub use output::EngineAnswer;
