//! Every child process finale runs, and the one way it runs them: another engine or
//! another finale binary, for one position or one `--version`, its output into files,
//! waited for in steps so that a time limit or a stop request (SIGINT, SIGTERM) kills it,
//! with every process it started (its process group).

use crate::interrupt::Interrupt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// The command running the executable `bin` (a checked path, see
/// [`checked_executable`](super::executable::checked_executable)), in this process's
/// current directory.
pub fn command(bin: &Path) -> Command {
    Command::new(bin)
}

/// The command running `bin` in its own directory, where engines find their data files.
pub fn command_in_its_directory(bin: &Path) -> Command {
    let mut c = command(bin);
    if let Some(dir) = bin.parent() {
        c.current_dir(dir);
    }
    c
}

/// The command of an engine that solves the positions of `file` exactly with its
/// `-solve FILE -l 60` (Edax's and Egaroucid's consoles), in the engine's own directory,
/// where it finds its evaluation data; `threads` and `hash` give each engine's own flag
/// with its value (a thread count, a table of 2^BITS entries).
pub fn solve_command(
    bin: &Path,
    file: &Path,
    threads: (&str, usize),
    hash: (&str, u32),
) -> Command {
    let mut c = command_in_its_directory(bin);
    c.arg("-solve")
        .arg(file)
        .args([
            threads.0,
            &threads.1.to_string(),
            hash.0,
            &hash.1.to_string(),
        ])
        .args(["-l", "60"]);
    c
}

/// How a run of a child process ended.
#[derive(Debug)]
pub enum Ended {
    /// It exited (or was killed by a signal not ours) after `wall` seconds.
    Exited {
        /// Its exit status.
        status: ExitStatus,
        /// Wall time from its start to its end.
        wall: Duration,
    },
    /// It ran past the time limit and was killed.
    TimedOut(Duration),
    /// A stop was requested of this process; the child was killed.
    Interrupted(Duration),
}

/// Runs `command` in a process group of its own, with stdin empty, stdout into `stdout`
/// and stderr into `stderr`, killing the group past `limit` or when `interrupt` is
/// requested. Errors: it cannot be started, or its output files cannot be made.
pub fn run(
    mut command: Command,
    stdout: &Path,
    stderr: &Path,
    limit: Option<Duration>,
    interrupt: &Interrupt,
) -> std::io::Result<Ended> {
    let out = std::fs::File::create(stdout)?;
    let err = std::fs::File::create(stderr)?;
    // Its own process group: a kill reaches the processes it started too (a shell
    // script's children), so none is left running.
    command
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .process_group(0);
    let start = Instant::now();
    let mut child = command.spawn()?;
    let kill = |child: &mut std::process::Child| {
        if let Ok(pid) = i32::try_from(child.id()) {
            // SAFETY: kill(2) with the negated id of the group made for this child only.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        let _ = child.kill();
        let _ = child.wait();
    };
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Ended::Exited {
                status,
                wall: start.elapsed(),
            });
        }
        if interrupt.requested() {
            kill(&mut child);
            return Ok(Ended::Interrupted(start.elapsed()));
        }
        if limit.is_some_and(|l| start.elapsed() > l) {
            kill(&mut child);
            return Ok(Ended::TimedOut(start.elapsed()));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}
