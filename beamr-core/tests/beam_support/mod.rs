//! Shared helpers of the `beam_*` integration tests: locating the workspace,
//! the Erlang fixtures (`tests/erlang/*.erl`) compiled to `.beam` and `.S`,
//! and the Erlang-side reference output of `normalize.escript`.
//!
//! Fixtures come from `$BEAMR_FIXTURES_DIR/{beam,asm}/` (default
//! `<workspace>/target/fixtures`, which `cargo xtask fixtures` fills). When
//! a fixture is missing or older than its source, the test compiles it
//! itself with `erlc`, the way the xtask does (from the workspace root with
//! relative paths, so recorded file names agree), into Cargo's temporary
//! directory for integration tests.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root (the parent of `beamr-core`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("beamr-core is inside the workspace")
        .to_path_buf()
}

/// One Erlang fixture, compiled.
#[derive(Debug, Clone)]
pub struct Fixture {
    /// The module name (the source's file stem).
    pub name: String,
    /// The compiled `.beam`.
    pub beam: PathBuf,
    /// The `erlc -S` listing.
    pub asm: PathBuf,
}

fn is_fresh(output: &Path, source: &Path) -> bool {
    let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    matches!((modified(output), modified(source)), (Some(o), Some(s)) if o >= s)
}

/// Every `tests/erlang/*.erl`, compiled (reusing fresh xtask output).
pub fn fixtures() -> Vec<Fixture> {
    let root = workspace_root();
    let source_dir = root.join("tests").join("erlang");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&source_dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", source_dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "erl"))
        .collect();
    sources.sort();
    let shared = std::env::var_os("BEAMR_FIXTURES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target").join("fixtures"));
    let private = Path::new(env!("CARGO_TARGET_TMPDIR")).join("beam-fixtures");
    let mut out = Vec::new();
    let mut stale = Vec::new();
    for src in &sources {
        let name = src.file_stem().unwrap().to_string_lossy().into_owned();
        let beam = shared.join("beam").join(format!("{name}.beam"));
        let asm = shared.join("asm").join(format!("{name}.S"));
        if is_fresh(&beam, src) && is_fresh(&asm, src) {
            out.push(Fixture { name, beam, asm });
        } else {
            stale.push(src.clone());
            out.push(Fixture {
                beam: private.join(format!("{name}.beam")),
                asm: private.join(format!("{name}.S")),
                name,
            });
        }
    }
    if !stale.is_empty() {
        std::fs::create_dir_all(&private).unwrap();
        for flags in [&[][..], &["-S"][..]] {
            let relative: Vec<&Path> = stale
                .iter()
                .map(|s| s.strip_prefix(&root).unwrap_or(s))
                .collect();
            let status = Command::new("erlc")
                .current_dir(&root)
                .args(flags)
                .arg("-I")
                .arg(Path::new("tests").join("erlang"))
                .arg("-o")
                .arg(&private)
                .args(&relative)
                .status()
                .expect("running erlc (is Erlang/OTP installed?)");
            assert!(status.success(), "erlc {flags:?} failed");
        }
    }
    out
}

/// What `normalize.escript` says about a fixture: its literals as `~w`
/// text (in literal-table order) and its normalized `.S` forms.
pub struct Reference {
    /// Literal `i`'s `~w` text.
    pub literals: Vec<String>,
    /// The `.S` forms, one per line, normalized.
    pub forms: Vec<String>,
}

/// Runs `normalize.escript` on a fixture.
pub fn reference(fixture: &Fixture) -> Result<Reference, String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("beam_support")
        .join("normalize.escript");
    let output = Command::new("escript")
        .arg(&script)
        .arg(&fixture.asm)
        .arg(&fixture.beam)
        .output()
        .map_err(|e| format!("running escript: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "normalize.escript failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let text = String::from_utf8(output.stdout).map_err(|e| e.to_string())?;
    let mut literals = Vec::new();
    let mut forms = Vec::new();
    for line in text.lines() {
        if let Some(l) = line.strip_prefix("L ") {
            literals.push(l.to_owned());
        } else if let Some(f) = line.strip_prefix("I ") {
            forms.push(f.to_owned());
        } else {
            return Err(format!("unexpected line from normalize.escript: {line}"));
        }
    }
    Ok(Reference { literals, forms })
}
