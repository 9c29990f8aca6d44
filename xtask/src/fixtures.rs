//! `cargo xtask fixtures`: compiles the Erlang test programs with `erlc`.
//!
//! The convention, relied on by every crate's tests:
//!
//! ```text
//! tests/erlang/NAME.erl              source (module NAME), committed
//! tests/erlang/*.hrl                 shared includes (erlc -I tests/erlang)
//! target/fixtures/                   $BEAMR_FIXTURES_DIR (absolute), generated
//!     beam/NAME.beam                 erlc    NAME.erl
//!     asm/NAME.S                     erlc -S NAME.erl   (the same code, as text)
//! ```
//!
//! An output is recompiled only when its source (or any `.hrl` in
//! `tests/erlang/`) is newer than it. Outputs whose source is gone are
//! deleted, so the two folders always list exactly the current programs.
//! `tests/erlang/` may be missing or empty: the folders are still created.
//! The fixtures live under the workspace's own `target/` whatever
//! `CARGO_TARGET_DIR` says, so the path is the same for every build.

use crate::process;
use crate::{Error, Result};
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

/// The environment variable that tells tests where the fixtures are.
pub const ENV_VAR: &str = "BEAMR_FIXTURES_DIR";

/// Where fixtures come from and go, relative to the workspace root.
struct Layout {
    root: PathBuf,
    sources: PathBuf,
    out: PathBuf,
    beam: PathBuf,
    asm: PathBuf,
}

impl Layout {
    fn new(root: &Path) -> Self {
        let out = root.join("target").join("fixtures");
        Layout {
            root: root.to_path_buf(),
            sources: root.join("tests").join("erlang"),
            beam: out.join("beam"),
            asm: out.join("asm"),
            out,
        }
    }
}

/// Where one `build` put the fixtures.
#[derive(Debug)]
pub struct Built {
    /// Absolute path of `target/fixtures`, the value of [`ENV_VAR`].
    pub dir: PathBuf,
}

impl Built {
    pub fn print_env_hint(&self) {
        println!(
            "fixtures: to run `cargo test` by hand: export {ENV_VAR}={}",
            self.dir.display()
        );
    }
}

/// Compiles every stale `tests/erlang/*.erl` into `target/fixtures/`.
pub fn build(root: &Path) -> Result<Built> {
    let layout = Layout::new(root);
    for dir in [&layout.beam, &layout.asm] {
        fs::create_dir_all(dir)
            .map_err(|err| Error::new(format!("creating {}: {err}", dir.display())))?;
    }
    let sources = list(&layout.sources, "erl")?;
    let headers_mtime = list(&layout.sources, "hrl")?
        .iter()
        .filter_map(|hrl| mtime(hrl))
        .max();

    let stale_beam = stale(&sources, &layout.beam, "beam", headers_mtime);
    let stale_asm = stale(&sources, &layout.asm, "S", headers_mtime);
    let names = |srcs: &[PathBuf]| -> BTreeSet<String> { srcs.iter().map(|s| stem(s)).collect() };
    let compiled = names(&stale_beam).union(&names(&stale_asm)).count();

    println!(
        "fixtures: {} source(s) in {}, {compiled} to compile",
        sources.len(),
        layout.sources.display()
    );
    if !stale_beam.is_empty() {
        erlc(&layout, &layout.beam, &[], &stale_beam)?;
    }
    if !stale_asm.is_empty() {
        erlc(&layout, &layout.asm, &["-S"], &stale_asm)?;
    }

    let keep = names(&sources);
    let removed =
        remove_orphans(&layout.beam, "beam", &keep)? + remove_orphans(&layout.asm, "S", &keep)?;
    if removed > 0 {
        println!("fixtures: removed {removed} output(s) whose source is gone");
    }

    let dir = fs::canonicalize(&layout.out)
        .map_err(|err| Error::new(format!("resolving {}: {err}", layout.out.display())))?;
    Ok(Built { dir })
}

