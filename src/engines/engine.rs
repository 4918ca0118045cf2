//! One other engine named by `--engine NAME:PATH`, its executable checked before anything
//! runs ([`checked_executable`]), and one run of it on a position through its adapter
//! ([`zebra`], [`edax`], [`egaroucid`]), with the suite's threads and table size where the
//! engine takes them.

use super::executable::checked_executable;
use super::output::EngineAnswer;
use super::process::{Ended, run};
use super::{edax, egaroucid, zebra};
use crate::board::Position;
use crate::error::{Error, Result, SuiteError};
use crate::interrupt::Interrupt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Which adapter drives an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// Zebra's console `scrzebra`.
    Zebra,
    /// Edax.
    Edax,
    /// Egaroucid for Console.
    Egaroucid,
}

impl EngineKind {
    /// Every kind, in the order `--engine` lists them.
    pub const ALL: [EngineKind; 3] = [EngineKind::Zebra, EngineKind::Edax, EngineKind::Egaroucid];

    /// The name `--engine` takes, and the label of its rows.
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Zebra => "zebra",
            EngineKind::Edax => "edax",
            EngineKind::Egaroucid => "egaroucid",
        }
    }

    fn entry_bytes(self) -> u64 {
        match self {
            EngineKind::Zebra => zebra::ENTRY_BYTES,
            EngineKind::Edax => edax::ENTRY_BYTES,
            EngineKind::Egaroucid => egaroucid::ENTRY_BYTES,
        }
    }
}

/// What an engine is run with: the threads and table it really uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineSettings {
    /// Search threads (Zebra: always 1).
    pub threads: usize,
    /// The table asked for: 2^`hash_bits` entries.
    pub hash_bits: u32,
    /// That table in MB, by the adapter's entry size.
    pub hash_mb: usize,
}

/// An engine's executable, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Engine {
    /// The adapter.
    pub kind: EngineKind,
    /// The executable, absolute.
    pub path: PathBuf,
}

/// How one run of an engine on a position ended.
#[derive(Debug)]
pub enum EngineRun {
    /// It answered.
    Answer(EngineAnswer, Duration),
    /// It failed: `timeout` or `error: ...` (the row's status), after the wall time.
    Failed(String, Duration),
    /// A stop was requested of this process, which killed the engine.
    Interrupted(Duration),
}

impl Engine {
    /// The executable's path of a `NAME:PATH` spec, unchecked (for the files guard).
    pub fn spec_path(spec: &str) -> Option<&Path> {
        spec.split_once(':').map(|(_, path)| Path::new(path))
    }

    /// `NAME:PATH` as `--engine` takes it: a known adapter and an executable file (for
    /// Zebra, with its data file beside it). A bare file name is the file in the current
    /// directory, never one found on `PATH`.
    pub fn from_spec(spec: &str) -> Result<Engine> {
        let refuse = |why: String| {
            Error::from(SuiteError::Engine {
                spec: spec.to_string(),
                why,
            })
        };
        let (name, path) = spec
            .split_once(':')
            .ok_or_else(|| refuse("expected NAME:PATH, e.g. zebra:/path/to/scrzebra".into()))?;
        let names: Vec<&str> = EngineKind::ALL.iter().map(|k| k.name()).collect();
        let kind = EngineKind::ALL
            .into_iter()
            .find(|k| k.name() == name.to_ascii_lowercase())
            .ok_or_else(|| {
                refuse(format!(
                    "unknown engine '{name}' (known: {})",
                    names.join(", ")
                ))
            })?;
        let path = Path::new(path);
        let path =
            checked_executable(path).map_err(|e| refuse(format!("{}: {e}", path.display())))?;
        if kind == EngineKind::Zebra {
            let data = path.with_file_name(zebra::DATA_FILE);
            if !data.is_file() {
                return Err(refuse(format!(
                    "{}: missing (Zebra reads it from its own directory)",
                    data.display()
                )));
            }
        }
        Ok(Engine { kind, path })
    }

    /// The threads and table the engine is run with, asked for `threads` and `hash_mb`:
    /// the largest power-of-two table within `hash_mb` (at least 2^10 entries).
    pub fn settings(&self, threads: usize, hash_mb: usize) -> EngineSettings {
        let entry = self.kind.entry_bytes();
        let entries = (hash_mb as u64).saturating_mul(1 << 20) / entry;
        let hash_bits = entries.max(1).ilog2().clamp(10, 40);
        EngineSettings {
            threads: if self.kind == EngineKind::Zebra {
                1
            } else {
                threads.max(1)
            },
            hash_bits,
            hash_mb: ((1u64 << hash_bits) * entry).div_ceil(1 << 20) as usize,
        }
    }

