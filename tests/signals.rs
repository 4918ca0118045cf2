//! SIGTERM at any moment of the long commands that write through a temporary file
//! (`games`, `train`, `merge`, `report`): each run is killed at many moments from its start
//! to past its end, and after every kill no temporary file is left, the output is either
//! as it was or whole, and a run the signal stopped said so in one `error:` line and exited
//! 143 (issue 67).

use finale::board::random::SplitMix64;
use finale::board::{Position, Square};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_finale");

/// A random legal game from the start, as a line of moves.
fn random_game(rng: &mut SplitMix64) -> String {
    let mut p = Position::START;
    let mut line = String::new();
    loop {
        let moves: Vec<Square> = p.board.legal_moves().collect();
        if moves.is_empty() {
            if p.board.is_game_over() {
                return line;
            }
            p = p.pass();
            continue;
        }
        let sq = moves[rng.below(moves.len() as u64) as usize];
        line.push_str(&sq.to_string());
        p = p.play(sq).unwrap();
    }
}

/// How one killed run ended.
#[derive(Debug, PartialEq)]
enum End {
    /// It finished before the signal (exit 0).
    Finished,
    /// The signal stopped it: exit 143 after one `error: ... stopped by SIGTERM` line.
    Stopped,
    /// The signal came before the handlers were installed (the process's first moments).
    Killed,
}

/// Runs `args` in `dir`, sends SIGTERM after `delay` and says how it ended; fails on any
/// other ending.
fn kill_after(args: &[String], dir: &Path, delay: Duration) -> End {
    let child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(delay);
    // SAFETY: kill has no memory-safety preconditions. A child that already exited is a
    // zombie until waited for, so its pid is still its own.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    match o.status.code() {
        Some(0) => End::Finished,
        Some(143) => {
            let last = err.lines().last().unwrap_or("");
            assert!(
                last.starts_with("error: ") && last.contains("stopped by SIGTERM"),
                "{args:?} after {delay:?}: {err}"
            );
            assert_eq!(err.matches("error:").count(), 1, "{err}");
            End::Stopped
        }
        None => End::Killed,
        Some(c) => panic!("{args:?} after {delay:?}: exit {c}: {err}"),
    }
}

/// Files in `dir` that a writer left: its temporary files (`.finale-*`).
fn leftovers(dir: &Path) -> Vec<PathBuf> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(".finale-")
        })
        .collect()
}

/// Kills `args` (run in `dir`, writing `out`) at moments spread over one whole run and a
/// bit past it; after each, no temporary file, and `out` either absent or `whole` by the
/// check given. At least `min_stopped` kills must have stopped the run midway.
fn kill_everywhere(
    args: &[String],
    dir: &Path,
    out: &Path,
    min_stopped: u32,
    whole: impl Fn(&Path) -> bool,
) {
    let started = Instant::now();
    let done = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(done.success(), "{args:?}");
    let full = started.elapsed();
    assert!(whole(out));
    let (mut stopped, mut finished, mut killed) = (0, 0, 0);
    for k in 0..16u32 {
        let _ = fs::remove_file(out);
        let delay = full.mul_f64(f64::from(k) / 12.0);
        let end = kill_after(args, dir, delay);
        assert_eq!(
            leftovers(dir),
            Vec::<PathBuf>::new(),
            "{args:?} killed after {delay:?}"
        );
        match end {
            End::Finished => {
                finished += 1;
                assert!(whole(out), "{args:?} after {delay:?}");
            }
            End::Stopped => {
                stopped += 1;
                assert!(
                    !out.exists(),
                    "{args:?} after {delay:?}: a stopped run wrote"
                );
            }
            // Before the handlers: the first moments only, when nothing is written yet.
            End::Killed => {
                killed += 1;
                assert!(delay < Duration::from_millis(200), "{delay:?}");
            }
        }
    }
    eprintln!(
        "{}: a run {full:?}; of 16 kills {stopped} stopped it, {finished} came after its end, \
         {killed} before its handlers",
        args[0]
    );
    assert!(
        stopped >= min_stopped,
        "{args:?}: only {stopped} kills stopped a run of {full:?}"
    );
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

#[test]
fn games_leaves_no_temporary_file_whenever_it_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = SplitMix64::new(67);
    let text: String = (0..40_000).map(|_| random_game(&mut rng) + "\n").collect();
    fs::write(dir.path().join("games.txt"), text).unwrap();
    let out = dir.path().join("p.obf");
    let args = strings(&["games", "games.txt", "--empties", "20-30", "--out", "p.obf"]);
    kill_everywhere(&args, dir.path(), &out, 3, |p| {
        fs::read_to_string(p)
            .is_ok_and(|t| t.lines().filter(|l| !l.starts_with('%')).count() > 100_000)
    });
}

