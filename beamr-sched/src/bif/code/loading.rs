//! Hot code loading: OTP's `code` API (natively: beamr has no
//! `code_server` process) and the `erlang` BIFs under it.
//!
//! # Two versions per module
//!
//! Loading makes the new version current and the previous one old (see
//! `code/registry.rs`). Processes inside the old version keep running it:
//! local calls are jumps within the version they started in, while fully
//! qualified calls go through export entries, which point at the current
//! version. A process runs old code while its next instruction, its return
//! address or a return address on its stack lies in the old version
//! ([`runs_code`]).
//!
//! # Purging
//!
//! `code:purge/1` (and `erlang:purge_module/1`) kill the processes still
//! running old code, then drop the old version; `code:soft_purge/1` refuses
//! while any process runs it. Killing is synchronous: the victim's body is
//! taken from its handle (waiting for the end of its slice if it is
//! running) and it is terminated with reason `killed`, so that, as in OTP,
//! it is gone when `purge` returns. Code memory is never freed, so nothing
//! can run freed code even if a process raced past the check.
//! `code:load_binary/3` and `code:load_file/1` purge the old version first
//! as OTP's code server does; `erlang:load_module/2` fails with
//! `not_purged` instead.

use crate::bif::common::atoms::atom;
use std::path::{Path, PathBuf};

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::code::{
    is_preloaded, preloaded, runs_code, BadfileCause, CodeServer, DeleteOutcome, LoadFailure,
};
use crate::loader::BifRow;
use crate::loader::Module;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("code", "load_binary", 3, load_binary),
    ("code", "load_file", 1, load_file),
    ("code", "load_abs", 1, load_abs),
    ("code", "is_loaded", 1, is_loaded),
    ("code", "purge", 1, purge),
    ("code", "soft_purge", 1, soft_purge),
    ("code", "delete", 1, delete),
    ("code", "which", 1, which),
    ("code", "all_loaded", 0, all_loaded),
    ("code", "get_object_code", 1, get_object_code),
    ("code", "add_path", 1, add_pathz),
    ("code", "add_pathz", 1, add_pathz),
    ("code", "add_patha", 1, add_patha),
    ("code", "add_paths", 1, add_pathsz),
    ("code", "add_pathsz", 1, add_pathsz),
    ("code", "add_pathsa", 1, add_pathsa),
    ("code", "del_path", 1, del_path),
    ("code", "del_paths", 1, del_paths),
    ("code", "get_path", 0, get_path),
    ("code", "root_dir", 0, root_dir),
    ("code", "lib_dir", 0, lib_dir0),
    ("code", "lib_dir", 1, lib_dir1),
    ("code", "priv_dir", 1, priv_dir),
    ("code", "is_sticky", 1, is_sticky),
    // OTP 29's code.erl reads these from the code server's ETS table,
    // also in local calls (code:get_doc/2 to which/1) that no row of
    // `code`'s replaces; beamr has no such table.
    ("code_server", "is_loaded", 1, is_loaded),
    ("code_server", "is_sticky", 1, is_sticky),
    ("code", "get_mode", 0, get_mode),
    ("code", "objfile_extension", 0, objfile_extension),
    ("erlang", "load_module", 2, load_module),
    ("erlang", "delete_module", 1, delete_module),
    ("erlang", "purge_module", 1, purge_module),
    ("erlang", "check_old_code", 1, check_old_code),
    ("erlang", "check_process_code", 2, check_process_code2),
    ("erlang", "check_process_code", 3, check_process_code3),
    ("erlang", "pre_loaded", 0, pre_loaded),
    ("erlang", "loaded", 0, loaded),
    ("erlang", "get_module_info", 1, get_module_info1),
    ("erlang", "get_module_info", 2, get_module_info2),
];

fn code() -> &'static CodeServer {
    CodeServer::global()
}

fn module_arg(t: Term) -> Result<Atom, Exception> {
    t.as_atom().ok_or_else(Exception::badarg)
}

