//! Bad input to the commands that read other programs' files — CSVs given to
//! `compare` and `report`, a calibration CSV resumed, the CSV another binary writes for
//! `suite --binary`, the header of a batch output resumed: each is one `error:` line
//! naming the file and line, exit code 2, never a panic. Also checks that the fuzz seeds
//! are the valid inputs they claim to be.

use assert_cmd::cargo::cargo_bin_cmd;
use finale::commands::calibrate::{CalRow, HEADER, parse_rows};
use finale::commands::run_csv::RunCsv;
use finale::results::csv_in::parse_seconds;
use std::fs;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

/// Runs finale with `args` and checks the bad-input contract; returns the error line.
fn refused(args: &[&std::ffi::OsStr]) -> String {
    let out = cargo_bin_cmd!("finale").args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error:"), "{err}");
    err
}

fn write(dir: &TempDir, name: &str, text: &str) -> PathBuf {
    let path = dir.path().join(name);
    fs::write(&path, text).unwrap();
    path
}

/// A suite-like CSV of three solved positions whose third row has `time_s`, `nodes` and
/// `empties` as given.
fn run_csv(time: &str, nodes: &str, empties: &str) -> String {
    format!(
        "key,mode,nodes,time_s,empties\n\
         a,exact,100,0.5,20\n\
         b,exact,200,1.5,21\n\
         c,exact,{nodes},{time},{empties}\n"
    )
}

#[test]
fn seconds_are_finite_non_negative_and_bounded() {
    for ok in ["0", "0.000084124", "1.5", "1e9"] {
        assert!(parse_seconds(ok).is_some(), "{ok}");
    }
    for bad in ["", "x", "inf", "-inf", "NaN", "-1", "1e10", "1e300"] {
        assert_eq!(parse_seconds(bad), None, "{bad}");
    }
}

