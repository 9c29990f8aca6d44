//! `cargo xtask miri`: beamr-core's unsafe code (the tagged word, heap
//! blocks, building, copying and collecting terms, binaries' reference
//! counts, match contexts) run under Miri, which stops at the first
//! undefined behaviour: an out-of-bounds or dangling access, a read of
//! uninitialised words, a write through a pointer the aliasing model
//! (Stacked Borrows) has taken the right to write from, a leak.
//!
//! What runs: the library's tests of `heap::` and `term::` (the modules
//! with `unsafe` in them, UNSAFE.md), and the integration tests that drive
//! them hardest: `heap_gc` (collections under random roots and binaries),
//! `etf_proptest` (decoding arbitrary and corrupted bytes onto a heap, and
//! round trips), `order_props` (copies between heaps, compared) and
//! `map_props` (maps built and updated in place), with a few cases each
//! under Miri (`cfg!(miri)` in those tests):
//! Miri runs them a thousand times slower than native code.
//!
//! What cannot run under Miri: zlib (C, behind `flate2`; the compressed
//! cases are skipped under `cfg!(miri)`), memory-mapped files (the flight
//! recorder; `cargo xtask tsan` runs its concurrent writers), and the
//! interpreter with OTP loaded (minutes per instruction mix).
//!
//! Flags: `-Zmiri-permissive-provenance`, because a term is a tagged
//! integer that becomes a pointer again when read (the casts are checked,
//! the warning each gives is not wanted); `-Zmiri-disable-isolation`, for
//! proptest's clock and working directory. It builds in `target/miri/`.

use crate::{nightly, process, Result};
use std::path::Path;

/// Each run: the test target (`--lib` or `--test NAME`) and the name
/// filters given to the test binary.
const RUNS: &[(&[&str], &[&str])] = &[
    (&["--lib"], &["heap::", "term::"]),
    (&["--test", "heap_gc"], &[]),
    (&["--test", "etf_proptest"], &[]),
    (&["--test", "order_props"], &[]),
    (&["--test", "map_props"], &[]),
];

/// Runs the tests above under Miri; fails at the first that fails.
pub fn run(root: &Path) -> Result<()> {
    let host = nightly::host_triple()?;
    nightly::require(&["miri", "rust-src"], &host)?;
    for (target, filters) in RUNS {
        process::run(
            nightly::cargo()
                .current_dir(root)
                .env(
                    "MIRIFLAGS",
                    "-Zmiri-permissive-provenance -Zmiri-disable-isolation",
                )
                .args(["miri", "test", "-p", "beamr-core"])
                .args(*target)
                .arg("--target-dir")
                .arg(root.join("target/miri"))
                .arg("--")
                .args(*filters),
        )?;
    }
    Ok(())
}
