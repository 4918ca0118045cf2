//! Requests refused before any work, and runs stopped without losing or tearing what they
//! wrote (issue 29's probe): an output that is one of the command's inputs, values no run
//! can finish with, a system that refuses threads or memory, an output the weights could
//! not be saved to, signals to `train` and `calibrate`, and messages that say what is
//! wrong. Each refusal is one `error:` line, exit code 2, never a panic, nothing written.

use assert_cmd::cargo::cargo_bin_cmd;
use std::fs;
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_finale");

/// FFO #1 (14 empties): solved at once.
const FFO1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";

/// Checks the refusal contract on `out` and returns the error line.
fn refusal(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: "), "{err}");
    err
}

/// finale with `args`, stopped after `secs` seconds (a refusal is immediate; a run that
/// was not refused would take minutes or forever).
fn run(args: &[&str], secs: u64) -> Output {
    cargo_bin_cmd!("finale")
        .args(args)
        .timeout(Duration::from_secs(secs))
        .output()
        .unwrap()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, text).unwrap();
    path
}

#[test]
fn suite_and_eval_refuse_to_write_their_csv_over_their_input() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!("{FFO1}\n");
    let w = write(dir.path(), "w.obf", &text);
    let hard = dir.path().join("hard-link.obf");
    fs::hard_link(&w, &hard).unwrap();
    let w_s = w.to_str().unwrap();
    let dotted = format!("{}/./w.obf", dir.path().display());
    for csv in [w_s, hard.to_str().unwrap(), dotted.as_str()] {
        let err = refusal(&run(&["suite", w_s, "--csv", csv, "--no-progress"], 60));
        assert!(err.contains("--csv") && err.contains("w.obf"), "{err}");
        let err = refusal(&run(&["eval", "--file", w_s, "--csv", csv], 60));
        assert!(
            err.contains("--csv") && err.contains("is also an input"),
            "{err}"
        );
        assert_eq!(fs::read_to_string(&w).unwrap(), text, "the input is intact");
    }
    // Another path is written as before.
    let csv = dir.path().join("s.csv");
    let o = run(
        &[
            "suite",
            w_s,
            "--csv",
            csv.to_str().unwrap(),
            "--no-progress",
        ],
        60,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(fs::read_to_string(&csv).unwrap().lines().count() == 2);
}

#[test]
fn ranges_without_a_position_to_generate_are_refused_not_searched_forever() {
    for args in [
        &["generate", "--count", "1", "--empties", "0"][..],
        &["generate", "--count", "3", "--empties", "0-9"],
        &[
            "generate",
            "--count",
            "1",
            "--empties",
            "0",
            "--play",
            "eval",
        ],
        &["train-mpc", "--empties", "0"],
        &["train-mpc", "--empties", "0-3", "--per-empties", "2"],
    ] {
        let err = refusal(&run(args, 30));
        assert!(err.contains("at least 1 empty square"), "{args:?}: {err}");
    }
    // One empty square is the least a position with a move can have.
    let o = run(&["generate", "--count", "4", "--empties", "1-2"], 60);
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.starts_with('%')) {
        let r = finale::board::parse_obf_line(line).unwrap().unwrap();
        assert!((1..=2).contains(&r.position.board.empty_count()), "{line}");
        assert_ne!(r.position.board.moves(), 0, "{line}");
        n += 1;
    }
    assert_eq!(n, 4);
}

