//! The library's layers point down only: each top-level module may use only modules of a
//! lower layer (and itself), and no two files use each other, directly or round a longer
//! circle. Read from the source text of every file under src/, nested folders and each
//! folder's mod.rs included (`crate::`, `super::` and `self::` paths, grouped `use` trees,
//! and a file's paths into its own child modules, outside comments), so it fails as soon
//! as someone adds an upward import.
//!
//! A file is a node named by its module path (`search` for search/mod.rs,
//! `commands::suite::run` for commands/suite/run.rs). A path to an item is an edge to the
//! file that defines it: `super::X` where the parent only re-exports X from a sibling is
//! an edge to that sibling, not to the parent.

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
    ("games", 2),
    ("search", 3),
    ("error", 4),
    ("train", 5),
    ("results", 6),
    ("engines", 7),
    ("commands", 8),
    ("batch", 8),
    ("prove", 9),
    // The binary's own modules (declared by main.rs, not lib.rs).
    ("cli", 10),
];

fn layer(module: &str) -> u32 {
    LAYERS
        .iter()
        .find(|(m, _)| *m == module)
        .map(|&(_, l)| l)
        .unwrap_or_else(|| panic!("module {module} has no layer in tests/layers.rs"))
}

/// A source file: its module path and its text without comments.
struct File {
    module: Vec<String>,
    code: String,
}

impl File {
    fn name(&self) -> String {
        if self.module.is_empty() {
            "lib".into()
        } else {
            self.module.join("::")
        }
    }
}

/// Every source file under `src` but the binary's root (main.rs), at any depth; lib.rs is
/// the module with the empty path.
fn sources(src: &Path) -> Vec<File> {
    let mut files = Vec::new();
    walk(src, &mut Vec::new(), &mut files);
    files.sort_by(|a, b| a.module.cmp(&b.module));
    files
}

fn walk(dir: &Path, module: &mut Vec<String>, files: &mut Vec<File>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            module.push(name);
            walk(&path, module, files);
            module.pop();
        } else if path.extension().is_some_and(|e| e == "rs") {
            let mut m = module.clone();
            match name.as_str() {
                // lib.rs is the root (its re-exports are followed); main.rs is the binary's.
                "lib" if module.is_empty() => {}
                "main" if module.is_empty() => continue,
                // A folder's mod.rs is the folder's module.
                "mod" => {}
                _ => m.push(name),
            }
            files.push(File {
                module: m,
                code: code(&path),
            });
        }
    }
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

/// `text` without its inline `#[cfg(test)] mod NAME { ... }` blocks, whose `super` is the
/// file itself.
fn without_test_modules(text: &str) -> String {
    split_test_modules(text).0
}

