//! `cargo xtask erl-atom-order`: records, for each newer OTP release, the
//! atoms erl has when it boots, in erl's atom-index order, into
//! `beamr-core/data/erl_atom_order/otpNN.txt`.
//!
//! OTP 26 and later order a small map's atom keys by atom index, so beamr
//! needs erl's index order (beamr-core/src/atom/erl_order.rs says how it
//! uses it). `xtask/erl/erl_boot_atoms.erl` lists the atoms of one run.
//! erl's boot loads modules from several processes at once, so runs agree
//! on a common start and then interleave modules differently (each
//! module's atoms keep their order); the recorded order is the atoms every
//! one of [`RUNS`] runs has, by their mean place.

use std::collections::HashMap;
use std::fs;
use std::path::Path;
use std::process::Command;

use crate::otp_roots;
use crate::process;
use crate::{Error, Result};

/// How many runs of erl must agree on a prefix.
const RUNS: usize = 8;

/// Records the order for every release in [`otp_roots::RELEASES`].
pub fn run(workspace: &Path) -> Result<()> {
    let source = workspace.join("xtask/erl/erl_boot_atoms.erl");
    let out_dir = workspace.join("beamr-core/data/erl_atom_order");
    for &(release, suite) in &otp_roots::RELEASES {
        let root = otp_roots::ensure(workspace, release, suite)
            .map_err(|otp_roots::Skip(why)| Error::new(format!("OTP {release}: {why}")))?;
        let work = root.join("tmp/beamr-atom-order");
        fs::create_dir_all(&work)
            .and_then(|()| fs::copy(&source, work.join("erl_boot_atoms.erl")))
            .map_err(|e| Error::new(format!("preparing {}: {e}", work.display())))?;
        let inside = "/tmp/beamr-atom-order";
        process::run(Command::new("chroot").arg(&root).args([
            "sh",
            "-c",
            &format!("cd {inside} && erlc erl_boot_atoms.erl"),
        ]))?;
        let mut runs = Vec::with_capacity(RUNS);
        for _ in 0..RUNS {
            let listed = process::output(Command::new("chroot").arg(&root).args([
                "sh",
                "-c",
                &format!("cd {inside} && erl -noshell -s erl_boot_atoms main"),
            ]))
            .ok_or_else(|| Error::new(format!("OTP {release}: erl_boot_atoms did not run")))?;
            runs.push(listed);
        }
        let agreed = consensus_order(&runs);
        let path = out_dir.join(format!("otp{release}.txt"));
        fs::create_dir_all(&out_dir)
            .and_then(|()| fs::write(&path, agreed.join("\n") + "\n"))
            .map_err(|e| Error::new(format!("writing {}: {e}", path.display())))?;
        println!(
            "otp {release}: {} atoms in {}",
            agreed.len(),
            path.display()
        );
    }
    Ok(())
}

/// The lines every run lists, ordered by their mean place in the runs.
fn consensus_order(runs: &[String]) -> Vec<&str> {
    let mut places: HashMap<&str, (usize, usize)> = HashMap::new();
    for run in runs {
        for (place, line) in run.lines().enumerate() {
            let (sum, seen) = places.entry(line).or_default();
            *sum += place;
            *seen += 1;
        }
    }
    let mut agreed: Vec<(usize, &str)> = places
        .into_iter()
        .filter(|&(_, (_, seen))| seen == runs.len())
        .map(|(line, (sum, _))| (sum, line))
        .collect();
    agreed.sort_unstable();
    agreed.into_iter().map(|(_, line)| line).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_every_run_has_are_kept_by_mean_place() {
        let runs = [
            "a\nb\nc\nd\ne".to_owned(),
            "a\nd\nb\nc\ne".to_owned(),
            "a\nb\nd\nc".to_owned(),
        ];
        assert_eq!(consensus_order(&runs), ["a", "b", "d", "c"]);
    }
}
