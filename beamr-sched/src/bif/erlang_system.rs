//! `erlang` BIFs about the runtime as a whole: `system_info/1` (the items
//! OTP's library and programs ask for), `unique_integer/0,1`, `now/0`, the
//! DTrace tag BIFs (`dt_*`, as a runtime without DTrace answers), and
//! the scheduling hints `yield/0`, `garbage_collect/0,1,2`,
//! `send_nosuspend/2,3`.

use super::atoms::atom;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "system_info", 1, system_info),
    ("erlang", "unique_integer", 0, unique_integer0),
    ("erlang", "unique_integer", 1, unique_integer1),
    ("erlang", "now", 0, now),
    ("erlang", "yield", 0, yield_),
    ("erlang", "dt_spread_tag", 1, dt_true),
    ("erlang", "dt_restore_tag", 1, dt_true),
    ("erlang", "dt_get_tag", 0, dt_undefined),
    ("erlang", "dt_get_tag_data", 0, dt_undefined),
    ("erlang", "dt_put_tag", 1, dt_undefined),
    ("erlang", "dt_prepend_vm_tag_data", 1, dt_same),
    ("erlang", "dt_append_vm_tag_data", 1, dt_same),
    ("erlang", "garbage_collect", 0, garbage_collect),
    ("erlang", "garbage_collect", 1, garbage_collect),
    ("erlang", "garbage_collect", 2, garbage_collect),
    ("erlang", "send_nosuspend", 2, send_nosuspend2),
    ("erlang", "send_nosuspend", 3, send_nosuspend3),
];

/// Scheduler threads `beamr run` starts by default: one per core.
pub(super) fn cores() -> i64 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as i64)
}

/// `system_info(Item)` for the items below; others raise badarg.
fn system_info(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if let Some(&[k, v]) = a[0].as_tuple() {
        return match (k.as_atom().map(Atom::name), v.as_atom().map(Atom::name)) {
            (Some("wordsize"), Some("internal" | "external")) => Ok(Term::small_unchecked(8)),
            _ => Err(Exception::badarg()),
        };
    }
    let item = a[0].as_atom().ok_or_else(Exception::badarg)?;
    let small = Term::small_unchecked;
    Ok(match item.name() {
        "otp_release" => p.heap.string(&crate::code::otp_release().to_string()),
        "version" => p.heap.string("13.1.5"),
        "machine" => p.heap.string("BEAM"),
        "system_architecture" => p
            .heap
            .string(&format!("{}-pc-linux-gnu", std::env::consts::ARCH)),
        "wordsize" => small(8),
        "os_type" => {
            let family = atom(if cfg!(unix) { "unix" } else { "win32" });
            let name = atom(if cfg!(target_os = "macos") {
                "darwin"
            } else {
                std::env::consts::OS
            });
            p.heap.tuple(&[family, name])
        }
        "os_version" => {
            let [major, minor, release] = os_version();
            p.heap.tuple(&[small(major), small(minor), small(release)])
        }
        "schedulers"
        | "schedulers_online"
        | "dirty_cpu_schedulers"
        | "dirty_cpu_schedulers_online"
        | "logical_processors"
        | "logical_processors_available"
        | "logical_processors_online" => small(cores()),
        "dirty_io_schedulers" => small(10),
        "thread_pool_size" => small(1),
        "process_count" => small(rt.processes.len() as i64),
        "process_limit" => small(262_144),
        "atom_limit" => small(1_048_576),
        "port_limit" => small(65_536),
        "ets_limit" => small(8192),
        "smp_support" | "threads" | "kernel_poll" | "time_correction" => Term::TRUE,
        "debug_compiled" | "lock_checking" => Term::FALSE,
        "build_type" | "emu_type" => atom("opt"),
        "emu_flavor" => atom("jit"),
        "heap_type" => atom("private"),
        "time_warp_mode" => atom("no_time_warp"),
        "creation" => small(0),
        "nif_version" => p.heap.string("2.16"),
        "driver_version" => p.heap.string("3.3"),
        "sequential_tracer" => super::seq_trace::sequential_tracer_info(rt, p),
        _ => return Err(Exception::badarg()),
    })
}

/// The kernel's release as `{Major, Minor, Release}`, from the release
/// string `uname` reports (`/proc/sys/kernel/osrelease`), parsed
/// as erts does (leading digits of each dot-separated part; 0 if none).
fn os_version() -> [i64; 3] {
    let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    let mut parts = release.trim().split('.').map(|part| {
        let digits: String = part.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().unwrap_or(0)
    });
    [(); 3].map(|()| parts.next().unwrap_or(0))
}

static UNIQUE: AtomicI64 = AtomicI64::new(1);

/// The next of the runtime's unique integers (positive and strictly
/// increasing): `unique_integer/0,1` and strict monotonic trace timestamps.
pub(super) fn next_unique() -> i64 {
    UNIQUE.fetch_add(1, Ordering::Relaxed)
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
    Ok(super::erlang_time::now_tuple(p, us as i64 * 1_000))
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

/// `garbage_collect/0,1,2`: beamr collects when a heap fills; the request
/// is accepted (true for a live process, as the BEAM answers).
fn garbage_collect(_rt: &Runtime, _: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(Term::TRUE)
}

fn send_nosuspend2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    crate::signals::send(rt, p, a[0], a[1])?;
    Ok(Term::TRUE)
}

fn send_nosuspend3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    a[2].list_to_vec().ok_or_else(Exception::badarg)?;
    send_nosuspend2(rt, p, &a[..2])
}
