//! Variant comparison as a user runs it: `suite --repeat` alternating flag sets or
//! binaries, and `compare` on the CSVs it writes.

use std::path::Path;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_finale");

fn three_positions(dir: &Path) -> std::path::PathBuf {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("suites/fforum-1-19.obf"),
    )
    .unwrap();
    let path = dir.join("three.obf");
    std::fs::write(&path, text.lines().take(3).collect::<Vec<_>>().join("\n")).unwrap();
    path
}

fn run(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(BIN).args(args).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// A `suite --repeat 2` run over three FFO positions with some variant arguments.
struct Repeated {
    _dir: tempfile::TempDir,
    csv: std::path::PathBuf,
    code: i32,
    out: String,
    err: String,
    /// Each CSV row's `variant` and `repeat`.
    rows: Vec<(String, String)>,
}

fn repeated_suite(variant_args: &[&str]) -> Repeated {
    let dir = tempfile::tempdir().unwrap();
    let input = three_positions(dir.path());
    let csv = dir.path().join("rep.csv");
    let mut args = vec!["suite", input.to_str().unwrap(), "--repeat", "2"];
    args.extend(variant_args);
    // One thread: node counts repeat exactly, which the comparisons below rely on.
    args.extend([
        "--csv",
        csv.to_str().unwrap(),
        "--hash-mb",
        "16",
        "--threads",
        "1",
    ]);
    let (code, out, err) = run(&args);
    let mut rows = Vec::new();
    if code == 0 {
        let mut r = csv::Reader::from_path(&csv).unwrap();
        let h: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
        let vi = h.iter().position(|c| c == "variant").unwrap();
        let ri = h.iter().position(|c| c == "repeat").unwrap();
        for x in r.records() {
            let x = x.unwrap();
            rows.push((x[vi].to_string(), x[ri].to_string()));
        }
    }
    Repeated {
        _dir: dir,
        csv,
        code,
        out,
        err,
        rows,
    }
}

#[test]
fn repeated_variants_are_alternated_recorded_and_compared() {
    let r = repeated_suite(&[
        "--variant=",
        "--variant=--no-etc --no-stability",
        "--binary",
        BIN,
    ]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert!(r.out.contains("wrong scores  0"), "{}", r.out);
    // 3 positions x 2 repeats x 3 variants.
    assert_eq!(r.rows.len(), 18);
    for v in ["default", "--no-etc --no-stability", BIN] {
        assert_eq!(r.rows.iter().filter(|x| x.0 == v).count(), 6, "{v}");
    }
    // Repeats alternate the order: the second round starts with the last variant.
    assert_eq!(r.rows[0].0, "default");
    assert_eq!(r.rows[3], (BIN.to_string(), "2".to_string()));

    // Three variants in one file: each of the later two against the first, a row each.
    let (code, out, err) = run(&["compare", r.csv.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("variants against A = default\n"), "{out}");
    let rows: Vec<&str> = out.lines().skip(2).collect();
    assert_eq!(rows.len(), 2, "{out}");
    assert!(
        rows[0].starts_with("--no-etc --no-stability ") && rows[1].starts_with(BIN),
        "{out}"
    );
    // Both solved the 3 positions.
    assert!(
        rows.iter()
            .all(|r| r.split_whitespace().nth(r.split_whitespace().count() - 7) == Some("3")),
        "{out}"
    );
}

#[test]
fn compare_two_runs_and_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let input = three_positions(dir.path());
    let a = dir.path().join("a.csv");
    let b = dir.path().join("b.csv");
    for (csv, extra) in [(&a, None), (&b, Some("--no-etc"))] {
        let mut args = vec![
            "suite",
            input.to_str().unwrap(),
            "--csv",
            csv.to_str().unwrap(),
            "--hash-mb",
            "16",
        ];
        args.extend(extra);
        assert_eq!(run(&args).0, 0);
    }
    let (code, out, err) = run(&["compare", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("positions     3"), "{out}");
    assert!(out.contains("verdict"), "{out}");

    let junk = dir.path().join("junk.csv");
    std::fs::write(&junk, "x,y\n1,2\n").unwrap();
    let (code, _, err) = run(&["compare", a.to_str().unwrap(), junk.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error:") && err.contains("junk.csv"),
        "{err}"
    );
    let (code, _, err) = run(&["suite", input.to_str().unwrap(), "--variant=--fast"]);
    assert_eq!(code, 2);
    assert!(err.contains("--fast"), "{err}");
}

#[test]
fn report_draws_an_svg_of_real_runs() {
    let dir = tempfile::tempdir().unwrap();
    let input = three_positions(dir.path());
    let csv = dir.path().join("rep.csv");
    let (code, _, err) = run(&[
        "suite",
        input.to_str().unwrap(),
        "--repeat",
        "2",
        "--variant=",
        "--variant=--no-etc",
        "--csv",
        csv.to_str().unwrap(),
        "--hash-mb",
        "16",
    ]);
    assert_eq!(code, 0, "{err}");
    let svg = dir.path().join("r.svg");
    let (code, out, err) = run(&[
        "report",
        csv.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("rep [default]: 6 positions"), "{out}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"), "an SVG document");
    // Three panels, one point per solved row and panel (12 rows in the first two panels,
    // 6 relative points in the third).
    assert_eq!(
        text.matches("<circle").count(),
        12 + 12 + 6 + 2,
        "points and legend marks"
    );
    let (code, _, err) = run(&[
        "report",
        input.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(code, 2, "an OBF file is not a run");
    assert!(
        err.starts_with("error:") && err.contains("three.obf"),
        "{err}"
    );
}

#[test]
fn binary_alone_runs_against_this_binary() {
    // `--binary OLD` without --variant: this binary's search and OLD, alternating, then
    // compared. The same binary on both sides must give identical node counts.
    let r = repeated_suite(&["--binary", BIN]);
    assert_eq!(r.code, 0, "{}", r.err);
    assert_eq!(r.rows.len(), 12);
    for v in ["this", BIN] {
        assert_eq!(r.rows.iter().filter(|x| x.0 == v).count(), 6, "{v}");
    }
    assert!(r.out.contains("node counts   0 of 3 differ"), "{}", r.out);
    // The other binary's figures come from its own CSV: when its best move was settled
    // (within its solve time) and its own peak memory (at least its 16 MB table).
    let mut csv = csv::Reader::from_path(&r.csv).unwrap();
    let h = csv.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|c| c == name).unwrap();
    let mut theirs = 0;
    for x in csv.records() {
        let x = x.unwrap();
        if &x[col("variant")] != BIN {
            continue;
        }
        theirs += 1;
        let time: f64 = x[col("time_s")].parse().unwrap();
        let found: f64 = x[col("best_found_s")].parse().unwrap();
        assert!((0.0..=time).contains(&found), "{found} > {time}");
        let peak: f64 = x[col("peak_mb")].parse().unwrap();
        assert!(peak >= 16.0, "{peak}");
    }
    assert_eq!(theirs, 6);
}

/// Runs `finale suite INPUT ARGS... --csv CSV --threads 1` and returns each row's
/// variant, table size and nodes.
fn suite_rows(input: &Path, csv: &Path, args: &[&str]) -> Vec<(String, String, u64)> {
    let mut all = vec!["suite", input.to_str().unwrap()];
    all.extend(args);
    all.extend(["--csv", csv.to_str().unwrap(), "--threads", "1"]);
    let (code, out, err) = run(&all);
    assert_eq!(code, 0, "{out}{err}");
    let mut r = csv::Reader::from_path(csv).unwrap();
    let h = r.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|c| c == name).unwrap();
    r.records()
        .map(|x| {
            let x = x.unwrap();
            (
                x[col("variant")].to_string(),
                x[col("hash_mb")].to_string(),
                x[col("nodes")].parse().unwrap(),
            )
        })
        .collect()
}

/// A variant written as on the command line, value after a space, sets what the CLI flags
/// set: at one thread its node counts are those of a plain run with the same flags, and
/// `--hash-mb 8` gives that variant its own table size.
#[test]
fn variants_are_written_as_on_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let input = three_positions(dir.path());
    let fastest = "--ordering fastest-first --hash-mb 8";
    let rows = suite_rows(
        &input,
        &dir.path().join("v.csv"),
        &[
            "--variant=",
            &format!("--variant={fastest}"),
            "--hash-mb",
            "16",
        ],
    );
    let mut nodes = std::collections::HashMap::new();
    for (variant, hash, n) in rows {
        let expected = if variant == "default" { "16" } else { "8" };
        assert_eq!(hash, expected, "{variant}");
        *nodes.entry(variant).or_insert(0u64) += n;
    }
    let plain: u64 = suite_rows(
        &input,
        &dir.path().join("plain.csv"),
        &["--ordering", "fastest-first", "--hash-mb", "8"],
    )
    .iter()
    .map(|r| r.2)
    .sum();
    assert_eq!(nodes[fastest], plain);
    assert_ne!(nodes["default"], plain, "the flags changed the search");
}

/// Library callers can tell compare and report errors apart by type.
#[test]
fn compare_errors_are_types_a_caller_can_match() {
    use finale::error::CompareError;
    let e = finale::commands::run_compare(&[], &mut Vec::new()).expect_err("no file");
    assert!(
        matches!(e, finale::Error::Compare(CompareError::FileCount)),
        "{e:?}"
    );
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("x.csv");
    std::fs::write(&csv, "index,file\n1,a\n").unwrap();
    let e = finale::commands::run_compare(&[csv.clone(), csv], &mut Vec::new())
        .expect_err("not a suite CSV");
    assert!(
        matches!(
            &e,
            finale::Error::Compare(CompareError::MissingColumn { .. })
        ),
        "{e:?}"
    );
    assert!(
        e.to_string().ends_with("not a finale suite or batch CSV"),
        "{e}"
    );
}

/// A stand-in for another finale: a script that answers every position with the CSV
/// row `row` under `header`, as the `suite` of an older (or broken) build would.
fn fake_binary(dir: &Path, header: &str, row: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("other-finale");
    let script = format!(
        "#!/bin/sh\n[ \"$1\" = --version ] && {{ echo 'finale 0.0.9'; exit 0; }}\n\
         while [ \"$1\" != --csv ]; do shift; done\n\
         printf '%s\\n%s\\n' '{header}' '{row}' > \"$2\"\n"
    );
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// The columns of the first finale CSVs: no variant, repeat, selectivity, best_found_s
/// or peak_mb.
const OLD_HEADER: &str = "index,file,empties,side,mode,score,best_moves,expected_score,\
expected_moves,ok,nodes,time_s,nps,threads,hash_mb,pv,git_rev,cpu,profile,move_scores,key,board";

#[test]
fn another_binary_of_an_older_version_is_read_and_a_bad_value_named() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("one.obf");
    let ffo1 = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("suites/fforum-1-19.obf"),
    )
    .unwrap();
    std::fs::write(&input, ffo1.lines().next().unwrap()).unwrap();
    // FFO #1 is G8 +18 (published).
    let good = "1,x.obf,14,X,exact,+18,G8,18,G8,true,12345,0.5,24690,1,16,G8 H7,abc123,cpu,\
release,,00,board";
    let csv = dir.path().join("out.csv");
    // `suite` of the one position against the stand-in answering `row`.
    let against = |row: &str| {
        let bin = fake_binary(dir.path(), OLD_HEADER, row);
        let bin = bin.to_str().unwrap().to_string();
        let (input, csv) = (input.to_str().unwrap(), csv.to_str().unwrap());
        let args = [
            "suite",
            input,
            "--binary",
            &bin,
            "--csv",
            csv,
            "--threads",
            "1",
        ];
        let (code, out, err) = run(&args);
        (bin, code, out, err)
    };
    let (bin, code, out, err) = against(good);
    assert_eq!(code, 0, "{out}{err}");
    let mut r = csv::Reader::from_path(&csv).unwrap();
    let h = r.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|c| c == name).unwrap();
    let theirs: Vec<csv::StringRecord> = r
        .records()
        .map(|x| x.unwrap())
        .filter(|x| x[col("variant")] == *bin)
        .collect();
    assert_eq!(theirs.len(), 1);
    let row = &theirs[0];
    assert_eq!(
        (&row[col("nodes")], &row[col("time_s")], &row[col("score")]),
        ("12345", "0.500000", "18")
    );
    assert_eq!((&row[col("git_rev")], &row[col("ok")]), ("abc123", "true"));
    // Columns the older build did not write stay empty, not made up.
    assert_eq!((&row[col("best_found_s")], &row[col("peak_mb")]), ("", ""));
    assert_eq!(&row[col("selectivity")], "100");

    // A row whose nodes are not a count: one line naming the binary, column and line.
    let (bin, code, _, err) = against(&good.replace("12345", "12x"));
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        err.trim(),
        format!("error: {bin}: bad nodes on line 2 of its CSV")
    );
}

