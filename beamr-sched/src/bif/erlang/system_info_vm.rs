//! `erlang:system_info/1` items that describe the virtual machine itself:
//! its allocators, the compiler that built it, its I/O polling, its clocks,
//! the scheduler asking, its arguments. beamr answers in the shapes erts
//! gives, with its own contents:
//!
//! ```text
//! allocator            {undefined, [], [], []}: beamr allocates with the
//!                      system allocator and has none of erts_alloc's
//! {allocator, A}       false for each of erts's allocator names (none is
//!  {allocator_sizes, A}  enabled), badarg for any other term
//! c_compiler_used      {rustc, undefined} (the version is not recorded)
//! check_io             one poll set: mio's epoll, as erts lists its own
//! start_time/end_time  the monotonic clock's first and last values
//! os_*_time_source     the OS clocks beamr reads, as erts describes them
//! scheduler_id         the scheduler running the caller (1 and up)
//! taints, compat_rel   [] and the release beamr runs
//! emu_args             beamr's own command line
//! cpu_topology         the processors, cores and threads Linux lists
//!                      under /sys/devices/system/cpu (undefined if none)
//! ```

use crate::bif::common::atoms::atom;
use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The allocators erts names in `system_info(alloc_util_allocators)` and
/// beside it; beamr enables none of them.
const ERTS_ALLOCATORS: &[&str] = &[
    "sys_alloc",
    "temp_alloc",
    "sl_alloc",
    "std_alloc",
    "ll_alloc",
    "eheap_alloc",
    "ets_alloc",
    "fix_alloc",
    "literal_alloc",
    "exec_alloc",
    "binary_alloc",
    "driver_alloc",
    "mseg_alloc",
    "erts_mmap",
    "test_alloc",
];

/// The largest file descriptor count erts's poll set reports by default.
const MAX_FDS: i64 = 20_000;

/// `system_info(Item)` for an atom item this file answers; `None` if not.
pub(super) fn item(rt: &Runtime, p: &mut Process, item: &str) -> Option<Term> {
    let small = Term::small_unchecked;
    Some(match item {
        "allocator" => {
            let undefined = Term::atom(Atom::UNDEFINED);
            p.heap.tuple(&[undefined, Term::NIL, Term::NIL, Term::NIL])
        }
        "c_compiler_used" => {
            let undefined = Term::atom(Atom::UNDEFINED);
            p.heap.tuple(&[atom("rustc"), undefined])
        }
        "check_io" => check_io(rt, p),
        "cpu_topology" => cpu_topology(p),
        "start_time" => small(0),
        "end_time" => p.heap.int(i64::MAX),
        "os_monotonic_time_source" => time_source(p, Clock::Monotonic),
        "os_system_time_source" => time_source(p, Clock::System),
        "scheduler_id" => small(i64::from(crate::trace::scheduler_id().max(1))),
        "taints" => Term::NIL,
        "compat_rel" => small(i64::from(crate::code::otp_release())),
        "emu_args" => {
            let args: Vec<Term> = std::env::args().map(|a| p.heap.string(&a)).collect();
            p.heap.list(&args)
        }
        _ => return None,
    })
}

/// `system_info({allocator, A})` and `system_info({allocator_sizes, A})`:
/// `false` for an allocator erts has (beamr enables none), else badarg.
pub(super) fn allocator(name: Term) -> Result<Term, Exception> {
    match name.as_atom() {
        Some(a) if ERTS_ALLOCATORS.contains(&a.name()) => Ok(Term::FALSE),
        _ => Err(Exception::badarg()),
    }
}

/// `check_io`: one poll set, described with erts's keys.
fn check_io(rt: &Runtime, p: &mut Process) -> Term {
    let small = Term::small_unchecked;
    let ports = rt.ports.ids().len() as i64;
    let pairs: [(&str, Term); 13] = [
        ("name", atom("erts_poll")),
        ("primary", atom("epoll")),
        ("kernel_poll", atom("epoll")),
        ("memory_size", small(0)),
        ("total_poll_set_size", small(ports)),
        ("lazy_updates", Term::FALSE),
        ("pending_updates", small(0)),
        ("batch_updates", Term::FALSE),
        ("concurrent_updates", Term::TRUE),
        ("fallback", Term::FALSE),
        ("max_fds", small(MAX_FDS)),
        ("active_fds", small(0)),
        ("poll_threads", small(1)),
    ];
    let set: Vec<Term> = pairs
        .iter()
        .map(|&(k, v)| p.heap.tuple(&[atom(k), v]))
        .collect();
    let set = p.heap.list(&set);
    p.heap.list(&[set])
}

