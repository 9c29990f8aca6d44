//! `beamr shim DIR`: writes launchers named `erl` and `escript` into DIR,
//! so that with DIR first on the PATH, what runs `erl` (Gleam's `gleam run`
//! and `gleam test`, scripts) runs on beamr.
//!
//! Each launcher is a shell script that runs this beamr binary (by its
//! absolute path) with the same arguments: `erl` as `beamr erl "$@"` and
//! `escript` as `beamr escript "$@"`. Each also sets `BEAMR_OTP_ROOT`
//! (unless already set) to the OTP installation beamr finds now: once DIR
//! is first on the PATH, the `erl` there is the launcher, through which
//! beamr could not find the installation again.

use std::path::{Path, PathBuf};

/// Writes the launchers; `Err` is a one-line error.
pub fn run(dir: &Path) -> Result<(), String> {
    let beamr = this_binary()?;
    let root = beamr_sched::code::otp_root()
        .map(Path::to_path_buf)
        .ok_or("shim: no OTP library found: put erl on the PATH or set BEAMR_OTP_ROOT")?;
    let root = std::fs::canonicalize(&root).unwrap_or(root);
    std::fs::create_dir_all(dir).map_err(|e| format!("shim: {}: {e}", dir.display()))?;
    for (name, subcommand) in [("erl", "erl"), ("escript", "escript")] {
        let file = dir.join(name);
        write_launcher(&file, &launcher(&beamr, &root, subcommand)?)?;
    }
    Ok(())
}

/// The absolute path of the running beamr: the OS's answer, else (no
/// `/proc`, as in a chroot) the program name it was started by, found as
/// the shell finds it.
pub(crate) fn this_binary() -> Result<PathBuf, String> {
    if let Ok(exe) = std::env::current_exe().and_then(std::fs::canonicalize) {
        return Ok(exe);
    }
    let name = std::env::args_os()
        .next()
        .map(PathBuf::from)
        .ok_or("shim: cannot find the beamr binary (no program name)")?;
    let found = if name.components().count() > 1 {
        Some(name.clone())
    } else {
        std::env::var_os("PATH").and_then(|path| {
            std::env::split_paths(&path)
                .map(|dir| dir.join(&name))
                .find(|p| p.is_file())
        })
    };
    found
        .and_then(|p| std::fs::canonicalize(p).ok())
        .ok_or_else(|| format!("shim: cannot find the beamr binary ({})", name.display()))
}

/// The launcher running `beamr SUBCOMMAND "$@"`.
fn launcher(beamr: &Path, root: &Path, subcommand: &str) -> Result<String, String> {
    Ok(format!(
        "#!/bin/sh\n\
         # Written by `beamr shim`: runs `{subcommand}` on beamr.\n\
         BEAMR_OTP_ROOT=\"${{BEAMR_OTP_ROOT:-{root}}}\"\n\
         export BEAMR_OTP_ROOT\n\
         exec {beamr} {subcommand} \"$@\"\n",
        root = double_quoted(root)?,
        beamr = single_quoted(beamr)?,
    ))
}

/// `path` as one shell word.
fn single_quoted(path: &Path) -> Result<String, String> {
    let text = utf8(path)?;
    Ok(format!("'{}'", text.replace('\'', "'\\''")))
}

/// `path` for the inside of a double-quoted shell word.
fn double_quoted(path: &Path) -> Result<String, String> {
    let text = utf8(path)?;
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '"' | '\\' | '$' | '`' | '}') {
            out.push('\\');
        }
        out.push(c);
    }
    Ok(out)
}

fn utf8(path: &Path) -> Result<&str, String> {
    path.to_str()
        .ok_or_else(|| format!("shim: {}: not a UTF-8 path", path.display()))
}

/// Writes `text` to `file`, executable, replacing what was there (by
/// renaming a new file over it, so a launcher running now is not cut).
fn write_launcher(file: &PathBuf, text: &str) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    let tmp = file.with_extension("beamr-shim-tmp");
    let failed = |e: std::io::Error| format!("shim: {}: {e}", file.display());
    std::fs::write(&tmp, text).map_err(failed)?;
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755)).map_err(failed)?;
    std::fs::rename(&tmp, file).map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_quoted_for_the_shell() {
        let text = launcher(Path::new("/a b/it's/beamr"), Path::new("/o$t\"p"), "erl").unwrap();
        assert!(
            text.contains("exec '/a b/it'\\''s/beamr' erl \"$@\"\n"),
            "{text}"
        );
        assert!(
            text.contains("BEAMR_OTP_ROOT=\"${BEAMR_OTP_ROOT:-/o\\$t\\\"p}\"\n"),
            "{text}"
        );
    }
}
