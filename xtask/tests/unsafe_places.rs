//! Keeps `unsafe` where UNSAFE.md says it may live (its first section's
//! list of files): every workspace source file that uses the keyword must be
//! listed, every listed file must still use it (so the list never outlives
//! the code), and a crate with no listed file must forbid `unsafe_code`.
//!
//! "Uses the keyword" means `unsafe` as a word in code: comments, string
//! literals and `forbid(unsafe_code)` do not count.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits in the workspace root")
        .to_path_buf()
}

/// The paths in the first ```text block of UNSAFE.md (first word of each line).
fn listed_files(root: &Path) -> BTreeSet<String> {
    let text = fs::read_to_string(root.join("UNSAFE.md")).expect("UNSAFE.md is readable");
    let block = text
        .split("```text")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("UNSAFE.md has a ```text block listing the files");
    block
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

/// The workspace's crates: directories of the root holding a Cargo.toml and a src/.
fn crates(root: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = fs::read_dir(root)
        .expect("workspace root is readable")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("Cargo.toml").is_file() && p.join("src").is_dir())
        .collect();
    out.sort();
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("source directory is readable") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Code with comments and string literals blanked out (good enough for this
/// codebase: no raw strings contain the keyword).
fn code_only(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut chars = src.chars().peekable();
    let (mut in_str, mut in_line_comment, mut block_depth) = (false, false, 0usize);
    while let Some(c) = chars.next() {
        if in_line_comment {
            if c == '\n' {
                in_line_comment = false;
                out.push('\n');
            }
        } else if block_depth > 0 {
            if c == '*' && chars.peek() == Some(&'/') {
                chars.next();
                block_depth -= 1;
            } else if c == '/' && chars.peek() == Some(&'*') {
                chars.next();
                block_depth += 1;
            }
        } else if in_str {
            if c == '\\' {
                chars.next();
            } else if c == '"' {
                in_str = false;
            }
        } else if c == '/' && chars.peek() == Some(&'/') {
            in_line_comment = true;
        } else if c == '/' && chars.peek() == Some(&'*') {
            chars.next();
            block_depth = 1;
        } else if c == '"' {
            in_str = true;
        } else if c == '\'' {
            // A char literal such as '"' must not open a string; lifetimes
            // ('a) pass through unchanged.
            let mut look = chars.clone();
            match (look.next(), look.next(), look.next()) {
                (Some('\\'), _, _) => {
                    chars.next();
                    chars.next();
                    while chars.next().is_some_and(|c| c != '\'') {}
                }
                (Some(_), Some('\''), _) => {
                    chars.next();
                    chars.next();
                }
                _ => out.push(c),
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn uses_unsafe(code: &str) -> bool {
    code.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|word| word == "unsafe")
}

fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .expect("under the root")
        .to_string_lossy()
        .replace('\\', "/")
}

#[test]
fn unsafe_lives_only_in_the_listed_files() {
    let root = workspace_root();
    let listed = listed_files(&root);
    assert!(!listed.is_empty(), "UNSAFE.md lists no files");
    let mut found = BTreeSet::new();
    let mut problems = Vec::new();
    for krate in crates(&root) {
        let mut files = Vec::new();
        rust_files(&krate.join("src"), &mut files);
        files.sort();
        let mut crate_has_unsafe = false;
        for file in &files {
            let src = fs::read_to_string(file).expect("source is readable");
            if uses_unsafe(&code_only(&src)) {
                let rel = relative(&root, file);
                crate_has_unsafe = true;
                if !listed.contains(&rel) {
                    problems.push(format!(
                        "{rel}: uses `unsafe` but is not listed in UNSAFE.md"
                    ));
                }
                found.insert(rel);
            }
        }
        if !crate_has_unsafe {
            let forbids = ["lib.rs", "main.rs"].iter().any(|f| {
                fs::read_to_string(krate.join("src").join(f))
                    .is_ok_and(|s| s.contains("#![forbid(unsafe_code)]"))
            });
            if !forbids {
                problems.push(format!(
                    "{}: has no unsafe code but does not `#![forbid(unsafe_code)]`",
                    relative(&root, &krate)
                ));
            }
        }
    }
    for stale in listed.difference(&found) {
        problems.push(format!(
            "{stale}: listed in UNSAFE.md but has no `unsafe` (take it off the list)"
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn comments_strings_and_the_forbid_attribute_do_not_count() {
    let src =
        "// unsafe here\n/* unsafe */ let s = \"unsafe\"; let c = '\"'; #![forbid(unsafe_code)]";
    assert!(!uses_unsafe(&code_only(src)));
    assert!(uses_unsafe(&code_only("let c = '\"'; unsafe { x() }")));
    assert!(uses_unsafe(&code_only(
        "fn f<'a>(x: &'a u8) { unsafe { g(x) } }"
    )));
}