/// The OS clocks beamr reads.
#[derive(Clone, Copy)]
enum Clock {
    Monotonic,
    System,
}

/// `os_monotonic_time_source` / `os_system_time_source`: the function,
/// clock id and resolution (nanoseconds), and the clock's reading now.
fn time_source(p: &mut Process, clock: Clock) -> Term {
    use nix::time::{clock_gettime, ClockId};
    let (id, name) = match clock {
        Clock::Monotonic => (ClockId::CLOCK_MONOTONIC, "CLOCK_MONOTONIC"),
        Clock::System => (ClockId::CLOCK_REALTIME, "CLOCK_REALTIME"),
    };
    let now = clock_gettime(id)
        .map(|t| t.tv_sec() as i128 * 1_000_000_000 + t.tv_nsec() as i128)
        .unwrap_or(0);
    let now = p.heap.int(i64::try_from(now).unwrap_or(i64::MAX));
    let mut pairs = vec![
        ("function", atom("clock_gettime")),
        ("clock_id", atom(name)),
        ("resolution", Term::small_unchecked(1_000_000_000)),
    ];
    if let Clock::Monotonic = clock {
        pairs.push(("extended", atom("no")));
    }
    pairs.push(("parallel", atom("yes")));
    pairs.push(("time", now));
    let items: Vec<Term> = pairs
        .iter()
        .map(|&(k, v)| p.heap.tuple(&[atom(k), v]))
        .collect();
    p.heap.list(&items)
}

/// `cpu_topology` (and `{cpu_topology, detected | used}`): one
/// `{processor, Cores}` per physical package, a core
/// `{core, {logical, Id}}` or, with several hardware threads,
/// `{core, [{thread, {logical, Id}}]}`; `undefined` when the system does
/// not say.
pub(super) fn cpu_topology(p: &mut Process) -> Term {
    use std::collections::BTreeMap;
    let Ok(entries) = std::fs::read_dir("/sys/devices/system/cpu") else {
        return Term::atom(Atom::UNDEFINED);
    };
    // package -> core -> logical ids
    let mut packages: BTreeMap<i64, BTreeMap<i64, Vec<i64>>> = BTreeMap::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(id) = name
            .to_str()
            .and_then(|n| n.strip_prefix("cpu"))
            .and_then(|n| n.parse::<i64>().ok())
        else {
            continue;
        };
        let read = |file: &str| {
            std::fs::read_to_string(entry.path().join("topology").join(file))
                .ok()
                .and_then(|t| t.trim().parse::<i64>().ok())
        };
        let (Some(package), Some(core)) = (read("physical_package_id"), read("core_id")) else {
            continue;
        };
        packages
            .entry(package)
            .or_default()
            .entry(core)
            .or_default()
            .push(id);
    }
    if packages.is_empty() {
        return Term::atom(Atom::UNDEFINED);
    }
    let logical =
        |p: &mut Process, id: i64| p.heap.tuple(&[atom("logical"), Term::small_unchecked(id)]);
    let mut processors = Vec::new();
    for cores in packages.into_values() {
        let mut core_terms = Vec::new();
        for mut threads in cores.into_values() {
            threads.sort_unstable();
            let sub = if let [only] = threads[..] {
                logical(p, only)
            } else {
                let ts: Vec<Term> = threads
                    .iter()
                    .map(|&t| {
                        let l = logical(p, t);
                        p.heap.tuple(&[atom("thread"), l])
                    })
                    .collect();
                p.heap.list(&ts)
            };
            core_terms.push(p.heap.tuple(&[atom("core"), sub]));
        }
        let list = p.heap.list(&core_terms);
        processors.push(p.heap.tuple(&[atom("processor"), list]));
    }
    p.heap.list(&processors)
}
