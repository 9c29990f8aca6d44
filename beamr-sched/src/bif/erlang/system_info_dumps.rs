//! `erlang:system_info/1` items that are text reports, as binaries in the
//! layout of erts's crash dump sections (`=section` lines, then `Key: value`
//! lines):
//!
//! ```text
//! info     =memory (erlang:memory/0's types), =hash_table:atom_tab
//!          (atom count), =index_table:atom_tab
//! loaded   Current code: BYTES, Old code: BYTES, then one
//!          `module bytes` line per loaded module
//! procs    one =proc:<PID> section per process: State, Name, Spawned as,
//!          Message queue length, Reductions (State: Running, alone, for
//!          a process busy on another scheduler)
//! dist     =node:'NODE' and =no_distribution
//! ```

use std::fmt::Write;
use std::sync::TryLockError;

use beamr_core::atom::Atom;
use beamr_core::format::display_w;
use beamr_core::term::Term;

use crate::process::Process;
use crate::runtime::Runtime;

/// `system_info(Item)` for a report this file writes; `None` if not one.
pub(super) fn item(rt: &Runtime, p: &mut Process, item: &str) -> Option<Term> {
    let text = match item {
        "info" => info(rt, p),
        "loaded" => loaded(),
        "procs" => procs(rt, p),
        "dist" => "=node:'nonode@nohost'\n=no_distribution\n".to_string(),
        _ => return None,
    };
    Some(p.heap.binary(text.as_bytes()))
}

fn info(rt: &Runtime, p: &Process) -> String {
    let mut out = String::from("=memory\n");
    for (key, value) in super::memory::report(rt, p) {
        let _ = writeln!(out, "{key}: {value}");
    }
    let atoms = Atom::count();
    let _ = write!(
        out,
        "=hash_table:atom_tab\nobjs: {atoms}\n=index_table:atom_tab\nentries: {atoms}\nlimit: {}\n",
        beamr_core::atom::limit()
    );
    out
}

fn loaded() -> String {
    let code = crate::code::CodeServer::global();
    let modules: Vec<(Atom, usize)> = code
        .loaded()
        .into_iter()
        .filter_map(|(m, _)| Some((m, code.current(m)?.memory_bytes())))
        .collect();
    let old: usize = modules
        .iter()
        .filter_map(|&(m, _)| code.old(m))
        .map(|m| m.memory_bytes())
        .sum();
    let current: usize = modules.iter().map(|&(_, bytes)| bytes).sum();
    let mut out = format!("Current code: {current}\nOld code: {old}\n");
    for (module, bytes) in modules {
        let _ = writeln!(out, "{} {bytes}", module.name());
    }
    out
}

fn procs(rt: &Runtime, p: &Process) -> String {
    let mut out = String::new();
    for pid in rt.processes.pids() {
        let _ = writeln!(out, "=proc:{}", display_w(pid));
        if pid == p.pid {
            describe(&mut out, p, "Running");
            continue;
        }
        let Some(handle) = rt.processes.get(pid) else {
            continue;
        };
        // A process running elsewhere holds its lock: it is running.
        let body = match handle.body.try_lock() {
            Ok(body) => body,
            Err(TryLockError::Poisoned(e)) => e.into_inner(),
            Err(TryLockError::WouldBlock) => {
                out.push_str("State: Running\n");
                continue;
            }
        };
        match body.as_deref() {
            Some(other) => describe(&mut out, other, "Waiting"),
            None => out.push_str("State: Running\n"),
        }
    }
    out
}

/// One process's lines of `procs`.
fn describe(out: &mut String, p: &Process, state: &str) {
    let _ = writeln!(out, "State: {state}");
    if let Some(name) = p.registered_name {
        let _ = writeln!(out, "Name: {}", display_w(Term::atom(name)));
    }
    let (m, f, a) = p.initial_call;
    let _ = writeln!(
        out,
        "Spawned as: {}:{}/{a}",
        display_w(Term::atom(m)),
        display_w(Term::atom(f))
    );
    let _ = writeln!(out, "Message queue length: {}", p.mailbox.len());
    let _ = writeln!(out, "Reductions: {}", p.reductions);
}
