//! Every path the project cites exists, and every relative link of its pages resolves.
//!
//! A citation is text starting `results/`, `docs/`, `suites/` or `lab/` (not inside a
//! longer path such as `../shared/suites/`) in the code, tests, benchmarks and scripts, the
//! README, ARCHITECTURE.md, docs/ and the Markdown pages of results/ and lab/ (but not
//! results/MOVED.md, whose old paths are gone by design, nor the tests' fixtures, records
//! whose rows name paths as they were when the runs were made). It runs to the first
//! character that cannot be in a path; a trailing `.`, `,`, `:` or `;` is the sentence's.
//! How the forms are read:
//! - a glob (`results/eval/2026-11-24-ffo-40-49-1t-weights-*.csv`) must match at least one
//!   file, and a brace form (`results/speed/2026-11-25-account-{before,after}.md`) is each
//!   of its alternatives;
//! - a placeholder is skipped: a path with `<...>` (`results/<date>-<first file>.csv`) or
//!   one written in capitals (`results/variants/2026-11-23-VARIANT-SUITE.csv`; the capitals
//!   of README, MOVED and ARCHITECTURE are file names, not placeholders).
//!
//! Links are the `](target)` of the Markdown pages (README.md, ARCHITECTURE.md, docs/,
//! results/ and lab/): a target that is not a URL or an anchor must name a file or folder
//! relative to the page.

use std::path::{Path, PathBuf};

/// Where citations start.
const ROOTS: [&str; 4] = ["results/", "docs/", "suites/", "lab/"];

/// Words in capitals that are file names, not placeholders.
const CAPITAL_NAMES: [&str; 3] = ["README", "MOVED", "ARCHITECTURE"];

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file under `dir`, sorted, skipping build output.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "target") {
                walk(&path, out);
            }
        } else {
            out.push(path);
        }
    }
}

/// The files under the repository's `dirs` (and the single files named), as text.
fn texts(dirs: &[&str], files: &[&str], ext: Option<&str>) -> Vec<(PathBuf, String)> {
    let mut paths: Vec<PathBuf> = files.iter().map(|f| repo().join(f)).collect();
    for dir in dirs {
        walk(&repo().join(dir), &mut paths);
    }
    paths
        .into_iter()
        .filter(|p| ext.is_none_or(|e| p.extension().is_some_and(|x| x == e)))
        .filter_map(|p| std::fs::read_to_string(&p).ok().map(|t| (p, t)))
        .collect()
}

fn is_path_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "._-/*<>".contains(c)
}

/// The path that starts `text`: path characters, and `{a,b}` groups whole.
fn take_path(text: &str) -> &str {
    let mut depth = 0;
    let mut end = 0;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' | ',' if depth > 0 => {
                if c == '}' {
                    depth -= 1;
                }
            }
            c if is_path_char(c) => {}
            _ => break,
        }
        end = i + c.len_utf8();
    }
    text[..end].trim_end_matches(['.', ',', ':', ';'])
}

/// Each citation of `text` with its line number (1-based).
fn citations(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    for root in ROOTS {
        for (start, _) in text.match_indices(root) {
            let before = text[..start].chars().next_back();
            if before.is_some_and(|c| c.is_ascii_alphanumeric() || "._-/".contains(c)) {
                continue;
            }
            let line = text[..start].matches('\n').count() + 1;
            out.push((line, take_path(&text[start..])));
        }
    }
    out.sort();
    out
}

/// Whether `path` stands for paths to be filled in rather than one path.
fn is_placeholder(path: &str) -> bool {
    let mut rest = path.to_string();
    for name in CAPITAL_NAMES {
        rest = rest.replace(name, "");
    }
    let caps: Vec<bool> = rest.chars().map(|c| c.is_ascii_uppercase()).collect();
    path.contains(['<', '>']) || caps.windows(2).any(|w| w[0] && w[1])
}

/// The paths a brace form stands for (`a{b,c}d` is `abd` and `acd`).
fn expand(path: &str) -> Vec<String> {
    let Some(open) = path.find('{') else {
        return vec![path.to_string()];
    };
    let Some(len) = path[open..].find('}') else {
        return vec![path.to_string()];
    };
    let (head, inner, tail) = (
        &path[..open],
        &path[open + 1..open + len],
        &path[open + len + 1..],
    );
    inner
        .split(',')
        .flat_map(|alt| expand(&format!("{head}{alt}{tail}")))
        .collect()
}

