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

/// What `beamr run -e MODULE DIR` prints with native code on and with it
/// off (`BEAMR_NATIVE`), in that order, after checking each run succeeded.
pub fn run_native_on_and_off(dir: &Path, module: &str) -> [(&'static str, String); 2] {
    ["on", "off"].map(|native| {
        let out = Command::new(env!("CARGO_BIN_EXE_beamr"))
            .args(["run", "-e", module])
            .arg(dir)
            .env("BEAMR_NATIVE", native)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success(),
            "native {native}: {}{stdout}",
            String::from_utf8_lossy(&out.stderr)
        );
        (native, stdout)
    })
}