/// A file name given as a string, an atom or a binary.
fn file_name(t: Term) -> Option<String> {
    if let Some(a) = t.as_atom() {
        return Some(a.name().to_string());
    }
    if let Some(b) = t.as_binary() {
        return String::from_utf8(b.to_vec()).ok();
    }
    let mut s = String::new();
    for c in t.iter_list() {
        s.push(char::from_u32(u32::try_from(c.as_small()?).ok()?)?);
    }
    t.list_len().map(|_| s)
}

fn tagged(p: &mut Process, tag: &str, value: Term) -> Term {
    p.heap.tuple(&[atom(tag), value])
}

fn error(p: &mut Process, reason: &str) -> Term {
    tagged(p, "error", atom(reason))
}

// ---- old code and the processes in it ----

/// True if process `pid` runs code of `module` (`p` itself included).
fn process_runs(rt: &Runtime, p: &Process, pid: Term, module: &Module) -> bool {
    if pid == p.pid {
        return runs_code(p, module);
    }
    let Some(handle) = rt.processes.get(pid) else {
        return false;
    };
    let body = handle.body.lock().unwrap_or_else(|e| e.into_inner());
    body.as_ref().is_some_and(|q| runs_code(q, module))
}

/// Every other process running `module`; whether `p` itself does.
fn processes_in(rt: &Runtime, p: &Process, module: &Module) -> (Vec<Term>, bool) {
    let me = runs_code(p, module);
    let others = rt
        .processes
        .pids()
        .into_iter()
        .filter(|&pid| pid != p.pid && process_runs(rt, p, pid, module))
        .collect();
    (others, me)
}

/// Kills the processes running the old version of `module` and drops it;
/// false if there was none. `Err` when the caller itself runs it (it is
/// killed as well, after the others).
fn hard_purge(rt: &Runtime, p: &mut Process, module: Atom) -> Result<bool, Exception> {
    let Some(old) = code().old(module) else {
        return Ok(false);
    };
    let (victims, me) = processes_in(rt, p, &old);
    for pid in victims {
        rt.kill_now(pid);
    }
    code().purge(module);
    if me {
        return Err(Exception::exit(Term::atom(Atom::KILLED)));
    }
    Ok(true)
}

// ---- code ----

/// Purges, then loads `bytes` as `module`: `{module, M}` or `{error, Reason}`.
fn purge_and_load(
    rt: &Runtime,
    p: &mut Process,
    module: Atom,
    bytes: &[u8],
    file: String,
) -> Result<Term, Exception> {
    hard_purge(rt, p, module)?;
    Ok(match code().load_checked(module, bytes, file.clone()) {
        Ok(m) => tagged(p, "module", Term::atom(m)),
        Err(LoadFailure::Badfile(cause)) => {
            log_load_error(rt, p, module, cause);
            // OTP 25's code server logs the failure too.
            if crate::code::otp_release() < 26 {
                rt.log_load_failure(p.pid, &file, "badfile");
            }
            error(p, "badfile")
        }
        Err(LoadFailure::NotPurged) => error(p, "not_purged"),
    })
}

/// Logs why `module` could not be loaded, as erts's loader does: its
/// source file and line (`beam/beam_load.c(144)`, as the release's erts
/// has it), the module and the reason. Nothing for a failure erts would
/// describe otherwise than beamr can tell.
fn log_load_error(rt: &Runtime, p: &Process, module: Atom, cause: BadfileCause) {
    let later = crate::code::otp_release() >= 29;
    let (line, reason) = match cause {
        BadfileCause::Header => (
            if later { 146 } else { 144 },
            "corrupt file header".to_string(),
        ),
        BadfileCause::NoCode => (
            if later { 154 } else { 152 },
            "missing code chunk".to_string(),
        ),
        BadfileCause::OtherModule(m) => (
            if later { 186 } else { 180 },
            format!("module name in object code is {}", m.name()),
        ),
        BadfileCause::Invalid => return,
    };
    let text = format!(
        "beam/beam_load.c({line}): Error loading module {}:\n  {reason}\n",
        module.name()
    );
    rt.log_emulator_text(p.pid, Some(p.group_leader), &text);
}

fn load_binary(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let module = module_arg(a[0])?;
    let file = file_name(a[1]).ok_or_else(Exception::badarg)?;
    let bytes = a[2]
        .as_binary()
        .filter(|b| b.is_binary())
        .ok_or_else(Exception::badarg)?
        .to_vec();
    purge_and_load(rt, p, module, &bytes, file)
}

