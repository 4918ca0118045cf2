//! Stopping a long run cleanly: SIGINT (Ctrl-C) and SIGTERM (what Slurm and `kill` send
//! before a kill) set a flag that every search looks at with its clock, so solve, suite and
//! batch end within a few thousand nodes, keep what they finished and report the last
//! finished pass as a probable answer. A second signal ends the process at once.

mod error;

pub use error::Stopped;
use signal_hook::consts::{SIGINT, SIGTERM};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};

/// A request to stop, shared by everything that must stop: set by a signal (see
/// [`Interrupt::on_signals`]) or by [`Interrupt::request`].
#[derive(Clone, Debug, Default)]
pub struct Interrupt {
    flag: Arc<AtomicBool>,
    /// The signal number that set the flag (0: none, or set by `request`).
    signal: Arc<AtomicUsize>,
}

impl Interrupt {
    /// An interrupt that only [`Interrupt::request`] sets.
    pub fn new() -> Interrupt {
        Interrupt::default()
    }

    /// An interrupt set by SIGINT or SIGTERM. A second such signal, once the first has set
    /// the flag, exits at once with 128 + its number, as the default action would: a
    /// stop that hangs can still be cut short. Call once per process.
    pub fn on_signals() -> std::io::Result<Interrupt> {
        let me = Interrupt::new();
        for sig in [SIGINT, SIGTERM] {
            // The order matters: the exit is armed only by an earlier signal's flag.
            signal_hook::flag::register_conditional_shutdown(sig, 128 + sig, Arc::clone(&me.flag))?;
            signal_hook::flag::register_usize(sig, Arc::clone(&me.signal), sig as usize)?;
            signal_hook::flag::register(sig, Arc::clone(&me.flag))?;
        }
        Ok(me)
    }

    /// Asks everything sharing this interrupt to stop, as `signal` would (0: no signal).
    pub fn request(&self, signal: i32) {
        self.signal.store(signal.max(0) as usize, SeqCst);
        self.flag.store(true, SeqCst);
    }

    /// True once a stop was asked for.
    pub fn requested(&self) -> bool {
        self.flag.load(SeqCst)
    }

    /// The flag the searches look at ([`crate::search::Solver::set_abort`]).
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.flag)
    }

    /// What asked to stop, for messages: `SIGINT`, `SIGTERM`, `a stop request`; `None`
    /// while nothing has.
    pub fn cause(&self) -> Option<&'static str> {
        if !self.requested() {
            return None;
        }
        Some(match self.signal.load(SeqCst) as i32 {
            SIGINT => "SIGINT",
            SIGTERM => "SIGTERM",
            _ => "a stop request",
        })
    }

    /// The exit code of a process stopped this way: 128 + the signal's number, as a shell
    /// reports a process killed by it (130 for SIGINT, 143 for SIGTERM); 1 otherwise.
    pub fn exit_code(&self) -> u8 {
        match self.signal.load(SeqCst) as i32 {
            s @ (SIGINT | SIGTERM) => 128 + s as u8,
            _ => 1,
        }
    }
}

impl Interrupt {
    /// `Err` once a stop was asked for: `command` stops here, having kept `kept` (called
    /// only then). Long commands call it between steps, so that their temporary files are
    /// dropped (and removed) on the way out.
    pub fn check(
        &self,
        command: &'static str,
        kept: impl FnOnce() -> String,
    ) -> Result<(), Stopped> {
        match self.cause() {
            None => Ok(()),
            Some(cause) => Err(Stopped {
                command,
                cause,
                kept: kept(),
                exit_code: self.exit_code(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_names_its_signal() {
        let i = Interrupt::new();
        assert_eq!((i.requested(), i.cause()), (false, None));
        let shared = i.clone();
        shared.request(SIGTERM);
        assert!(i.requested());
        assert!(i.flag().load(SeqCst));
        assert_eq!((i.cause(), i.exit_code()), (Some("SIGTERM"), 143));
        let j = Interrupt::new();
        j.request(0);
        assert_eq!((j.cause(), j.exit_code()), (Some("a stop request"), 1));
    }

    #[test]
    fn a_check_says_what_was_kept_once_stopped() {
        let i = Interrupt::new();
        assert!(i.check("games", || unreachable!()).is_ok());
        i.request(SIGINT);
        let e = i.check("games", || "nothing written".into()).unwrap_err();
        assert_eq!(e.to_string(), "games stopped by SIGINT: nothing written");
        assert_eq!(e.exit_code, 130);
    }
}
