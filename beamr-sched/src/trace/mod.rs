//! Probes: where the runtime tells a tracer what happened.
//!
//! Every probe is one function in [`probes`], called from the one place its
//! event happens (the signal, scheduling and spawning paths name the site in
//! their docs). A probe costs one load and one branch while its tracee is
//! not traced: it tests a bit of the process's [`ProcessTrace`] flag word
//! and returns. Past that branch, in a cold function, it follows beamr-trace's
//! protocol ([`beamr_trace::fire`]): ask the tracer, build the event, hand it
//! over, and drop the tracer when it answers `Remove`.
//!
//! ```text
//! tag                          flag       fired in                 tracee
//! send                         send       signals::send            the sender
//! send_to_non_existing_process send       signals::send            the sender
//! 'receive'                    receive    signals (mailbox entry)  the receiver
//! spawn / spawned              procs      sched::spawn             parent / child
//! exit                         procs      signals::exit            the exiting process
//! link / unlink                procs      bif (link/1, unlink/1)   the caller
//! getting_linked / _unlinked   procs      signals::deliver         the other end
//! register / unregister        procs      bif (register/2), exit   the caller
//! (monitor: Tracer::monitor)   procs      bif (monitor/2)          the watcher
//! call                         call       interp (call_ext*, BIFs), when the
//!                                         export's flag word is set  the caller
//!                              call       sched::spawn (the first   the new
//!                                         call, entering M:F)       process
//! return_from                  call       interp (the return-trace
//!                                         stub, `{return_trace}`)    the callee
//! exception_from               call       interp::unwind, through a
//!                                         frame (`{exception_trace}`) the callee
//! in / out                     running    sched::worker            the process
//! out_exited                   exiting    signals::exit (the exit   the process
//!                                         work's last slice)
//! out_exiting / in_exiting     exiting    sched::exiting (an exit   the process
//!                                         taking several slices)
//! gc_minor/major_start/end     garbage_collection  process::collect  the process
//! seq_trace send               (token)    signals::send, exit    the sender
//! seq_trace 'receive'          (token)    interp (remove_message) the receiver
//! seq_trace print              (token)    bif (seq_trace_print)  the printer
//! ```
//!
//! Ports are tracees too (`ports`, `running_ports`, and `send` and
//! `'receive'` of the messages a port sends and the operations it is
//! asked for): their probes are [`port_probes`]'s, fired from
//! `signals::port`.
//!
//! The `seq_trace` events are not gated by a flag word but by the process's
//! token word (`[]` when it has none; see `signals::seq_trace`), and go to
//! [`SeqTracers`] rather than to the process's tracer.
//!
//! Tracers that Erlang code names by module (`{tracer, Module, State}`)
//! are registered in [`tracer_module`]: beamr's own backends, which the
//! program embedding beamr-sched (beamr-cli) registers at boot.
//!
//! An always-on flight recorder is not a session: [`flight_hook`] is
//! called beside the `spawn`, `exit` and collection probes, and counts
//! time slices, messages and normal exits, at a cost a recorder left on
//! can bear.
//!
//! This is the bottom layer: it knows terms, beamr-trace and nothing else of
//! the runtime, so every layer above may fire probes.

pub mod call_patterns;
mod call_stats;
mod clock;
mod control;
mod control_word;
pub mod flight_hook;
mod frame;
pub mod port_probes;
pub mod probes;
mod process_trace;
mod seq_tracers;
mod session;
pub mod tracer_module;

pub use call_stats::{CallCount, CallMemory, CallTime, CallTotals};
pub use clock::{now_ns, scheduler_id, set_scheduler_id};
pub use control::{ProgramScope, TraceControl};
pub use control_word::{control_word, set_control_word};
pub use frame::{FrameKind, Meter, ReturnTraceFrame};
pub use process_trace::{ProcessTrace, SessionTrace, TraceChange};
pub use seq_tracers::SeqTracers;
pub use session::{CompiledSpec, Detached, EventPattern, MessageEvent, Session, SessionTracer};

/// False in a build with the `probes-off` feature: every probe gate
/// (`ProcessTrace::wants`, the export word and [`pattern::local_calls`]
/// tests of calls, the `seq_trace` token tests of sends, receives, spawns
/// and exits) starts with `PROBES &&`, so that build has no probe site at
/// all. It exists only to measure what the probes cost while nothing is
/// traced (`cargo xtask bench --probes`); in the normal build the test
/// folds away.
pub const PROBES: bool = cfg!(not(feature = "probes-off"));

/// Bits of an export's trace flag word (`Export::trace`), set by
/// `erlang:trace_pattern/3`, and the gate of local calls.
///
/// An external call (`call_ext`, `apply`, an export fun) tests its
/// export's word: nonzero when the function has any pattern. A local call
/// (`call`, `call_only`, `call_last`, a local fun) tests [`local_calls`]:
/// true while some function has a pattern that local calls fire (a
/// `local` call pattern, `meta`, `call_count`, `call_time`); only then
/// does it look its callee up. Either way, one load and one branch while
/// nothing is traced.
pub mod pattern {
    use std::sync::atomic::{AtomicBool, Ordering};

    static LOCAL_CALLS: AtomicBool = AtomicBool::new(false);

    /// True while some function's pattern fires on local calls: the one
    /// test a local call makes.
    #[inline(always)]
    pub fn local_calls() -> bool {
        super::PROBES && LOCAL_CALLS.load(Ordering::Relaxed)
    }

    /// The address of the local-call gate's byte (non-zero while open),
    /// for native code that tests it as [`local_calls`] does.
    pub fn local_calls_flag() -> *const u8 {
        LOCAL_CALLS.as_ptr().cast_const().cast()
    }

    /// Opens or closes the local-call gate (the pattern table does, when
    /// patterns change).
    pub fn set_local_calls(on: bool) {
        LOCAL_CALLS.store(on, Ordering::Relaxed);
    }

    /// Calls of the function fire `call`.
    pub const CALL: u32 = 1;
    /// Its returns fire `return_from` (`{return_trace}` in the match
    /// specification).
    pub const RETURN_TRACE: u32 = 2;
    /// Exceptions leaving it fire `exception_from` (`{exception_trace}`,
    /// which also sets [`RETURN_TRACE`]).
    pub const EXCEPTION_TRACE: u32 = 4;
}
