//! Starting a distributed node from the command line, as erl's launcher
//! does for `-sname`/`-name`: the flags `init:get_argument/1` answers to
//! kernel's `erl_distribution` and `auth`, and an EPMD started with
//! `epmd -daemon` from the OTP installation (which returns at once when
//! one runs already on the port `ERL_EPMD_PORT` names), or beamr's own
//! (`beamr epmd -daemon`) where there is no `epmd` program.

use std::path::PathBuf;
use std::process::{Command, Stdio};

/// `--sname`, `--name`, `--setcookie` and `--hidden` of `beamr run`.
#[derive(Debug, Default, Clone)]
pub struct NodeArgs {
    /// `--sname NAME`.
    pub sname: Option<String>,
    /// `--name NAME[@HOST]`.
    pub name: Option<String>,
    /// `--setcookie COOKIE` (else `~/.erlang.cookie`, which kernel's
    /// `auth` reads, or creates as erl does).
    pub setcookie: Option<String>,
    /// `--hidden`.
    pub hidden: bool,
}

impl NodeArgs {
    /// The init flags these stand for (`-sname NAME`, ...), or an error
    /// when both names are given.
    pub fn init_flags(&self) -> Result<Vec<(String, Vec<String>)>, String> {
        let mut flags = Vec::new();
        match (&self.sname, &self.name) {
            (Some(_), Some(_)) => return Err("give --sname or --name, not both".into()),
            (Some(n), None) => flags.push(("sname".to_string(), vec![n.clone()])),
            (None, Some(n)) => flags.push(("name".to_string(), vec![n.clone()])),
            (None, None) => {
                if self.setcookie.is_some() || self.hidden {
                    return Err("--setcookie and --hidden need --sname or --name".into());
                }
                return Ok(flags);
            }
        }
        if let Some(c) = &self.setcookie {
            flags.push(("setcookie".to_string(), vec![c.clone()]));
        }
        if self.hidden {
            flags.push(("hidden".to_string(), Vec::new()));
        }
        Ok(flags)
    }
}

/// True when `flags` name the node (erl's launcher then starts EPMD).
pub fn names_node(flags: &[(String, Vec<String>)]) -> bool {
    flags
        .iter()
        .any(|(f, v)| (f == "sname" || f == "name") && !v.is_empty())
}

/// False when `flags` say `-start_epmd false`, which tells erl's launcher
/// to leave EPMD alone (an `-epmd_module` of the program's own, or one
/// started elsewhere, takes its place).
pub fn wants_epmd(flags: &[(String, Vec<String>)]) -> bool {
    !flags
        .iter()
        .any(|(f, v)| f == "start_epmd" && v.first().is_some_and(|v| v == "false"))
}

/// Starts `epmd -daemon` as erl's launcher does before a distributed
/// node boots; a failure is reported and the boot goes on (kernel then
/// logs that it cannot register, as erl does without an EPMD).
pub fn start_epmd() {
    let Some(epmd) = epmd_program() else {
        start_own_epmd();
        return;
    };
    let status = Command::new(&epmd)
        .arg("-daemon")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if let Err(e) = status {
        eprintln!("beamr: cannot start {}: {e}", epmd.display());
    }
}

/// Where no `epmd` program exists: `beamr epmd -daemon`, beamr's own.
fn start_own_epmd() {
    let beamr = match crate::commands::shim::this_binary() {
        Ok(beamr) => beamr,
        Err(e) => {
            eprintln!("beamr: no epmd program found, and no beamr to start its own: {e}");
            return;
        }
    };
    let status = Command::new(&beamr)
        .args(["epmd", "-daemon"])
        .stdin(Stdio::null())
        .status();
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => eprintln!("beamr: beamr epmd -daemon failed ({s})"),
        Err(e) => eprintln!("beamr: cannot start beamr epmd -daemon: {e}"),
    }
}

/// The OTP installation's `erts-*/bin/epmd`, else `epmd` on the PATH.
fn epmd_program() -> Option<PathBuf> {
    if let Some(root) = beamr_sched::code::otp_root() {
        if let Ok(entries) = std::fs::read_dir(root) {
            let mut found: Vec<PathBuf> = entries
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with("erts-"))
                .map(|e| e.path().join("bin").join("epmd"))
                .filter(|p| p.is_file())
                .collect();
            found.sort();
            if let Some(p) = found.pop() {
                return Some(p);
            }
        }
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("epmd"))
        .find(|p| p.is_file())
}
