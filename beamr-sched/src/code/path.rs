//! The code path: directories searched for `MODULE.beam`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

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
    let Some(root) = otp_root() else {
        return Vec::new();
    };
    let mut dirs = Vec::new();
    // Preloaded modules (erlang, init, prim_*) first, as the BEAM has them.
    if let Ok(entries) = std::fs::read_dir(root) {
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

/// The root of the Erlang/OTP installation whose library beamr runs:
/// `$BEAMR_OTP_ROOT`, else the one of `erl` on the PATH: the directory
/// above the `bin/erl` it resolves to when that holds an `erts-VSN`
/// directory (as `erl`'s own script finds its root), else what `erl`
/// answers when asked (a shim or wrapper; starting it takes about 0.2 s).
pub fn otp_root() -> Option<&'static Path> {
    static ROOT: OnceLock<Option<PathBuf>> = OnceLock::new();
    ROOT.get_or_init(|| {
        std::env::var_os("BEAMR_OTP_ROOT")
            .map(PathBuf::from)
            .or_else(|| erl_on_path().and_then(|erl| root_of_erl(&erl)))
            .or_else(|| {
                // An `erl` asked by a beamr asking `erl` (a launcher of
                // `beamr shim` with no root, or another wrapper running
                // beamr) does not ask again: that would never end.
                std::env::var_os(ASKING_ERL).is_none().then(erl_root)?
            })
    })
    .as_deref()
}

/// The first `erl` on the PATH.
fn erl_on_path() -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join("erl"))
        .find(|erl| erl.is_file())
}

/// The installation root of the `erl` at `erl` (symbolic links followed):
/// the parent of its `bin` directory, when that has an `erts-VSN`
/// directory and a `lib`.
fn root_of_erl(erl: &Path) -> Option<PathBuf> {
    let erl = std::fs::canonicalize(erl).ok()?;
    let bin = erl.parent()?;
    let root = bin.parent()?;
    let has_erts = std::fs::read_dir(root)
        .ok()?
        .flatten()
        .any(|e| e.file_name().to_string_lossy().starts_with("erts-") && e.path().is_dir());
    (bin.file_name()? == "bin" && has_erts && root.join("lib").is_dir()).then(|| root.to_path_buf())
}

/// The release assumed when the installation does not say (or there is none).
pub const DEFAULT_OTP_RELEASE: u32 = beamr_core::release::DEFAULT_OTP_RELEASE;

/// The OTP release of that installation (the highest number under its
/// `releases/`), which beamr reports as `erlang:system_info(otp_release)`
/// and follows where releases differ (init's frames and crash report).
pub fn otp_release() -> u32 {
    static RELEASE: OnceLock<u32> = OnceLock::new();
    *RELEASE.get_or_init(|| {
        otp_root()
            .and_then(|root| std::fs::read_dir(root.join("releases")).ok())
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
            .max()
            .unwrap_or(DEFAULT_OTP_RELEASE)
    })
}

/// The erts version assumed when the installation does not say.
pub const DEFAULT_ERTS_VERSION: &str = "13.1.5";

/// The erts version of that installation (`system_info(version)`): the
/// first word of its `releases/start_erl.data` (`13.1.5 25`), else the
/// newest `erts-VSN` directory.
pub fn erts_version() -> &'static str {
    static VERSION: OnceLock<String> = OnceLock::new();
    VERSION.get_or_init(|| {
        let Some(root) = otp_root() else {
            return DEFAULT_ERTS_VERSION.to_string();
        };
        let from_data = std::fs::read_to_string(root.join("releases/start_erl.data"))
            .ok()
            .and_then(|s| s.split_whitespace().next().map(str::to_string));
        let from_dir = || {
            std::fs::read_dir(root)
                .ok()?
                .filter_map(|e| {
                    e.ok()?
                        .file_name()
                        .to_str()?
                        .strip_prefix("erts-")
                        .map(str::to_string)
                })
                .max()
        };
        from_data
            .or_else(from_dir)
            .unwrap_or_else(|| DEFAULT_ERTS_VERSION.to_string())
    })
}

/// Set in the environment of the `erl` that [`erl_root`] runs.
const ASKING_ERL: &str = "BEAMR_ASKING_ERL_FOR_ITS_ROOT";

/// The root `erl` reports when started (`code:root_dir()`).
fn erl_root() -> Option<PathBuf> {
    let out = Command::new("erl")
        .env(ASKING_ERL, "1")
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A directory laid out as an installation: `bin/erl`, `erts-VSN/`,
    /// `lib/`, and `usr/bin/erl` linking to its `bin/erl`.
    fn installation(dir: &Path) -> PathBuf {
        let root = dir.join("otp");
        std::fs::create_dir_all(root.join("bin")).unwrap();
        std::fs::create_dir_all(root.join("erts-13.1.5/bin")).unwrap();
        std::fs::create_dir_all(root.join("lib/kernel-8.5/ebin")).unwrap();
        std::fs::write(root.join("bin/erl"), "#!/bin/sh\n").unwrap();
        std::fs::create_dir_all(dir.join("usr/bin")).unwrap();
        std::os::unix::fs::symlink("../../otp/bin/erl", dir.join("usr/bin/erl")).unwrap();
        root
    }

    #[test]
    fn the_root_is_found_through_links_to_bin_erl() {
        let dir = tempfile::tempdir().unwrap();
        let root = installation(dir.path());
        let found = root_of_erl(&dir.path().join("usr/bin/erl"));
        assert_eq!(found, Some(std::fs::canonicalize(&root).unwrap()));
    }

    #[test]
    fn an_erl_outside_an_installation_has_no_root() {
        let dir = tempfile::tempdir().unwrap();
        let root = installation(dir.path());
        std::fs::remove_dir_all(root.join("erts-13.1.5")).unwrap();
        assert_eq!(root_of_erl(&root.join("bin/erl")), None);
        // A shim: a script in a directory that is not an installation's bin.
        std::fs::write(dir.path().join("erl"), "#!/bin/sh\nexec real-erl\n").unwrap();
        assert_eq!(root_of_erl(&dir.path().join("erl")), None);
    }

    #[test]
    fn the_root_found_without_starting_erl_is_the_one_erl_reports() {
        let Some(erl) = erl_on_path() else {
            eprintln!("no erl on the PATH: nothing to compare");
            return;
        };
        let asked = erl_root().map(|r| std::fs::canonicalize(r).unwrap());
        assert_eq!(root_of_erl(&erl), asked);
    }
}