#[test]
fn train_leaves_no_temporary_file_whenever_it_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("w.bin");
    let args = strings(&[
        "train",
        "--games",
        "3000",
        "--generations",
        "1",
        "--epochs",
        "5",
        "--exact-max-empties",
        "8",
        "--threads",
        "2",
        "--no-progress",
        "--out",
        "w.bin",
        "--force",
    ]);
    kill_everywhere(&args, dir.path(), &out, 3, |p| {
        finale::eval::Evaluator::load(p).is_ok()
    });
}

#[test]
fn merge_and_report_leave_no_temporary_file_whenever_they_are_killed() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set.obf");
    let generated = Command::new(BIN)
        .args([
            "generate",
            "--seed",
            "5",
            "--count",
            "20000",
            "--empties",
            "2-4",
        ])
        .output()
        .unwrap();
    fs::write(&set, generated.stdout).unwrap();
    let solved = Command::new(BIN)
        .args(["batch", "set.obf", "--out", "a.csv", "--no-progress"])
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(solved.success());
    let mut args = vec!["merge".to_string()];
    for k in 0..12 {
        let copy = format!("copy{k}.csv");
        fs::copy(dir.path().join("a.csv"), dir.path().join(&copy)).unwrap();
        args.push(copy);
    }
    args.extend(strings(&["--out", "m.csv"]));
    let out = dir.path().join("m.csv");
    kill_everywhere(&args, dir.path(), &out, 3, |p| {
        fs::read_to_string(p).is_ok_and(|t| t.lines().count() > 15_000)
    });
    let args = strings(&["report", "a.csv", "copy0.csv", "--svg", "r.svg"]);
    let svg = dir.path().join("r.svg");
    // A report draws in a moment: its kills land mostly before or after it.
    kill_everywhere(&args, dir.path(), &svg, 0, |p| {
        fs::read_to_string(p).is_ok_and(|t| t.trim_end().ends_with("</svg>"))
    });
}

/// SIGTERM at moments spread over a whole proof (the root's prediction, the plans, the
/// leaf batches), the same folder resumed after each kill: a stopped run says so in one
/// line and exits 143, leaves no temporary file, and the proof resumed to its end gives
/// FFO #42's published +6, which `--check` derives again from the rows alone.
#[test]
fn prove_resumes_to_the_published_value_however_often_it_is_killed() {
    let tmp = tempfile::tempdir().unwrap();
    let ffo42 = "--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO-- X";
    let args = |dir: &str| {
        strings(&[
            "prove",
            ffo42,
            "--dir",
            dir,
            "--frontier",
            "18",
            "--threads",
            "2",
            "--no-progress",
        ])
    };
    let last_line = |o: &std::process::Output| {
        let text = String::from_utf8_lossy(&o.stdout).to_string();
        text.lines().last().unwrap_or("").to_string()
    };
    let started = Instant::now();
    let whole = Command::new(BIN)
        .args(args("whole"))
        .current_dir(tmp.path())
        .output()
        .unwrap();
    let full = started.elapsed();
    assert!(whole.status.success());
    assert_eq!(last_line(&whole), "bounds 6 6");
    let (mut stopped, work) = (0, tmp.path().join("killed"));
    for k in 0..10u32 {
        let delay = full.mul_f64(f64::from(k) / 8.0);
        match kill_after(&args("killed"), tmp.path(), delay) {
            End::Stopped => stopped += 1,
            End::Finished => {}
            End::Killed => assert!(delay < Duration::from_millis(200), "{delay:?}"),
        }
        if work.exists() {
            assert_eq!(leftovers(&work), Vec::<PathBuf>::new(), "after {delay:?}");
        }
    }
    assert!(
        stopped >= 3,
        "only {stopped} kills stopped a proof of {full:?}"
    );
    let resumed = Command::new(BIN)
        .args(args("killed"))
        .current_dir(tmp.path())
        .output()
        .unwrap();
    assert!(resumed.status.success());
    assert_eq!(last_line(&resumed), "bounds 6 6");
    let check = Command::new(BIN)
        .args(["prove", "--check", "--dir", "killed"])
        .current_dir(tmp.path())
        .output()
        .unwrap();
    assert!(check.status.success());
    assert_eq!(last_line(&check), "bounds 6 6");
}