/// `text` without its inline `#[cfg(test)] mod NAME { ... }` blocks (other attributes may
/// follow `#[cfg(test)]`), and the blocks: each module's name and body.
fn split_test_modules(text: &str) -> (String, Vec<(String, String)>) {
    let mut out = String::new();
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("#[cfg(test)]") {
        let mut after = rest[i + 12..].trim_start();
        // Further attributes (`#[cfg(feature = "...")]`) may stand between.
        while let Some(attr) = after.strip_prefix("#[") {
            match attr.find(']') {
                Some(e) => after = attr[e + 1..].trim_start(),
                None => break,
            }
        }
        let inline =
            after.starts_with("mod ") && after.find('{').is_some_and(|b| !after[..b].contains(';'));
        if !inline {
            out.push_str(&rest[..i + 12]);
            rest = &rest[i + 12..];
            continue;
        }
        out.push_str(&rest[..i]);
        let open = rest.len() - after.len() + after.find('{').unwrap();
        let name = after[4..after.find('{').unwrap()].trim().to_string();
        let mut depth = 0;
        let mut end = rest.len();
        for (k, c) in rest[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        blocks.push((
            name,
            rest[open + 1..end.saturating_sub(1).max(open + 1)].to_string(),
        ));
        rest = &rest[end..];
    }
    out.push_str(rest);
    (out, blocks)
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths of a `use` tree or a path in code starting at `text`: `a::b::{c, d::e}` gives
/// `a::b::c` and `a::b::d::e`; `a::{self, b as c}` gives `a` and `a::b`; a glob ends at
/// the module. Returns the paths and the bytes read.
fn use_tree(text: &str) -> (Vec<Vec<String>>, usize) {
    let mut prefix: Vec<String> = Vec::new();
    let mut i = 0;
    let b = text.as_bytes();
    let skip_space = |i: &mut usize| {
        while *i < b.len() && (b[*i] as char).is_whitespace() {
            *i += 1;
        }
    };
    loop {
        skip_space(&mut i);
        if i < b.len() && b[i] == b'{' {
            let mut paths = Vec::new();
            i += 1;
            loop {
                skip_space(&mut i);
                if i >= b.len() || b[i] == b'}' {
                    i += 1;
                    break;
                }
                let (sub, n) = use_tree(&text[i..]);
                for s in sub {
                    let mut p = prefix.clone();
                    p.extend(s.into_iter().filter(|seg| seg != "self"));
                    paths.push(p);
                }
                i += n;
                skip_space(&mut i);
                if i < b.len() && b[i] == b',' {
                    i += 1;
                }
            }
            return (paths, i);
        }
        if i < b.len() && b[i] == b'*' {
            return (vec![prefix], i + 1);
        }
        let start = i;
        while i < b.len() && is_ident(b[i] as char) {
            i += 1;
        }
        if i == start {
            return (vec![prefix], i);
        }
        prefix.push(text[start..i].to_string());
        if text[i..].starts_with("::") {
            i += 2;
            continue;
        }
        // `as NAME` renames: the path is what counts.
        let mut j = i;
        skip_space(&mut j);
        if text[j..].starts_with("as ") {
            j += 3;
            skip_space(&mut j);
            while j < b.len() && is_ident(b[j] as char) {
                j += 1;
            }
            i = j;
        }
        return (vec![prefix], i);
    }
}

/// The `use` declarations of `text`: (name brought into scope, full path as written).
fn imports(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let trimmed = line.trim_start();
        let item = ["pub(crate) ", "pub(super) ", "pub "]
            .iter()
            .find_map(|v| trimmed.strip_prefix(v))
            .unwrap_or(trimmed);
        let Some(tree) = item.strip_prefix("use ") else {
            continue;
        };
        // The tree runs to its `;`, over lines.
        let at = start + (line.len() - tree.len());
        let end = text[at..].find(';').map_or(text.len(), |e| at + e);
        for p in use_tree(&text[at..end]).0 {
            if let Some(last) = p.last() {
                out.push((last.clone(), p));
            }
        }
    }
    out
}

/// The paths written in `text` that start with `crate::`, `super::`, `self::` or the name
/// of one of `children`, in `use` trees and in code alike.
fn written_paths(text: &str, children: &BTreeSet<String>) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let starts_word = i == 0 || !(is_ident(b[i - 1] as char) || b[i - 1] == b':');
        if !starts_word || !is_ident(b[i] as char) {
            i += 1;
            continue;
        }
        let end = text[i..]
            .find(|c| !is_ident(c))
            .map_or(text.len(), |e| i + e);
        let word = &text[i..end];
        let rooted = matches!(word, "crate" | "super" | "self") || children.contains(word);
        if rooted && text[end..].starts_with("::") {
            let (paths, n) = use_tree(&text[i..]);
            out.extend(paths);
            i += n.max(1);
        } else {
            i = end.max(i + 1);
        }
    }
    out
}

/// The child modules `text` declares (`mod x;`, `pub mod x;`, `pub(crate) mod x;`).
fn children(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim();
            let l = l.strip_prefix("pub ").unwrap_or(l);
            let l = l.strip_prefix("pub(crate) ").unwrap_or(l);
            l.strip_prefix("mod ")?
                .strip_suffix(';')
                .map(str::to_string)
        })
        .collect()
}

/// The crate's files as a graph: node per file, edges to the files whose items it uses.
struct Graph {
    modules: BTreeSet<Vec<String>>,
    /// Per file, the names its `use` declarations bring in, as absolute paths.
    scope: BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>>,
}

