//! Files you can trust (issue 67), end to end: every case of the hostile user is
//! refused by the one guard with one `error:` line and exit 2, before any work, and leaves
//! its input, device or pipe as it was; a batch resumed with other weights, depth, mode or
//! selectivity is refused; standard output is `-` where a command offers it. The guard's
//! coverage of every file flag is tested from clap's description in src/cli/files/tests.rs.

use assert_cmd::cargo::cargo_bin_cmd;
use std::fs;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

const FFO1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// finale with `args`, killed after 60 s (a refusal is immediate; a command that got past
/// the guard would train or solve for minutes, or block on a pipe).
fn run(args: &[&str]) -> Output {
    cargo_bin_cmd!("finale")
        .args(args)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap()
}

/// The refusal contract: exit 2, one `error:` line, nothing on stdout; the line.
fn refused(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: ") && !err.contains("panicked"),
        "{err}"
    );
    assert!(
        o.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    err
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    fs::write(&p, bytes).unwrap();
    p
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn fifo(dir: &Path) -> PathBuf {
    let p = dir.join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&p)
        .status()
        .unwrap();
    assert!(made.success());
    p
}

/// A WTHOR file of one game (header: 16 bytes, then 68 a game) of year 2001, P3 24, with
/// the moves f5 d6 c3 (as the file codes them: 10 x row + column).
fn wthor(dir: &Path) -> PathBuf {
    let mut bytes = vec![0u8; 16];
    bytes[0] = 20;
    bytes[4..8].copy_from_slice(&1u32.to_le_bytes());
    bytes[10..12].copy_from_slice(&2001u16.to_le_bytes());
    bytes[12] = 8;
    bytes[14] = 24;
    let mut game = vec![0u8; 68];
    game[8..11].copy_from_slice(&[56, 64, 33]);
    bytes.extend(game);
    write(dir, "WTH_2001.wtb", &bytes)
}

#[test]
fn outputs_over_devices_and_pipes_are_refused_and_left_as_they_were() {
    let dir = tempfile::tempdir().unwrap();
    let games = wthor(dir.path());
    let pipe = fifo(dir.path());
    // The devices through links of this test's own: a guard that failed would rename a
    // file over the link, never over the machine's /dev/null (as root, it would).
    let mut devices: Vec<PathBuf> = ["null", "full", "stdout"]
        .iter()
        .map(|name| Path::new("/dev").join(name))
        .filter(|p| p.exists())
        .map(|device| {
            let link = dir.path().join(device.file_name().unwrap());
            std::os::unix::fs::symlink(&device, &link).unwrap();
            link
        })
        .collect();
    devices.push(pipe.clone());
    for out in &devices {
        let o = s(out);
        for args in [
            vec!["games", s(&games), "--out", o],
            vec!["train", "--out", o, "--force", "--games", "10"],
            vec!["train", "--out", o, "--games", "10"],
            vec!["batch", s(&games), "--out", o],
            vec!["eval", "--moves", "f5", "--csv", o],
            vec!["merge", s(&games), "--out", o, "--force"],
            vec!["report", s(&games), "--svg", o, "--force"],
            vec!["suite", s(&games), "--csv", o],
            vec!["calibrate", s(&games), "--csv", o],
        ] {
            let err = refused(&run(&args));
            assert!(
                err.contains(o) && err.contains("not a regular file"),
                "{args:?}: {err}"
            );
        }
        let kind = fs::symlink_metadata(out).unwrap().file_type();
        assert!(
            kind.is_symlink() || kind.is_fifo(),
            "{o} was replaced by a file"
        );
    }
    assert!(fs::metadata(&pipe).unwrap().file_type().is_fifo());
}

