//! The shape of the house (issue 47), read from the source text so that it cannot drift
//! back: files and functions of a readable size, one road for each piece of data, and a
//! README that starts a newcomer. Each limit says why it is there.

use std::path::{Path, PathBuf};

/// Longest source file under src/ (a test module in a file of its own aside): past this a
/// file holds more than one concept.
const MAX_FILE_LINES: usize = 600;
/// Longest function, from its `fn` line to its closing brace: about a screen.
const MAX_FN_LINES: usize = 80;
/// The README is a newcomer's page; the reference lives in docs/.
const MAX_README_LINES: usize = 250;
/// The two set-up commands come first.
const SETUP_WITHIN_LINES: usize = 30;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every .rs file under `dir`, nested folders included.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn relative(p: &Path) -> String {
    p.strip_prefix(root()).unwrap().display().to_string()
}

/// A file that holds only a test module (`foo/tests.rs`).
fn is_test_file(p: &Path) -> bool {
    p.file_stem().is_some_and(|s| s == "tests")
}

/// Functions of `text` longer than `max` lines: (first line number, name, lines). A
/// function starts at a line whose code begins with `fn` (after `pub`, `pub(crate)`,
/// `const`, `unsafe`, ...) and, when it has a body, ends at the first later line that is
/// its indentation followed by `}` (rustfmt's layout, which CI enforces). Declarations
/// without a body (trait methods) end at their `;`.
fn long_functions(text: &str, max: usize) -> Vec<(usize, String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut long = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(name) = fn_name(line) else { continue };
        let indent = &line[..line.len() - line.trim_start().len()];
        // The signature ends at the first line ending in `{` (a body) or `;` (none).
        let Some(sig_end) = (i..lines.len()).find(|&k| {
            let t = lines[k].trim_end();
            t.ends_with('{') || t.ends_with(';')
        }) else {
            continue;
        };
        if lines[sig_end].trim_end().ends_with(';') {
            continue;
        }
        let close = format!("{indent}}}");
        let end = (sig_end..lines.len())
            .find(|&k| lines[k].trim_end() == close)
            .unwrap_or(lines.len() - 1);
        let n = end - i + 1;
        if n > max {
            long.push((i + 1, name, n));
        }
    }
    long
}