#[test]
fn compare_and_report_refuse_times_no_clock_gives() {
    let dir = TempDir::new().unwrap();
    let svg = dir.path().join("r.svg");
    for (i, time) in ["inf", "NaN", "-0.5", "1e300"].into_iter().enumerate() {
        let path = write(&dir, &format!("t{i}.csv"), &run_csv(time, "300", "22"));
        for args in [
            vec!["compare".as_ref(), path.as_os_str(), path.as_os_str()],
            vec![
                "report".as_ref(),
                path.as_os_str(),
                "--svg".as_ref(),
                svg.as_os_str(),
            ],
        ] {
            let err = refused(&args);
            let at = format!("t{i}.csv:4: bad time_s");
            assert!(err.contains(&at), "{time}: {err}");
        }
    }
    // The control: the same file with a real time is compared and drawn.
    let path = write(&dir, "ok.csv", &run_csv("2.5", "300", "22"));
    let out = cargo_bin_cmd!("finale")
        .args(["compare".as_ref(), path.as_os_str(), path.as_os_str()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = cargo_bin_cmd!("finale")
        .args([
            "report".as_ref(),
            path.as_os_str(),
            "--svg".as_ref(),
            svg.as_os_str(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn report_refuses_node_counts_that_are_not_counts_and_both_refuse_impossible_empties() {
    let dir = TempDir::new().unwrap();
    let svg = dir.path().join("r.svg");
    // A float column took these, and an infinite node rate reached the plot's range.
    for nodes in ["inf", "NaN", "-5", "1.5"] {
        let path = write(&dir, "n.csv", &run_csv("1.0", nodes, "22"));
        let err = refused(&[
            "report".as_ref(),
            path.as_os_str(),
            "--svg".as_ref(),
            svg.as_os_str(),
        ]);
        assert!(err.contains("n.csv:4: bad nodes"), "{nodes}: {err}");
    }
    let path = write(&dir, "e.csv", &run_csv("1.0", "300", "65"));
    let err = refused(&["compare".as_ref(), path.as_os_str(), path.as_os_str()]);
    assert!(err.contains("e.csv:4: bad empties"), "{err}");
    let err = refused(&[
        "report".as_ref(),
        path.as_os_str(),
        "--svg".as_ref(),
        svg.as_os_str(),
    ]);
    assert!(err.contains("e.csv:4: bad empties"), "{err}");
}

#[test]
fn report_of_times_below_a_microsecond_draws() {
    // A denormal time gave an infinite node rate and no plot.
    let dir = TempDir::new().unwrap();
    let svg = dir.path().join("r.svg");
    let path = write(
        &dir,
        "tiny.csv",
        &run_csv("5e-324", "18446744073709551615", "22"),
    );
    let out = cargo_bin_cmd!("finale")
        .args([
            "report".as_ref(),
            path.as_os_str(),
            "--svg".as_ref(),
            svg.as_os_str(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(fs::read_to_string(&svg).unwrap().starts_with("<svg"));
}

#[test]
fn an_empty_csv_is_refused_by_compare_and_report() {
    let dir = TempDir::new().unwrap();
    let path = write(&dir, "empty.csv", "");
    let err = refused(&["compare".as_ref(), path.as_os_str(), path.as_os_str()]);
    assert!(err.contains("empty.csv:1: no 'key' column"), "{err}");
    let svg = dir.path().join("r.svg");
    let err = refused(&[
        "report".as_ref(),
        path.as_os_str(),
        "--svg".as_ref(),
        svg.as_os_str(),
    ]);
    assert!(err.contains("empty.csv:1: no 'empties' column"), "{err}");
}

/// The suite columns of the first finale's CSVs, before `key` and the later columns.
const FIRST_COLUMNS: &str = "index,file,empties,side,mode,score,best_moves,expected_score,\
                             expected_moves,ok,nodes,time_s,nps,threads,hash_mb,pv,git_rev,\
                             cpu,profile,move_scores";

/// A batch CSV of the first batch (the first suite columns, then `key`, `board` and
/// `status`), and a suite CSV of the version before `selectivity` (`key`, `board`,
/// `variant`, `repeat` added). The timeout row's values are not read, so its `?` is not
/// refused.
fn older_csvs(dir: &TempDir) -> (PathBuf, PathBuf) {
    let batch = write(
        dir,
        "old-batch.csv",
        &format!(
            "{FIRST_COLUMNS},key,board,status\n\
             1,a.obf,20,X,exact,4,C4,4,C4,true,1000,0.500000,2000,1,16,C4 D3,abc,cpu,release,,00000000000000aa,b1,solved\n\
             2,a.obf,22,O,exact,,,,,,5000,9.000000,,?,16,,abc,cpu,release,,00000000000000bb,b2,timeout\n\
             3,a.obf,21,X,exact,-2,F5,-2,F5,true,3000,1.500000,2000,1,16,F5,abc,cpu,release,,00000000000000cc,b3,solved\n"
        ),
    );
    let suite = write(
        dir,
        "old-suite.csv",
        &format!(
            "{FIRST_COLUMNS},key,board,variant,repeat\n\
             1,a.obf,20,X,exact,4,C4,4,C4,true,500,0.250000,2000,1,16,C4 D3,def,cpu,release,,00000000000000aa,b1,,1\n\
             2,a.obf,22,O,exact,6,A1,6,A1,true,700,0.300000,2000,1,16,A1,def,cpu,release,,00000000000000bb,b2,,1\n\
             3,a.obf,21,X,exact,-2,F5,-2,F5,true,1500,0.750000,2000,1,16,F5,def,cpu,release,,00000000000000cc,b3,,1\n"
        ),
    );
    (batch, suite)
}

#[test]
fn csvs_of_older_finales_are_compared_and_reported() {
    let dir = TempDir::new().unwrap();
    let (batch, suite) = older_csvs(&dir);
    let c = finale::commands::run_compare(&[batch.clone(), suite.clone()], &mut Vec::new())
        .expect("older CSVs compare");
    // aa and cc: bb timed out in the batch. Half the nodes and half the time on both.
    assert_eq!((c.positions, c.node_differences), (2, 2), "{c:?}");
    assert!((c.node_ratio - 0.5).abs() < 1e-12, "{c:?}");
    assert!((c.time_ratio - 0.5).abs() < 1e-12, "{c:?}");

    // Columns in another order, and one finale never wrote, read the same.
    let shuffled = write(
        &dir,
        "shuffled.csv",
        "note,time_s,nodes,key,mode,empties\n\
         x,0.25,500,00000000000000aa,exact,20\n\
         y,0.75,1500,00000000000000cc,exact,21\n",
    );
    let again = finale::commands::run_compare(&[batch.clone(), shuffled], &mut Vec::new())
        .expect("columns by name");
    let figures = |c: &finale::commands::Comparison| {
        (c.positions, c.node_differences, c.node_ratio, c.time_ratio)
    };
    assert_eq!(figures(&again), figures(&c));

    // The first suite CSVs had no key: compare needs one, report draws them by line.
    let first = write(
        &dir,
        "first.csv",
        &format!(
            "{FIRST_COLUMNS}\n\
             1,a.obf,20,X,exact,4,C4,4,C4,true,1000,0.500000,2000,1,16,C4 D3,abc,cpu,release,\n"
        ),
    );
    let e = finale::commands::run_compare(&[first.clone(), suite.clone()], &mut Vec::new())
        .expect_err("no key");
    assert!(
        e.to_string()
            .ends_with("first.csv:1: no 'key' column: not a finale suite or batch CSV"),
        "{e}"
    );
    let svg = dir.path().join("r.svg");
    let mut out = Vec::new();
    finale::commands::run_report(
        &[batch, suite, first],
        &svg,
        false,
        &finale::interrupt::Interrupt::new(),
        &mut out,
    )
    .expect("reported");
    let out = String::from_utf8(out).unwrap();
    for line in [
        "first: 1 positions, 0.500 s",
        "old-batch: 2 positions, 2.000 s",
        "old-suite: 3 positions, 1.300 s",
    ] {
        assert!(out.contains(line), "{line}\n{out}");
    }
}

#[test]
fn a_value_not_of_its_columns_type_is_refused_naming_line_and_column() {
    let dir = TempDir::new().unwrap();
    let svg = dir.path().join("r.svg");
    for (name, text, at) in [
        // A column compare and report do not use still has its type.
        (
            "threads.csv",
            "key,mode,nodes,time_s,empties,threads\na,exact,1,0.5,20,1\nb,exact,1,0.5,20,two\n",
            "threads.csv:3: bad threads",
        ),
        (
            "empties.csv",
            "key,mode,nodes,time_s,empties\na,exact,1,0.5,x\n",
            "empties.csv:2: bad empties (expected 0 to 64)",
        ),
        (
            "ok.csv",
            "key,mode,nodes,time_s,empties,ok\na,exact,1,0.5,20,yes\n",
            "ok.csv:2: bad ok",
        ),
        (
            "twice.csv",
            "key,mode,nodes,time_s,empties,nodes\na,exact,1,0.5,20,2\n",
            "twice.csv:1: two 'nodes' columns",
        ),
    ] {
        let path = write(&dir, name, text);
        let compare = refused(&["compare".as_ref(), path.as_os_str(), path.as_os_str()]);
        let report = refused(&[
            "report".as_ref(),
            path.as_os_str(),
            "--svg".as_ref(),
            svg.as_os_str(),
        ]);
        for err in [compare, report] {
            assert!(err.contains(at), "{at}: {err}");
        }
    }
}

/// A stand-in for another finale binary: writes `row` under `header` to the CSV named
/// after `--csv`, as `finale suite` would.
#[cfg(unix)]
fn fake_binary(dir: &TempDir, name: &str, header: &str, row: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let script = format!(
        "#!/bin/sh\n[ \"$1\" = --version ] && {{ echo 'finale 0.0.9'; exit 0; }}\n\
         while [ $# -gt 0 ]; do\n  if [ \"$1\" = --csv ]; then csv=$2; fi\n  shift\ndone\n\
         printf '%s\\n%s\\n' '{header}' '{row}' > \"$csv\"\n"
    );
    let path = write(dir, name, &script);
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[cfg(unix)]
#[test]
fn suite_refuses_another_binarys_out_of_range_values() {
    let dir = TempDir::new().unwrap();
    // Ten empties: this binary's own solve is instant.
    let obf = write(
        &dir,
        "one.obf",
        "-XXXXX--XOOOO-OXXXOOOOO-XOXOOXOXXOXXOXOXXOOOXOOXX--XXXOXX-XXXX-- X\n",
    );
    let header = "score,best_moves,nodes,time_s,git_rev";
    // An infinite or huge time panicked in Duration::from_secs_f64; a negative or NaN
    // one silently became 0.
    for (i, (row, what)) in [
        ("46,C7,1528,inf,fake", "bad time_s"),
        ("46,C7,1528,1e300,fake", "bad time_s"),
        ("46,C7,1528,NaN,fake", "bad time_s"),
        ("46,C7,1528,-1,fake", "bad time_s"),
        ("1000,C7,1528,0.1,fake", "bad score"),
    ]
    .into_iter()
    .enumerate()
    {
        let bin = fake_binary(&dir, &format!("fake{i}"), header, row);
        let err = refused(&[
            "suite".as_ref(),
            obf.as_os_str(),
            "--binary".as_ref(),
            bin.as_os_str(),
            "--hash-mb".as_ref(),
            "4".as_ref(),
            "--threads".as_ref(),
            "1".as_ref(),
            "--csv".as_ref(),
            dir.path().join("out.csv").as_os_str(),
        ]);
        let at = format!("fake{i}: {what}");
        assert!(err.contains(&at), "{row}: {err}");
        assert!(err.contains("on line 2 of its CSV"), "{row}: {err}");
    }
    // The control: a sane row is timed beside this binary's.
    let bin = fake_binary(&dir, "fake-ok", header, "46,C7,1528,0.1,fake");
    let out = cargo_bin_cmd!("finale")
        .args([
            "suite".as_ref(),
            obf.as_os_str(),
            "--binary".as_ref(),
            bin.as_os_str(),
        ])
        .args(["--hash-mb", "4", "--threads", "1", "--csv"])
        .arg(dir.path().join("ok.csv"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The rows of the calibration seed (real `calibrate` output of two positions).
fn seed_rows() -> (String, Vec<CalRow>) {
    let text = fs::read_to_string(seed("calibrate_csv/rows.csv")).unwrap();
    let rows = parse_rows(text.as_bytes(), Path::new("rows.csv")).unwrap();
    (text, rows)
}

fn seed(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/seeds")
        .join(name)
}

#[test]
fn calibration_header_is_what_the_writer_writes() {
    let (_, rows) = seed_rows();
    let mut w = csv::Writer::from_writer(Vec::new());
    w.serialize(&rows[0]).unwrap();
    let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
    assert_eq!(text.lines().next().unwrap(), HEADER.join(","));
}

#[test]
fn calibration_rows_refused_with_file_and_line() {
    let (text, rows) = seed_rows();
    assert_eq!(rows.len(), 6);
    assert_eq!((rows[1].selectivity, rows[1].score), (73, 42));
    let path = Path::new("cal.csv");
    let err = |text: &str| parse_rows(text.as_bytes(), path).unwrap_err().to_string();
    let lines: Vec<&str> = text.lines().collect();

    // The last row ends inside a quoted field: it reads as a row, but would swallow the
    // rows appended after it.
    let open_quote = format!(
        "{}\n{}\n{},\"abc\n",
        lines[0],
        lines[1],
        &lines[2][..lines[2].rfind(',').unwrap()]
    );
    let e = err(&open_quote);
    assert!(
        e.starts_with("cal.csv:3: the last row ends inside a quoted field"),
        "{e}"
    );

    // Times no clock gives.
    for bad in ["inf", "NaN", "-1", "1e300"] {
        let row = lines[2].replacen(",0.000030996,", &format!(",{bad},"), 1);
        assert_ne!(row, lines[2]);
        let e = err(&format!("{}\n{}\n{row}\n", lines[0], lines[1]));
        assert!(e.starts_with("cal.csv:3: bad time_s"), "{bad}: {e}");
    }
    // Columns in another order: appended rows would be misread.
    let mut swapped: Vec<&str> = HEADER.to_vec();
    swapped.swap(14, 16);
    let e = err(&format!("{}\n{}\n", swapped.join(","), lines[1]));
    assert!(
        e.starts_with("cal.csv:1: not a finale calibration CSV"),
        "{e}"
    );
    // A short row.
    let e = err(&format!("{}\n1,2\n", lines[0]));
    assert!(e.starts_with("cal.csv:2: not a calibration row"), "{e}");
    for e in [
        err(&open_quote),
        err("x\n"),
        err(&format!("{}\n1,2\n", lines[0])),
    ] {
        assert_eq!(e.lines().count(), 1, "{e}");
    }
}

#[test]
fn calibrate_leaves_a_refused_file_with_a_torn_line_as_it_was() {
    // The torn last line used to be cut off before the header was checked.
    let dir = TempDir::new().unwrap();
    let obf = write(
        &dir,
        "one.obf",
        "-XXXXX--XOOOO-OXXXOOOOO-XOXOOXOXXOXXOXOXXOOOXOOXX--XXXOXX-XXXX-- X\n",
    );
    let text = "index,file,score\n1,a.obf,3\n2,a.o";
    let csv = write(&dir, "other.csv", text);
    let err = refused(&[
        "calibrate".as_ref(),
        "--levels".as_ref(),
        "95".as_ref(),
        obf.as_os_str(),
        "--csv".as_ref(),
        csv.as_os_str(),
    ]);
    assert!(
        err.contains("other.csv:1: not a finale calibration CSV"),
        "{err}"
    );
    assert_eq!(fs::read_to_string(&csv).unwrap(), text);
}

#[test]
fn fuzz_seeds_are_valid_inputs() {
    use finale::eval::Evaluator;
    use finale::eval::weights_file::WeightFile;
    // The smallest weight files this build's evaluator takes: all zeros, and a few
    // weights among zero runs (version 1, which also stored mirror images apart), and
    // all zeros in version 2.
    for name in ["zeros.bin", "sparse.bin", "v2-zeros.bin"] {
        let eval = Evaluator::load(&seed(&format!("weights/{name}"))).unwrap();
        assert!(eval.weights().iter().any(|&w| w != 0) == (name == "sparse.bin"));
    }
    // Another shape, stored whole: version 1 and 2 read to the same weights.
    for name in ["raw-2x3.bin", "v2-2x3.bin"] {
        let (other, _) = WeightFile::load(&seed(&format!("weights/{name}"))).unwrap();
        assert_eq!(other.weights, [1, -2, 3, i16::MIN, 0, 6]);
        assert!(Evaluator::load(&seed(&format!("weights/{name}"))).is_err());
    }

    for (name, n) in [("rows.csv", 6), ("header-only.csv", 0), ("quoted.csv", 3)] {
        let text = fs::read(seed(&format!("calibrate_csv/{name}"))).unwrap();
        let rows = parse_rows(&text, Path::new(name)).unwrap();
        assert_eq!(rows.len(), n, "{name}");
    }
    for (name, n) in [("suite.csv", 2), ("two-variants.csv", 4), ("batch.csv", 3)] {
        let path = seed(&format!("run_csv/{name}"));
        let mut csv = RunCsv::open(&path).unwrap();
        let mut count = 0;
        csv.for_each_solved(|_| {
            count += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(count, n, "{name}");
    }
}

/// A batch output whose header holds this finale's columns in another order is refused
/// as such, not as "another version" with the same number of columns.
#[test]
fn a_batch_output_with_its_columns_reordered_is_named_so() {
    let dir = TempDir::new().unwrap();
    let input = write(
        &dir,
        "one.obf",
        &format!("{} X\n", "-".repeat(27) + "OX------XO" + &"-".repeat(27)),
    );
    for (x, y) in [("score", "nodes"), ("index", "file")] {
        let mut columns = finale::results::batch_header();
        let (a, b) = (
            columns.iter().position(|&c| c == x).unwrap(),
            columns.iter().position(|&c| c == y).unwrap(),
        );
        columns.swap(a, b);
        let text = columns.join(",") + "\n";
        let out = write(&dir, "out.csv", &text);
        let err = refused(&[
            "batch".as_ref(),
            input.as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
        ]);
        assert!(err.contains("out.csv:1: "), "{err}");
        assert!(err.contains("in another order"), "{err}");
        assert!(!err.contains("another version"), "{err}");
        assert_eq!(fs::read_to_string(&out).unwrap(), text, "left untouched");
    }
}

/// A suite stopped while writing (a full disk, a kill) leaves its last row torn: without
/// its newline, or with fewer fields. compare and report drop that row, saying so in one
/// line naming the file and line, and read the others; a damaged row elsewhere is still
/// refused.
#[test]
fn compare_and_report_drop_a_torn_last_row_only() {
    let dir = TempDir::new().unwrap();
    let svg = dir.path().join("r.svg");
    let whole = run_csv("2.5", "300", "22");
    let good = write(&dir, "good.csv", &whole);
    let torn = [
        ("cut.csv", whole[..whole.len() - 12].to_string()),
        ("no-newline.csv", whole[..whole.len() - 2].to_string()),
        ("short.csv", whole.replace(",300,2.5,22\n", ",300\n")),
    ];
    for (name, text) in torn {
        let path = write(&dir, name, &text);
        let runs = [
            vec!["compare".as_ref(), path.as_os_str(), good.as_os_str()],
            vec![
                "report".as_ref(),
                path.as_os_str(),
                "--svg".as_ref(),
                svg.as_os_str(),
                "--force".as_ref(),
            ],
        ];
        for args in runs {
            let out = cargo_bin_cmd!("finale").args(&args).output().unwrap();
            let (stdout, stderr) = (
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr),
            );
            assert!(out.status.success(), "{name} {args:?}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{name}: {stderr}");
            let at = format!("{}:4: ", path.display());
            assert!(
                stderr.starts_with("note: ") && stderr.contains(&at) && stderr.contains("torn"),
                "{name}: {stderr}"
            );
            assert!(
                stdout.contains("positions     2") || stdout.contains(": 2 positions"),
                "{name}: {stdout}"
            );
        }
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            text,
            "the file is only read"
        );
    }
    // Not the last row: refused, naming its line.
    let path = write(
        &dir,
        "middle.csv",
        &whole.replace(",200,1.5,21\n", ",200\n"),
    );
    let err = refused(&["compare".as_ref(), path.as_os_str(), path.as_os_str()]);
    assert!(err.contains("middle.csv:3: "), "{err}");
    let err = refused(&[
        "report".as_ref(),
        path.as_os_str(),
        "--svg".as_ref(),
        svg.as_os_str(),
        "--force".as_ref(),
    ]);
    assert!(err.contains("middle.csv:3: "), "{err}");
}
