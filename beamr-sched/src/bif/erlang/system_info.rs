//! `erlang:system_info/1`: the items OTP's library, its tools (`c:i/0`,
//! `observer_backend:sys_info/0`, `erlang:memory/0`) and programs ask for.
//!
//! Counts and limits come from the runtime's own tables; the release and
//! erts version from the OTP installation beamr runs (`code::otp_release`,
//! `code::erts_version`); settings beamr does not have (allocators, time
//! warp, distribution) answer as an erts with that setting at its default
//! answers. Items describing the machine itself are in
//! `system_info_vm`, the text reports (`info`, `loaded`, `procs`,
//! `dist`) in `system_info_dumps`. An item erts does not know, and
//! one beamr cannot answer honestly, raises badarg.

use super::system::cores;
use crate::bif::common::atoms::atom;
use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::loader::BifRow;
use crate::process::gc_settings;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;
use crate::sched::SLICE_REDUCTIONS;

/// The BEAM's default heap settings, which beamr's heaps follow.
const MIN_HEAP_SIZE: i64 = gc_settings::MIN_HEAP_SIZE as i64;
const MIN_BIN_VHEAP_SIZE: i64 = gc_settings::MIN_BIN_VHEAP_SIZE as i64;
const FULLSWEEP_AFTER: i64 = beamr_core::heap::DEFAULT_FULLSWEEP_AFTER as i64;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[("erlang", "system_info", 1, system_info)];

/// `system_info(Item)`.
fn system_info(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if let Some(&[k, v]) = a[0].as_tuple() {
        return tuple_item(p, k, v);
    }
    let item = a[0].as_atom().ok_or_else(Exception::badarg)?;
    if let Some(t) = about_the_build(p, item.name()) {
        return Ok(t);
    }
    if let Some(t) = counts_and_limits(rt, p, item.name()) {
        return Ok(t);
    }
    if let Some(t) = settings(rt, p, item.name()) {
        return Ok(t);
    }
    if let Some(t) = super::system_info_vm::item(rt, p, item.name()) {
        return Ok(t);
    }
    if let Some(t) = super::system_info_dumps::item(rt, p, item.name()) {
        return Ok(t);
    }
    Err(Exception::badarg())
}

/// `{wordsize, _}`, `{cpu_topology, _}`, `{allocator, _}` and
/// `{allocator_sizes, _}`.
fn tuple_item(p: &mut Process, k: Term, v: Term) -> Result<Term, Exception> {
    if let Some("allocator" | "allocator_sizes") = k.as_atom().map(Atom::name) {
        return super::system_info_vm::allocator(v);
    }
    match (k.as_atom().map(Atom::name), v.as_atom().map(Atom::name)) {
        (Some("wordsize"), Some("internal" | "external")) => Ok(Term::small_unchecked(8)),
        (Some("cpu_topology"), Some("defined")) => Ok(atom("undefined")),
        (Some("cpu_topology"), Some("detected" | "used")) => {
            Ok(super::system_info_vm::cpu_topology(p))
        }
        _ => Err(Exception::badarg()),
    }
}

/// What was built and for which machine: release, versions, flavour.
fn about_the_build(p: &mut Process, item: &str) -> Option<Term> {
    let small = Term::small_unchecked;
    Some(match item {
        "otp_release" => p.heap.string(&crate::code::otp_release().to_string()),
        "version" => p.heap.string(crate::code::erts_version()),
        "system_version" => p.heap.string(&system_version()),
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
        "smp_support" | "threads" | "kernel_poll" | "time_correction" => Term::TRUE,
        "debug_compiled" | "lock_checking" | "lock_counting" => Term::FALSE,
        "dynamic_trace_probes" | "ets_always_compress" | "port_parallelism" => Term::FALSE,
        "build_type" | "emu_type" => atom("opt"),
        "emu_flavor" => atom("jit"),
        "heap_type" => atom("private"),
        "dynamic_trace" => atom("none"),
        "creation" => small(0),
        "nif_version" => p.heap.string(match crate::code::otp_release() {
            ..=25 => "2.16",
            26..=28 => "2.17",
            _ => "2.18",
        }),
        "driver_version" => p.heap.string("3.3"),
        // beamr has none of erts_alloc's allocators.
        "alloc_util_allocators" => Term::NIL,
        _ => return None,
    })
}