/// The name of the function a line starts, if it does.
fn fn_name(line: &str) -> Option<String> {
    let mut rest = line.trim_start();
    if rest.starts_with("//") {
        return None;
    }
    for prefix in [
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "const ",
        "unsafe ",
        "async ",
    ] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    let rest = rest.strip_prefix("fn ")?;
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

#[test]
fn no_source_file_is_over_the_limit() {
    let long: Vec<String> = rust_files(&root().join("src"))
        .into_iter()
        .filter(|p| !is_test_file(p))
        .filter_map(|p| {
            let n = std::fs::read_to_string(&p).unwrap().lines().count();
            (n > MAX_FILE_LINES).then(|| format!("{}: {n} lines", relative(&p)))
        })
        .collect();
    assert!(
        long.is_empty(),
        "files over {MAX_FILE_LINES} lines:\n{long:#?}"
    );
}

#[test]
fn the_root_holds_only_its_probes() {
    let n = std::fs::read_to_string(root().join("src/search/root/probes.rs"))
        .unwrap()
        .lines()
        .count();
    assert!(n < 400, "src/search/root/probes.rs has {n} lines");
}

#[test]
fn no_function_is_over_the_limit() {
    let mut long = Vec::new();
    for p in rust_files(&root().join("src")) {
        let text = std::fs::read_to_string(&p).unwrap();
        for (line, name, n) in long_functions(&text, MAX_FN_LINES) {
            long.push(format!("{}:{line} fn {name}: {n} lines", relative(&p)));
        }
    }
    assert!(
        long.is_empty(),
        "functions over {MAX_FN_LINES} lines:\n{long:#?}"
    );
}

#[test]
fn the_function_length_reader_finds_a_long_function_and_skips_declarations() {
    let body: String = (0..90)
        .map(|i| format!("        let x{i} = {i};\n"))
        .collect();
    let text = format!(
        "impl A {{\n    pub(crate) fn long(\n        a: u32,\n    ) -> u32 {{\n{body}        a\n    }}\n\n    fn short() {{}}\n}}\ntrait T {{\n    fn declared(\n        a: u32,\n    ) -> u32;\n}}\n"
    );
    let long = long_functions(&text, MAX_FN_LINES);
    assert_eq!(long, vec![(2, "long".to_string(), 95)]);
}

/// settings.rs is a table, not a lab notebook (issue 68): at most a third of its lines are
/// comments, each entry says in one or two lines what it does and links the results/ page
/// that chose its value (or says it was not measured); the measurements are on that page.
#[test]
fn settings_reads_as_a_table() {
    let text = std::fs::read_to_string(root().join("src/settings.rs")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let comments = lines
        .iter()
        .filter(|l| l.trim_start().starts_with("//"))
        .count();
    assert!(
        3 * comments <= lines.len(),
        "src/settings.rs: {comments} of {} lines are comments",
        lines.len()
    );
    let mut doc: Vec<&str> = Vec::new();
    let mut bad = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        if t.starts_with("///") {
            doc.push(t);
            continue;
        }
        if t.starts_with("pub const") {
            let says = doc
                .iter()
                .any(|d| d.contains("](../results/") || d.contains("Not measured"));
            if doc.is_empty() || doc.len() > 2 || !says {
                bad.push(format!("src/settings.rs:{}: {t}", i + 1));
            }
        }
        doc.clear();
    }
    assert!(
        bad.is_empty(),
        "entries without a one- or two-line doc that links its results/ page:\n{}",
        bad.join("\n")
    );
}

#[test]
fn batch_jobs_are_named_not_numbered() {
    let mut found = Vec::new();
    for p in rust_files(&root().join("src")) {
        let text = std::fs::read_to_string(&p).unwrap();
        for (i, line) in text.lines().enumerate() {
            let numbered = line
                .match_indices("job.")
                .any(|(k, _)| line[k + 4..].starts_with(|c: char| ('0'..='3').contains(&c)));
            if numbered {
                found.push(format!("{}:{}: {}", relative(&p), i + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "tuple fields of a batch job:\n{found:#?}");
}

#[test]
fn one_function_classes_win_draw_and_loss() {
    // `Wld::of` (src/search/root/answer.rs) is the one place a score's sign is taken.
    let mut found = Vec::new();
    for p in rust_files(&root().join("src")) {
        if p.ends_with("search/root/answer.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        for (i, line) in text.lines().enumerate() {
            if line.contains(".signum()") && !line.trim_start().starts_with("//") {
                found.push(format!("{}:{}: {}", relative(&p), i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "scores classed outside Wld::of:\n{found:#?}"
    );
}

#[test]
fn one_module_writes_files_that_must_survive_a_kill() {
    // src/durable.rs: every write-to-temp + sync + rename, every sync of an appended file,
    // every cut of a torn row. A file of its own doing these is a second road.
    const CALLS: [&str; 6] = [
        ".persist(",
        ".persist_noclobber(",
        ".sync_all(",
        ".sync_data(",
        "fs::rename(",
        ".set_len(",
    ];
    let mut found = Vec::new();
    for p in rust_files(&root().join("src")) {
        if p.ends_with("src/durable.rs") || p.parent().is_some_and(|d| d.ends_with("src/durable")) {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            if CALLS.iter().any(|c| code.contains(c)) {
                found.push(format!("{}:{}: {}", relative(&p), i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "renames and syncs outside src/durable.rs:\n{found:#?}"
    );
}

#[test]
fn the_readme_starts_a_newcomer() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines: Vec<&str> = readme.lines().collect();
    assert!(
        lines.len() < MAX_README_LINES,
        "README.md has {} lines",
        lines.len()
    );
    let head = lines[..SETUP_WITHIN_LINES.min(lines.len())].join("\n");
    for command in [
        "cargo run --release -- suite suites/fforum-40-59.obf",
        "cargo test --release",
    ] {
        assert!(
            head.contains(command),
            "README.md's first {SETUP_WITHIN_LINES} lines lack `{command}`"
        );
    }
}

/// The files ARCHITECTURE.md names, as paths under src/: each `### `src/DIR/`` heading
/// opens a folder's table, and the backticked `.rs` names in the first column of its rows
/// are that folder's files.
fn files_named_in_architecture(text: &str) -> Vec<String> {
    let mut named = Vec::new();
    let mut folder: Option<String> = None;
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("### `") {
            folder = h
                .strip_suffix('`')
                .filter(|f| f.starts_with("src/") && f.ends_with('/'))
                .map(str::to_string);
        } else if line.starts_with("## ") {
            folder = None;
        } else if let (Some(dir), Some(row)) = (&folder, line.strip_prefix("| ")) {
            let first = row.split(" |").next().unwrap_or("");
            for name in first.split('`').skip(1).step_by(2) {
                if name.ends_with(".rs") {
                    named.push(format!("{dir}{name}"));
                }
            }
        }
    }
    named.sort();
    named
}

#[test]
fn the_architecture_names_every_file_under_src() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let named = files_named_in_architecture(&text);
    let files: Vec<String> = rust_files(&root().join("src"))
        .iter()
        .map(|p| relative(p))
        .collect();
    let unnamed: Vec<&String> = files.iter().filter(|f| !named.contains(f)).collect();
    let missing: Vec<&String> = named.iter().filter(|f| !files.contains(f)).collect();
    assert!(
        unnamed.is_empty(),
        "files under src/ that ARCHITECTURE.md's room tables do not name: {unnamed:#?}"
    );
    assert!(
        missing.is_empty(),
        "files ARCHITECTURE.md names that do not exist: {missing:#?}"
    );
    let mut twice = named.clone();
    twice.dedup();
    assert_eq!(twice.len(), named.len(), "a file named in two rows");
}

#[test]
fn the_architecture_reader_sees_a_folder_table() {
    let text = "## The rooms\n\n### `src/a/`\n\n| file | holds |\n|---|---|\n\
                | `x.rs`, `y.rs` | two; not `z.rs` here |\n\n## Next\n| `w.rs` | outside |\n";
    assert_eq!(
        files_named_in_architecture(text),
        ["src/a/x.rs", "src/a/y.rs"]
    );
}

/// Error types (a `thiserror` derive) are defined only in a file named error.rs or under
/// src/error/, and src/error/ holds only the errors of the rooms that return
/// `crate::Error`: one convention for where an error type lives (ARCHITECTURE.md).
#[test]
fn error_types_live_in_error_files() {
    let src = root().join("src");
    let mut strays = Vec::new();
    for p in rust_files(&src) {
        let text = std::fs::read_to_string(&p).unwrap();
        let derives = text.lines().any(|l| {
            let code = l.trim_start();
            code.starts_with("#[derive(")
                && code.split(['(', ',', ')']).any(|w| {
                    let w = w.trim();
                    w == "Error" || w == "thiserror::Error"
                })
        });
        let in_error_file =
            p.file_name().is_some_and(|n| n == "error.rs") || p.starts_with(src.join("error"));
        if derives && !in_error_file {
            strays.push(relative(&p));
        }
    }
    assert!(
        strays.is_empty(),
        "error types outside an error file: {strays:#?}"
    );
    // src/error/'s files are named as the rooms above `error` that raise them.
    const ABOVE_ERROR: &[&str] = &["train", "results", "engines", "commands", "batch", "prove"];
    for entry in std::fs::read_dir(src.join("error")).unwrap() {
        let p = entry.unwrap().path();
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        if name == "mod" {
            continue;
        }
        assert!(
            ABOVE_ERROR.contains(&name.as_str()),
            "src/error/{name}: not a room above `error`"
        );
        if p.is_dir() {
            for child in std::fs::read_dir(&p).unwrap() {
                let c = child.unwrap().path();
                let stem = c.file_stem().unwrap().to_string_lossy().to_string();
                let owner = src.join(&name).join(&stem);
                assert!(
                    stem == "mod" || owner.is_dir() || owner.with_extension("rs").is_file(),
                    "{}: no module src/{name}/{stem} raises it",
                    relative(&c)
                );
            }
        }
    }
}
