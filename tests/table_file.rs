//! Saved tables (`batch --save-tables`, `Solver::load_table`): a solve stopped part way
//! and resumed from its saved table reaches the published FFO value with the work before
//! the stop not done again; a batch killed in a position (SIGTERM, or SIGKILL between two
//! saves) resumes it; a table file that does not fit is refused, never half used.

mod common;

use common::csv_rows::rows;
use common::run::one_line_error;
use finale::board::key::{key_hex, position_key};
use finale::board::parse_obf_line;
use finale::search::{Mode, Solver, SolverOptions, TableFileError, TableSaves};
use finale::{Board, Position};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_finale");

/// Line `n` (1-based) of `suites/fforum-40-59.obf`: FFO #(39 + n), with its published
/// move values.
fn ffo_line(n: usize) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("suites/fforum-40-59.obf");
    let text = std::fs::read_to_string(path).unwrap();
    text.lines().nth(n - 1).unwrap().to_string()
}

/// The position of an FFO line and its published value and best moves.
fn published(line: &str) -> (Position, i32, Vec<String>) {
    let rec = parse_obf_line(line).unwrap().unwrap();
    let best = rec.expected_score().unwrap();
    let moves = rec
        .expected
        .iter()
        .filter(|(_, v)| *v == best)
        .map(|(m, _)| m.to_string())
        .collect();
    (rec.position, best, moves)
}

fn solver(mb: usize) -> Solver {
    Solver::new(SolverOptions {
        hash_mb: mb,
        ..SolverOptions::default()
    })
}

/// FFO #40 (20 empties) solved once through, then given up half way with its table
/// saved, then resumed from that table: the resumed solve gets the published +38 (A2)
/// in fewer nodes than the whole solve less a third (the table kept the first half's
/// work), where a solve from an empty table repeats the whole count exactly. A table of
/// another size, another root or a damaged file is refused, and the solve after it
/// counts exactly the nodes of an empty table.
#[test]
fn a_solve_resumed_from_its_saved_table_does_not_search_again() {
    let (pos, value, best) = published(&ffo_line(1));
    let board: Board = pos.board;
    let whole = solver(64).solve(board, Mode::Exact);
    assert_eq!(whole.score, value);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.table");
    let mut first = solver(64);
    first.set_table_saves(Some(TableSaves {
        path: path.clone(),
        every: Duration::from_secs(3600),
    }));
    first.set_node_budget(Some(whole.nodes / 2));
    let gave_up = first.solve_within(board, Mode::Exact, None).unwrap_err();
    assert!(first.take_save_error().is_none());
    assert!(path.exists(), "a solve that gave up saved no table");

    let mut resumed = solver(64);
    let carried = resumed.load_table(&path, &board).unwrap();
    assert_eq!(
        carried.nodes, gave_up.nodes,
        "the save's nodes are the solve's"
    );
    assert!(carried.seconds > 0.0 && carried.seconds <= gave_up.time.as_secs_f64());
    let r = resumed.solve(board, Mode::Exact);
    assert_eq!(r.score, value);
    assert!(
        best.contains(&r.best_moves[0].to_string()),
        "{:?}",
        r.best_moves
    );
    assert!(
        r.nodes < whole.nodes - whole.nodes / 3,
        "resumed {} of {} nodes",
        r.nodes,
        whole.nodes
    );

    let mut other_size = solver(32);
    assert!(matches!(
        other_size.load_table(&path, &board),
        Err(TableFileError::Size {
            saved: 64,
            here: 32
        })
    ));
    let empty_32 = solver(32).solve(board, Mode::Exact).nodes;
    assert_eq!(other_size.solve(board, Mode::Exact).nodes, empty_32);

    let mut other_root = solver(64);
    let (ffo41, ..) = published(&ffo_line(2));
    assert!(matches!(
        other_root.load_table(&path, &ffo41.board),
        Err(TableFileError::OtherRoot)
    ));
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let mut damaged = solver(64);
    assert!(matches!(
        damaged.load_table(&path, &board),
        Err(TableFileError::Damaged)
    ));
    assert_eq!(damaged.solve(board, Mode::Exact).nodes, whole.nodes);
}

