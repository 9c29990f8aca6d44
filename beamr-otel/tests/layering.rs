//! Holds the module order drawn in `lib.rs`: each top-level module uses
//! (through `crate::`) only the modules listed for it, all of them lower.

use std::collections::BTreeSet;
use std::path::Path;

/// Each module and the modules it may use, lowest first.
const ORDER: &[(&str, &[&str])] = &[
    ("config", &[]),
    ("keys", &[]),
    ("render", &[]),
    ("clock", &[]),
    ("context", &[]),
    ("exec", &[]),
    ("exit", &["render"]),
    ("batch", &["exec"]),
    ("procs", &[]),
    ("lifecycle", &["exit", "keys", "render"]),
    ("spans", &["context", "keys", "procs", "render"]),
    ("metrics", &["batch", "keys"]),
    (
        "tracer",
        &[
            "clock",
            "context",
            "exit",
            "lifecycle",
            "metrics",
            "procs",
            "spans",
        ],
    ),
    (
        "pipeline",
        &[
            "batch",
            "clock",
            "config",
            "exec",
            "keys",
            "lifecycle",
            "metrics",
            "procs",
            "spans",
            "tracer",
        ],
    ),
];

/// The `crate::X` modules named in code (not comments) of `text`.
fn uses(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && name.chars().next().unwrap().is_lowercase() {
                out.insert(name);
            }
        }
    }
    out
}

fn sources(path: &Path, out: &mut String) {
    if path.is_dir() {
        for e in std::fs::read_dir(path).unwrap() {
            sources(&e.unwrap().path(), out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push_str(&std::fs::read_to_string(path).unwrap());
        out.push('\n');
    }
}

#[test]
fn modules_use_only_lower_modules() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut seen = BTreeSet::new();
    for e in std::fs::read_dir(&src).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        if name == "lib" {
            continue;
        }
        let (i, allowed) = ORDER
            .iter()
            .enumerate()
            .find(|(_, (m, _))| *m == name)
            .map(|(i, (_, a))| (i, *a))
            .unwrap_or_else(|| panic!("module {name} is not in the order"));
        let mut text = String::new();
        sources(&path, &mut text);
        for used in uses(&text) {
            if used == name {
                continue;
            }
            assert!(
                allowed.contains(&used.as_str()),
                "{name} uses crate::{used}, which the order does not allow"
            );
            let j = ORDER.iter().position(|(m, _)| *m == used).unwrap();
            assert!(j < i, "{name} uses {used}, which is not lower");
        }
        seen.insert(name);
    }
    assert_eq!(seen.len(), ORDER.len(), "every module in the order exists");
}
