//! The `.beam` files beamr embeds (beamr-sched/erlang/) are compiled from the
//! `.erl` files beside them: recompiling each with `erlc +deterministic` gives
//! the committed bytes.

use std::path::{Path, PathBuf};
use std::process::Command;

fn erl_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            erl_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "erl") {
            out.push(path);
        }
    }
}

#[test]
fn committed_beams_match_their_sources() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("erlang");
    let mut sources = Vec::new();
    erl_files(&root, &mut sources);
    assert!(
        sources.len() >= 3,
        "expected the embedded modules under {}",
        root.display()
    );
    let tmp = std::env::temp_dir().join(format!("beamr-embedded-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for source in sources {
        let status = Command::new("erlc")
            .arg("+deterministic")
            .arg("-o")
            .arg(&tmp)
            .arg(&source)
            .status()
            .expect("erlc runs");
        assert!(status.success(), "erlc failed on {}", source.display());
        let name = source.with_extension("beam");
        let built = std::fs::read(tmp.join(name.file_name().unwrap())).unwrap();
        let committed = std::fs::read(&name).unwrap_or_default();
        assert!(
            built == committed,
            "{} is stale: rebuild it with erlc +deterministic -o {} {}",
            name.display(),
            source.parent().unwrap().display(),
            source.display()
        );
    }
}
