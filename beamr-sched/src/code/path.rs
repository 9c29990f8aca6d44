//! The code path: directories searched for `MODULE.beam`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// An ordered list of directories holding `.beam` files.
#[derive(Clone, Debug, Default)]
pub struct CodePath {
    dirs: Vec<PathBuf>,
}

impl CodePath {
    /// An empty path.
    pub fn new() -> CodePath {
        CodePath::default()
    }

    /// Appends a directory.
    pub fn push(&mut self, dir: impl Into<PathBuf>) {
        self.dirs.push(dir.into());
    }

    /// The directories, in search order.
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// The first `MODULE.beam` on the path.
    pub fn find(&self, module: &str) -> Option<PathBuf> {
        self.dirs
            .iter()
            .map(|d| d.join(format!("{module}.beam")))
            .find(|p| p.is_file())
    }
}

/// The `ebin` directories of the local Erlang/OTP installation: under
/// `$BEAMR_OTP_ROOT` if set, else under the root that `erl` on the PATH
/// reports. Empty when neither exists.
pub fn otp_lib_dirs() -> Vec<PathBuf> {
    let root = std::env::var_os("BEAMR_OTP_ROOT")
        .map(PathBuf::from)
        .or_else(erl_root);
    let Some(root) = root else { return Vec::new() };
    let mut dirs = Vec::new();
    // Preloaded modules (erlang, init, prim_*) first, as the BEAM has them.
    if let Ok(entries) = std::fs::read_dir(&root) {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with("erts-") {
                dirs.push(e.path().join("ebin"));
            }
        }
    }
    if let Ok(entries) = std::fs::read_dir(root.join("lib")) {
        let mut libs: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path().join("ebin"))
            .filter(|p| p.is_dir())
            .collect();
        libs.sort();
        dirs.extend(libs);
    }
    dirs
}

fn erl_root() -> Option<PathBuf> {
    let out = Command::new("erl")
        .args([
            "-noshell",
            "-eval",
            "io:format(\"~s\", [code:root_dir()]), halt().",
        ])
        .output()
        .ok()?;
    let root = String::from_utf8(out.stdout).ok()?;
    let root = Path::new(root.trim());
    root.is_dir().then(|| root.to_path_buf())
}