/// One `erlc` run over several sources (one VM start instead of one per file).
///
/// It runs in the workspace root with paths relative to it, so the file names
/// erlc records (the `Line` chunk, `{location,...}` in `.S`) are
/// `tests/erlang/NAME.erl` wherever `cargo xtask` was started.
fn erlc(layout: &Layout, out_dir: &Path, flags: &[&str], sources: &[PathBuf]) -> Result<()> {
    let relative = |path: &Path| {
        path.strip_prefix(&layout.root)
            .unwrap_or(path)
            .to_path_buf()
    };
    let mut cmd = Command::new("erlc");
    cmd.current_dir(&layout.root)
        .args(flags)
        .arg("-I")
        .arg(relative(&layout.sources))
        .arg("-o")
        .arg(relative(out_dir))
        .args(sources.iter().map(|src| relative(src)));
    process::run(&mut cmd).map_err(|err| {
        Error::new(format!(
            "compiling Erlang fixtures failed (erlc's errors are above): {err}"
        ))
    })
}

/// The files in `dir` ending in `.ext`, sorted; none if `dir` does not exist.
fn list(dir: &Path, ext: &str) -> Result<Vec<PathBuf>> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(err) => return Err(Error::new(format!("reading {}: {err}", dir.display()))),
    };
    let mut files = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|err| Error::new(format!("reading {}: {err}", dir.display())))?
            .path();
        if path.is_file() && path.extension().is_some_and(|e| e == ext) {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

fn mtime(path: &Path) -> Option<SystemTime> {
    fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The sources whose `out_dir/NAME.ext` is missing or older than the source
/// or than `headers` (the newest `.hrl`).
fn stale(
    sources: &[PathBuf],
    out_dir: &Path,
    ext: &str,
    headers: Option<SystemTime>,
) -> Vec<PathBuf> {
    sources
        .iter()
        .filter(|src| {
            let out = out_dir.join(format!("{}.{ext}", stem(src)));
            let Some(built) = mtime(&out) else {
                return true;
            };
            let newest_input = mtime(src).max(headers);
            newest_input.is_none_or(|input| input > built)
        })
        .cloned()
        .collect()
}

/// Deletes `dir/*.ext` whose stem is not in `keep`; returns how many.
fn remove_orphans(dir: &Path, ext: &str, keep: &BTreeSet<String>) -> Result<usize> {
    let mut removed = 0;
    for file in list(dir, ext)? {
        if !keep.contains(&stem(&file)) {
            fs::remove_file(&file)
                .map_err(|err| Error::new(format!("removing {}: {err}", file.display())))?;
            removed += 1;
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A fresh, empty scratch directory under the system temp dir.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn touch(path: &Path, age_secs: u64) {
        fs::write(path, b"").unwrap();
        let when = SystemTime::now() - Duration::from_secs(age_secs);
        fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(when)
            .unwrap();
    }

    #[test]
    fn stale_means_missing_or_older_than_source_or_header() {
        let dir = scratch("stale");
        let (a, b, c) = (dir.join("a.erl"), dir.join("b.erl"), dir.join("c.erl"));
        touch(&a, 100);
        touch(&b, 100);
        touch(&c, 10);
        touch(&dir.join("a.beam"), 50); // newer than a.erl: fresh
        touch(&dir.join("c.beam"), 50); // older than c.erl: stale
        let sources = vec![a.clone(), b.clone(), c.clone()];
        assert_eq!(
            stale(&sources, &dir, "beam", None),
            vec![b.clone(), c.clone()]
        );
        let header = Some(SystemTime::now() - Duration::from_secs(20));
        assert_eq!(stale(&sources, &dir, "beam", header), vec![a, b, c]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn missing_source_dir_lists_nothing_and_orphans_go() {
        let dir = scratch("orphans");
        assert!(list(&dir.join("nope"), "erl").unwrap().is_empty());
        touch(&dir.join("kept.beam"), 0);
        touch(&dir.join("gone.beam"), 0);
        touch(&dir.join("notes.txt"), 0);
        let keep = BTreeSet::from(["kept".to_owned()]);
        assert_eq!(remove_orphans(&dir, "beam", &keep).unwrap(), 1);
        assert!(dir.join("kept.beam").exists());
        assert!(!dir.join("gone.beam").exists());
        assert!(dir.join("notes.txt").exists());
        fs::remove_dir_all(&dir).unwrap();
    }
}
