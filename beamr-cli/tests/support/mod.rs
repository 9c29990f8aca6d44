//! Helpers shared by beamr-cli's integration tests (each test uses some).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The folder of compiled test programs (`cargo xtask fixtures`, or
/// `BEAMR_FIXTURES_DIR`), after checking that `program.beam` is in it.
pub fn fixtures(program: &str) -> PathBuf {
    let dir = std::env::var_os("BEAMR_FIXTURES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/fixtures"))
        .join("beam");
    assert!(
        dir.join(format!("{program}.beam")).is_file(),
        "fixtures missing: run `cargo xtask fixtures`"
    );
    dir
}

/// Compiles `source`, the module `module`, with erlc into `dir` (as
/// `MODULE.erl` there); returns the `.beam` file.
pub fn erlc(dir: &Path, module: &str, source: &str) -> PathBuf {
    let src = dir.join(format!("{module}.erl"));
    std::fs::write(&src, source).unwrap();
    let status = Command::new("erlc")
        .arg("-o")
        .arg(dir)
        .arg(&src)
        .status()
        .expect("erlc runs");
    assert!(status.success(), "erlc {module}");
    dir.join(format!("{module}.beam"))
}
