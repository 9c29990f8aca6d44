//! `os` BIFs (environment and clocks) and the other OTP functions that are
//! BIFs outside `erlang` and have nothing to do with terms
//! (`net_kernel:dflag_unicode_io/1`).

use std::sync::{LazyLock, Mutex, MutexGuard, PoisonError};

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::bif::common::clocks::{in_unit_arg, monotonic_nanos, now_tuple, os_system_nanos};
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("os", "env", 0, env),
    ("os", "getenv", 1, getenv1),
    ("os", "putenv", 2, putenv),
    ("os", "unsetenv", 1, unsetenv),
    ("os", "getpid", 0, getpid),
    ("os", "system_time", 0, system_time0),
    ("os", "system_time", 1, system_time1),
    ("os", "timestamp", 0, timestamp),
    ("os", "perf_counter", 0, perf_counter),
    ("net_kernel", "dflag_unicode_io", 1, dflag_unicode_io),
];

/// A list of characters as a Rust string, or `None` if it is not one.
pub(crate) fn string_arg(t: Term) -> Option<String> {
    t.list_to_vec()?
        .iter()
        .map(|c| c.as_small().and_then(|c| char::from_u32(c as u32)))
        .collect()
}

/// The environment the `os` BIFs read and write: a copy of the OS
/// process's environment taken at the first use, as erts keeps one
/// (`erl_osenv`). `os:putenv/2` and `os:unsetenv/1` change the copy only:
/// the runtime's own environment (the `TZ` that `localtime` reads, ...)
/// stays as it started, as on the BEAM, and no thread ever writes the C
/// library's environment while another reads it. Ports started with a
/// command get this copy as their environment.
static ENVIRONMENT: LazyLock<Mutex<Vec<(String, String)>>> = LazyLock::new(|| {
    Mutex::new(
        std::env::vars_os()
            .map(|(k, v)| {
                (
                    k.to_string_lossy().into_owned(),
                    v.to_string_lossy().into_owned(),
                )
            })
            .collect(),
    )
});

fn environment() -> MutexGuard<'static, Vec<(String, String)>> {
    ENVIRONMENT.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The `os` environment as it is now: `(name, value)` pairs.
pub(crate) fn environment_now() -> Vec<(String, String)> {
    environment().clone()
}

/// `os:env()`: `[{Name, Value}]`.
fn env(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let pairs = environment_now();
    let terms: Vec<Term> = pairs
        .iter()
        .map(|(k, v)| {
            let (k, v) = (p.heap.string(k), p.heap.string(v));
            p.heap.tuple(&[k, v])
        })
        .collect();
    Ok(p.heap.list(&terms))
}

/// A variable's name as the environment BIFs take it: a string (possibly
/// empty, as erts allows) without `=` or NUL.
fn env_name(t: Term) -> Result<String, Exception> {
    string_arg(t)
        .filter(|n| !n.contains(['=', '\0']))
        .ok_or_else(Exception::badarg)
}

fn getenv1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let name = env_name(a[0])?;
    let value = environment()
        .iter()
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.clone());
    Ok(match value {
        Some(v) => p.heap.string(&v),
        None => Term::FALSE,
    })
}

fn putenv(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let name = env_name(a[0])?;
    let value = string_arg(a[1])
        .filter(|v| !v.contains('\0'))
        .ok_or_else(Exception::badarg)?;
    let mut env = environment();
    match env.iter_mut().find(|(k, _)| *k == name) {
        Some((_, v)) => *v = value,
        None => env.push((name, value)),
    }
    Ok(Term::TRUE)
}

fn unsetenv(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let name = env_name(a[0])?;
    environment().retain(|(k, _)| *k != name);
    Ok(Term::TRUE)
}

fn getpid(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(p.heap.string(&std::process::id().to_string()))
}

/// `os:system_time()`: the OS clock in nanoseconds since the epoch.
fn system_time0(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(p.heap.int(os_system_nanos()))
}

fn system_time1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    in_unit_arg(p, a[0], os_system_nanos())
}

/// `os:timestamp()`: the OS clock as `{MegaSecs, Secs, MicroSecs}`.
fn timestamp(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(now_tuple(p, os_system_nanos()))
}

/// `os:perf_counter()`: the monotonic clock, in the `perf_counter` unit
/// (nanoseconds).
fn perf_counter(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(p.heap.int(monotonic_nanos()))
}

fn dflag_unicode_io(_rt: &Runtime, _: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    // Only local group leaders exist; they all take unicode requests.
    Ok(Term::atom(Atom::TRUE))
}