fn load_path(rt: &Runtime, p: &mut Process, module: Atom, path: &Path) -> Result<Term, Exception> {
    match std::fs::read(path) {
        Ok(bytes) => purge_and_load(rt, p, module, &bytes, path.display().to_string()),
        Err(_) => Ok(error(p, "nofile")),
    }
}

fn load_file(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let module = module_arg(a[0])?;
    match code().find(module) {
        Some(path) => load_path(rt, p, module, &path),
        None => Ok(error(p, "nofile")),
    }
}

fn load_abs(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let name = file_name(a[0]).ok_or_else(Exception::badarg)?;
    let path = PathBuf::from(format!("{name}.beam"));
    let Some(module) = path
        .file_stem()
        .and_then(|s| s.to_str())
        .and_then(|s| Atom::new_within_limit(s).ok())
    else {
        return Ok(error(p, "badarg"));
    };
    load_path(rt, p, module, &path)
}

fn loaded_file(p: &mut Process, module: Atom) -> Option<Term> {
    if is_preloaded(module.name()) {
        return Some(atom("preloaded"));
    }
    let origin = code().origin(module)?;
    Some(p.heap.string(&origin.file))
}

fn is_loaded(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let module = module_arg(a[0])?;
    if code().current(module).is_none() && !is_preloaded(module.name()) {
        return Ok(Term::FALSE);
    }
    Ok(match loaded_file(p, module) {
        Some(f) => tagged(p, "file", f),
        None => Term::FALSE,
    })
}

fn purge(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let module = module_arg(a[0])?;
    hard_purge(rt, p, module).map(Term::bool)
}

fn soft_purge(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let module = module_arg(a[0])?;
    let Some(old) = code().old(module) else {
        return Ok(Term::TRUE);
    };
    let (others, me) = processes_in(rt, p, &old);
    if me || !others.is_empty() {
        return Ok(Term::FALSE);
    }
    code().purge(module);
    Ok(Term::TRUE)
}

fn delete(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let module = module_arg(a[0])?;
    Ok(Term::bool(code().delete(module) == DeleteOutcome::Deleted))
}

fn which(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let module = module_arg(a[0])?;
    if code().current(module).is_some() || is_preloaded(module.name()) {
        if let Some(f) = loaded_file(p, module) {
            return Ok(f);
        }
    }
    Ok(match code().find(module) {
        Some(path) => p.heap.string(&path.display().to_string()),
        None => atom("non_existing"),
    })
}

fn all_loaded(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let mut items = Vec::new();
    for (m, origin) in code().loaded() {
        let f = if is_preloaded(m.name()) {
            atom("preloaded")
        } else {
            p.heap.string(&origin.file)
        };
        items.push(p.heap.tuple(&[Term::atom(m), f]));
    }
    Ok(p.heap.list(&items))
}

fn get_object_code(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let module = module_arg(a[0])?;
    let Some(path) = code().find(module) else {
        return Ok(atom("error"));
    };
    let Ok(bytes) = std::fs::read(&path) else {
        return Ok(atom("error"));
    };
    let bin = p.heap.binary(&bytes);
    let file = p.heap.string(&path.display().to_string());
    Ok(p.heap.tuple(&[a[0], bin, file]))
}

fn add_path_with(p: &mut Process, dir: Term, front: bool) -> Result<Term, Exception> {
    let dir = file_name(dir).ok_or_else(Exception::badarg)?;
    if !Path::new(&dir).is_dir() {
        return Ok(error(p, "bad_directory"));
    }
    if front {
        code().add_path_front(dir);
    } else {
        code().add_path(dir);
    }
    Ok(Term::TRUE)
}

fn add_pathz(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    add_path_with(p, a[0], false)
}

fn add_patha(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    add_path_with(p, a[0], true)
}

fn add_paths_with(p: &mut Process, dirs: Term, front: bool) -> Result<Term, Exception> {
    let dirs = dirs.list_to_vec().ok_or_else(Exception::badarg)?;
    let dirs: Vec<Term> = if front {
        dirs.into_iter().rev().collect()
    } else {
        dirs
    };
    for d in dirs {
        add_path_with(p, d, front)?;
    }
    Ok(Term::OK)
}