/// `finale` with an address space of `mb` MB, as `ulimit -v` sets it.
fn with_address_space(mb: u64) -> Command {
    let mut cmd = Command::new(BIN);
    // SAFETY: setrlimit is async-signal-safe, as pre_exec requires.
    unsafe {
        cmd.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: mb << 20,
                rlim_max: mb << 20,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    cmd
}

#[test]
fn threads_and_tables_the_system_refuses_are_an_error_not_a_panic() {
    // 3000 threads of 64 MB stacks cannot fit in 1.5 GB of address space.
    let o = with_address_space(1500)
        .args([
            "solve",
            "--threads",
            "3000",
            "--oversubscribe",
            "--hash-mb",
            "16",
            FFO1,
        ])
        .output()
        .unwrap();
    let err = refusal(&o);
    assert!(err.contains("cannot start 3000 search threads"), "{err}");
    assert!(err.contains("--threads"), "{err}");
    // Nor a 4000 MB table.
    let o = with_address_space(1500)
        .args(["solve", "--hash-mb", "4000", FFO1])
        .output()
        .unwrap();
    let err = refusal(&o);
    assert!(err.contains("4000 MB transposition table"), "{err}");
    assert!(err.contains("--hash-mb"), "{err}");
    // The same in suite and bench, which make their solvers elsewhere; suite writes no
    // CSV then (its default one would go in ./results).
    let dir = tempfile::tempdir().unwrap();
    let obf = write(dir.path(), "p.obf", &format!("{FFO1}\n"));
    for args in [
        vec![
            "suite",
            obf.to_str().unwrap(),
            "--hash-mb",
            "4000",
            "--no-progress",
        ],
        vec!["bench", "--threads", "3000", "--oversubscribe"],
    ] {
        let o = with_address_space(1500)
            .current_dir(dir.path())
            .args(&args)
            .output()
            .unwrap();
        refusal(&o);
    }
    assert!(
        !dir.path().join("results").exists(),
        "the CSV of a suite that never ran"
    );
}

#[test]
fn train_refuses_an_output_it_could_not_save_to_before_training() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-dir").join("w.bin");
    // Default --games (100 000): minutes of work if the output were checked at the end.
    let started = Instant::now();
    let err = refusal(&run(&["train", "--out", missing.to_str().unwrap()], 30));
    assert!(
        err.contains("--out") && err.contains("no-such-dir"),
        "{err}"
    );
    let sub = dir.path().join("a-directory");
    fs::create_dir(&sub).unwrap();
    let err = refusal(&run(
        &["train", "--out", sub.to_str().unwrap(), "--force"],
        30,
    ));
    assert!(err.contains("not a regular file (a directory)"), "{err}");
    // --data over --out.
    let out = dir.path().join("w.bin");
    let o = out.to_str().unwrap();
    fs::write(&out, "old").unwrap();
    let err = refusal(&run(&["train", "--out", o, "--force", "--data", o], 30));
    assert!(err.contains("--data"), "{err}");
    assert_eq!(fs::read_to_string(&out).unwrap(), "old");
    assert!(started.elapsed() < Duration::from_secs(20));
    let left: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(
        left.len(),
        2,
        "nothing written but the test's own files: {left:?}"
    );
}

/// Starts `finale` with `args`, stderr piped.
fn spawn(args: &[&str]) -> std::process::Child {
    Command::new(BIN)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Sends `signal` to `child`.
fn send(child: &std::process::Child, signal: i32) {
    // SAFETY: kill has no memory-safety preconditions.
    assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
}

/// Every line of a `train --data` CSV: the header, then whole rows of five fields.
fn check_whole_rows(path: &Path) -> usize {
    let text = fs::read_to_string(path).unwrap();
    assert!(
        text.ends_with('\n'),
        "a torn last row: {:?}",
        text.lines().last()
    );
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("game,empties,board,label,set"));
    let mut n = 0;
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 5, "{line}");
        assert_eq!(f[2].len(), 64, "{line}");
        assert!(f[4] == "train" || f[4] == "test", "{line}");
        n += 1;
    }
    n
}

#[test]
fn train_stopped_by_sigint_keeps_whole_rows_and_writes_no_weights() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("w.bin");
    let data = dir.path().join("d.csv");
    let args = [
        "train",
        "--games",
        "30000",
        "--generations",
        "1",
        "--epochs",
        "5",
        "--exact-max-empties",
        "10",
        "--threads",
        "1",
        "--no-progress",
        "--out",
        out.to_str().unwrap(),
        "--data",
        data.to_str().unwrap(),
    ];
    // Once two phases were written: a stop while the rows are being written.
    let mut child = spawn(&args);
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    while seen.matches("\nphase").count() < 2 {
        let mut line = String::new();
        assert_ne!(err.read_line(&mut line).unwrap(), 0, "train ended: {seen}");
        seen.push('\n');
        seen.push_str(&line);
    }
    send(&child, libc::SIGINT);
    let started = Instant::now();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut err, &mut rest).unwrap();
    let status = child.wait().unwrap();
    assert!(started.elapsed() < Duration::from_secs(30), "slow to stop");
    assert_eq!(status.code(), Some(130), "{rest}");
    let last = rest.lines().last().unwrap_or("");
    assert!(last.starts_with("error: train stopped by SIGINT"), "{rest}");
    assert!(!out.exists(), "no weights from a stopped run");
    assert!(check_whole_rows(&data) > 100);

    // Stopped while the games are played: a header and no row, not an empty file.
    fs::remove_file(&data).unwrap();
    let child = spawn(&args);
    std::thread::sleep(Duration::from_millis(300));
    send(&child, libc::SIGTERM);
    let o = child.wait_with_output().unwrap();
    assert_eq!(
        o.status.code(),
        Some(143),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(check_whole_rows(&data), 0);
}

