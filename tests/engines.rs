//! `finale suite --engine NAME:PATH`: other engines' rows in the suite's CSV, driven
//! through stand-in executables written here that print each engine's output format
//! (scores and best moves of FFO #1 and #2 as `suites/fforum-1-19.obf` lists them), and
//! through the real Zebra where its sources are present.

mod common;

use common::csv_rows::rows;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const FINALE: &str = env!("CARGO_BIN_EXE_finale");

/// FFO #1 and #2 (14 empties each): black to move, +18 by G8 and +10 by A4.
fn two_positions(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("suites/fforum-1-19.obf"),
    )
    .expect("suite");
    let lines: Vec<&str> = text.lines().filter(|l| l.contains(';')).take(2).collect();
    assert!(lines[0].contains("G8:+18") && lines[1].contains("A4:+10"));
    let path = dir.join("two.obf");
    std::fs::write(&path, lines.join("\n") + "\n").expect("obf");
    path
}

/// An executable `name` in `dir` running `body` under sh.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let sub = dir.join(name);
    std::fs::create_dir_all(&sub).expect("dir");
    let path = sub.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("script");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path
}

/// Shell text picking FFO #1 (`$1`) or #2 (`$2`) by the board in file `$file`.
fn by_position(first: &str, second: &str) -> String {
    format!("case \"$(cat \"$file\")\" in --XXXXX--*) {first} ;; *) {second} ;; esac")
}

fn zebra(dir: &Path) -> PathBuf {
    // scrzebra -e 0 -h BITS -b 0 -line 1 -script POS OUT; run in its own directory.
    let body = format!(
        "[ -f coeffs2.bin ] || exit 7\necho \"$@\" > args.txt\nfile=${{10}}; out=${{11}}\n\
         echo; echo 'scrZebra (c) 1997-2005 Gunnar Andersson'\n\
         {}\necho 'Total nodes:              4321'\necho 'Maximum time for solve:   0.125 s'",
        by_position(
            "printf '%% result\\n41 - 23   g8 h7\\n' > \"$out\"",
            "printf '37 - 27   a4 b2\\n' > \"$out\""
        )
    );
    let path = script(dir, "scrzebra", &body);
    std::fs::write(path.with_file_name("coeffs2.bin"), b"x").expect("data");
    path
}

fn edax(dir: &Path, name: &str, first: &str) -> PathBuf {
    let body = format!(
        "file=$2\necho 'Edax version 4.4'\n echo ' # | depth|score|  time   |  nodes  |  N/s  | principal variation'\n{}",
        by_position(
            first,
            "echo '  1|   14   +10     0:00.020   2000  100000  A4 B2'"
        )
    );
    script(dir, name, &body)
}

fn egaroucid(dir: &Path, name: &str, first: &str) -> PathBuf {
    let body = format!(
        "file=$2\necho 'Egaroucid for Console 7.4.0'\necho '| Level | Depth | Move | Score | Time | Nodes | NPS |'\n{}",
        by_position(
            first,
            "echo '| 60 | 14@100% | a4 | +10 | 000:00:00.030 | 3000 | 100000 |'"
        )
    );
    script(dir, name, &body)
}

fn suite(args: &[&str]) -> Output {
    Command::new(FINALE)
        .arg("suite")
        .args(["--threads", "1", "--hash-mb", "64", "--no-progress"])
        .args(args)
        .output()
        .expect("finale runs")
}