impl Graph {
    fn new(files: &[File]) -> Graph {
        let modules: BTreeSet<Vec<String>> = files.iter().map(|f| f.module.clone()).collect();
        let mut scope = BTreeMap::new();
        for f in files {
            let kids = children(&f.code);
            let names = imports(&without_test_modules(&f.code))
                .into_iter()
                .filter_map(|(name, p)| Some((name, absolute(&f.module, &kids, &p)?)))
                .collect();
            scope.insert(f.module.clone(), names);
        }
        Graph { modules, scope }
    }

    /// The file that defines what `path` (absolute) names, following re-exports; `None`
    /// for what is outside the crate.
    fn resolve(&self, path: &[String], depth: u32) -> Option<Vec<String>> {
        let k = (0..=path.len())
            .rev()
            .find(|&k| self.modules.contains(&path[..k]))?;
        let node = path[..k].to_vec();
        if let Some(next) = path.get(k)
            && depth < 16
            && let Some(target) = self.scope[&node].get(next)
        {
            let mut further = target.clone();
            further.extend_from_slice(&path[k + 1..]);
            if further != path {
                return self.resolve(&further, depth + 1).or(Some(node));
            }
        }
        Some(node)
    }
}

/// `path` as written in the file of module `module` (with child modules `kids`), made
/// absolute; `None` when it leaves the crate.
fn absolute(module: &[String], kids: &BTreeSet<String>, path: &[String]) -> Option<Vec<String>> {
    let mut base = module.to_vec();
    let mut rest = path;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        Some("super") => {
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        Some(first) if kids.contains(first) => {}
        _ => return None,
    }
    base.extend_from_slice(rest);
    Some(base)
}

/// Every edge file -> file of the crate, by name, with no edge of a file to itself.
fn edges(files: &[File]) -> BTreeMap<String, BTreeSet<String>> {
    let graph = Graph::new(files);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        let code = without_test_modules(&f.code);
        let kids = children(&f.code);
        for p in written_paths(&code, &kids) {
            let Some(abs) = absolute(&f.module, &kids, &p) else {
                continue;
            };
            // lib.rs only declares and re-exports: what it names is followed, not an edge.
            if let Some(to) = graph.resolve(&abs, 0)
                && to != f.module
                && !to.is_empty()
            {
                edges.entry(f.name()).or_default().insert(to.join("::"));
            }
        }
    }
    edges
}

/// The imports of `files` that do not point down the layers: every `crate::`, `super::`
/// and `self::` path (inline test modules' too, from their own place), made absolute and
/// followed through re-exports (lib.rs's included) to the module that defines it.
fn upward(files: &[File]) -> BTreeSet<String> {
    let graph = Graph::new(files);
    let mut upward = BTreeSet::new();
    for f in files.iter().filter(|f| !f.module.is_empty()) {
        let module = &f.module[0];
        let (code, tests) = split_test_modules(&f.code);
        let mut places = vec![(f.module.clone(), code)];
        for (name, body) in tests {
            let mut m = f.module.clone();
            m.push(name);
            places.push((m, body));
        }
        for (place, text) in places {
            for p in written_paths(&text, &BTreeSet::new()) {
                let Some(abs) = absolute(&place, &BTreeSet::new(), &p) else {
                    continue;
                };
                let Some(to) = graph.resolve(&abs, 0) else {
                    continue;
                };
                let Some(used) = to.first() else { continue };
                if used != module && layer(used) >= layer(module) {
                    upward.insert(format!(
                        "{} uses crate::{used} (layer {} >= {})",
                        f.name(),
                        layer(used),
                        layer(module)
                    ));
                }
            }
        }
    }
    upward
}

/// A circle of files that use each other, if there is one.
fn circle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == node) {
            let mut c = path[i..].to_vec();
            c.push(node.to_string());
            return Some(c);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(c) = visit(next, edges, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|node| visit(node, edges, &mut Vec::new(), &mut done))
}

/// Every circle, one per file that starts one, after cutting the edges of those found.
fn circles(mut edges: BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut found = Vec::new();
    while let Some(c) = circle(&edges) {
        found.push(c.join(" -> "));
        // Cut the circle's last edge so that the next search finds another.
        let (from, to) = (&c[c.len() - 2], &c[c.len() - 1]);
        edges.get_mut(from).unwrap().remove(to);
    }
    found
}

