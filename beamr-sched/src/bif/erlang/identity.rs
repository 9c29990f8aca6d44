//! `erlang` BIFs on identifiers: `make_ref`, pid/ref/port text forms, `statistics`, `fun_info_mfa`.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "make_ref", 0, make_ref),
    ("erlang", "list_to_pid", 1, list_to_pid),
    ("erlang", "list_to_port", 1, list_to_port),
    ("erlang", "pid_to_list", 1, pid_to_list),
    ("erlang", "ref_to_list", 1, ref_to_list),
    ("erlang", "statistics", 1, statistics),
    ("erlang", "fun_info_mfa", 1, fun_info_mfa),
    ("erlang", "port_to_list", 1, port_to_list),
];

fn make_ref(rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let ids = rt.new_ref_ids();
    Ok(p.heap.local_ref(ids))
}

fn list_to_pid(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let text = crate::bif::os::bifs::string_arg(a[0]).ok_or_else(Exception::badarg)?;
    let inner = text
        .strip_prefix('<')
        .and_then(|t| t.strip_suffix('>'))
        .ok_or_else(Exception::badarg)?;
    let parts: Vec<u64> = inner
        .split('.')
        .map(|n| n.parse::<u64>())
        .collect::<Result<_, _>>()
        .map_err(|_| Exception::badarg())?;
    match parts[..] {
        [0, id, serial] => {
            let id = u32::try_from(id).map_err(|_| Exception::badarg())?;
            let serial = u32::try_from(serial).map_err(|_| Exception::badarg())?;
            let number = beamr_core::etf::local::local_pid_number(id, serial)
                .ok_or_else(Exception::badarg)?;
            let _ = p;
            Ok(Term::pid(number))
        }
        _ => Err(Exception::badarg()),
    }
}

/// `list_to_port("#Port<0.N>")`: the local port N (which need not be
/// open); `badarg` for any other text.
fn list_to_port(_rt: &Runtime, _p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let text = crate::bif::os::bifs::string_arg(a[0]).ok_or_else(Exception::badarg)?;
    let number = text
        .strip_prefix("#Port<0.")
        .and_then(|t| t.strip_suffix('>'))
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|n| n.parse::<u64>().ok())
        .filter(|&n| n <= beamr_core::term::tag::MAX_LOCAL_ID)
        .ok_or_else(Exception::badarg)?;
    Ok(Term::port(number))
}

fn pid_to_list(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[0].is_pid() {
        return Err(Exception::badarg());
    }
    let text = beamr_core::format::display_w(a[0]).to_string();
    Ok(p.heap.string(&text))
}

fn ref_to_list(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[0].is_reference() {
        return Err(Exception::badarg());
    }
    let text = beamr_core::format::display_w(a[0]).to_string();
    Ok(p.heap.string(&text))
}

fn port_to_list(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[0].is_port() {
        return Err(Exception::badarg());
    }
    let text = beamr_core::format::display_w(a[0]).to_string();
    Ok(p.heap.string(&text))
}

/// Milliseconds of `wall_clock` and `runtime` at the previous
/// `statistics/1` call (the "since last call" parts).
static LAST_WALL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
static LAST_RUNTIME: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// CPU time of the OS process in milliseconds (user + system, from
/// `/proc/self/stat` at 100 ticks a second; 0 where unavailable).
fn cpu_millis() -> u64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0;
    };
    // Fields after the command name (which ends with the last ')').
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // utime and stime are fields 14 and 15 of the line: 11 and 12 here.
    (tick(11) + tick(12)) * 10
}

/// `{Total, SinceLast}` with `last` updated.
fn total_and_delta(p: &mut Process, total: u64, last: &std::sync::atomic::AtomicU64) -> Term {
    let before = last.swap(total, std::sync::atomic::Ordering::Relaxed);
    let t = p.heap.int(total as i64);
    let d = p.heap.int(total.saturating_sub(before) as i64);
    p.heap.tuple(&[t, d])
}

/// `statistics(Item)` for the items OTP's library asks for; counters beamr
/// does not keep (I/O bytes, context switches) read 0.
fn statistics(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let item = a[0].as_atom().ok_or_else(Exception::badarg)?;
    let zero = Term::small_unchecked(0);
    Ok(match item.name() {
        "wall_clock" => {
            let ms = rt.started.elapsed().as_millis() as u64;
            total_and_delta(p, ms, &LAST_WALL)
        }
        "runtime" => total_and_delta(p, cpu_millis(), &LAST_RUNTIME),
        "reductions" | "exact_reductions" => {
            let total = p.heap.int(p.reductions as i64);
            p.heap.tuple(&[total, zero])
        }
        "run_queue" | "total_run_queue_lengths" | "total_active_tasks" => zero,
        "context_switches" => p.heap.tuple(&[zero, zero]),
        "garbage_collection" => {
            let (collections, reclaimed) = beamr_core::heap::gc_totals::totals();
            let collections = p.heap.int(collections as i64);
            let reclaimed = p.heap.int(reclaimed as i64);
            p.heap.tuple(&[collections, reclaimed, zero])
        }
        "io" => {
            let input = p
                .heap
                .tuple(&[Term::atom(Atom::new("input").expect("atom")), zero]);
            let output = p
                .heap
                .tuple(&[Term::atom(Atom::new("output").expect("atom")), zero]);
            p.heap.tuple(&[input, output])
        }
        _ => return Err(Exception::badarg()),
    })
}

/// `fun_info_mfa(Fun)`: `{M, F, Arity}` of a fun (for a local fun, the
/// function the compiler made of it), as eunit names tests.
fn fun_info_mfa(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (m, f, arity) = if let Some(c) = a[0].as_closure() {
        (c.entry.module, c.entry.function, c.entry.arity)
    } else if let Some(e) = a[0].as_export() {
        (e.module, e.function, e.arity)
    } else {
        return Err(Exception::badarg());
    };
    Ok(p.heap.tuple(&[
        Term::atom(m),
        Term::atom(f),
        Term::small_unchecked(i64::from(arity)),
    ]))
}
