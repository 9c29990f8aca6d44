//! The modules of beamr-sched keep the orders drawn in their docs:
//!
//! 1. The top-level modules keep the order drawn in `lib.rs`: a module may
//!    use only the modules below it. The diagram in `lib.rs` is the source
//!    of truth; this test reads it and every source file, and names the
//!    file and line of each path that goes up or sideways.
//! 2. Inside `bif`, the wings (`bif/erlang/`, `bif/trace/`, ...) use each
//!    other without a circle, each only the wings drawn below it in
//!    `bif/mod.rs`, and its files use each other without a circle (every
//!    file is a module: a file may not use, through any chain, a file that
//!    uses it).
//!
//! A file "uses" a module when it names it by a `crate::`, `super::` or
//! `self::` path: in code (`use` items with their `{...}` groups, over
//! several lines, and paths in expressions), and in the links of its doc
//! comments (`` [`crate::x::Y`] ``, `[text](super::y)`), which rustdoc
//! resolves as it resolves imports. A path in plain backticks is text, not
//! a link, and counts for nothing. Inside an inline module (`mod tests {`,
//! its closing brace at the indentation of its first line, as rustfmt
//! writes it), `super` is the file's own module.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The layers of the `text` diagram in lib.rs's doc, top first.
fn drawn_order(lib_rs: &str) -> Vec<String> {
    drawn_levels(lib_rs).concat()
}

/// The levels of the `text` diagram in a module doc, top first: the
/// first word of each line, in groups parted by lines that are only `|`.
fn drawn_levels(doc: &str) -> Vec<Vec<String>> {
    let mut in_diagram = false;
    let mut levels = vec![Vec::new()];
    for line in doc.lines() {
        let Some(doc) = line.strip_prefix("//!") else {
            continue;
        };
        let doc = doc.trim();
        if doc == "```text" {
            in_diagram = true;
            continue;
        }
        if in_diagram && doc == "```" {
            break;
        }
        if !in_diagram {
            continue;
        }
        if doc == "|" {
            levels.push(Vec::new());
        } else if let Some(word) = doc.split_whitespace().next() {
            let module_name = word.starts_with(|c: char| c.is_ascii_lowercase())
                && word
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            if module_name {
                levels.last_mut().expect("a level").push(word.to_string());
            }
        }
    }
    levels.retain(|level| !level.is_empty());
    levels
}

/// The top-level modules `lib.rs` declares.
fn declared_modules(lib_rs: &str) -> Vec<String> {
    lib_rs
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|m| m.trim_end_matches(';').to_string())
        .collect()
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

/// The module a source file is: `bif/erlang/time.rs` is `bif::erlang::time`,
/// `bif/erlang/mod.rs` is `bif::erlang`, `lib.rs` the crate root (empty).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let mut path: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_str().expect("UTF-8 path").to_string())
        .collect();
    if path
        .last()
        .is_some_and(|last| last == "mod" || last == "lib")
    {
        path.pop();
    }
    path
}

