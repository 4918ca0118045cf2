//! The library's layers point down only: each top-level module may use only modules of a
//! lower layer (and itself), and within a module no two files use each other, directly or
//! round a longer circle. Read from the source text (`crate::x` and `super::x` outside
//! comments), so it fails as soon as someone adds an upward import.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Layer of each top-level module, lowest first. main.rs sits above them all.
const LAYERS: &[(&str, u32)] = &[
    ("settings", 0),
    ("interrupt", 0),
    ("durable", 0),
    ("progress", 1),
    ("board", 1),
    ("eval", 2),
    ("search", 3),
    ("error", 4),
    ("train", 5),
    ("results", 6),
    ("engines", 7),
    ("commands", 8),
    ("batch", 8),
    // The binary's own modules (declared by main.rs, not lib.rs).
    ("cli", 9),
];

fn layer(module: &str) -> u32 {
    LAYERS
        .iter()
        .find(|(m, _)| *m == module)
        .map(|&(_, l)| l)
        .unwrap_or_else(|| panic!("module {module} has no layer in tests/layers.rs"))
}

/// The source files of the library: (module, file stem, text without comments).
fn sources() -> Vec<(String, String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            let module = path.file_name().unwrap().to_string_lossy().into_owned();
            for f in std::fs::read_dir(&path).unwrap() {
                let f = f.unwrap().path();
                if f.extension().is_some_and(|e| e == "rs") {
                    let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
                    files.push((module.clone(), stem, code(&f)));
                }
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            if stem != "lib" && stem != "main" {
                files.push((stem.clone(), "mod".into(), code(&path)));
            }
        }
    }
    files
}

/// The text of a file without its comments (doc links name other modules freely).
fn code(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The names that follow `prefix` (`crate::` or `super::`) in `text`.
fn paths_after<'a>(text: &'a str, prefix: &str) -> Vec<&'a str> {
    text.match_indices(prefix)
        .map(|(i, _)| {
            let rest = &text[i + prefix.len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .filter(|name| !name.is_empty())
        .collect()
}

#[test]
fn modules_use_only_lower_layers() {
    let mut upward = BTreeSet::new();
    for (module, stem, text) in sources() {
        for used in paths_after(&text, "crate::") {
            if used != module && layer(used) >= layer(&module) {
                upward.insert(format!(
                    "{module}/{stem}.rs uses crate::{used} (layer {} >= {})",
                    layer(used),
                    layer(&module)
                ));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports that do not point down:\n{upward:#?}"
    );
}

#[test]
fn no_files_of_a_module_use_each_other_in_a_circle() {
    // Edges file -> sibling file, from `super::sibling` and `crate::module::sibling`.
    let files = sources();
    let mut edges: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for (module, stem, text) in &files {
        let siblings: BTreeSet<&str> = files
            .iter()
            .filter(|(m, s, _)| m == module && s != stem && s != "mod")
            .map(|(_, s, _)| s.as_str())
            .collect();
        let mut used: Vec<&str> = paths_after(text, "super::");
        used.extend(paths_after(text, &format!("crate::{module}::")));
        for u in used {
            if siblings.contains(u) {
                edges
                    .entry((module.clone(), stem.clone()))
                    .or_default()
                    .insert(u.to_string());
            }
        }
    }
    // Depth-first search for a circle.
    fn visit(
        node: &(String, String),
        edges: &BTreeMap<(String, String), BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<(String, String)>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| *p == node.1) {
            return Some(path[i..].to_vec());
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.1.clone());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(c) = visit(&(node.0.clone(), next.clone()), edges, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(node.clone());
        None
    }
    let mut done = BTreeSet::new();
    for node in edges.keys() {
        if let Some(circle) = visit(node, &edges, &mut Vec::new(), &mut done) {
            panic!(
                "files of {} use each other: {}",
                node.0,
                circle.join(" -> ")
            );
        }
    }
}

/// The check itself must catch what it is for.
#[test]
fn the_check_sees_an_upward_use_and_ignores_comments() {
    assert_eq!(
        paths_after("use crate::commands::x;", "crate::"),
        ["commands"]
    );
    assert_eq!(paths_after("a super::b::c super::d", "super::"), ["b", "d"]);
    assert!(layer("board") < layer("search") && layer("results") < layer("batch"));
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("x.rs");
    std::fs::write(
        &f,
        "/// see [`crate::commands`]\nuse crate::board; // crate::batch\n",
    )
    .unwrap();
    assert_eq!(paths_after(&code(&f), "crate::"), ["board"]);
}
