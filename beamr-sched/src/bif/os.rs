//! `os` BIFs (environment and clocks) and the other OTP functions that are
//! BIFs outside `erlang` and have nothing to do with terms
//! (`net_kernel:dflag_unicode_io/1`).

use std::time::{SystemTime, UNIX_EPOCH};

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("os", "getenv", 0, getenv0),
    ("os", "getenv", 1, getenv1),
    ("os", "putenv", 2, putenv),
    ("os", "unsetenv", 1, unsetenv),
    ("os", "getpid", 0, getpid),
    ("os", "system_time", 0, system_time0),
    ("os", "timestamp", 0, timestamp),
    ("net_kernel", "dflag_unicode_io", 1, dflag_unicode_io),
];

/// A list of characters as a Rust string, or `None` if it is not one.
pub(super) fn string_arg(t: Term) -> Option<String> {
    t.list_to_vec()?
        .iter()
        .map(|c| c.as_small().and_then(|c| char::from_u32(c as u32)))
        .collect()
}

fn getenv0(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let vars: Vec<String> = std::env::vars_os()
        .map(|(k, v)| format!("{}={}", k.to_string_lossy(), v.to_string_lossy()))
        .collect();
    let terms: Vec<Term> = vars.iter().map(|v| p.heap.string(v)).collect();
    Ok(p.heap.list(&terms))
}

fn getenv1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let name = string_arg(a[0]).ok_or_else(Exception::badarg)?;
    Ok(match std::env::var(&name) {
        Ok(v) => p.heap.string(&v),
        Err(_) => Term::FALSE,
    })
}

fn putenv(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (Some(name), Some(value)) = (string_arg(a[0]), string_arg(a[1])) else {
        return Err(Exception::badarg());
    };
    if name.is_empty() || name.contains('=') || name.contains('\0') || value.contains('\0') {
        return Err(Exception::badarg());
    }
    // SAFETY-free in Rust 2021: set_var is safe; other threads reading the
    // environment through libc at the same moment is the documented hazard,
    // which the BEAM shares.
    std::env::set_var(name, value);
    Ok(Term::TRUE)
}

fn unsetenv(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let name = string_arg(a[0]).ok_or_else(Exception::badarg)?;
    std::env::remove_var(name);
    Ok(Term::TRUE)
}

fn getpid(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(p.heap.string(&std::process::id().to_string()))
}

pub(super) fn now() -> std::time::Duration {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
}

fn system_time0(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(p.heap.int(now().as_nanos() as i64))
}

fn timestamp(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let t = now();
    let (secs, micros) = (t.as_secs() as i64, t.subsec_micros() as i64);
    Ok(p.heap.tuple(&[
        Term::small_unchecked(secs / 1_000_000),
        Term::small_unchecked(secs % 1_000_000),
        Term::small_unchecked(micros),
    ]))
}

fn dflag_unicode_io(_rt: &Runtime, _: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    // Only local group leaders exist; they all take unicode requests.
    Ok(Term::atom(Atom::TRUE))
}