/// `system_version`, as erts prints it in its banner.
fn system_version() -> String {
    let n = cores();
    format!(
        "Erlang/OTP {} [erts-{}] [source] [64-bit] [smp:{n}:{n}] [ds:{n}:{n}:10] \
         [async-threads:1] [jit:ns]\n",
        crate::code::otp_release(),
        crate::code::erts_version(),
    )
}

/// Counts of the runtime's tables and their limits.
fn counts_and_limits(rt: &Runtime, p: &mut Process, item: &str) -> Option<Term> {
    let small = |n: usize| Term::small_unchecked(n as i64);
    Some(match item {
        "process_count" => small(rt.processes.len()),
        "process_limit" => small(rt.process_limit()),
        "port_count" => small(rt.ports.ids().len()),
        "port_limit" => small(rt.ports.limit()),
        "atom_count" => small(Atom::count()),
        "atom_limit" => small(beamr_core::atom::limit()),
        "ets_count" => small(rt.ets.all().len()),
        "ets_limit" => small(rt.ets.limit()),
        "schedulers"
        | "schedulers_online"
        | "dirty_cpu_schedulers"
        | "dirty_cpu_schedulers_online"
        | "logical_processors"
        | "logical_processors_available"
        | "logical_processors_online" => small(cores() as usize),
        "dirty_io_schedulers" => small(10),
        "thread_pool_size" => small(1),
        "context_reductions" => small(SLICE_REDUCTIONS as usize),
        "dist_buf_busy_limit" => small(1_048_576),
        "outstanding_system_requests_limit" => small(4),
        "delayed_node_table_gc" => small(60),
        "trace_control_word" => small(0),
        "scheduler_bindings" => {
            let unbound = vec![atom("unbound"); cores() as usize];
            p.heap.tuple(&unbound)
        }
        _ => return None,
    })
}

/// Settings: garbage collection defaults, scheduling, logging.
fn settings(rt: &Runtime, p: &mut Process, item: &str) -> Option<Term> {
    let small = Term::small_unchecked;
    Some(match item {
        "min_heap_size" => p.heap.tuple(&[atom(item), small(MIN_HEAP_SIZE)]),
        "min_bin_vheap_size" => p.heap.tuple(&[atom(item), small(MIN_BIN_VHEAP_SIZE)]),
        "fullsweep_after" => p.heap.tuple(&[atom(item), small(FULLSWEEP_AFTER)]),
        "max_heap_size" => max_heap_size(rt, p),
        "garbage_collection" => {
            let pairs = [
                ("max_heap_size", 0),
                ("min_bin_vheap_size", MIN_BIN_VHEAP_SIZE),
                ("min_heap_size", MIN_HEAP_SIZE),
                ("fullsweep_after", FULLSWEEP_AFTER),
            ]
            .map(|(k, v)| p.heap.tuple(&[atom(k), small(v)]));
            p.heap.list(&pairs)
        }
        "message_queue_data" => atom("on_heap"),
        "multi_scheduling" => atom("enabled"),
        "multi_scheduling_blockers" | "normal_multi_scheduling_blockers" | "dist_ctrl" => Term::NIL,
        "scheduler_bind_type" => atom("unbound"),
        "modified_timing_level" => atom("undefined"),
        "cpu_quota" => atom("unknown"),
        "update_cpu_info" => atom("unchanged"),
        "break_ignored" => Term::FALSE,
        "eager_check_io" => Term::TRUE,
        "time_warp_mode" => atom("no_time_warp"),
        "time_offset" => atom("final"),
        "tolerant_timeofday" => atom("enabled"),
        "system_logger" => {
            let logger = rt.system_logger();
            match logger.as_atom() {
                Some(name) if name.name() == "logger" => rt.names.whereis(name).unwrap_or(logger),
                _ => logger,
            }
        }
        "sequential_tracer" => crate::bif::trace::seq_trace::sequential_tracer_info(rt, p),
        _ => return None,
    })
}

/// `max_heap_size`: the default of new processes.
fn max_heap_size(rt: &Runtime, p: &mut Process) -> Term {
    super::gc_flags::max_heap_size_term(&mut p.heap, rt.default_max_heap())
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