#[test]
fn calibrate_stops_on_a_signal_keeps_its_rows_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let made = run(
        &[
            "generate",
            "--seed",
            "3",
            "--count",
            "200",
            "--empties",
            "18-20",
        ],
        60,
    );
    assert!(made.status.success());
    let obf = dir.path().join("g.obf");
    fs::write(&obf, &made.stdout).unwrap();
    let csv = dir.path().join("cal.csv");
    let args = [
        "calibrate",
        obf.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
        "--levels",
        "73",
        "--threads",
        "1",
        "--hash-mb",
        "16",
    ];
    let child = spawn(&args);
    // Until some rows are written.
    let deadline = Instant::now() + Duration::from_secs(60);
    while fs::read_to_string(&csv).map_or(0, |t| t.lines().count()) < 5 {
        assert!(Instant::now() < deadline, "no rows");
        std::thread::sleep(Duration::from_millis(50));
    }
    send(&child, libc::SIGINT);
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert_eq!(
        err.lines().count(),
        1,
        "no progress lines off a terminal: {err}"
    );
    assert!(
        err.starts_with("error: calibrate stopped by SIGINT"),
        "{err}"
    );
    let text = fs::read_to_string(&csv).unwrap();
    assert!(text.ends_with('\n'));
    let rows = text.lines().count() - 1;
    assert!(rows < 400, "stopped before the end: {rows} rows");
    // Rows come in pairs (exact, then 73 %) per position; a resume reuses them.
    let resumed = finale::commands::calibrate::parse_rows(text.as_bytes(), &csv).unwrap();
    assert_eq!(resumed.len(), rows);
}

#[test]
fn messages_say_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    // The rule is a number of seconds below 1e9.
    let err = refusal(&run(&["solve", "--time-limit", "1e9", FFO1], 30));
    assert!(err.contains("less than 1e9"), "{err}");
    // A byte-order mark at the start of a file is not a square.
    let bom = write(dir.path(), "bom.obf", &format!("\u{feff}{FFO1}\n"));
    let o = run(&["solve", "--file", bom.to_str().unwrap()], 60);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("score     +18"));
    // Bytes that are not text: the line and column named, as batch names them.
    let bin = dir.path().join("bin.obf");
    fs::write(
        &bin,
        [b"% a comment\n".as_slice(), &[0xff, 0xfe, 0x00, 0x80]].concat(),
    )
    .unwrap();
    let err = refusal(&run(&["solve", "--file", bin.to_str().unwrap()], 30));
    assert!(err.contains("bin.obf:2: column 1: not text"), "{err}");
    // --moves with nothing in it is not the start position's 60-empty solve.
    let err = refusal(&run(&["solve", "--moves", ""], 30));
    assert!(err.contains("no moves given"), "{err}");
    // --help says what exact mode gives without --ties.
    let help = run(&["solve", "--help"], 30);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("a best move (every best move with --ties)"),
        "{help}"
    );
    assert!(!help.contains("Exact score and every best move"), "{help}");
}

