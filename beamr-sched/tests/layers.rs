//! The top-level modules of beamr-sched keep the order drawn in `lib.rs`:
//! a module may use only the modules below it. The diagram in `lib.rs` is
//! the source of truth; this test reads it and every source file, and names
//! the file and line of each `crate::` path that goes up or sideways.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The layers of the `text` diagram in lib.rs's doc, top first.
fn drawn_order(lib_rs: &str) -> Vec<String> {
    let mut in_diagram = false;
    let mut layers = Vec::new();
    for line in lib_rs.lines() {
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
        if in_diagram {
            if let Some(word) = doc.split_whitespace().next() {
                if word.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
                    layers.push(word.to_string());
                }
            }
        }
    }
    layers
}

/// The top-level modules `lib.rs` declares.
fn declared_modules(lib_rs: &str) -> Vec<String> {
    lib_rs
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|m| m.trim_end_matches(';').to_string())
        .collect()
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a source file belongs to (`None` for lib.rs).
fn owner(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let first = rel.components().next()?.as_os_str().to_str()?.to_string();
    if first == "lib.rs" {
        return None;
    }
    Some(first.trim_end_matches(".rs").to_string())
}

/// The top-level modules a line of code names through `crate::` paths
/// (comments are not code: doc links do not count).
fn crate_paths(line: &str) -> Vec<String> {
    let code = match line.find("//") {
        Some(i) => &line[..i],
        None => line,
    };
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let name: String = item
                    .trim()
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    found.push(name);
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            found.push(name);
        }
    }
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
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut found = Vec::new();
    for file in files {
        let Some(module) = owner(src, &file) else {
            continue;
        };
        let Some(&own) = rank.get(module.as_str()) else {
            found.push(format!(
                "{}: module `{module}` is not in lib.rs's diagram",
                file.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("source file");
        for (n, line) in text.lines().enumerate() {
            for used in crate_paths(line) {
                if used == module {
                    continue;
                }
                match rank.get(used.as_str()) {
                    Some(&r) if r < own => {}
                    Some(_) => found.push(format!(
                        "{}:{}: `{module}` uses `{used}`, which is not below it",
                        file.display(),
                        n + 1
                    )),
                    None => {}
                }
            }
        }
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
fn an_upward_import_is_caught() {
    let dir = std::env::temp_dir().join(format!("beamr-layers-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("low")).expect("temp dir");
    std::fs::write(dir.join("low/mod.rs"), "use crate::high::Thing;\n").expect("write");
    std::fs::write(dir.join("high.rs"), "use crate::{low, other};\n").expect("write");
    let order = vec!["high".to_string(), "low".to_string()];
    let found = violations(&dir, &order);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("low/mod.rs:1: `low` uses `high`"),
        "{found:?}"
    );
}