    /// Solves `position` in `dir` (a directory of this run's own), killing the engine
    /// past `limit` or on `interrupt`. `Err`: this process could not write its files or
    /// start the engine.
    pub fn solve(
        &self,
        dir: &Path,
        position: &Position,
        settings: EngineSettings,
        limit: Option<Duration>,
        interrupt: &Interrupt,
    ) -> Result<EngineRun> {
        let input = dir.join("position.txt");
        let out_file = dir.join("out.txt");
        let (stdout, stderr) = (dir.join("stdout.txt"), dir.join("stderr.txt"));
        let _ = std::fs::remove_file(&out_file);
        let (text, command) = match self.kind {
            EngineKind::Zebra => (
                zebra::script(position),
                zebra::command(&self.path, &input, &out_file, settings.hash_bits),
            ),
            EngineKind::Edax => (
                edax::obf(position),
                edax::command(&self.path, &input, settings.threads, settings.hash_bits),
            ),
            EngineKind::Egaroucid => (
                egaroucid::problem(position),
                egaroucid::command(&self.path, &input, settings.threads, settings.hash_bits),
            ),
        };
        std::fs::write(&input, text).map_err(|source| Error::Write {
            path: input.clone(),
            source,
        })?;
        let ended =
            run(command, &stdout, &stderr, limit, interrupt).map_err(|source| Error::Io {
                path: self.path.clone(),
                source,
            })?;
        let (status, wall) = match ended {
            Ended::Interrupted(wall) => return Ok(EngineRun::Interrupted(wall)),
            Ended::TimedOut(wall) => return Ok(EngineRun::Failed("timeout".into(), wall)),
            Ended::Exited { status, wall } => (status, wall),
        };
        let said =
            String::from_utf8_lossy(&std::fs::read(&stdout).unwrap_or_default()).into_owned();
        if !status.success() {
            let why = exit_failure(status, &stderr);
            return Ok(EngineRun::Failed(format!("error: {why}"), wall));
        }
        Ok(match self.parse(&said, &out_file, position) {
            Ok(answer) => EngineRun::Answer(answer, wall),
            Err(why) => EngineRun::Failed(format!("error: unreadable output: {why}"), wall),
        })
    }

    /// The engine's answer in what it said (`said`) and, for Zebra, in its output file.
    fn parse(
        &self,
        said: &str,
        out_file: &Path,
        position: &Position,
    ) -> std::result::Result<EngineAnswer, String> {
        match self.kind {
            EngineKind::Zebra => {
                let out = String::from_utf8_lossy(&std::fs::read(out_file).unwrap_or_default())
                    .into_owned();
                zebra::parse(said, &out, position.side)
            }
            EngineKind::Edax => edax::parse(said),
            EngineKind::Egaroucid => egaroucid::parse(said),
        }
    }
}

/// How an engine that failed ended (its exit code or signal), with the first line it
/// wrote to `stderr` if any.
fn exit_failure(status: std::process::ExitStatus, stderr: &Path) -> String {
    let err = std::fs::read(stderr).unwrap_or_default();
    let err = String::from_utf8_lossy(&err);
    let first = err.lines().map(str::trim).find(|l| !l.is_empty());
    let how = match (status.code(), status.signal()) {
        (Some(c), _) => format!("exited with code {c}"),
        (None, Some(s)) => format!("killed by signal {s}"),
        (None, None) => "ended abnormally".to_string(),
    };
    first.map_or(how.clone(), |l| format!("{how}: {l}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_are_checked_and_tables_sized() {
        for (spec, says) in [
            ("zebra", "expected NAME:PATH"),
            ("crafty:/bin/sh", "unknown engine 'crafty'"),
            ("edax:/no/such/edax", "/no/such/edax"),
            ("edax:/", "not a file"),
        ] {
            let e = Engine::from_spec(spec).expect_err(spec).to_string();
            assert!(e.contains(says), "{spec}: {e}");
            assert!(e.starts_with(&format!("--engine '{spec}': ")), "{e}");
        }
        let edax = Engine::from_spec("edax:/bin/sh").expect("an executable");
        // 256 MB of 16-byte entries is 2^24 entries.
        let s = edax.settings(2, 256);
        assert_eq!((s.threads, s.hash_bits, s.hash_mb), (2, 24, 256));
        // 100 MB: the largest power of two below, 2^22 entries (64 MB).
        assert_eq!(edax.settings(1, 100).hash_mb, 64);
        let zebra = Engine {
            kind: EngineKind::Zebra,
            path: "/x".into(),
        };
        assert_eq!(zebra.settings(4, 256).threads, 1);
    }
}