fn add_pathsz(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    add_paths_with(p, a[0], false)
}

fn add_pathsa(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    add_paths_with(p, a[0], true)
}

/// `code:del_path(NameOrDir)`: true when a directory went, false when
/// none matched, `{error, bad_name}` for what names no directory.
fn del_path(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    match file_name(a[0]) {
        Some(name) => Ok(Term::bool(code().del_path(&name))),
        None => Ok(error(p, "bad_name")),
    }
}

/// `code:del_paths(NamesOrDirs)` (OTP 26): each as `del_path/1`; ok.
fn del_paths(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let names = a[0].list_to_vec().ok_or_else(Exception::badarg)?;
    for name in names {
        let name = file_name(name).ok_or_else(Exception::badarg)?;
        code().del_path(&name);
    }
    Ok(Term::OK)
}

fn get_path(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let dirs: Vec<Term> = code()
        .path_dirs()
        .iter()
        .map(|d| p.heap.string(&d.display().to_string()))
        .collect();
    Ok(p.heap.list(&dirs))
}

/// The OTP root: the directory above `lib/APP-VSN/ebin` on the code path.
fn otp_root() -> Option<PathBuf> {
    if let Some(root) = std::env::var_os("BEAMR_OTP_ROOT") {
        return Some(PathBuf::from(root));
    }
    code().path_dirs().iter().find_map(|d| {
        let lib = d.parent()?.parent()?;
        (lib.file_name()? == "lib").then(|| lib.parent().map(Path::to_path_buf))?
    })
}

fn root_dir(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let root = otp_root().unwrap_or_else(|| PathBuf::from("/"));
    Ok(p.heap.string(&root.display().to_string()))
}

fn lib_dir0(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let root = otp_root().unwrap_or_else(|| PathBuf::from("/"));
    Ok(p.heap.string(&root.join("lib").display().to_string()))
}

/// The directory of application `app`: the parent of an `ebin` on the path
/// named `app` or `app-VSN`.
fn app_dir(app: &str) -> Option<PathBuf> {
    code().path_dirs().iter().find_map(|d| {
        let dir = d.parent()?;
        let name = dir.file_name()?.to_str()?;
        let matches = name == app
            || name
                .strip_prefix(app)
                .is_some_and(|rest| rest.starts_with('-'));
        matches.then(|| dir.to_path_buf())
    })
}

fn lib_dir1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let app = file_name(a[0]).ok_or_else(Exception::badarg)?;
    Ok(match app_dir(&app) {
        Some(d) => p.heap.string(&d.display().to_string()),
        None => error(p, "bad_name"),
    })
}

fn priv_dir(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let app = file_name(a[0]).ok_or_else(Exception::badarg)?;
    Ok(match app_dir(&app) {
        Some(d) => p.heap.string(&d.join("priv").display().to_string()),
        None => error(p, "bad_name"),
    })
}

fn is_sticky(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    module_arg(a[0])?;
    Ok(Term::FALSE)
}

fn get_mode(_rt: &Runtime, _: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(atom("interactive"))
}

fn objfile_extension(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(p.heap.string(".beam"))
}

// ---- erlang ----

fn load_module(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let module = module_arg(a[0])?;
    let bytes = a[1]
        .as_binary()
        .filter(|b| b.is_binary())
        .ok_or_else(Exception::badarg)?
        .to_vec();
    Ok(
        match code().load_checked(module, &bytes, "in_memory".to_string()) {
            Ok(m) => tagged(p, "module", Term::atom(m)),
            Err(LoadFailure::Badfile(cause)) => {
                log_load_error(rt, p, module, cause);
                error(p, "badfile")
            }
            Err(LoadFailure::NotPurged) => error(p, "not_purged"),
        },
    )
}

fn delete_module(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let module = module_arg(a[0])?;
    match code().delete(module) {
        DeleteOutcome::Deleted => Ok(Term::TRUE),
        DeleteOutcome::NotLoaded => Ok(Term::atom(Atom::UNDEFINED)),
        DeleteOutcome::OldExists => Err(Exception::badarg()),
    }
}