fn src() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn modules_use_only_lower_layers() {
    let upward = upward(&sources(&src()));
    assert!(
        upward.is_empty(),
        "imports that do not point down:\n{upward:#?}"
    );
}

#[test]
fn no_files_use_each_other_in_a_circle() {
    let circles = circles(edges(&sources(&src())));
    assert!(
        circles.is_empty(),
        "files that use each other:\n{circles:#?}"
    );
}

/// Writes `files` (path under src, text) to a new src tree.
fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let p = dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

/// The check itself must catch what it is for.
#[test]
fn the_check_sees_an_upward_use_and_ignores_comments() {
    let paths = |t: &str| written_paths(t, &BTreeSet::new());
    assert_eq!(
        paths("use crate::commands::x;"),
        [["crate", "commands", "x"]]
    );
    assert_eq!(
        paths("use crate::{board, search::{Mode, Solver as S}};"),
        [
            vec!["crate", "board"],
            vec!["crate", "search", "Mode"],
            vec!["crate", "search", "Solver"]
        ]
    );
    assert_eq!(
        paths("a super::b::c super::d"),
        [vec!["super", "b", "c"], vec!["super", "d"]]
    );
    assert!(layer("board") < layer("search") && layer("results") < layer("batch"));
    assert!(layer("durable") < layer("eval") && layer("engines") < layer("commands"));
    let dir = tree(&[(
        "x.rs",
        "/// see [`crate::commands`]\nuse crate::board; // crate::batch\n",
    )]);
    let files = sources(dir.path());
    assert_eq!(paths(&files[0].code), [["crate", "board"]]);
}

#[test]
fn the_check_reads_nested_folders_and_their_mod_rs() {
    let dir = tree(&[
        ("board/deep/mod.rs", "mod er;\n"),
        // Planted: a nested file of a low module uses a higher one.
        (
            "board/deep/er.rs",
            "use crate::{settings, search::Solver};\n",
        ),
        ("search/mod.rs", "pub struct Solver;\n"),
        // Through lib.rs's re-export, and from an inline test module's own place.
        (
            "lib.rs",
            "pub mod board;\npub mod eval;\npub mod search;\npub use search::Solver;\n",
        ),
        ("eval/mod.rs", "use crate::Solver;\n"),
        (
            "board/mod.rs",
            "mod deep;\n#[cfg(test)]\nmod tests {\n    use super::super::Solver;\n}\n",
        ),
    ]);
    let files = sources(dir.path());
    let names: Vec<String> = files.iter().map(File::name).collect();
    assert_eq!(
        names,
        [
            "lib",
            "board",
            "board::deep",
            "board::deep::er",
            "eval",
            "search"
        ]
    );
    assert_eq!(
        upward(&files).into_iter().collect::<Vec<_>>(),
        [
            "board uses crate::search (layer 3 >= 1)",
            "board::deep::er uses crate::search (layer 3 >= 1)",
            "eval uses crate::search (layer 3 >= 2)"
        ]
    );
}

#[test]
fn the_check_sees_a_mod_rs_and_its_child_using_each_other() {
    // search/mod.rs defines `Search` and uses its child, which uses `Search` back.
    let dir = tree(&[
        (
            "search/mod.rs",
            "mod parallel;\npub struct Search;\nfn f() { parallel::split(); }\n",
        ),
        (
            "search/parallel.rs",
            "use super::Search;\npub fn split() {}\n",
        ),
        // Re-exported from a sibling: `super::Mode` is an edge to answer.rs, no circle.
        (
            "train/mod.rs",
            "mod answer;\nmod check;\npub use answer::Mode;\nuse check::c;\n",
        ),
        ("train/answer.rs", "pub enum Mode {}\n"),
        ("train/check.rs", "use super::Mode;\npub fn c() {}\n"),
        // Inline tests use their own file through `super`: no edge.
        (
            "eval/mod.rs",
            "mod a;\nuse a::x;\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
        ),
        ("eval/a.rs", "pub fn x() {}\n"),
    ]);
    let e = edges(&sources(dir.path()));
    assert_eq!(
        e["train::check"],
        BTreeSet::from(["train::answer".to_string()])
    );
    assert!(!e.contains_key("eval::a"));
    assert_eq!(
        circles(e),
        ["search -> search::parallel -> search".to_string()]
    );
}
