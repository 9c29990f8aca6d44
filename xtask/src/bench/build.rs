//! What the benchmarks run: beamr built in release mode (with or without
//! its probes), and the Erlang modules compiled with `erlc`.

use crate::process;
use crate::{Error, Result};
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::SystemTime;

/// Builds beamr in release mode with `features` of beamr-cli (none: the
/// default build); returns the path of the `beamr` binary, as cargo
/// reports it (so `CARGO_TARGET_DIR` and cargo config are honoured).
///
/// Builds with other features write the same path: copy the binary (see
/// [`keep_copy`]) before building another.
pub fn beamr(root: &Path, features: &[&str]) -> Result<PathBuf> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    let mut cmd = Command::new(cargo);
    cmd.current_dir(root).args([
        "build",
        "--release",
        "-p",
        "beamr-cli",
        "--bin",
        "beamr",
        "--message-format=json-render-diagnostics",
    ]);
    if !features.is_empty() {
        cmd.arg("--features").arg(features.join(","));
    }
    println!("$ {}", process::display(&cmd));
    let out = cmd
        .stderr(Stdio::inherit())
        .output()
        .map_err(|err| Error::new(format!("could not start cargo: {err}")))?;
    if !out.status.success() {
        return Err(Error::new(format!(
            "building beamr failed ({})",
            out.status
        )));
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    stdout
        .lines()
        .filter(|l| l.contains("\"compiler-artifact\""))
        .filter_map(|l| json_string_field(l, "executable"))
        .map(PathBuf::from)
        .find(|p| p.file_stem().is_some_and(|s| s == "beamr"))
        .ok_or_else(|| Error::new("cargo built beamr-cli but reported no `beamr` executable"))
}

/// Copies the binary at `built` to `dir/name` (made if missing) and
/// returns the copy's path: a build with other features will overwrite
/// `built`.
pub fn keep_copy(built: &Path, dir: &Path, name: &str) -> Result<PathBuf> {
    fs::create_dir_all(dir)
        .map_err(|err| Error::new(format!("creating {}: {err}", dir.display())))?;
    let copy = dir.join(name);
    fs::copy(built, &copy).map_err(|err| {
        Error::new(format!(
            "copying {} to {}: {err}",
            built.display(),
            copy.display()
        ))
    })?;
    Ok(copy)
}

/// The value of the string field `name` in one line of cargo's JSON output
/// (enough JSON for cargo's messages: escapes `\"`, `\\`, `\/`).
pub fn json_string_field(line: &str, name: &str) -> Option<String> {
    let key = format!("\"{name}\":\"");
    let start = line.find(&key)? + key.len();
    let mut value = String::new();
    let mut chars = line[start..].chars();
    loop {
        match chars.next()? {
            '"' => return Some(value),
            '\\' => match chars.next()? {
                'n' => value.push('\n'),
                't' => value.push('\t'),
                other => value.push(other),
            },
            c => value.push(c),
        }
    }
}

/// The folder under `target/bench/` for the `.beam` files of the workloads
/// in `dir`: its name and a hash of its path, so that workloads of another
/// folder never pass for fresh ones of the same name.
pub fn beam_dir_name(dir: &Path) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    dir.hash(&mut hasher);
    let name = dir
        .file_name()
        .map_or_else(|| "bench".into(), |n| n.to_string_lossy().into_owned());
    format!("{name}-{:08x}", hasher.finish() as u32)
}

/// Compiles the stale ones of the `.erl` files `sources` into `out`.
pub fn compile(sources: &[PathBuf], out: &Path) -> Result<()> {
    fs::create_dir_all(out)
        .map_err(|err| Error::new(format!("creating {}: {err}", out.display())))?;
    let mtime =
        |p: &Path| -> Option<SystemTime> { fs::metadata(p).and_then(|m| m.modified()).ok() };
    let stale: Vec<&PathBuf> = sources
        .iter()
        .filter(|erl| {
            let beam = out.join(format!(
                "{}.beam",
                erl.file_stem().unwrap_or_default().to_string_lossy()
            ));
            match (mtime(erl), mtime(&beam)) {
                (Some(s), Some(b)) => s > b,
                _ => true,
            }
        })
        .collect();
    if stale.is_empty() {
        return Ok(());
    }
    process::run(Command::new("erlc").arg("-o").arg(out).args(&stale))
        .map_err(|err| Error::new(format!("compiling the workloads failed: {err}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_cargo_json_strings() {
        let line =
            r#"{"reason":"compiler-artifact","executable":"/t/a\\b \"c\"/beamr","fresh":true}"#;
        assert_eq!(
            json_string_field(line, "executable").as_deref(),
            Some(r#"/t/a\b "c"/beamr"#)
        );
        assert_eq!(json_string_field(line, "missing"), None);
    }

    #[test]
    fn each_workload_folder_compiles_into_its_own() {
        let a = beam_dir_name(Path::new("/work/shared/bench"));
        assert!(a.starts_with("bench-"), "{a}");
        assert_eq!(a, beam_dir_name(Path::new("/work/shared/bench")));
        assert_ne!(a, beam_dir_name(Path::new("/tmp/other/bench")));
    }
}