#[test]
fn outputs_over_the_commands_other_inputs_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let games = wthor(d);
    let jou = write(d, "WTHOR.JOU", &[0u8; 16]);
    let names = d.join("names");
    fs::create_dir(&names).unwrap();
    let trn = write(&names, "WTHOR.TRN", &[0u8; 16]);
    let real = write(d, "r.obf", format!("{FFO1}; +18;\n").as_bytes());
    let weights = write(
        d,
        "w.bin",
        &fs::read(root().join("weights/eval.bin")).unwrap(),
    );
    let set = write(d, "s.obf", format!("{FFO1}\n").as_bytes());
    let beside_new = d.join("WTHOR.TRN");
    let cases: Vec<(Vec<&str>, &Path)> = vec![
        (vec!["games", s(&games), "--out", s(&jou)], &jou),
        (
            vec!["games", s(&games), "--out", s(&beside_new)],
            &beside_new,
        ),
        (
            vec!["games", s(&games), "--names", s(&names), "--out", s(&trn)],
            &trn,
        ),
        (
            vec![
                "train",
                "--real",
                s(&real),
                "--data",
                s(&real),
                "--out",
                "never.bin",
            ],
            &real,
        ),
        (
            vec!["train", "--real", s(&real), "--out", s(&real), "--force"],
            &real,
        ),
        (
            vec![
                "train",
                "--play-eval",
                s(&weights),
                "--out",
                s(&weights),
                "--force",
            ],
            &weights,
        ),
        (
            vec![
                "eval",
                "--moves",
                "f5",
                "--eval",
                s(&weights),
                "--csv",
                s(&weights),
            ],
            &weights,
        ),
        (
            vec![
                "suite",
                s(&set),
                "--eval",
                s(&weights),
                "--csv",
                s(&weights),
            ],
            &weights,
        ),
        (
            vec![
                "batch",
                s(&set),
                "--eval",
                s(&weights),
                "--out",
                s(&weights),
            ],
            &weights,
        ),
        (
            vec!["suite", s(&set), "--variant=--eval", "--csv", s(&set)],
            &set,
        ),
    ];
    for (args, input) in cases {
        let before = fs::read(input).ok();
        let err = refused(&run(&args));
        assert!(err.contains("is also an input"), "{args:?}: {err}");
        assert_eq!(
            fs::read(input).ok(),
            before,
            "{args:?} changed {}",
            input.display()
        );
    }
    assert!(!beside_new.exists(), "no names file was made");
    assert!(!Path::new("never.bin").exists());
}

#[test]
fn names_and_inputs_that_cannot_be_read_whole_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let games = wthor(dir.path());
    let out = dir.path().join("o.obf");
    let o = s(&out);
    let missing = dir.path().join("nonexistent");
    for names in [s(&missing), s(&games)] {
        let err = refused(&run(&["games", s(&games), "--names", names, "--out", o]));
        assert!(err.contains(&format!("--names {names}: ")), "{err}");
    }
    // The names were given, and have no players file: said so, not "give --names".
    let empty = tempfile::tempdir().unwrap();
    let args = [
        "games",
        s(&games),
        "--names",
        s(empty.path()),
        "--player",
        "X",
        "--out",
        o,
    ];
    let err = refused(&run(&args));
    assert!(
        err.contains("--names") && err.contains("has no WTHOR.JOU"),
        "{err}"
    );
    assert!(!err.contains("give --names"), "{err}");
    let pipe = fifo(dir.path());
    for input in ["/dev/zero", s(&pipe)] {
        for args in [
            vec!["games", input, "--out", o],
            vec!["solve", "--file", input],
            vec!["train", "--real", input, "--out", o],
            vec!["compare", input],
        ] {
            let err = refused(&run(&args));
            assert!(err.contains("it is read whole"), "{args:?}: {err}");
        }
    }
    assert!(!out.exists());
}