/// A suite-like CSV of three solved positions, written by hand (no solve needed).
fn small_csv(dir: &Path, name: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(
        &path,
        "key,mode,nodes,time_s,empties\n\
         a,exact,100,0.5,20\n\
         b,exact,200,1.5,21\n\
         c,exact,300,2.5,22\n",
    )
    .unwrap();
    path
}

/// `report` never writes over one of its inputs, even with --force, nor over an existing
/// file without --force: one `error:` line, exit 2, and the file as it was.
#[test]
fn report_never_replaces_an_input_nor_an_existing_file_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let csv = small_csv(dir.path(), "s.csv");
    let text = std::fs::read_to_string(&csv).unwrap();
    let same = dir.path().join(".").join("s.csv");
    let linked = dir.path().join("link.csv");
    std::fs::hard_link(&csv, &linked).unwrap();
    for svg in [&csv, &same, &linked] {
        for force in [false, true] {
            let mut args = vec![
                "report",
                csv.to_str().unwrap(),
                "--svg",
                svg.to_str().unwrap(),
            ];
            if force {
                args.push("--force");
            }
            let (code, out, err) = run(&args);
            assert_eq!(code, 2, "{args:?}: {out}{err}");
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(
                err.starts_with("error: report: --svg ") && err.contains("is also an input"),
                "{err}"
            );
            assert_eq!(out, "");
            assert_eq!(std::fs::read_to_string(&csv).unwrap(), text);
        }
    }

    let svg = dir.path().join("old.svg");
    std::fs::write(&svg, "keep me").unwrap();
    let (csv, svg) = (csv.to_str().unwrap(), svg.to_str().unwrap());
    let (code, out, err) = run(&["report", csv, "--svg", svg]);
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(
        err.trim(),
        format!("error: report: --svg {svg}: the file exists (--force replaces it)")
    );
    assert_eq!(std::fs::read_to_string(svg).unwrap(), "keep me");
    let (code, out, err) = run(&["report", csv, "--svg", svg, "--force"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(std::fs::read_to_string(svg).unwrap().starts_with("<svg"));
}

/// Two runs without a position in common: said before anything is printed, and when
/// they hold the same positions in other modes, said so.
#[test]
fn compare_says_why_nothing_matches_before_printing() {
    let dir = tempfile::tempdir().unwrap();
    let a = small_csv(dir.path(), "a.csv");
    let other = dir.path().join("other.csv");
    std::fs::write(
        &other,
        "key,mode,nodes,time_s,empties\nx,exact,100,0.5,20\ny,exact,200,1.5,21\n",
    )
    .unwrap();
    let (code, out, err) = run(&["compare", a.to_str().unwrap(), other.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(out, "", "nothing printed before the refusal");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no position is in both"), "{err}");

    let wld = dir.path().join("wld.csv");
    let text = std::fs::read_to_string(&a).unwrap().replace("exact", "wld");
    std::fs::write(&wld, text).unwrap();
    let (code, out, err) = run(&["compare", a.to_str().unwrap(), wld.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}{err}");
    assert_eq!(out, "");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("the same positions") && err.contains("exact") && err.contains("wld"),
        "{err}"
    );
}

/// `compare` of one CSV holding two variants takes them in the order the suite ran them
/// (A first), so its ratios are the suite's own, and says which variant is A.
#[test]
fn compare_of_one_csv_takes_the_variants_in_the_suites_order() {
    // `--no-etc` sorts before `default`: a sorted order would make it A.
    let r = repeated_suite(&["--variant=", "--variant=--no-etc"]);
    assert_eq!(r.code, 0, "{}", r.err);
    let nodes_line = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("node counts"))
            .map(String::from)
            .unwrap_or_else(|| panic!("no node counts line in {text}"))
    };
    let theirs = nodes_line(&r.out);
    assert!(
        !theirs.ends_with("1.0000"),
        "the variants must differ in nodes: {theirs}"
    );
    let (code, out, err) = run(&["compare", r.csv.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("comparison: A = default, B = --no-etc\n"),
        "{out}"
    );
    assert_eq!(nodes_line(&out), theirs, "{out}");
}

/// `report` takes its runs in the order given: files as on the command line, variants as
/// they first appear in a file; times are drawn relative to the first of them.
#[test]
fn report_takes_runs_in_the_order_given() {
    let dir = tempfile::tempdir().unwrap();
    let z = small_csv(dir.path(), "z.csv");
    let a = small_csv(dir.path(), "a.csv");
    let svg = dir.path().join("r.svg");
    let (z, a, svg) = (
        z.to_str().unwrap(),
        a.to_str().unwrap(),
        svg.to_str().unwrap(),
    );
    let (code, out, err) = run(&["report", z, a, "--svg", svg]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("z: 3 positions"), "{out}");
    let text = std::fs::read_to_string(svg).unwrap();
    assert!(text.contains("time relative to z (log scale"), "{text}");
}

/// compare's rows name each position by its file and index (as the suite CSV does), in
/// file then index order, not in the order of their keys.
#[test]
fn compare_rows_show_file_and_index_in_that_order() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("f.csv");
    std::fs::write(
        &csv,
        "index,file,key,mode,nodes,time_s,empties\n\
         2,b.obf,k1,exact,100,0.5,20\n\
         10,a.obf,k2,exact,200,1.5,21\n\
         1,b.obf,k3,exact,300,2.5,22\n\
         9,a.obf,k4,exact,400,3.5,23\n",
    )
    .unwrap();
    let (code, out, err) = run(&["compare", csv.to_str().unwrap(), csv.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<Vec<&str>> = out
        .lines()
        .skip(1)
        .take(5)
        .map(|l| l.split_whitespace().take(3).collect())
        .collect();
    assert_eq!(lines[0], ["file", "index", "key"], "{out}");
    let rows: Vec<&[&str]> = lines[1..].iter().map(|l| &l[..]).collect();
    assert_eq!(
        rows,
        [
            ["a.obf", "9", "k4"],
            ["a.obf", "10", "k2"],
            ["b.obf", "1", "k3"],
            ["b.obf", "2", "k1"]
        ],
        "{out}"
    );
}

/// A CSV without a solved row (only its header, or only timeouts) is refused as such,
/// alone or beside another, not as a CSV of "0 variants".
#[test]
fn compare_says_plainly_that_a_csv_holds_no_solved_rows() {
    let dir = tempfile::tempdir().unwrap();
    let good = small_csv(dir.path(), "good.csv");
    let header = dir.path().join("header.csv");
    std::fs::write(&header, "key,mode,nodes,time_s,empties\n").unwrap();
    let timeouts = dir.path().join("timeouts.csv");
    std::fs::write(
        &timeouts,
        "key,mode,nodes,time_s,empties,status\n\
         a,exact,100,600.0,20,timeout\n\
         b,exact,,,21,error: bad line\n",
    )
    .unwrap();
    for empty in [&header, &timeouts] {
        let name = empty.to_str().unwrap();
        for args in [
            vec!["compare", name],
            vec!["compare", name, good.to_str().unwrap()],
            vec!["compare", good.to_str().unwrap(), name],
        ] {
            let (code, out, err) = run(&args);
            assert_eq!(code, 2, "{args:?}: {out}{err}");
            assert_eq!(
                err.trim(),
                format!("error: {name}: no solved rows (only timeouts or errors, or none at all)"),
                "{args:?}"
            );
        }
    }
}
