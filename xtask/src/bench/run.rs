//! One `cargo xtask bench`: finds the workloads, builds and compiles what
//! the tables asked for need, runs them, and fails if a workload failed.

use super::options::{Options, TRACED};
use super::{build, flight, peer, probes, server, traced, DIR_VAR};
use crate::{Error, Result};
use std::fs;
use std::path::{Path, PathBuf};

/// Runs the benchmarks and prints the tables; fails if any workload failed.
pub fn run(root: &Path, options: &Options) -> Result<()> {
    if options.server {
        return server::run(root, options);
    }
    let tables = options.tables();
    let dir = match (&options.dir, std::env::var_os(DIR_VAR)) {
        (Some(dir), _) => dir.clone(),
        (None, Some(dir)) => PathBuf::from(dir),
        (None, None) => root.join("..").join("shared").join("bench"),
    };
    let dir = fs::canonicalize(&dir).unwrap_or(dir);
    let all = workloads(&dir)?;
    let only = options.peer_names();
    if let Some(unknown) = only.iter().find(|o| !all.contains(o)) {
        return Err(Error::new(format!(
            "bench: no workload `{unknown}` in {} (there are: {})",
            dir.display(),
            all.join(", ")
        )));
    }
    // traced.erl has no main/0: the traced table stands for it.
    let names: Vec<String> = all
        .iter()
        .filter(|n| *n != TRACED && (only.is_empty() || only.contains(n)))
        .cloned()
        .collect();
    let mut sources: Vec<PathBuf> = all.iter().map(|n| dir.join(format!("{n}.erl"))).collect();
    if tables.traced {
        for needed in traced::WORKLOADS {
            if !all.iter().any(|n| n == needed) {
                return Err(Error::new(format!(
                    "bench: the traced table runs {needed}.erl, which {} lacks",
                    dir.display()
                )));
            }
        }
        sources.push(traced::driver(root));
    }
    let beam_dir = root
        .join("target")
        .join("bench")
        .join(build::beam_dir_name(&dir));
    build::compile(&sources, &beam_dir)?;
    let beam_dir = fs::canonicalize(&beam_dir)
        .map_err(|err| Error::new(format!("resolving {}: {err}", beam_dir.display())))?;
    println!("bench: workloads from {}", dir.display());

    let mut failed = Vec::new();
    if tables.peer || tables.traced {
        let beamr = build::beamr(root, &[])?;
        if tables.peer {
            failed.extend(peer::run(&beamr, &beam_dir, &names, options));
        }
        if tables.traced {
            failed.extend(traced::run(root, &beamr, &beam_dir, options)?);
        }
    }
    if tables.probes {
        failed.extend(probes::run(root, &beam_dir, &names, options)?);
    }
    if tables.flight {
        failed.extend(flight::run(root, &beam_dir, &only, options)?);
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(Error::new(format!(
            "bench: {} workload(s) failed: {}",
            failed.len(),
            failed.join(", ")
        )))
    }
}

/// The workloads in `dir`: the stems of its `.erl` files, sorted.
fn workloads(dir: &Path) -> Result<Vec<String>> {
    let entries = fs::read_dir(dir).map_err(|err| {
        Error::new(format!(
            "reading the workloads in {}: {err} (set {DIR_VAR} or pass --dir)",
            dir.display()
        ))
    })?;
    let mut names: Vec<String> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "erl"))
        .filter_map(|p| p.file_stem()?.to_str().map(str::to_owned))
        .collect();
    names.sort();
    Ok(names)
}