/// `in.obf` in `dir` holding FFO #45 (24 empties, a few seconds at one thread), the
/// output beside it, and its saved table's path.
fn deep_batch(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let line = ffo_line(6);
    let input = dir.join("in.obf");
    std::fs::write(&input, format!("{line}\n")).unwrap();
    let out = dir.join("out.csv");
    let (pos, ..) = published(&line);
    let table = dir
        .join("out.csv.tables")
        .join(format!("{}.table", key_hex(position_key(&pos))));
    (input, out, table)
}

fn batch(input: &Path, out: &Path, every: &str) -> Command {
    let mut c = Command::new(BIN);
    c.arg("batch")
        .arg(input)
        .arg("--out")
        .arg(out)
        .args(["--threads", "1", "--hash-mb", "64", "--no-progress"])
        .args(["--save-tables", every]);
    c
}

/// A batch of FFO #45 in a fresh folder, saving every `every` seconds, sent `signal` after
/// `after_ms`: the folder, how the run ended and the paths of [`deep_batch`]. The kill
/// must come before the position is solved.
fn killed_in_position(
    every: &str,
    signal: i32,
    after_ms: u64,
) -> (tempfile::TempDir, std::process::Output, [PathBuf; 3]) {
    let dir = tempfile::tempdir().unwrap();
    let (input, out, table) = deep_batch(dir.path());
    let child = batch(&input, &out, every)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(after_ms));
    // SAFETY: kill has no memory-safety preconditions; the child is not yet waited for,
    // so its pid is still its own.
    unsafe { libc::kill(child.id() as i32, signal) };
    let o = child.wait_with_output().unwrap();
    let solved = rows(&out).len();
    assert_eq!(solved, 0, "the position finished before the signal");
    (dir, o, [input, out, table])
}

/// The batch run again after a kill: it resumes the position from its table, writes the
/// published value and removes the table.
fn resumes([input, out, table]: &[PathBuf; 3]) {
    assert!(table.exists(), "no table saved before the kill");
    let o = batch(input, out, "3600").output().unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout.contains("resumed       1 positions"), "{stdout}");
    let r = rows(out);
    assert_eq!((r.len(), r[0]["ok"].as_str()), (1, "true"), "{r:?}");
    assert!(!table.exists(), "the table outlived its row");
}

/// SIGTERM in the middle of FFO #45 saves its table (saves are an hour apart, so that is
/// the only one) and exits 143; the rerun resumes from it to the published value, and its
/// row counts the work of both runs: at least 0.9 times the nodes of a solve from the
/// start (this run's alone, the work before the signal would be missing).
#[test]
fn a_batch_stopped_by_a_signal_resumes_its_position_from_the_table() {
    let (dir, o, paths) = killed_in_position("3600", libc::SIGTERM, 1500);
    assert_eq!(o.status.code(), Some(143), "{o:?}");
    resumes(&paths);
    let whole = dir.path().join("whole.csv");
    let fresh = batch(&paths[0], &whole, "3600").output().unwrap();
    assert!(fresh.status.success());
    let nodes = |p: &Path| rows(p)[0]["nodes"].parse::<u64>().unwrap();
    let (resumed, from_start) = (nodes(&paths[1]), nodes(&whole));
    assert!(
        resumed * 10 >= from_start * 9,
        "resumed row {resumed} nodes, from the start {from_start}"
    );
}

