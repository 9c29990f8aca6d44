//! Every `.beam` file of the installed Erlang/OTP parses, decodes and
//! disassembles without error.
//!
//! The test fails (rather than skips) when Erlang is not installed: the test
//! harness (`cargo xtask test-all`) always installs it, and a test that
//! passes on zero files proves nothing.

use std::path::{Path, PathBuf};

use beamr_core::beam::{raw_literal, split_functions, BeamFile, Disassembler, Opcode};

/// The OTP installation root (`BEAMR_OTP_ROOT`, else `/usr/lib/erlang`).
fn otp_root() -> PathBuf {
    std::env::var_os("BEAMR_OTP_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/lib/erlang"))
}

/// `ROOT/lib/*/ebin/*.beam` and `ROOT/erts-*/ebin/*.beam`, sorted.
fn otp_beam_files(root: &Path) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for (parent, prefix) in [(root.join("lib"), ""), (root.to_path_buf(), "erts-")] {
        let Ok(entries) = std::fs::read_dir(&parent) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            if name.to_string_lossy().starts_with(prefix) {
                dirs.push(entry.path().join("ebin"));
            }
        }
    }
    let mut files = Vec::new();
    for dir in dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "beam") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_otp_beam_file_parses_and_decodes() {
    let root = otp_root();
    assert!(
        root.is_dir(),
        "{} does not exist: install Erlang/OTP (the test harness does) or set BEAMR_OTP_ROOT",
        root.display()
    );
    let files = otp_beam_files(&root);
    let mut failures = Vec::new();
    let mut instructions = 0usize;
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        match BeamFile::parse(&bytes) {
            Ok(file) => {
                let stem = path.file_stem().unwrap().to_string_lossy();
                assert_eq!(file.module_name(), stem, "{}", path.display());
                assert_eq!(
                    file.instructions.last().map(|i| i.opcode),
                    Some(Opcode::IntCodeEnd),
                    "{}",
                    path.display()
                );
                let functions = split_functions(&file.instructions);
                assert_eq!(
                    functions.len(),
                    file.code.function_count as usize,
                    "{}: function count",
                    path.display()
                );
                for f in &file.exports {
                    assert!(
                        functions.iter().any(|s| s.name == f.function
                            && s.arity == f.arity
                            && s.entry == f.label),
                        "{}: export {:?} has no function",
                        path.display(),
                        f
                    );
                }
                instructions += file.instructions.len();
                let listing = Disassembler::new(&file, &raw_literal).listing();
                assert!(listing.starts_with("{module,"));
            }
            Err(e) => failures.push(format!("{}: {e}", path.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "{} files failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        files.len() > 300,
        "only {} .beam files under {}: is Erlang/OTP fully installed?",
        files.len(),
        root.display()
    );
    eprintln!(
        "parsed {} OTP modules, {instructions} instructions",
        files.len()
    );
}
