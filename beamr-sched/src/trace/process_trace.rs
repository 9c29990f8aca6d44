//! [`ProcessTrace`]: a process's trace flags and the tracer they report to.

use std::sync::Arc;

use beamr_core::term::Term;
use beamr_trace::{
    fire_with, Decision, Payload, TraceContext, TraceEvent, TraceFlags, TraceTag, Tracee, Tracer,
};

use super::clock::{now_ns, scheduler_id};

/// One `erlang:trace/3` request for one process: set (`true`) or clear
/// (`false`) `flags`, reporting to `tracer`.
#[derive(Clone)]
pub struct TraceChange {
    /// True to set the flags, false to clear them.
    pub set: bool,
    /// The flags.
    pub flags: TraceFlags,
    /// The tracer the flags report to (when set).
    pub tracer: Arc<dyn Tracer>,
}

/// How one process is traced: the flag word every probe tests, and the
/// tracer that receives its events (as `erlang:trace/3` sets them).
#[derive(Clone, Default)]
pub struct ProcessTrace {
    flags: TraceFlags,
    tracer: Option<Arc<dyn Tracer>>,
}

impl std::fmt::Debug for ProcessTrace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProcessTrace")
            .field("flags", &self.flags)
            .field("tracer", &self.tracer.is_some())
            .finish()
    }
}

impl ProcessTrace {
    /// Traced with `flags`, reporting to `tracer`.
    pub fn new(flags: TraceFlags, tracer: Arc<dyn Tracer>) -> ProcessTrace {
        ProcessTrace {
            flags,
            tracer: Some(tracer),
        }
    }

    /// Not traced.
    pub fn off() -> ProcessTrace {
        ProcessTrace::default()
    }

    /// The flags.
    #[inline(always)]
    pub fn flags(&self) -> TraceFlags {
        self.flags
    }

    /// The pid or port the events go to (`erlang:trace_info/2`'s
    /// `tracer`), if the tracer is one.
    pub fn tracer_term(&self) -> Option<Term> {
        self.tracer.as_ref().and_then(|t| t.tracer_term())
    }

    /// True if any of `flags` is set: the one test a probe makes.
    #[inline(always)]
    pub fn wants(&self, flags: TraceFlags) -> bool {
        super::PROBES && self.flags.intersects(flags)
    }

    /// The tracer the flags report to, if any.
    pub fn tracer(&self) -> Option<Arc<dyn Tracer>> {
        self.tracer.clone()
    }

    /// Sets or clears `silent` (a match specification's `silent/1`), keeping
    /// the tracer.
    pub fn set_silent(&mut self, on: bool) {
        if on {
            if self.tracer.is_some() {
                self.flags |= TraceFlags::SILENT;
            }
        } else {
            self.flags.remove(TraceFlags::SILENT);
        }
    }

    /// Applies `change` (what `erlang:trace/3` asked for this process).
    pub fn apply(&mut self, change: &TraceChange) {
        if change.set {
            self.flags |= change.flags;
            self.tracer = Some(change.tracer.clone());
        } else {
            self.clear(change.flags);
        }
    }

    /// Clears `flags`; the tracer goes when no flag is left.
    pub fn clear(&mut self, flags: TraceFlags) {
        self.flags.remove(flags);
        if self.flags.is_empty() {
            self.tracer = None;
        }
    }

    /// What a process spawned by one traced like this starts with:
    /// everything with `set_on_spawn`; with `set_on_first_spawn`, the first
    /// child gets everything but that flag, which the parent then loses (as
    /// the BEAM documents it); else `None`.
    pub fn inherit_on_spawn(&mut self) -> Option<ProcessTrace> {
        if !super::PROBES {
            return None;
        }
        if self.flags.contains(TraceFlags::SET_ON_SPAWN) {
            return Some(self.clone());
        }
        if self.flags.contains(TraceFlags::SET_ON_FIRST_SPAWN) {
            self.flags.remove(TraceFlags::SET_ON_FIRST_SPAWN);
            return Some(self.clone());
        }
        None
    }

    /// Tells the tracer that `pid` monitors `target` with `reference`, past
    /// the flag test (see `Tracer::monitor`).
    #[cold]
    #[inline(never)]
    pub(super) fn report_monitor(&self, pid: Term, target: Term, reference: Term) {
        if let (Some(tracer), Some(tracee)) = (self.tracer.as_ref(), Tracee::from_term(pid)) {
            tracer.monitor(tracee, target, reference, now_ns());
        }
    }

    /// Reports `tag` with `payload` for the process `pid`, past the flag
    /// test: beamr-trace's protocol, and the tracer is dropped if it asks
    /// to be removed.
    #[cold]
    #[inline(never)]
    pub(super) fn report(&mut self, tag: TraceTag, pid: Term, payload: Payload<'_>) {
        self.report_with(tag, pid, payload, |t, e| t.trace(e));
    }

    /// [`ProcessTrace::report`] for a `send`: returns the context the
    /// message is to carry (see `Tracer::trace_send`).
    #[cold]
    #[inline(never)]
    pub(super) fn report_send(
        &mut self,
        tag: TraceTag,
        pid: Term,
        payload: Payload<'_>,
    ) -> Option<TraceContext> {
        self.report_with(tag, pid, payload, |t, e| t.trace_send(e))
            .flatten()
    }

    /// [`ProcessTrace::report`] for a `'receive'` of a message that carried
    /// `carried` (see `Tracer::trace_receive`).
    #[cold]
    #[inline(never)]
    pub(super) fn report_receive(
        &mut self,
        pid: Term,
        payload: Payload<'_>,
        carried: Option<TraceContext>,
    ) {
        self.report_with(TraceTag::Receive, pid, payload, |t, e| {
            t.trace_receive(e, carried)
        });
    }

    /// The protocol ([`fire_with`]) with `hand` giving the event to the
    /// tracer; `None` when the tracer did not want it.
    fn report_with<R>(
        &mut self,
        tag: TraceTag,
        pid: Term,
        payload: Payload<'_>,
        hand: impl FnOnce(&(dyn Tracer + 'static), &TraceEvent<'_>) -> R,
    ) -> Option<R> {
        let (Some(tracer), Some(tracee)) = (self.tracer.as_deref(), Tracee::from_term(pid)) else {
            return None;
        };
        let build = || TraceEvent::new(tag, tracee, now_ns(), scheduler_id(), payload);
        let (decision, result) = fire_with(tracer, tag, tracee, build, hand);
        if decision == Decision::Remove {
            *self = ProcessTrace::off();
        }
        result
    }
}