/// Whether `name` matches `pattern`, where `*` stands for any run of characters.
fn wildmatch(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, tail)) => {
            name.starts_with(head)
                && (0..=name.len() - head.len()).any(|i| {
                    name.is_char_boundary(head.len() + i)
                        && wildmatch(tail, &name[head.len() + i..])
                })
        }
    }
}

/// Whether the components `parts` below `dir` name at least one file or folder.
fn exists(dir: &Path, parts: &[&str]) -> bool {
    let Some((first, rest)) = parts.split_first() else {
        return dir.exists();
    };
    if !first.contains('*') {
        return exists(&dir.join(first), rest);
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.map(|e| e.unwrap().path()).any(|p| {
        p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| wildmatch(first, n))
            && exists(&p, rest)
    })
}

/// The citations of `text` that name nothing in the repository.
fn missing(text: &str) -> Vec<(usize, String)> {
    citations(text)
        .into_iter()
        .filter(|(_, path)| !is_placeholder(path))
        .filter(|(_, path)| {
            expand(path).iter().any(|p| {
                let parts: Vec<&str> = p.split('/').filter(|c| !c.is_empty()).collect();
                !exists(&repo(), &parts)
            })
        })
        .map(|(line, path)| (line, path.to_string()))
        .collect()
}

/// The relative link targets of Markdown `text` with their line numbers, anchors removed.
fn links(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    for (start, _) in text.match_indices("](") {
        let rest = &text[start + 2..];
        let Some(end) = rest.find(')') else { continue };
        let target = rest[..end].split_whitespace().next().unwrap_or("");
        let target = target.split('#').next().unwrap_or("");
        if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        out.push((text[..start].matches('\n').count() + 1, target));
    }
    out
}

#[test]
fn every_cited_path_exists() {
    let mut files = texts(
        &["src", "tests", "benches", "scripts", "docs"],
        &["README.md", "ARCHITECTURE.md"],
        None,
    );
    files.retain(|(p, _)| !p.starts_with(repo().join("tests/fixtures")));
    assert!(files.len() > 50, "too few files read: {}", files.len());
    let moved = repo().join("results/MOVED.md");
    files.extend(
        texts(&["results", "lab"], &[], Some("md"))
            .into_iter()
            .filter(|(p, _)| *p != moved),
    );
    let mut bad = Vec::new();
    for (file, text) in &files {
        for (line, path) in missing(text) {
            let name = file.strip_prefix(repo()).unwrap().display();
            bad.push(format!("{name}:{line}: {path}"));
        }
    }
    assert!(
        bad.is_empty(),
        "cited paths that do not exist:\n{}",
        bad.join("\n")
    );
}

#[test]
fn every_relative_link_resolves() {
    let pages = texts(
        &["docs", "results", "lab"],
        &["README.md", "ARCHITECTURE.md"],
        Some("md"),
    );
    let mut bad = Vec::new();
    for (page, text) in &pages {
        for (line, target) in links(text) {
            if !page.parent().unwrap().join(target).exists() {
                let name = page.strip_prefix(repo()).unwrap().display();
                bad.push(format!("{name}:{line}: {target}"));
            }
        }
    }
    assert!(bad.is_empty(), "links to nothing:\n{}", bad.join("\n"));
}

/// The reading itself, on text that names files that do not exist (written so that this
/// file cites none: the roots are put together at run time).
#[test]
fn a_missing_path_glob_or_alternative_is_reported_and_placeholders_are_not() {
    let r = ROOTS[0];
    let text = format!(
        "see {r}none.csv. Also ({r}README.md), `{r}eval/2026-11-24-ffo-40-49-1t-weights-*.csv`,\n\
         {r}speed/2026-11-25-account-{{before,after}}.md and {r}speed/2026-11-25-account-{{before,none}}.md;\n\
         {r}<date>-x.csv {r}variants/2026-11-23-VARIANT-SUITE.csv {r}eval/none-*.csv ../x/{r}none"
    );
    let found: Vec<(usize, String)> = missing(&text);
    assert_eq!(
        found,
        vec![
            (1, format!("{r}none.csv")),
            (2, format!("{r}speed/2026-11-25-account-{{before,none}}.md")),
            (3, format!("{r}eval/none-*.csv")),
        ]
    );
    assert_eq!(
        links("[a](x.md) [b](https://e.org) [c](#top) [d](../y/z.md#part)"),
        vec![(1, "x.md"), (1, "../y/z.md")]
    );
}