fn purge_module(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let module = module_arg(a[0])?;
    if hard_purge(rt, p, module)? {
        Ok(Term::TRUE)
    } else {
        Err(Exception::badarg())
    }
}

fn check_old_code(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let module = module_arg(a[0])?;
    Ok(Term::bool(code().has_old(module)))
}

fn check_process_code2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let module = module_arg(a[1])?;
    if !a[0].is_local_pid() {
        return Err(Exception::badarg());
    }
    let Some(old) = code().old(module) else {
        return Ok(Term::FALSE);
    };
    Ok(Term::bool(process_runs(rt, p, a[0], &old)))
}

fn check_process_code3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    // Options ({async, Ref}, {allow_gc, Bool}): only the synchronous form.
    let opts = a[2].list_to_vec().ok_or_else(Exception::badarg)?;
    for o in opts {
        match o.as_tuple() {
            Some(&[tag, v]) if tag == atom("allow_gc") && (v == Term::TRUE || v == Term::FALSE) => {
            }
            _ => return Err(Exception::badarg()),
        }
    }
    check_process_code2(rt, p, &a[..2])
}

fn pre_loaded(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let items: Vec<Term> = preloaded().map(atom).collect();
    Ok(p.heap.list(&items))
}

fn loaded(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let mut items: Vec<Term> = preloaded().map(atom).collect();
    for (m, _) in code().loaded() {
        if !is_preloaded(m.name()) {
            items.push(Term::atom(m));
        }
    }
    Ok(p.heap.list(&items))
}

// ---- module_info ----

/// The keys of `module_info/0`, in OTP's order.
const INFO_KEYS: &[&str] = &["module", "exports", "attributes", "compile", "md5"];

fn get_module_info1(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let mut items = Vec::with_capacity(INFO_KEYS.len());
    for key in INFO_KEYS {
        let k = atom(key);
        let v = get_module_info2(rt, p, &[a[0], k])?;
        items.push(p.heap.tuple(&[k, v]));
    }
    Ok(p.heap.list(&items))
}

/// A chunk of raw ETF decoded onto `p`'s heap; `[]` when absent or bad.
fn etf_chunk(p: &mut Process, bytes: &[u8], id: &[u8; 4]) -> Term {
    super::md5::chunks(bytes)
        .into_iter()
        .find(|(i, _)| i == id)
        .and_then(|(_, data)| beamr_core::etf::decode(data, &mut p.heap).ok())
        .unwrap_or(Term::NIL)
}

fn get_module_info2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let m = module_arg(a[0])?;
    let item = a[1].as_atom().ok_or_else(Exception::badarg)?;
    let module = code().current(m).ok_or_else(Exception::badarg)?;
    let pairs = |p: &mut Process, fas: &mut dyn Iterator<Item = (Atom, u32)>| {
        let items: Vec<Term> = fas
            .map(|(f, arity)| {
                p.heap
                    .tuple(&[Term::atom(f), Term::small_unchecked(i64::from(arity))])
            })
            .collect();
        p.heap.list(&items)
    };
    let origin = code().origin(m);
    Ok(match item.name() {
        "module" => Term::atom(module.name),
        "exports" => {
            // In code order, as a freshly loaded module's export entries
            // come out of the BEAM's export table.
            let mut exports = module.exports.clone();
            exports.sort_by_key(|&(_, _, at)| at);
            pairs(p, &mut exports.into_iter().map(|(f, arity, _)| (f, arity)))
        }
        "functions" => pairs(p, &mut module.functions.iter().map(|f| (f.name, f.arity))),
        "attributes" => match origin {
            Some(o) => etf_chunk(p, &o.bytes, b"Attr"),
            None => Term::NIL,
        },
        "compile" => match origin {
            Some(o) => etf_chunk(p, &o.bytes, b"CInf"),
            None => Term::NIL,
        },
        "md5" => match origin {
            Some(o) => p.heap.binary(&super::md5::module_md5(&o.bytes)),
            None => Term::NIL,
        },
        "nifs" => Term::NIL,
        "native" => Term::FALSE,
        _ => return Err(Exception::badarg()),
    })
}