/// SIGKILL, which no program sees, between saves half a second apart: the last save is
/// whole (written beside and renamed), the rerun resumes from it and removes what a kill
/// in a save leaves.
#[test]
fn a_batch_killed_outright_resumes_from_its_last_save() {
    let (_dir, o, paths) = killed_in_position("0.5", libc::SIGKILL, 1800);
    assert_eq!(o.status.code(), None, "{o:?}");
    let tables = paths[2].parent().unwrap();
    // A kill during a save leaves its temporary file, as if it had come then; the rerun
    // removes it.
    std::fs::write(tables.join(".finale-table-abc123.tmp"), b"part of a save").unwrap();
    resumes(&paths);
    let left: Vec<_> = std::fs::read_dir(tables).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

/// What a kill can leave between a row and its table's removal, a table of a position
/// already written, is removed by the next run: FFO #40's exact row written, a damaged
/// file put in its table's place, a rerun removes it (a file not a table stays). A window
/// of that position is another row, with a table file of its own: asked alone beside the
/// exact solve's damaged table, it ignores it (were it loaded, the run would stop at the
/// damage) and leaves it.
#[test]
fn a_table_whose_row_is_written_goes_and_a_window_has_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let line = ffo_line(1);
    let (pos, best, _) = published(&line);
    let damaged = |out: &str| {
        let tables = dir.path().join(format!("{out}.tables"));
        std::fs::create_dir_all(&tables).unwrap();
        let table = tables.join(format!("{}.table", key_hex(position_key(&pos))));
        std::fs::write(&table, b"finale table v1\nleft by a kill").unwrap();
        table
    };
    let input = dir.path().join("in.obf");
    std::fs::write(&input, format!("{line}\n")).unwrap();
    let out = dir.path().join("out.csv");
    assert!(batch(&input, &out, "60").output().unwrap().status.success());
    let table = damaged("out.csv");
    let other = table.with_file_name("notes.txt");
    std::fs::write(&other, b"not ours").unwrap();
    let o = batch(&input, &out, "60").output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!table.exists(), "the table of a written row was left");
    assert!(other.exists(), "a file not a table was removed");

    let board = line.split(';').next().unwrap();
    std::fs::write(
        &input,
        format!("{board}; window {},{};\n", best - 1, best + 1),
    )
    .unwrap();
    let out = dir.path().join("window.csv");
    let table = damaged("window.csv");
    let o = batch(&input, &out, "60").output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(rows(&out)[0]["score"], best.to_string());
    assert!(
        table.exists(),
        "the exact solve's table went with the window's row"
    );
}

/// A damaged table file stops the batch before that position is solved: one error line
/// naming the file, exit 2, no row, and the file left for the user to look at.
#[test]
fn a_damaged_table_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out, table) = deep_batch(dir.path());
    std::fs::create_dir_all(table.parent().unwrap()).unwrap();
    std::fs::write(&table, b"finale table v1\nnot a table").unwrap();
    let o = batch(&input, &out, "60").output().unwrap();
    let err = one_line_error(&o);
    assert!(err.contains(&table.display().to_string()), "{err}");
    assert!(err.contains("delete it"), "{err}");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(rows(&out).len(), 0);
    assert!(table.exists());
}

/// A save that fails (here the tables' directory turned into a file under the run) stops
/// the batch in one line naming it, exit 2, but only after the position's row is written:
/// the answer is kept whether or not its table could be.
#[test]
fn a_failed_save_keeps_the_row_and_stops_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out, table) = deep_batch(dir.path());
    let child = batch(&input, &out, "0.3")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let tables = table.parent().unwrap();
    let start = std::time::Instant::now();
    while !tables.is_dir() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no tables directory"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    std::fs::remove_dir(tables).unwrap();
    std::fs::write(tables, b"not a directory").unwrap();
    let o = child.wait_with_output().unwrap();
    let err = one_line_error(&o);
    assert!(err.contains("cannot save the table"), "{err}");
    assert_eq!(o.status.code(), Some(2));
    let r = rows(&out);
    assert_eq!((r.len(), r[0]["ok"].as_str()), (1, "true"), "{r:?}");
}

/// `prove --save-tables`: FFO #45 proven from a frontier of 22 is stopped by SIGTERM once
/// a leaf has saved its table; the rerun goes on from it to the published +6 and leaves
/// no table behind.
#[test]
fn a_proof_stopped_in_a_leaf_resumes_it_from_its_table() {
    let dir = tempfile::tempdir().unwrap();
    let line = ffo_line(6);
    let (_, value, _) = published(&line);
    let root = line.split(';').next().unwrap().to_string();
    let work = dir.path().join("proof");
    let prove = || {
        let mut c = Command::new(BIN);
        c.args(["prove", &root, "--frontier", "22", "--threads", "1"])
            .args(["--hash-mb", "64", "--save-tables", "0.2", "--no-progress"])
            .arg("--dir")
            .arg(&work);
        c
    };
    let child = prove()
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let tables = work.join("round-001.csv.tables");
    let saved = |d: &Path| std::fs::read_dir(d).map_or(0, |e| e.count());
    let start = std::time::Instant::now();
    while saved(&tables) == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no leaf table saved"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    // SAFETY: as in `killed_in_position`.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(143));
    assert!(saved(&tables) > 0, "the stopped leaf's table is gone");
    let o = prove().output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        text.lines().last(),
        Some(format!("bounds {value} {value}").as_str())
    );
    assert_eq!(saved(&tables), 0, "tables left behind");
}
