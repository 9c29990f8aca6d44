//! Helpers shared by beamr-cli's integration tests.

use std::path::PathBuf;

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
