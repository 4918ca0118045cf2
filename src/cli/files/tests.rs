//! The guard's coverage, read from clap's own description of every subcommand: each
//! path-valued argument (and each string that carries a path: `--engine NAME:PATH`,
//! `--variant '--eval PATH'`) must be declared; every (input, output) pair given one file
//! must be refused; every output must refuse a pipe and a device, every input read whole a
//! pipe. A new file flag is covered without a new test, and a command whose declaration
//! leaves a flag out fails here.

use super::*;
use clap::{CommandFactory, Parser};
use finale::durable::GuardError;
use finale::durable::guard::Role;
use std::any::TypeId;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// How a path is given in a string argument that carries one.
type Embed = fn(&str) -> String;

/// String arguments whose value carries a path (subcommand, argument), and how.
const EMBEDDED: [(&str, &str, Embed); 2] = [
    ("suite", "engine", |p| format!("zebra:{p}")),
    ("suite", "variant", |p| format!("--eval {p}")),
];

/// An argument of a subcommand that names a file.
#[derive(Clone)]
struct PathArg {
    id: String,
    long: Option<String>,
    index: Option<usize>,
    embed: Option<Embed>,
}

impl PathArg {
    fn value(&self, path: &Path) -> String {
        let p = path.display().to_string();
        match self.embed {
            Some(embed) => embed(&p),
            None => p,
        }
    }
}

fn path_args(sub: &clap::Command) -> Vec<PathArg> {
    let name = sub.get_name();
    sub.get_arguments()
        .filter_map(|a| {
            let id = a.get_id().as_str();
            let embed = EMBEDDED
                .iter()
                .find(|(c, i, _)| *c == name && *i == id)
                .map(|e| e.2);
            let is_path = a.get_value_parser().type_id() == TypeId::of::<PathBuf>();
            let names_path = a
                .get_value_names()
                .is_some_and(|v| v.iter().any(|n| n.contains("PATH")));
            assert!(
                is_path || embed.is_some() || !names_path,
                "{name} --{id} takes a path in a string: add it to EMBEDDED"
            );
            (is_path || embed.is_some()).then(|| PathArg {
                id: id.to_string(),
                long: a.get_long().map(str::to_string),
                index: a.get_index(),
                embed,
            })
        })
        .collect()
}

/// A command line of `sub` with `set` (argument id to value) and, for each required
/// argument or group left unset, a path argument given a file that does not exist (which
/// the guard leaves to the command).
fn argv(sub: &clap::Command, set: &BTreeMap<String, String>, filler: &Path) -> Vec<String> {
    let paths = path_args(sub);
    let mut values = set.clone();
    for a in sub.get_arguments().filter(|a| a.is_required_set()) {
        let id = a.get_id().to_string();
        let p = paths.iter().find(|p| p.id == id);
        let p =
            p.unwrap_or_else(|| panic!("{} --{id}: a required non-path argument", sub.get_name()));
        values
            .entry(id)
            .or_insert_with(|| p.value(&filler.join("missing-required")));
    }
    for g in sub.get_groups().filter(|g| g.is_required_set()) {
        let members: Vec<String> = g.get_args().map(|a| a.to_string()).collect();
        if !members.iter().any(|m| values.contains_key(m)) {
            let p = paths
                .iter()
                .find(|p| members.contains(&p.id))
                .expect("a path member");
            values.insert(p.id.clone(), p.value(&filler.join("missing-group")));
        }
    }
    let mut positional: Vec<(usize, String)> = Vec::new();
    let mut words = vec!["finale".to_string(), sub.get_name().to_string()];
    for (id, value) in &values {
        let p = paths.iter().find(|p| &p.id == id).unwrap();
        match (&p.long, p.index) {
            (Some(long), _) => words.push(format!("--{long}={value}")),
            (None, Some(i)) => positional.push((i, value.clone())),
            (None, None) => panic!("--{id} has neither a flag nor a place"),
        }
    }
    positional.sort();
    let at = 2;
    for (k, (_, v)) in positional.into_iter().enumerate() {
        words.insert(at + k, v);
    }
    words
}

/// The files `words` declare, or `None` when clap refuses the line (arguments that need
/// or exclude others).
fn declared(words: &[String]) -> Option<Files> {
    let cli = Cli::try_parse_from(words).ok()?;
    Some(files(&cli.command))
}

/// The files of `sub` with `args` set, trying each other path argument beside them when
/// clap wants one (`--dump-nodes` requires `--from-search`).
fn with(sub: &clap::Command, args: &[(&PathArg, String)], dir: &Path) -> Files {
    let mut set: BTreeMap<String, String> = args
        .iter()
        .map(|(a, v)| (a.id.clone(), v.clone()))
        .collect();
    if let Some(f) = declared(&argv(sub, &set, dir)) {
        return f;
    }
    for other in path_args(sub) {
        if set.contains_key(&other.id) {
            continue;
        }
        set.insert(
            other.id.clone(),
            other.value(&dir.join(format!("beside-{}", other.id))),
        );
        if let Some(f) = declared(&argv(sub, &set, dir)) {
            return f;
        }
        set.remove(&other.id);
    }
    panic!(
        "no command line of {} sets {:?}",
        sub.get_name(),
        set.keys()
    );
}