#[test]
fn standard_output_is_a_dash_where_offered() {
    let dir = tempfile::tempdir().unwrap();
    let games = wthor(dir.path());
    let o = run(&["games", s(&games), "--empties", "57", "--out", "-"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(
        text.lines().filter(|l| !l.starts_with('%')).count(),
        1,
        "{text}"
    );
    assert!(!dir.path().join("-").exists());
    let o = run(&["eval", "--moves", "f5", "--csv", "-"]);
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.starts_with("index,source,board"),
        "only the CSV: {text}"
    );
    assert_eq!(text.lines().count(), 2);
    let err = refused(&run(&["batch", s(&games), "--out", "-"]));
    assert!(err.contains("standard output is not offered here"), "{err}");
}

/// An output or an input that is the file the command's own standard output or error goes
/// to (`--out o.csv >> o.csv`, `--out /dev/stdout > o.csv`, `--csv o.csv 2>> o.csv`,
/// `solve --file a.obf >> a.obf`): refused, the file as it was but for the error line where
/// that is the stream.
#[test]
fn outputs_and_inputs_that_are_the_commands_own_standard_streams_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let obf = write(dir.path(), "a.obf", format!("{FFO1}\n").as_bytes());
    let out = write(dir.path(), "o.csv", b"kept\n");
    let append = || fs::OpenOptions::new().append(true).open(&out).unwrap();
    let finale = || std::process::Command::new(env!("CARGO_BIN_EXE_finale"));
    for path in [s(&out), "/dev/stdout"] {
        let o = finale()
            .args(["batch", s(&obf), "--out", path])
            .stdout(append())
            .output()
            .unwrap();
        let err = refused(&o);
        assert!(err.contains("standard output (redirected to it)"), "{err}");
        assert_eq!(fs::read_to_string(&out).unwrap(), "kept\n", "{path}");
    }
    // An input read whole: `>> a.obf` would add the command's lines to it.
    for args in [
        vec!["solve", "--file", s(&obf)],
        vec!["batch", s(&obf), "--out", s(&out)],
    ] {
        let before = fs::read(&obf).unwrap();
        let stdout = fs::OpenOptions::new().append(true).open(&obf).unwrap();
        let o = finale().args(&args).stdout(stdout).output().unwrap();
        let err = refused(&o);
        assert!(
            err.contains("standard output (redirected to it: `>` has"),
            "{err}"
        );
        assert_eq!(fs::read(&obf).unwrap(), before, "{args:?}");
    }
    let o = finale()
        .args(["calibrate", s(&obf), "--csv", s(&out), "--no-progress"])
        .stderr(append())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let text = fs::read_to_string(&out).unwrap();
    let line = text.strip_prefix("kept\n").expect(&text);
    assert_eq!(line.lines().count(), 1, "{line}");
    assert!(
        line.starts_with("error: calibrate: --csv")
            && line.contains("standard error (redirected to it)"),
        "{line}"
    );
}

/// Labels and solves resumed with other weights, another depth or another mode: refused,
/// naming the column and both values, the output as it was.
#[test]
fn a_batch_resumed_with_other_settings_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set.obf");
    let generated = run(&[
        "generate",
        "--seed",
        "3",
        "--count",
        "6",
        "--empties",
        "8-10",
    ]);
    fs::write(&set, &generated.stdout).unwrap();
    let other = write(
        dir.path(),
        "zeros.bin",
        &fs::read(root().join("fuzz/seeds/weights/zeros.bin")).unwrap(),
    );
    let labels = dir.path().join("L.csv");
    let (set, labels, other) = (s(&set), s(&labels), s(&other));
    let base = [
        "batch",
        set,
        "--out",
        labels,
        "--no-progress",
        "--threads",
        "1",
    ];
    let first = run(&[&base[..], &["--label-depth", "2"]].concat());
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let before = fs::read(labels).unwrap();
    let shipped = String::from_utf8_lossy(&before)
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .find(|f| f.starts_with("eval "))
        .unwrap()
        .to_string();
    for (more, column, found, theirs) in [
        (
            vec!["--label-depth", "2", "--eval", other],
            "variant",
            shipped.as_str(),
            "eval ",
        ),
        (vec!["--label-depth", "3"], "mode", "depth2", "depth3"),
        (vec![], "mode", "depth2", "exact"),
    ] {
        let err = refused(&run(&[&base[..], &more[..]].concat()));
        let said = format!("its {column} is '{found}', this run's is '{theirs}");
        assert!(err.contains(&said), "{more:?}: {err}");
        assert_eq!(fs::read(labels).unwrap(), before, "{more:?}");
    }
    // The same settings resume: nothing left to do.
    let again = run(&[&base[..], &["--label-depth", "2"]].concat());
    assert!(again.status.success());
    assert_eq!(fs::read(labels).unwrap(), before);
    // A solve batch: its weights (ordering) and mode.
    let solved = dir.path().join("S.csv");
    let base = [
        "batch",
        set,
        "--out",
        s(&solved),
        "--no-progress",
        "--threads",
        "1",
    ];
    assert!(run(&base).status.success());
    let before = fs::read(&solved).unwrap();
    for more in [
        vec!["--eval", other],
        vec!["--mode", "wld"],
        vec!["--ordering", "fastest-first"],
    ] {
        let err = refused(&run(&[&base[..], &more[..]].concat()));
        assert!(
            err.contains("an output holds the rows of one mode"),
            "{more:?}: {err}"
        );
        assert_eq!(fs::read(&solved).unwrap(), before, "{more:?}");
    }
}
