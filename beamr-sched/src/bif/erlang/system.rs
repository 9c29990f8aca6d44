//! `erlang` BIFs about the runtime as a whole: `unique_integer/0,1`, `now/0`, the
//! DTrace tag BIFs (`dt_*`, as a runtime without DTrace answers), and
//! the scheduling hints `yield/0`, `garbage_collect/0,1,2`,
//! `send_nosuspend/2,3`.

use crate::bif::common::atoms::atom;
use crate::bif::common::clocks::{next_unique, now_tuple};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use beamr_core::term::Term;

use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "unique_integer", 0, unique_integer0),
    ("erlang", "unique_integer", 1, unique_integer1),
    ("erlang", "now", 0, now),
    ("erlang", "yield", 0, yield_),
    ("erlang", "bump_reductions", 1, bump_reductions),
    ("erlang", "dt_spread_tag", 1, dt_true),
    ("erlang", "dt_restore_tag", 1, dt_true),
    ("erlang", "dt_get_tag", 0, dt_undefined),
    ("erlang", "dt_get_tag_data", 0, dt_undefined),
    ("erlang", "dt_put_tag", 1, dt_undefined),
    ("erlang", "dt_prepend_vm_tag_data", 1, dt_same),
    ("erlang", "dt_append_vm_tag_data", 1, dt_same),
    ("erlang", "garbage_collect", 0, garbage_collect),
    ("erlang", "garbage_collect", 1, garbage_collect1),
    ("erlang", "garbage_collect", 2, garbage_collect2),
    ("erlang", "send_nosuspend", 2, send_nosuspend2),
    ("erlang", "send_nosuspend", 3, send_nosuspend3),
];

/// Scheduler threads `beamr run` starts by default: one per core.
pub(crate) fn cores() -> i64 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as i64)
}

fn unique_integer0(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(p.heap.int(next_unique()))
}

/// `unique_integer(Modifiers)`: `positive` and `monotonic` (one counter
/// gives both: positive and strictly increasing).
fn unique_integer1(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    for m in a[0].list_to_vec().ok_or_else(Exception::badarg)? {
        if !m
            .as_atom()
            .is_some_and(|m| matches!(m.name(), "positive" | "monotonic"))
        {
            return Err(Exception::badarg());
        }
    }
    unique_integer0(rt, p, &[])
}

/// Microseconds since the epoch of the last `now/0`.
static LAST_NOW: AtomicU64 = AtomicU64::new(0);

/// `now()`: `{MegaSecs, Secs, MicroSecs}` of system time, unique and
/// strictly increasing over all calls.
fn now(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let wall = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64);
    let mut prev = LAST_NOW.load(Ordering::Relaxed);
    let us = loop {
        let next = wall.max(prev + 1);
        match LAST_NOW.compare_exchange_weak(prev, next, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => break next,
            Err(actual) => prev = actual,
        }
    };
    Ok(now_tuple(p, us as i64 * 1_000))
}

// ---- DTrace tags: a runtime built without DTrace, as erts answers then ----

fn dt_true(_rt: &Runtime, _: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(Term::TRUE)
}

fn dt_undefined(_rt: &Runtime, _: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(atom("undefined"))
}

fn dt_same(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(a[0])
}

/// `yield()`: a hint; the process goes on (its slice ends by reductions).
fn yield_(_rt: &Runtime, _: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(Term::TRUE)
}

/// `bump_reductions(N)`, which OTP's `prim_eval` calls in every `receive`
/// an `erl_eval` expression runs: a small non-negative integer, else
/// badarg. On the BEAM it spends at most what is left of the time slice,
/// so the process's reduction count hardly moves; beamr's count does not
/// move and the slice runs on (a BIF cannot shorten it).
fn bump_reductions(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    match a[0].as_small() {
        Some(n) if n >= 0 => Ok(Term::TRUE),
        _ => Err(Exception::badarg()),
    }
}

/// `garbage_collect/0`: beamr collects when a heap fills; the request is
/// accepted (true, as the BEAM answers).
fn garbage_collect(_rt: &Runtime, _: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(Term::TRUE)
}

/// `garbage_collect(Pid)`: true for a live process, false for one that
/// is not (as on the BEAM); badarg for anything but a local pid.
fn garbage_collect1(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::bool(collectable(rt, p, a[0])?))
}

/// `garbage_collect(Pid, Options)`: as `garbage_collect/1`, with the
/// options a proper list of `{type, major | minor}` and `{async, Tag}`
/// (the last async's tag then comes back in `{garbage_collect, Tag,
/// Result}` and the call returns `async`); badarg for another option.
fn garbage_collect2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let mut tag = None;
    for opt in a[1].list_to_vec().ok_or_else(Exception::badarg)? {
        match opt.as_tuple() {
            Some(&[k, v]) if k == atom("type") && (v == atom("major") || v == atom("minor")) => {}
            Some(&[k, v]) if k == atom("async") => tag = Some(v),
            _ => return Err(Exception::badarg()),
        }
    }
    let alive = collectable(rt, p, a[0])?;
    let Some(tag) = tag else {
        return Ok(Term::bool(alive));
    };
    let reply = p
        .heap
        .tuple(&[atom("garbage_collect"), tag, Term::bool(alive)]);
    crate::signals::send(rt, p, p.pid, reply)?;
    Ok(atom("async"))
}

/// Whether `pid` (which must be a local pid) names a live process.
fn collectable(rt: &Runtime, p: &Process, pid: Term) -> Result<bool, Exception> {
    if !pid.is_local_pid() {
        return Err(Exception::badarg());
    }
    Ok(pid == p.pid || rt.processes.get(pid).is_some())
}

fn send_nosuspend2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    crate::signals::send(rt, p, a[0], a[1])?;
    Ok(Term::TRUE)
}

fn send_nosuspend3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    a[2].list_to_vec().ok_or_else(Exception::badarg)?;
    send_nosuspend2(rt, p, &a[..2])
}
