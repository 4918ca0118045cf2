//! The command line, in the binary only: definitions, usage errors, and each subcommand's
//! glue to the library.

pub(crate) mod args;
pub(crate) mod commands;
pub(crate) mod files;
pub(crate) mod parse;
pub(crate) mod train_args;
pub(crate) mod usage;