fn text(o: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn engines_rows_go_into_the_csv_alternating_with_finale() {
    let tmp = tempfile::tempdir().expect("temp");
    let obf = two_positions(tmp.path());
    let z = zebra(tmp.path());
    let csv = tmp.path().join("run.csv");
    let spec = format!("zebra:{}", z.display());
    let o = suite(&[
        obf.to_str().unwrap(),
        "--engine",
        &spec,
        "--repeat",
        "2",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let rows = rows(&csv);
    assert_eq!(rows.len(), 8, "2 positions x 2 rounds x 2 variants");
    // Round 1: this, zebra; round 2: zebra, this.
    let order: Vec<&str> = rows[..4].iter().map(|r| r["variant"].as_str()).collect();
    assert_eq!(order, ["this", "zebra", "zebra", "this"]);
    for r in &rows {
        assert_eq!(r["engine_status"], "solved");
        assert_eq!(r["ok"], "true", "{r:?}");
        if r["variant"] == "zebra" {
            assert_eq!(r["engine"], "zebra");
            assert_eq!(r["nodes"], "4321");
            assert_eq!(r["time_s"], "0.125000");
            // 64 MB of 16-byte entries: 2^22 entries, one thread.
            assert_eq!((r["threads"].as_str(), r["hash_mb"].as_str()), ("1", "64"));
            let expected = if r["index"] == "1" {
                ("18", "G8")
            } else {
                ("10", "A4")
            };
            assert_eq!((r["score"].as_str(), r["best_moves"].as_str()), expected);
        } else {
            assert!(r["engine"].starts_with("finale "), "{r:?}");
            assert_ne!(r["nodes"], "4321");
        }
    }
    let args = std::fs::read_to_string(z.with_file_name("args.txt")).expect("zebra ran");
    assert!(
        args.starts_with("-e 0 -h 22 -b 0 -line 1 -script "),
        "{args}"
    );

    // compare reads the engine like a variant: per position ratios and an interval.
    let c = Command::new(FINALE)
        .arg("compare")
        .arg(&csv)
        .output()
        .expect("compare");
    let said = text(&c);
    assert!(c.status.success(), "{said}");
    assert!(said.contains("comparison: A = this, B = zebra"), "{said}");
    assert!(said.contains("95"), "{said}");
}

#[test]
fn failing_engines_give_rows_and_the_run_goes_on() {
    let tmp = tempfile::tempdir().expect("temp");
    let obf = two_positions(tmp.path());
    let crash = edax(tmp.path(), "edax", "kill -SEGV $$");
    let wrong = egaroucid(
        tmp.path(),
        "egaroucid",
        "echo '| 60 | 14@100% | g8 | +20 | 000:00:00.010 | 1000 | 100000 |'",
    );
    let csv = tmp.path().join("run.csv");
    let (a, b) = (
        format!("edax:{}", crash.display()),
        format!("egaroucid:{}", wrong.display()),
    );
    let o = suite(&[
        obf.to_str().unwrap(),
        "--engine",
        &a,
        "--engine",
        &b,
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let rows = rows(&csv);
    assert_eq!(rows.len(), 6, "{}", text(&o));
    let find = |variant: &str, index: &str| {
        rows.iter()
            .find(|r| r["variant"] == variant && r["index"] == index)
            .unwrap_or_else(|| panic!("{variant} {index}: {rows:?}"))
    };
    // The crash: a status, no answer, and the next position still solved by it.
    let r = find("edax", "1");
    assert_eq!(r["engine_status"], "error: killed by signal 11", "{r:?}");
    assert_eq!(
        (r["ok"].as_str(), r["nodes"].as_str(), r["score"].as_str()),
        ("", "", "")
    );
    let r = find("edax", "2");
    assert_eq!(
        (r["engine"].as_str(), r["engine_status"].as_str()),
        ("edax 4.4", "solved")
    );
    assert_eq!(
        (
            r["score"].as_str(),
            r["nodes"].as_str(),
            r["time_s"].as_str()
        ),
        ("10", "2000", "0.020000")
    );
    assert_eq!((r["ok"].as_str(), r["threads"].as_str()), ("true", "1"));
    // The wrong score: solved, not ok.
    let r = find("egaroucid", "1");
    assert_eq!(
        (r["engine"].as_str(), r["engine_status"].as_str()),
        ("egaroucid 7.4.0", "solved")
    );
    assert_eq!((r["score"].as_str(), r["ok"].as_str()), ("20", "false"));
    assert_eq!(find("egaroucid", "2")["ok"], "true");
    // finale's own rows are right.
    for i in ["1", "2"] {
        let r = find("this", i);
        assert_eq!(r["ok"], "true", "{r:?}");
    }
    let said = text(&o);
    assert!(said.contains("engine failures 1"), "{said}");
}

#[test]
fn garbage_and_a_time_limit_give_rows() {
    let tmp = tempfile::tempdir().expect("temp");
    let obf = two_positions(tmp.path());
    let garbage = edax(tmp.path(), "edax", "echo 'hello, this is not a table'");
    let sleeper = egaroucid(tmp.path(), "egaroucid", "sleep 30");
    let csv = tmp.path().join("run.csv");
    let (a, b) = (
        format!("edax:{}", garbage.display()),
        format!("egaroucid:{}", sleeper.display()),
    );
    let start = std::time::Instant::now();
    let o = suite(&[
        obf.to_str().unwrap(),
        "--engine",
        &a,
        "--engine",
        &b,
        "--time-limit",
        "0.5",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(start.elapsed().as_secs() < 20, "the sleeper was not killed");
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let rows = rows(&csv);
    assert_eq!(rows.len(), 6);
    let get = |variant: &str, index: &str| {
        rows.iter()
            .find(|r| r["variant"] == variant && r["index"] == index)
            .expect("row")
    };
    let r = get("edax", "1");
    assert!(
        r["engine_status"].starts_with("error: unreadable output: "),
        "{r:?}"
    );
    let r = get("egaroucid", "1");
    assert_eq!(
        (r["engine_status"].as_str(), r["ok"].as_str()),
        ("timeout", "")
    );
    let t: f64 = r["time_s"].parse().expect("time");
    assert!((0.5..10.0).contains(&t), "{t}");
    assert_eq!(get("egaroucid", "2")["engine_status"], "solved");
    assert_eq!(get("this", "2")["ok"], "true");
}

/// Ctrl-C (SIGINT) while another engine solves: the suite stops, and so does the engine's
/// process (and the child it started), not left running behind it.
#[test]
fn sigint_stops_the_engine_too() {
    let tmp = tempfile::tempdir().expect("temp");
    let obf = two_positions(tmp.path());
    let pids = tmp.path().join("pids.txt");
    // The stand-in records its pid and its child's, then waits on the child.
    let body = format!(
        "echo $$ >> {p}\nsleep 60 &\necho $! >> {p}\nwait",
        p = pids.display()
    );
    let sleeper = edax(tmp.path(), "edax", &body);
    let spec = format!("edax:{}", sleeper.display());
    let csv = tmp.path().join("run.csv");
    let child = Command::new(FINALE)
        .args([
            "suite",
            obf.to_str().unwrap(),
            "--no-progress",
            "--engine",
            &spec,
        ])
        .arg("--csv")
        .arg(&csv)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let alive = |pid: i32| unsafe { libc::kill(pid, 0) } == 0;
    let recorded = || -> Vec<i32> {
        std::fs::read_to_string(&pids)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    };
    while recorded().len() < 2 {
        assert!(
            std::time::Instant::now() < deadline,
            "the engine never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // SAFETY: kill has no memory-safety preconditions.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let o = child.wait_with_output().expect("ends");
    assert_eq!(
        o.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let stopped = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while recorded().into_iter().any(alive) {
        assert!(
            std::time::Instant::now() < stopped,
            "the engine's processes {:?} outlived the suite",
            recorded()
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn a_missing_or_unknown_engine_is_one_error_before_anything_runs() {
    let tmp = tempfile::tempdir().expect("temp");
    let obf = two_positions(tmp.path());
    let csv = tmp.path().join("run.csv");
    let no_data = script(tmp.path(), "scrzebra", "exit 0");
    let not_exec = tmp.path().join("edax-file");
    std::fs::write(&not_exec, "x").expect("file");
    for (spec, says) in [
        (
            "zebra:/no/such/scrzebra".to_string(),
            "/no/such/scrzebra".to_string(),
        ),
        ("crafty:/bin/sh".into(), "unknown engine 'crafty'".into()),
        (format!("zebra:{}", no_data.display()), "coeffs2.bin".into()),
        (
            format!("edax:{}", not_exec.display()),
            "not executable".into(),
        ),
    ] {
        let o = suite(&[
            obf.to_str().unwrap(),
            "--engine",
            &spec,
            "--csv",
            csv.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{spec}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with(&format!("error: --engine '{spec}': ")),
            "{err}"
        );
        assert!(err.contains(&says), "{spec}: {err}");
        assert!(!csv.exists(), "{spec}: nothing is written");
    }
}

/// The real Zebra on FFO #1-#3, built by its `solve.sh` where its sources are.
#[test]
#[cfg_attr(
    no_zebra_peer,
    ignore = "no ../shared/peers/zebra here: the real-Zebra test is skipped"
)]
fn the_real_zebra_solves_ffo_1_to_3() {
    let peer = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/peers/zebra");
    let bin = Path::new("/tmp/finale-peer-zebra/build/bin/scrzebra");
    let tmp = tempfile::tempdir().expect("temp");
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("suites/fforum-1-19.obf"),
    )
    .expect("suite");
    let three: Vec<&str> = text.lines().filter(|l| l.contains(';')).take(3).collect();
    let obf = tmp.path().join("three.obf");
    std::fs::write(&obf, three.join("\n") + "\n").expect("obf");
    if !bin.is_file() {
        let mut e = std::io::stderr();
        let _ = writeln!(e, "note: building Zebra with {}/solve.sh", peer.display());
        let built = Command::new(peer.join("solve.sh"))
            .arg(&obf)
            .output()
            .expect("solve.sh");
        assert!(
            built.status.success(),
            "{}",
            String::from_utf8_lossy(&built.stderr)
        );
    }
    let csv = tmp.path().join("run.csv");
    let spec = format!("zebra:{}", bin.display());
    let o = suite(&[
        obf.to_str().unwrap(),
        "--engine",
        &spec,
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", self::text(&o));
    let rows = rows(&csv);
    let zebra: Vec<_> = rows.iter().filter(|r| r["variant"] == "zebra").collect();
    assert_eq!(zebra.len(), 3);
    for (r, score) in zebra.iter().zip(["18", "10", "2"]) {
        assert_eq!(
            (r["score"].as_str(), r["ok"].as_str()),
            (score, "true"),
            "{r:?}"
        );
        assert!(r["nodes"].parse::<u64>().expect("nodes") > 0);
    }
}
