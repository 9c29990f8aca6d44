//! `beamr run`: runs `MOD:FUN()` (or `MOD:FUN(Args)`) as `erl -noshell -s`
//! does, printing what the program prints; given a Gleam build directory,
//! runs its root package as `gleam run` does (see [`gleam_build`]).
//!
//! Exit codes: 0 when the call returns, 1 when it crashes (the reason is
//! printed as `erl` prints it), 2 for a usage or load error.

use super::gleam_build::GleamBuild;
use super::run_trace::TraceSetup;
use super::tracer_modules::TracerModules;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_core::beam::BeamFile;
use beamr_core::format::{display_erts, format_p, PrettyOptions};
use beamr_core::heap::Heap;
use beamr_core::term::Term;
use beamr_sched::code::{otp_lib_dirs, CodePath};
use beamr_sched::runtime::Runtime;

/// What `beamr run` was asked to do.
pub struct RunArgs {
    /// `-e MOD[:FUN]`.
    pub entry: Option<String>,
    /// `-S N`: scheduler threads (default: one per core).
    pub schedulers: Option<usize>,
    /// `--trace FLAGS --trace-to DEST`.
    pub trace: Option<TraceSetup>,
    /// Whether to open the control socket (`--no-ctl` turns it off).
    pub ctl: bool,
    /// Whether to keep a flight recorder (`--flight`, `BEAMR_FLIGHT`).
    pub flight: bool,
    /// `--sname`/`--name`, `--setcookie`, `--hidden`.
    pub node: super::node::NodeArgs,
    /// `.beam` files and directories.
    pub paths: Vec<PathBuf>,
    /// Arguments after `--`: the plain arguments, and FUN's one argument
    /// (a list of strings) when the module has FUN/1.
    pub args: Vec<String>,
}

/// How a run ended.
pub enum RunEnd {
    /// The call returned.
    Returned,
    /// The program crashed; the reason has been printed.
    Crashed,
}

/// Runs the program; `Err` is a one-line usage or load error.
pub fn run(args: RunArgs) -> Result<RunEnd, String> {
    if args.paths.is_empty() {
        return Err("run: give at least one .beam file or directory".into());
    }
    let node_flags = args.node.init_flags()?;
    let mut path = CodePath::new();
    let mut modules = Vec::new();
    let mut gleam = None;
    for p in &args.paths {
        if p.is_dir() {
            let beams = beam_modules_in(p)?;
            if beams.is_empty() {
                let Some(build) = GleamBuild::detect(p)? else {
                    return Err(format!(
                        "{}: no .beam files in it, and not a Gleam build (PKG/ebin directories)",
                        p.display()
                    ));
                };
                if args.paths.len() > 1 {
                    return Err(format!(
                        "{}: a Gleam build runs alone; give only its directory",
                        p.display()
                    ));
                }
                for ebin in &build.ebins {
                    path.push(ebin.clone());
                }
                gleam = Some(build);
                continue;
            }
            path.push(p.clone());
            modules.extend(beams);
        } else if p.extension().is_some_and(|e| e == "beam") && p.is_file() {
            let bytes =
                std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            let file = BeamFile::parse(&bytes).map_err(|e| format!("{}: {e}", p.display()))?;
            modules.push(file.module_name().to_string());
            path.push(
                p.parent()
                    .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
            );
        } else {
            return Err(format!("{}: not a .beam file or a directory", p.display()));
        }
    }
    for dir in otp_lib_dirs() {
        path.push(dir);
    }
    // A Gleam build runs `PKG@@main:run(Module)`, as `gleam run` does.
    let gleam_entry = match &gleam {
        Some(build) => Some((
            build.runner_module(),
            build.entry_module(args.entry.as_deref())?,
        )),
        None => None,
    };
    let (module, function) = match &gleam_entry {
        Some((runner, _)) => (runner.clone(), "run".to_string()),
        None => entry_point(args.entry.as_deref(), &modules)?,
    };
    let rt = Arc::new(Runtime::new(path));
    if super::node::names_node(&node_flags) {
        super::node::start_epmd();
        rt.init_flags
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .extend(node_flags);
    }
    let schedulers = args
        .schedulers
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let trace = match &args.trace {
        Some(setup) => Some(setup.install(&rt, schedulers)?),
        None => None,
    };
    let tracer_modules = TracerModules::install(schedulers);
    if args.flight {
        beamr_ctl::flight::start(&rt, schedulers)?;
    }
    // Removed when the run ends (and by the runtime's halt).
    let _ctl = if args.ctl {
        let program = format!("{module}:{function} {}", display_paths(&args.paths));
        match beamr_ctl::server::start(rt.clone(), program) {
            Ok(server) => Some(server),
            Err(e) => {
                eprintln!("beamr: no control socket (beamr ctl cannot attach): {e}");
                None
            }
        }
    } else {
        None
    };
    let module_atom = Atom::new(&module).map_err(|e| e.to_string())?;
    let function_atom = Atom::new(&function).map_err(|e| e.to_string())?;
    // The arguments are erl's plain arguments (init:get_plain_arguments/0);
    // FUN/1, if the module has it, also gets them as its argument.
    *rt.plain_arguments
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = args.args.clone();
    let mut heap = Heap::new();
    let call_args: Vec<Term> = if let Some((_, gleam_module)) = &gleam_entry {
        vec![Term::atom(
            Atom::new(gleam_module).map_err(|e| e.to_string())?,
        )]
    } else if args.args.is_empty() || rt.entry(module_atom, function_atom, 1).is_err() {
        Vec::new()
    } else {
        let strings: Vec<Term> = args.args.iter().map(|a| heap.string(a)).collect();
        vec![heap.list(&strings)]
    };
    let reason = rt
        .run_main(module_atom, function_atom, &call_args, schedulers)
        .map_err(|e| format!("cannot run {module}:{function}/{}: {e}", call_args.len()))?;
    // What the program gave its ports is written before beamr exits.
    beamr_sched::runtime::pending_output::flush(beamr_sched::runtime::pending_output::EXIT_WAIT);
    if let Some(trace) = trace {
        // The run's outcome stands; a trace that could not be flushed is
        // reported beside it.
        if let Err(e) = trace.finish() {
            eprintln!("beamr: {e}");
        }
    }
    if let Err(e) = tracer_modules.finish() {
        eprintln!("beamr: {e}");
    }
    if reason.term == Term::atom(Atom::NORMAL) {
        return Ok(RunEnd::Returned);
    }
    beamr_ctl::flight::dump_on_error();
    // As erl's init reports a crash of the boot function: on standard
    // output as erlang:display/1 writes `{"init terminating in do_boot",
    // Reason}` (the runtime's C printer, a \r\n line end), or from OTP 26
    // on `{Class, Reason, Stacktrace}` (init's start_it/1 displays what it
    // caught); and on standard error as text.
    let line = if beamr_sched::code::otp_release() >= 26 {
        let caught = class_reason_stack(&mut heap, reason.term);
        let mut line = display_erts(caught);
        line.extend_from_slice(b"\r\n");
        line
    } else {
        let mut line = b"{\"init terminating in do_boot\",".to_vec();
        line.extend_from_slice(&display_erts(reason.term));
        line.extend_from_slice(b"}\r\n");
        line
    };
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(&line).and_then(|()| stdout.flush());
    let one_line = PrettyOptions {
        line_length: 0,
        ..PrettyOptions::default()
    };
    let text = format_p(reason.term, &one_line);
    eprintln!("init terminating in do_boot ({text})");
    Ok(RunEnd::Crashed)
}

