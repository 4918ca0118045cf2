//! A command stopped by a signal, as an error.

/// A command stopped by SIGINT or SIGTERM before it finished: one line saying what it
/// kept, and the exit code a shell would report (130, 143).
#[derive(Debug, thiserror::Error)]
#[error("{command} stopped by {cause}: {kept}")]
pub struct Stopped {
    /// The command.
    pub command: &'static str,
    /// What asked it to stop (`SIGTERM`, ...).
    pub cause: &'static str,
    /// What it kept, e.g. `nothing written, OUT as it was`.
    pub kept: String,
    /// 128 + the signal's number (1 for a stop asked for otherwise).
    pub exit_code: u8,
}
