//! Why a command's files are refused by the guard ([`super::guard::Files::check`]).

use std::path::PathBuf;

/// A command's files refused by [`super::guard::Files::check`]: one line naming the command, the flag,
/// the path and why.
#[derive(Debug, thiserror::Error)]
pub enum GuardError {
    /// An output that is one of the inputs.
    #[error(
        "{command}: {label} {} is also an input ({input_label} {}); writing it would destroy \
         it: give another path",
        path.display(),
        input.display()
    )]
    OutputIsInput {
        /// The command.
        command: &'static str,
        /// The output's flag.
        label: String,
        /// The output as given.
        path: PathBuf,
        /// The input's flag or name.
        input_label: String,
        /// The input as given.
        input: PathBuf,
    },
    /// Two outputs that are one file.
    #[error("{command}: {first} and {second} are the same file {}: give each its own path", path.display())]
    OutputTwice {
        /// The command.
        command: &'static str,
        /// The first output's flag.
        first: String,
        /// The second's.
        second: String,
        /// The second as given.
        path: PathBuf,
    },
    /// An output that cannot be written as asked.
    #[error("{command}: {label} {}: {what}", path.display())]
    Output {
        /// The command.
        command: &'static str,
        /// The flag.
        label: String,
        /// The path as given.
        path: PathBuf,
        /// Why.
        what: String,
    },
    /// An input that cannot be read as the command reads it.
    #[error("{command}: {label} {}: {what}", path.display())]
    Input {
        /// The command.
        command: &'static str,
        /// The flag or name.
        label: String,
        /// The path as given.
        path: PathBuf,
        /// Why.
        what: String,
    },
}