#[test]
fn suite_binary_is_the_file_named_and_must_be_a_finale() {
    let dir = tempfile::tempdir().unwrap();
    let obf = write(dir.path(), "p.obf", &format!("{FFO1}\n"));
    std::os::unix::fs::symlink(BIN, dir.path().join("finale-old")).unwrap();
    // A bare name is the file in the current directory, not one looked up on PATH.
    let o = Command::new(BIN)
        .current_dir(dir.path())
        .args([
            "suite",
            "p.obf",
            "--binary",
            "finale-old",
            "--csv",
            "s.csv",
            "--no-progress",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = fs::read_to_string(dir.path().join("s.csv")).unwrap();
    assert_eq!(rows.lines().count(), 3, "a row of each binary: {rows}");
    // Not a finale: refused before any position is solved, nothing written.
    let csv = dir.path().join("f.csv");
    let err = refusal(
        &Command::new(BIN)
            .args(["suite", obf.to_str().unwrap(), "--binary", "/bin/false"])
            .args(["--csv", csv.to_str().unwrap(), "--no-progress"])
            .output()
            .unwrap(),
    );
    assert!(err.contains("/bin/false: not a finale binary"), "{err}");
    assert!(!csv.exists());
}

#[test]
fn values_out_of_range_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let obf = write(dir.path(), "p.obf", &format!("{FFO1}\n"));
    let p = obf.to_str().unwrap();
    let w = dir.path().join("w.bin");
    let w = w.to_str().unwrap();
    for (args, says) in [
        (vec!["suite", p, "--repeat", "0"], "--repeat"),
        (
            vec!["train", "--exact-max-empties", "61", "--out", w],
            "--exact-max-empties 61",
        ),
        (vec!["train-mpc", "--selectivity", "73"], "--from-search"),
        (
            vec!["train-mpc", "--rate", "0", "--from-search", p],
            "--rate",
        ),
    ] {
        let err = refusal(&run(&args, 30));
        assert!(err.contains(says), "{args:?}: {err}");
    }
    assert!(!Path::new(w).exists());
}

/// A kernel set that is not one, or that this CPU lacks (AVX-512 on a machine without
/// it), is refused before anything runs, from the environment or the command line: it
/// would otherwise die on an illegal instruction. A set the CPU has runs.
#[test]
fn kernel_sets_the_cpu_lacks_are_refused() {
    use finale::board::kernels::Isa;
    let with_env = |value: &str, args: &[&str]| {
        cargo_bin_cmd!("finale")
            .env("FINALE_KERNELS", value)
            .args(args)
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap()
    };
    let err = refusal(&with_env("sse9", &["solve", FFO1]));
    assert!(
        err.contains("FINALE_KERNELS") && err.contains("sse9"),
        "{err}"
    );
    let err = refusal(&run(&["solve", FFO1, "--kernels", "sse9"], 60));
    assert!(err.contains("--kernels") && err.contains("sse9"), "{err}");
    for isa in Isa::ALL {
        if isa.supported() {
            let out = with_env(isa.name(), &["solve", FFO1]);
            assert!(out.status.success(), "{isa}: {out:?}");
            let out = run(&["solve", FFO1, "--kernels", isa.name()], 60);
            assert!(out.status.success(), "{isa}: {out:?}");
        } else {
            let err = refusal(&with_env(isa.name(), &["solve", FFO1]));
            assert!(err.contains("lacks"), "{err}");
            let err = refusal(&run(&["solve", FFO1, "--kernels", isa.name()], 60));
            assert!(err.contains("lacks"), "{err}");
        }
    }
}

/// Labels and node files that cannot be read or written are refused before any search:
/// a deep sampling or calibration run must not fail after hours.
#[test]
fn unusable_label_and_node_files_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let obf = write(
        dir.path(),
        "roots.obf",
        "----OOO---X-OO----OXOXOO--OOXXOO--OOOXXO--OOOXX---OOXX-----XXXX- O\n",
    );
    let not_run = write(dir.path(), "not-run.csv", "a,b\n1,2\n");
    let csv = dir.path().join("cal.csv");
    let (obf, csv, not_run) = (
        obf.to_str().unwrap(),
        csv.to_str().unwrap(),
        not_run.to_str().unwrap(),
    );
    for (args, says) in [
        (
            vec![
                "calibrate",
                obf,
                "--csv",
                csv,
                "--labels",
                "/nonexistent/l.csv",
            ],
            "/nonexistent/l.csv",
        ),
        (
            vec!["calibrate", obf, "--csv", csv, "--labels", not_run],
            "no 'key' column",
        ),
        (
            vec!["train-mpc", "--from-labels", not_run],
            "no 'key' column",
        ),
        (
            vec![
                "train-mpc",
                "--from-search",
                obf,
                "--dump-nodes",
                "/nonexistent/n.obf",
            ],
            "cannot write /nonexistent/n.obf",
        ),
    ] {
        let err = refusal(&run(&args, 10));
        assert!(err.contains(says), "{args:?}: {err}");
    }
    assert!(!Path::new(csv).exists(), "no calibration CSV begun");
}

#[test]
fn probcut_widths_out_of_range_are_refused() {
    for bad in ["0", "-2", "wide", "25"] {
        let out = run(
            &["solve", FFO1, "--selectivity", "87", "--probcut-t", bad],
            30,
        );
        let err = refusal(&out);
        assert!(err.contains("--probcut-t") && err.contains(bad), "{err}");
    }
}