/// `{Class, Reason, Stacktrace}` from a process's exit reason: `{{nocatch,
/// V}, Trace}` was a throw, `{R, Trace}` with a list of frames an error,
/// anything else an exit (whose stacktrace the exit reason does not keep:
/// `[]`).
fn class_reason_stack(heap: &mut Heap, exit: Term) -> Term {
    if let Some(&[r, trace]) = exit.as_tuple() {
        let frames = trace.is_list() && trace.iter_list().all(|f| f.is_tuple());
        if frames && trace != Term::NIL {
            if let Some(&[tag, v]) = r.as_tuple() {
                if tag == Term::atom(Atom::NOCATCH) {
                    return heap.tuple(&[Term::atom(Atom::THROW), v, trace]);
                }
            }
            return heap.tuple(&[Term::atom(Atom::ERROR), r, trace]);
        }
    }
    heap.tuple(&[Term::atom(Atom::EXIT_CLASS), exit, Term::NIL])
}

/// The paths given, space-separated.
fn display_paths(paths: &[PathBuf]) -> String {
    let words: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    words.join(" ")
}

/// The modules of the `.beam` files directly in `dir`, sorted.
fn beam_modules_in(dir: &Path) -> Result<Vec<String>, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut names: Vec<String> = entries
        .flatten()
        .filter_map(|e| {
            let p = e.path();
            (p.extension()? == "beam").then(|| p.file_stem()?.to_str().map(str::to_string))?
        })
        .collect();
    names.sort();
    Ok(names)
}

/// The module and function to call: from `-e`, or the only module given.
fn entry_point(entry: Option<&str>, modules: &[String]) -> Result<(String, String), String> {
    match entry {
        Some(e) => {
            let (m, f) = e.split_once(':').unwrap_or((e, "main"));
            if m.is_empty() || f.is_empty() {
                return Err(format!("-e {e}: expected MOD or MOD:FUN"));
            }
            Ok((m.to_string(), f.to_string()))
        }
        None => match modules {
            [only] => Ok((only.clone(), "main".to_string())),
            [] => Err("run: no .beam file found; give one, or name the module with -e MOD".into()),
            _ => Err(format!(
                "run: several modules ({}); choose one with -e MOD[:FUN]",
                modules.join(", ")
            )),
        },
    }
}