/// Every subcommand as clap describes it, built (positionals numbered).
fn subcommands() -> Vec<clap::Command> {
    let mut cli = Cli::command();
    cli.build();
    cli.get_subcommands().cloned().collect()
}

/// Each path argument of each subcommand, with its role as declared.
fn roles(dir: &Path) -> Vec<(clap::Command, PathArg, Role)> {
    let mut out = Vec::new();
    for sub in &subcommands() {
        for arg in path_args(sub) {
            let sentinel = dir.join(format!("sentinel-{}-{}", sub.get_name(), arg.id));
            let files = with(sub, &[(&arg, arg.value(&sentinel))], dir);
            let role = files
                .declared()
                .into_iter()
                .find(|(_, p, _)| *p == sentinel)
                .map(|(_, _, r)| r)
                .unwrap_or_else(|| {
                    panic!(
                        "{} {}: not declared to the guard (src/cli/files.rs)",
                        sub.get_name(),
                        arg.long.as_deref().unwrap_or(&arg.id)
                    )
                });
            out.push((sub.clone(), arg, role));
        }
    }
    out
}

#[test]
fn every_file_flag_of_every_subcommand_is_declared() {
    let dir = tempfile::tempdir().unwrap();
    let all = roles(dir.path());
    // The commands that write files, each with at least one output found here.
    for command in [
        "suite",
        "batch",
        "calibrate",
        "merge",
        "report",
        "eval",
        "games",
        "train",
        "train-mpc",
    ] {
        assert!(
            all.iter()
                .any(|(s, _, r)| s.get_name() == command && *r == Role::Write),
            "{command}: no output found"
        );
    }
}

#[test]
fn every_output_over_every_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let all = roles(dir.path());
    let mut pairs = 0;
    for (sub, output, _) in all.iter().filter(|(_, _, r)| *r == Role::Write) {
        for (_, input, role) in all.iter().filter(|(s, a, r)| {
            s.get_name() == sub.get_name() && *r != Role::Write && a.id != output.id
        }) {
            let shared = dir.path().join(format!(
                "shared-{}-{}-{}",
                sub.get_name(),
                input.id,
                output.id
            ));
            match role {
                Role::ReadDirectory => std::fs::create_dir(&shared).unwrap(),
                _ => std::fs::write(&shared, "input").unwrap(),
            }
            let files = with(
                sub,
                &[
                    (input, input.value(&shared)),
                    (output, output.value(&shared)),
                ],
                dir.path(),
            );
            let err = files.check().expect_err(&format!(
                "{} {} and {} on one file",
                sub.get_name(),
                input.id,
                output.id
            ));
            assert!(matches!(err, GuardError::OutputIsInput { .. }), "{err}");
            pairs += 1;
        }
    }
    eprintln!("{pairs} (input, output) pairs refused");
    assert!(pairs >= 20, "only {pairs} pairs tried");
}

#[test]
fn every_output_refuses_a_pipe_and_a_device_and_every_input_a_pipe() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let all = roles(dir.path());
    for (sub, arg, role) in &all {
        let bad: &[&Path] = match role {
            Role::Write => &[fifo.as_path(), Path::new("/dev/null"), dir.path()],
            Role::Read => &[fifo.as_path()],
            Role::ReadDirectory => &[fifo.as_path()],
        };
        for path in bad {
            let files = with(sub, &[(arg, arg.value(path))], dir.path());
            let err = files.check().expect_err(&format!(
                "{} {} {}",
                sub.get_name(),
                arg.id,
                path.display()
            ));
            let text = err.to_string();
            assert!(
                text.contains("not a regular file") || text.contains("not a directory"),
                "{text}"
            );
        }
    }
}

#[test]
fn a_names_file_beside_a_game_file_is_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let wtb = dir.path().join("WTH_2010.wtb");
    std::fs::write(&wtb, "x").unwrap();
    for name in ["WTHOR.JOU", "WTHOR.TRN", "wthor.jou"] {
        let out = dir.path().join(name);
        let words = [
            "finale",
            "games",
            wtb.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        let err = declared(&words.map(String::from))
            .unwrap()
            .check()
            .unwrap_err();
        assert!(
            err.to_string().contains("is also an input (names file"),
            "{err}"
        );
        let names = ["--names", dir.path().to_str().unwrap()];
        let mut words: Vec<String> = words.iter().map(|s| s.to_string()).collect();
        words.extend(names.map(String::from));
        let elsewhere = tempfile::tempdir().unwrap();
        words[2] = elsewhere.path().join("a.wtb").display().to_string();
        let err = declared(&words).unwrap().check().unwrap_err();
        assert!(
            err.to_string().contains("is also an input (names file"),
            "{err}"
        );
    }
}
