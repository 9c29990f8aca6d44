//! Running erl's command line on a runtime: the code path, the
//! environment, init's flags and plain arguments, the schedulers, and
//! `beamr_init_boot:start(Instructions)` as the program (see [`super`]).
//! As `beamr run` does, the runtime listens on its control socket for
//! `beamr ctl` (unless `BEAMR_CTL=off`) and keeps a flight recorder when
//! `BEAMR_FLIGHT` asks for one.

use std::path::Path;
use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;
use beamr_sched::code::{otp_lib_dirs, CodePath, CodeServer};
use beamr_sched::runtime::Runtime;

use super::args::{self, ErlCommand, Instruction};
use crate::commands::tracer_modules::TracerModules;

/// `beamr erl WORDS...`: runs them, or says in one line why not (status 2).
pub fn main(words: &[std::ffi::OsString]) -> std::process::ExitCode {
    let words: Result<Vec<String>, String> = words
        .iter()
        .map(|w| {
            w.to_str()
                .map(str::to_string)
                .ok_or_else(|| format!("{}: not UTF-8", w.to_string_lossy()))
        })
        .collect();
    match words.and_then(|w| run(&w)) {
        Ok(status) => std::process::ExitCode::from(status),
        Err(message) => {
            eprintln!("beamr erl: {message}");
            std::process::ExitCode::from(2)
        }
    }
}

/// Runs erl's command line `words`; returns the exit status when the
/// runtime ends without halting (its boot process was killed), `Err` a
/// one-line usage error. A halt ends the OS process from inside.
fn run(words: &[String]) -> Result<u8, String> {
    let cmd = args::parse(words)?;
    let otp = otp_lib_dirs();
    if otp.is_empty() {
        return Err("no OTP library found: put erl on the PATH or set BEAMR_OTP_ROOT".into());
    }
    for (var, value) in &cmd.env {
        // Before any thread of the runtime starts.
        std::env::set_var(var, value);
    }
    if let Some(limit) = cmd.atom_limit {
        beamr_core::atom::set_limit(limit);
    }
    let rt = Arc::new(Runtime::new(code_path(&cmd, otp)));
    *rt.plain_arguments
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = cmd.plain.clone();
    *rt.init_flags
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = cmd.flags.clone();
    if let Some(limit) = cmd.process_limit {
        rt.set_process_limit(limit);
    }
    if let Some(limit) = cmd.port_limit {
        rt.ports.set_limit(limit);
    }
    if let Some(limit) = cmd.ets_limit {
        rt.ets.set_limit(limit);
    }
    if crate::commands::node::names_node(&cmd.flags)
        && crate::commands::node::wants_epmd(&cmd.flags)
    {
        crate::commands::node::start_epmd();
    }
    let schedulers = cmd.schedulers.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |s| s.online.unwrap_or(s.total),
    );
    let tracer_modules = TracerModules::install(schedulers);
    if beamr_ctl::flight::asked_by_env() {
        beamr_ctl::flight::start(&rt, schedulers)?;
    }
    // As for `beamr run`: removed when the runtime ends or halts.
    let _ctl = if beamr_ctl::server::off_by_env() {
        None
    } else {
        match beamr_ctl::server::start(rt.clone(), format!("erl {}", words.join(" "))) {
            Ok(server) => Some(server),
            Err(e) => {
                eprintln!("beamr: no control socket (beamr ctl cannot attach): {e}");
                None
            }
        }
    };
    beamr_sched::code::embedded::ensure_embedded(CodeServer::global())
        .map_err(|e| format!("cannot load beamr's boot: {e}"))?;
    let mut heap = Heap::new();
    let instructions = instructions_term(&mut heap, &cmd)?;
    let (module, start) = (atom("beamr_init_boot")?, atom("start")?);
    let reason = rt
        .run_main(module, start, &[instructions], schedulers)
        .map_err(|e| format!("cannot boot: {e}"))?;
    beamr_sched::runtime::pending_output::flush(beamr_sched::runtime::pending_output::EXIT_WAIT);
    if let Err(e) = tracer_modules.finish() {
        eprintln!("beamr: {e}");
    }
    let text = beamr_core::format::format_p(reason.term, &Default::default());
    eprintln!("beamr: erl's init process ended ({text}) without halting the runtime");
    Ok(1)
}

/// erl's code path: `-pa` (each directory in front of the path as it is
/// read, so the last first), `.`, OTP's library, `-pz` in order; a
/// directory that does not exist is left out, as erl leaves it out.
fn code_path(cmd: &ErlCommand, otp: Vec<std::path::PathBuf>) -> CodePath {
    let mut path = CodePath::new();
    let exists = |d: &&String| Path::new(d.as_str()).is_dir();
    for dir in cmd.pa.iter().rev().filter(exists) {
        path.push(dir);
    }
    path.push(".");
    for dir in otp {
        path.push(dir);
    }
    for dir in cmd.pz.iter().filter(exists) {
        path.push(dir);
    }
    path
}

/// The instructions as `beamr_init_boot:start/1` takes them: `{s,
/// [Word]}`, `{run, [Word]}`, `{eval, Expr}`, after `{shell, user_drv}`
/// (`{shell, user}` with `-oldshell`) when erl would start its shell.
fn instructions_term(heap: &mut Heap, cmd: &ErlCommand) -> Result<Term, String> {
    let mut terms = Vec::with_capacity(cmd.instructions.len() + 1);
    if cmd.shell {
        let kind = if cmd.oldshell { "user" } else { "user_drv" };
        terms.push(heap.tuple(&[Term::atom(atom("shell")?), Term::atom(atom(kind)?)]));
    }
    for instruction in &cmd.instructions {
        let (kind, value) = match instruction {
            Instruction::S(words) => ("s", words_term(heap, words)),
            Instruction::Run(words) => ("run", words_term(heap, words)),
            Instruction::Eval(expr) => ("eval", heap.string(expr)),
        };
        terms.push(heap.tuple(&[Term::atom(atom(kind)?), value]));
    }
    Ok(heap.list(&terms))
}

fn words_term(heap: &mut Heap, words: &[String]) -> Term {
    let strings: Vec<Term> = words.iter().map(|w| heap.string(w)).collect();
    heap.list(&strings)
}

fn atom(name: &str) -> Result<Atom, String> {
    Atom::new(name).map_err(|e| e.to_string())
}
