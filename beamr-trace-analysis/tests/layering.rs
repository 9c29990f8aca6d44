//! The top-level modules keep the order drawn in `lib.rs`: a module uses
//! (through `crate::`) only modules on rows below its own. The diagram is
//! the source of truth; this test reads it and every source file, and names
//! the file and line of each path that goes up or sideways.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn src(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Each module of the `text` diagram in lib.rs's doc and its row, the top
/// row 0.
fn drawn_rows(lib_rs: &str) -> BTreeMap<String, usize> {
    let mut rows = BTreeMap::new();
    let mut row = None;
    for line in lib_rs.lines() {
        let Some(doc) = line.strip_prefix("//!") else {
            continue;
        };
        let doc = doc.trim();
        match (doc, row) {
            ("```text", None) => row = Some(0),
            ("```", Some(_)) => break,
            (_, Some(r)) => {
                for module in doc.split_whitespace() {
                    rows.insert(module.to_string(), r);
                }
                row = Some(r + 1);
            }
            _ => {}
        }
    }
    rows
}

/// The `crate::X` modules named in the code (not the comments) of `text`,
/// with their line numbers.
fn uses(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
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
            if name.starts_with(|c: char| c.is_ascii_lowercase()) {
                out.push((n + 1, name));
            }
        }
    }
    out
}

#[test]
fn modules_use_only_modules_below_them() {
    let lib_rs = src("lib.rs");
    let rows = drawn_rows(&lib_rs);
    let declared: BTreeSet<String> = lib_rs
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|m| m.trim_end_matches(';').to_string())
        .collect();
    let drawn: BTreeSet<String> = rows.keys().cloned().collect();
    assert_eq!(declared, drawn, "lib.rs declares the modules it draws");
    let mut wrong = Vec::new();
    for (module, &row) in &rows {
        let file = format!("{module}.rs");
        for (line, used) in uses(&src(&file)) {
            match rows.get(&used) {
                Some(&r) if r > row || used == *module => {}
                _ => wrong.push(format!("src/{file}:{line}: {module} uses crate::{used}")),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
