//! What each command reads and writes, declared to the one guard
//! ([`finale::durable::guard`]) before the command runs: every file flag, and the files a
//! command reads or writes beside them (the names beside a `.wtb`, the generations beside
//! train's weights). `main` checks it before any work; the test below reads clap's own
//! description of every subcommand, so a file flag left out of this declaration fails it.

use super::args::*;
use finale::durable::guard::{Files, Write};
use std::path::{Path, PathBuf};

/// The files of `command`, each under its flag.
pub(crate) fn files(command: &Command) -> Files {
    match command {
        Command::Solve(a) => Files::of("solve")
            .read_opt("--file", a.file.as_deref())
            .read_opt("--eval", a.common.search.eval.as_deref()),
        Command::Eval(a) => Files::of("eval")
            .read_opt("--file", a.file.as_deref())
            .read_opt("--eval", a.eval.as_deref())
            .write_or_stdout_opt("--csv", a.csv.as_deref(), Write::Replace),
        Command::Suite(a) => suite(a),
        Command::Bench { .. } => Files::of("bench"),
        Command::Perft { .. } => Files::of("perft"),
        Command::Batch(a) => {
            let files = Files::of("batch")
                .read_all("input", a.inputs.iter().map(|p| p.as_path()))
                .read_opt("--eval", a.common.search.eval.as_deref())
                .write("--out", &a.out, Write::Append);
            match a.save_tables {
                Some(_) => files.work_directory("--save-tables", &tables_dir(&a.out)),
                None => files,
            }
        }
        Command::Calibrate(a) => labels(
            Files::of("calibrate").read_all("input", a.files.iter().map(|p| p.as_path())),
            "--labels",
            &a.labels,
        )
        .read_opt("--eval", a.eval.as_deref())
        .write("--csv", &a.csv, Write::Append),
        Command::Prove(a) => Files::of("prove")
            .work_directory("--dir", &a.dir)
            .read_opt("--eval", a.common.search.eval.as_deref()),
        Command::Merge { inputs, out, force } => Files::of("merge")
            .read_all("input", inputs.iter().map(|p| p.as_path()))
            .write("--out", out, Write::ReplaceIfForced { force: *force }),
        Command::Compare { files } => {
            Files::of("compare").read_all("input", files.iter().map(|p| p.as_path()))
        }
        Command::Report { files, svg, force } => Files::of("report")
            .read_all("input", files.iter().map(|p| p.as_path()))
            .write("--svg", svg, Write::ReplaceIfForced { force: *force }),
        Command::Generate { eval, .. } => Files::of("generate").read_opt("--eval", eval.as_deref()),
        Command::Games(a) => games(a),
        Command::Train(a) => train(a),
        Command::TrainMpc(a) => Files::of("train-mpc")
            .read_opt("--eval", a.eval.as_deref())
            .read_opt("--from-search", a.from_search.as_deref())
            .read_all("--from-labels", a.from_labels.iter().map(|p| p.as_path()))
            .write_opt("--dump-nodes", a.dump_nodes.as_deref(), Write::Replace),
    }
}

/// Label sources under `flag`: CSVs read whole, and `finale prove` work folders (a
/// directory is read as one).
fn labels(mut files: Files, flag: &str, paths: &[std::path::PathBuf]) -> Files {
    for p in paths {
        files = match p.is_dir() {
            true => files.directory(flag, p),
            false => files.read(flag, p),
        };
    }
    files
}

/// Suite: its files, the weights of its search and of each `--variant`, the binaries of
/// `--binary` and `--engine`, and the CSV.
fn suite(a: &SuiteArgs) -> Files {
    let mut files = Files::of("suite")
        .read_all("input", a.files.iter().map(|p| p.as_path()))
        .read_opt("--eval", a.common.search.eval.as_deref())
        .read_all("--binary", a.binary.iter().map(|p| p.as_path()))
        .read_all(
            "--engine",
            a.engine
                .iter()
                .filter_map(|e| finale::engines::Engine::spec_path(e)),
        );
    for v in &a.variant {
        files = files.read_opt(
            "--variant --eval",
            finale::commands::switches::variant_eval(v).as_deref(),
        );
    }
    files.write_opt("--csv", a.csv.as_deref(), Write::Replace)
}

/// Games: the game files, the names read beside each of them (or in `--names`), and the
/// OBF written (or standard output).
fn games(a: &GamesArgs) -> Files {
    let mut files = Files::of("games").read_all("input", a.files.iter().map(|p| p.as_path()));
    let dirs: Vec<&Path> = match &a.names {
        Some(dir) => {
            files = files.directory("--names", dir);
            vec![dir.as_path()]
        }
        None => a.files.iter().map(|f| finale::durable::dir_of(f)).collect(),
    };
    for dir in dirs {
        for path in finale::games::names::paths(dir) {
            files = files.read("names file", &path);
        }
    }
    files.write_or_stdout("--out", &a.out, Write::Replace)
}

/// Train: the real positions and the weights that play, the weights written (and each
/// generation kept beside them while it runs), and the `--data` CSV.
fn train(a: &TrainArgs) -> Files {
    let mut files = Files::of("train")
        .read_all("--real", a.real.iter().map(|p| p.as_path()))
        .read_opt("--play-eval", a.play_eval.as_deref())
        .write("--out", &a.out, Write::ReplaceIfForced { force: a.force });
    for k in 1..a.generations {
        let path = finale::commands::train::generation_path(&a.out, k);
        files = files.write(format!("generation {k} of --out"), &path, Write::Replace);
    }
    files.write_opt("--data", a.data.as_deref(), Write::Replace)
}

#[cfg(test)]
mod tests;

/// The directory `batch --save-tables` keeps its tables in, beside `--out`.
fn tables_dir(out: &Path) -> PathBuf {
    let mut dir = out.as_os_str().to_owned();
    dir.push(".tables");
    PathBuf::from(dir)
}