/// A module path named in a source file, made absolute (from the crate
/// root), with the line it is on.
#[derive(Clone, Debug)]
struct Named {
    line: usize,
    path: Vec<String>,
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The identifier at the start of `s`.
fn ident(s: &str) -> &str {
    &s[..s.find(|c: char| !is_ident(c)).unwrap_or(s.len())]
}

/// Appends to `out` every path of the use tree at the start of `rest`
/// (what follows `prefix::`): `a::b::C`, `a::{b, c::{d, self}}`, `a as b`,
/// `a::*`. `self` inside a group names the group's module.
fn use_tree(prefix: &[String], rest: &str, out: &mut Vec<Vec<String>>) {
    let rest = rest.trim_start();
    if let Some(group) = rest.strip_prefix('{') {
        let mut depth = 0usize;
        let mut start = 0;
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    use_tree(prefix, &group[start..i], out);
                    return;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    use_tree(prefix, &group[start..i], out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        use_tree(prefix, &group[start..], out);
        return;
    }
    let name = ident(rest);
    if name.is_empty() || name == "self" {
        out.push(prefix.to_vec());
        return;
    }
    let mut path = prefix.to_vec();
    path.push(name.to_string());
    match rest[name.len()..].trim_start().strip_prefix("::") {
        Some(more) => use_tree(&path, more, out),
        None => out.push(path),
    }
}

/// The absolute form of the path `keyword::rest` (`keyword` one of
/// `crate`, `super`, `self`) written in module `module`.
fn resolve(module: &[String], keyword: &str, rest: &str, out: &mut Vec<Vec<String>>) {
    let mut base: Vec<String> = match keyword {
        "crate" => Vec::new(),
        "self" => module.to_vec(),
        _ => module[..module.len().saturating_sub(1)].to_vec(),
    };
    let mut rest = rest;
    while let Some(more) = rest.strip_prefix("super::") {
        base.pop();
        rest = more;
    }
    use_tree(&base, rest, out);
}

/// Where each `crate::`, `super::` and `self::` path starts in `text`:
/// `(offset, keyword)`, skipping those inside a longer path (`a::self::`).
fn path_starts(text: &str) -> Vec<(usize, &'static str)> {
    let mut found = Vec::new();
    for keyword in ["crate", "super", "self"] {
        let needle = format!("{keyword}::");
        let mut from = 0;
        while let Some(i) = text[from..].find(&needle) {
            let at = from + i;
            from = at + needle.len();
            let before = text[..at].chars().next_back();
            if before.is_some_and(|c| is_ident(c) || c == ':') {
                continue;
            }
            found.push((at, keyword));
        }
    }
    found.sort();
    found
}

/// Whether the path starting at `at` in a doc line is a link target:
/// `[path]`, `` [`path`] `` or `(path)` (the target of `[text](path)`).
fn is_link(doc: &str, at: usize) -> bool {
    let before = doc[..at].trim_end_matches('`');
    before.ends_with('[') || before.ends_with('(')
}

/// Every module path `text` (the source of module `module`) names, in code
/// and in doc links.
fn named_paths(module: &[String], text: &str) -> Vec<Named> {
    let lines: Vec<&str> = text.lines().collect();
    // The module each line is in: inline modules nest inside the file's.
    let mut in_module = Vec::with_capacity(lines.len());
    let mut open: Vec<(String, Vec<String>)> = Vec::new();
    for line in &lines {
        let here = open
            .last()
            .map_or_else(|| module.to_vec(), |(_, m)| m.clone());
        in_module.push(here.clone());
        if open.last().is_some_and(|(close, _)| line == close) {
            open.pop();
            continue;
        }
        let trimmed = line.trim_start();
        let decl = trimmed
            .strip_prefix("pub(crate) ")
            .or_else(|| trimmed.strip_prefix("pub(super) "))
            .or_else(|| trimmed.strip_prefix("pub "))
            .unwrap_or(trimmed);
        if let Some(name) = decl.strip_prefix("mod ").filter(|d| d.ends_with('{')) {
            let indent = &line[..line.len() - trimmed.len()];
            let mut inner = here;
            inner.push(ident(name).to_string());
            open.push((format!("{indent}}}"), inner));
        }
    }
    // Code: comments cut off, lines joined so that a `use` group may span
    // several; `starts` maps an offset back to its line.
    let mut code = String::new();
    let mut starts = Vec::with_capacity(lines.len());
    let mut found = Vec::new();
    for (n, line) in lines.iter().enumerate() {
        starts.push(code.len());
        let trimmed = line.trim_start();
        if let Some(doc) = trimmed
            .strip_prefix("//!")
            .or_else(|| trimmed.strip_prefix("///"))
        {
            for (at, keyword) in path_starts(doc) {
                if is_link(doc, at) {
                    let mut paths = Vec::new();
                    let rest = &doc[at + keyword.len() + 2..];
                    let simple = &rest[..rest
                        .find(|c: char| !(is_ident(c) || c == ':'))
                        .unwrap_or(rest.len())];
                    resolve(&in_module[n], keyword, simple, &mut paths);
                    found.extend(paths.into_iter().map(|path| Named { line: n + 1, path }));
                }
            }
            code.push('\n');
            continue;
        }
        code.push_str(line.find("//").map_or(line, |i| &line[..i]));
        code.push('\n');
    }
    for (at, keyword) in path_starts(&code) {
        let n = starts.partition_point(|&s| s <= at) - 1;
        let mut paths = Vec::new();
        resolve(
            &in_module[n],
            keyword,
            &code[at + keyword.len() + 2..],
            &mut paths,
        );
        found.extend(paths.into_iter().map(|path| Named { line: n + 1, path }));
    }
    found.sort_by_key(|named| named.line);
    found
}

/// Every use of a module at or above the user's own layer, as
/// `file:line: a uses b`.
fn violations(src: &Path, order: &[String]) -> Vec<String> {
    let rank: HashMap<&str, usize> = order
        .iter()
        .enumerate()
        .map(|(i, m)| (m.as_str(), order.len() - i))
        .collect();
    let mut found = Vec::new();
    for file in rust_files(src) {
        let module = module_of(src, &file);
        let Some(own_name) = module.first() else {
            continue;
        };
        let Some(&own) = rank.get(own_name.as_str()) else {
            found.push(format!(
                "{}: module `{own_name}` is not in lib.rs's diagram",
                file.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("source file");
        for named in named_paths(&module, &text) {
            let Some(used) = named.path.first() else {
                continue;
            };
            if used == own_name {
                continue;
            }
            match rank.get(used.as_str()) {
                Some(&r) if r < own => {}
                Some(_) => found.push(format!(
                    "{}:{}: `{own_name}` uses `{used}`, which is not below it",
                    file.display(),
                    named.line
                )),
                None => {}
            }
        }
    }
    found
}

/// What one node of a module graph uses: per used node, the first
/// `file:line` that names it.
type Graph = BTreeMap<String, BTreeMap<String, String>>;

/// The graph of `under`'s modules (a top-level module, e.g. `bif`): with
/// `wings`, one node per wing (`bif::erlang`; a file directly under it,
/// such as `bif::registry`, is a wing of its own), else one per file. The
/// module's own `mod.rs` is no node: it declares its wings.
fn module_graph(src: &Path, under: &str, wings: bool) -> Graph {
    let files: Vec<(PathBuf, Vec<String>)> = rust_files(src)
        .into_iter()
        .map(|f| {
            let m = module_of(src, &f);
            (f, m)
        })
        .filter(|(_, m)| m.first().is_some_and(|top| top == under) && m.len() > 1)
        .collect();
    let modules: BTreeSet<Vec<String>> = files.iter().map(|(_, m)| m.clone()).collect();
    let node = |path: &[String]| -> Option<String> {
        if path.len() < 2 || path[0] != under {
            return None;
        }
        if wings {
            return Some(path[..2].join("::"));
        }
        (2..=path.len())
            .rev()
            .find(|&k| modules.contains(&path[..k]))
            .map(|k| path[..k].join("::"))
    };
    let mut graph = Graph::new();
    for (file, module) in &files {
        let from = node(module).expect("a node of its own");
        let text = std::fs::read_to_string(file).expect("source file");
        let uses = graph.entry(from.clone()).or_default();
        for named in named_paths(module, &text) {
            if let Some(to) = node(&named.path).filter(|to| *to != from) {
                uses.entry(to)
                    .or_insert_with(|| format!("{}:{}", file.display(), named.line));
            }
        }
    }
    graph
}

/// The circles of `graph`: each strongly connected part of more than one
/// node, as its nodes and the edges among them (`a uses b (file:line)`).
fn circles(graph: &Graph) -> Vec<String> {
    struct Tarjan<'g> {
        graph: &'g Graph,
        index: HashMap<&'g str, usize>,
        low: HashMap<&'g str, usize>,
        stack: Vec<&'g str>,
        parts: Vec<Vec<&'g str>>,
    }
    impl<'g> Tarjan<'g> {
        fn visit(&mut self, v: &'g str) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            for w in self.graph.get(v).into_iter().flat_map(BTreeMap::keys) {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.stack.contains(&w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let at = self
                    .stack
                    .iter()
                    .rposition(|&x| x == v)
                    .expect("on the stack");
                self.parts.push(self.stack.split_off(at));
            }
        }
    }
    let mut t = Tarjan {
        graph,
        index: HashMap::new(),
        low: HashMap::new(),
        stack: Vec::new(),
        parts: Vec::new(),
    };
    for v in graph.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    let mut found = Vec::new();
    for mut part in t.parts.into_iter().filter(|p| p.len() > 1) {
        part.sort();
        let mut text = format!("a circle among {}:", part.join(", "));
        for &a in &part {
            for (b, at) in &graph[a] {
                if part.contains(&b.as_str()) {
                    text.push_str(&format!("\n    {a} uses {b} ({at})"));
                }
            }
        }
        found.push(text);
    }
    found
}

#[test]
fn the_diagram_lists_every_module_once() {
    let lib = std::fs::read_to_string(src_dir().join("lib.rs")).expect("lib.rs");
    let mut drawn = drawn_order(&lib);
    let mut declared = declared_modules(&lib);
    assert!(
        drawn.len() > 5,
        "no layer diagram found in lib.rs: {drawn:?}"
    );
    drawn.sort();
    declared.sort();
    assert_eq!(
        drawn, declared,
        "lib.rs's diagram and its `pub mod`s differ"
    );
}

#[test]
fn every_module_uses_only_the_layers_below_it() {
    let src = src_dir();
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let found = violations(&src, &drawn_order(&lib));
    assert!(
        found.is_empty(),
        "imports against lib.rs's layer order:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_wings_of_bif_use_each_other_without_a_circle() {
    let graph = module_graph(&src_dir(), "bif", true);
    assert!(graph.len() > 5, "no wings found under bif: {graph:?}");
    let found = circles(&graph);
    assert!(found.is_empty(), "bif's wings:\n{}", found.join("\n"));
}

#[test]
fn the_wings_of_bif_keep_the_order_drawn_in_its_module_doc() {
    let src = src_dir();
    let doc = std::fs::read_to_string(src.join("bif/mod.rs")).expect("bif/mod.rs");
    let levels = drawn_levels(&doc);
    let level: HashMap<String, usize> = levels
        .iter()
        .enumerate()
        .flat_map(|(i, level)| level.iter().map(move |w| (format!("bif::{w}"), i)))
        .collect();
    let graph = module_graph(&src, "bif", true);
    let mut drawn: Vec<&String> = level.keys().collect();
    let mut wings: Vec<&String> = graph.keys().collect();
    drawn.sort();
    wings.sort();
    assert_eq!(drawn, wings, "bif/mod.rs's diagram and bif's wings differ");
    let mut found = Vec::new();
    for (a, uses) in &graph {
        for (b, at) in uses {
            match (level.get(a), level.get(b)) {
                (Some(x), Some(y)) if x < y => {}
                _ => found.push(format!(
                    "{at}: `{a}` uses `{b}`, which is not drawn below it"
                )),
            }
        }
    }
    assert!(
        found.is_empty(),
        "uses against bif/mod.rs's diagram:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_files_of_bif_use_each_other_without_a_circle() {
    let graph = module_graph(&src_dir(), "bif", false);
    assert!(graph.len() > 20, "no files found under bif: {graph:?}");
    let found = circles(&graph);
    assert!(found.is_empty(), "bif's files:\n{}", found.join("\n"));
}

/// A scratch source tree of `files` (path, text), removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str, files: &[(&str, &str)]) -> Scratch {
        let dir = std::env::temp_dir().join(format!("beamr-layers-{name}-{}", std::process::id()));
        for (path, text) in files {
            let path = dir.join(path);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("temp dir");
            std::fs::write(path, text).expect("write");
        }
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        std::fs::remove_dir_all(&self.0).ok();
    }
}

#[test]
fn an_upward_import_is_caught() {
    let dir = Scratch::new(
        "up",
        &[
            ("low/mod.rs", "use crate::high::Thing;\n"),
            ("high.rs", "use crate::{low, other};\n"),
        ],
    );
    let order = vec!["high".to_string(), "low".to_string()];
    let found = violations(&dir.0, &order);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("low/mod.rs:1: `low` uses `high`"),
        "{found:?}"
    );
}

#[test]
fn an_upward_doc_link_is_caught_and_plain_text_is_not() {
    let dir = Scratch::new(
        "doc",
        &[
            (
                "low/mod.rs",
                "//! Not a link: `crate::high::Thing`.\n\
                 //! A link: [`crate::high::Thing`].\n\
                 /// Another: [`Thing`](crate::high::Thing), and\n\
                 /// [`Other`](super::high::Other) from here.\n\
                 pub fn f() {}\n",
            ),
            ("high.rs", "use crate::low;\n"),
        ],
    );
    let order = vec!["high".to_string(), "low".to_string()];
    let found = violations(&dir.0, &order);
    let lines: Vec<&str> = found.iter().filter_map(|f| f.split(": ").next()).collect();
    assert_eq!(lines.len(), 3, "{found:?}");
    assert!(
        ["low/mod.rs:2", "low/mod.rs:3", "low/mod.rs:4"]
            .iter()
            .all(|want| lines.iter().any(|l| l.ends_with(want))),
        "{found:?}"
    );
}

#[test]
fn circles_between_wings_and_between_files_are_caught() {
    let dir = Scratch::new(
        "circle",
        &[
            ("bif/mod.rs", "mod a;\nmod b;\nmod c;\n"),
            ("bif/a/mod.rs", "pub(super) mod x;\n"),
            ("bif/a/x.rs", "pub fn f() {\n    crate::bif::b::y::g();\n}\n"),
            ("bif/b/mod.rs", "pub(super) mod y;\n"),
            ("bif/b/y.rs", "use super::super::a::x::f;\npub fn g() {}\n"),
            ("bif/c/mod.rs", "mod p;\nmod q;\nmod r;\n"),
            (
                "bif/c/p.rs",
                "use super::{\n    q::{self, Q},\n    r,\n};\n\n#[cfg(test)]\nmod tests {\n    use super::super::r::R;\n}\n",
            ),
            ("bif/c/q.rs", "//! See [`super::p`].\npub struct Q;\n"),
            ("bif/c/r.rs", "#[cfg(test)]\nmod tests {\n    use super::R;\n}\npub struct R;\n"),
        ],
    );
    let wings = circles(&module_graph(&dir.0, "bif", true));
    assert_eq!(wings.len(), 1, "{wings:?}");
    assert!(wings[0].contains("bif::a, bif::b"), "{wings:?}");
    assert!(wings[0].contains("bif/a/x.rs:2"), "{wings:?}");
    assert!(wings[0].contains("bif/b/y.rs:1"), "{wings:?}");
    let files = circles(&module_graph(&dir.0, "bif", false));
    assert_eq!(files.len(), 2, "{files:?}");
    let within_c = files
        .iter()
        .find(|f| f.contains("bif::c::p, bif::c::q"))
        .unwrap_or_else(|| panic!("{files:?}"));
    assert!(within_c.contains("bif/c/q.rs:1"), "{files:?}");
    assert!(within_c.contains("bif/c/p.rs:1"), "{files:?}");
    assert!(!within_c.contains("bif::c::r"), "{files:?}");
}

#[test]
fn a_diagram_reads_as_levels_parted_by_bars() {
    let doc = "//! Text.\n//!\n//! ```text\n//! top    the top\n//!  |\n//! a      one\n//! b      two\n//!        (more about b)\n//!  |\n//! bottom the bottom\n//! ```\n//! after  not drawn\n";
    assert_eq!(
        drawn_levels(doc),
        vec![vec!["top"], vec!["a", "b"], vec!["bottom"]]
    );
}
