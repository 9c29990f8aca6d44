//! `erlang:system_flag/2`: the runtime-wide settings a program may change.
//! beamr keeps `system_logger` (the process the runtime's own log events go
//! to; see `signals::system_logger`), `max_heap_size` (the default of new
//! processes), `sequential_tracer` and
//! `reset_seq_trace` (see `bif::trace::seq_trace`); the other flags erts knows
//! raise `{notsup, Flag}`, and anything else is a `badarg`, as on erts.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[("erlang", "system_flag", 2, system_flag)];

/// The flags erts accepts that beamr does not implement.
const NOT_SUPPORTED: &[&str] = &[
    "backtrace_depth",
    "cpu_topology",
    "dirty_cpu_schedulers_online",
    "dirty_io_schedulers_online",
    "erts_alloc",
    "fullsweep_after",
    "microstate_accounting",
    "min_bin_vheap_size",
    "min_heap_size",
    "multi_scheduling",
    "outstanding_system_requests_limit",
    "scheduler_bind_type",
    "scheduler_wall_time",
    "schedulers_online",
    "time_offset",
];

/// `erlang:system_flag(Flag, Value)`: the flag's old value.
fn system_flag(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let Some(flag) = a[0].as_atom() else {
        return Err(Exception::badarg());
    };
    match flag.name() {
        "system_logger" => {
            let value = a[1];
            let named = |name| value == Term::atom(Atom::new(name).expect("atom"));
            if value.is_local_pid() || named("logger") || named("undefined") {
                Ok(rt.set_system_logger(value))
            } else {
                Err(Exception::badarg())
            }
        }
        "trace_control_word" => {
            let word = a[1]
                .as_small()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(Exception::badarg)?;
            Ok(p.heap.int(i64::from(crate::trace::set_control_word(word))))
        }
        "max_heap_size" => {
            let min = crate::process::gc_settings::MIN_HEAP_SIZE;
            // Other keys in the map are ignored, as by spawn_opt.
            let new = super::gc_flags::max_heap_size(a[1], min, false)?;
            let old = rt.set_default_max_heap(new);
            Ok(super::gc_flags::max_heap_size_term(&mut p.heap, old))
        }
        "sequential_tracer" => crate::bif::trace::seq_trace::set_sequential_tracer(rt, p, a[1]),
        "reset_seq_trace" => Ok(crate::bif::trace::seq_trace::reset_seq_trace(rt, p)),
        name if NOT_SUPPORTED.contains(&name) => {
            let notsup = Term::atom(Atom::new("notsup").expect("atom"));
            Err(Exception::error(p.heap.tuple(&[notsup, a[0]])))
        }
        _ => Err(Exception::badarg()),
    }
}
