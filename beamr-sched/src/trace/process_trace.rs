//! [`ProcessTrace`]: a process's trace flags and the tracers they report
//! to, one set per trace session.

use std::sync::Arc;

use beamr_core::term::Term;
use beamr_trace::{fire_with, Decision, Payload, TraceEvent, TraceFlags, TraceTag, Tracee, Tracer};

use super::clock::{now_ns, scheduler_id};
use super::Session;

/// One `erlang:trace/3` (or `trace:process/4`) request for one process:
/// set (`true`) or clear (`false`) `flags` in `session`, reporting to
/// `tracer`.
#[derive(Clone)]
pub struct TraceChange {
    /// The session.
    pub session: Arc<Session>,
    /// True to set the flags, false to clear them.
    pub set: bool,
    /// The flags.
    pub flags: TraceFlags,
    /// The tracer the flags report to (when set).
    pub tracer: Arc<dyn Tracer>,
}

/// How one session traces a process: its flags and its tracer.
#[derive(Clone)]
pub struct SessionTrace {
    /// The session.
    pub session: Arc<Session>,
    /// The flags set in that session.
    pub flags: TraceFlags,
    /// Where its events go.
    pub tracer: Arc<dyn Tracer>,
}

/// How one process is traced: the flag word every probe tests (the union
/// of every session's flags), and per session the flags and the tracer
/// that receives its events.
#[derive(Clone, Default)]
pub struct ProcessTrace {
    flags: TraceFlags,
    sessions: Vec<SessionTrace>,
}

impl std::fmt::Debug for ProcessTrace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProcessTrace")
            .field("flags", &self.flags)
            .field("sessions", &self.sessions.len())
            .finish()
    }
}

impl ProcessTrace {
    /// Traced with `flags` in the legacy session, reporting to `tracer`.
    pub fn new(flags: TraceFlags, tracer: Arc<dyn Tracer>) -> ProcessTrace {
        let mut t = ProcessTrace::default();
        t.apply(&TraceChange {
            session: Arc::clone(Session::legacy()),
            set: true,
            flags,
            tracer,
        });
        t
    }

    /// Not traced.
    pub fn off() -> ProcessTrace {
        ProcessTrace::default()
    }

    /// The flags of every session together.
    #[inline(always)]
    pub fn flags(&self) -> TraceFlags {
        self.flags
    }

    /// True if any session set any of `flags`: the one test a probe makes.
    #[inline(always)]
    pub fn wants(&self, flags: TraceFlags) -> bool {
        super::PROBES && self.flags.intersects(flags)
    }

    /// How `session` traces the process, if it does.
    pub fn in_session(&self, session: &Session) -> Option<&SessionTrace> {
        self.sessions
            .iter()
            .find(|s| s.session.id() == session.id() && s.session.is_alive())
    }

    /// The flags `session` set.
    pub fn flags_in(&self, session: &Session) -> TraceFlags {
        self.in_session(session)
            .map_or(TraceFlags::empty(), |s| s.flags)
    }

    /// The tracer of `session`'s flags, if any.
    pub fn tracer_in(&self, session: &Session) -> Option<Arc<dyn Tracer>> {
        self.in_session(session).map(|s| s.tracer.clone())
    }

    /// The pid or port the events of `session` go to (`trace_info/2`'s
    /// `tracer`), if the tracer is one.
    pub fn tracer_term_in(&self, session: &Session) -> Option<Term> {
        self.in_session(session)
            .and_then(|s| s.tracer.tracer_term())
    }

    /// The live sessions that trace the process.
    pub fn sessions(&self) -> impl Iterator<Item = &SessionTrace> {
        self.sessions.iter().filter(|s| s.session.is_alive())
    }

    fn refresh(&mut self) {
        self.sessions
            .retain(|s| !s.flags.is_empty() && s.session.is_alive());
        self.flags = self
            .sessions
            .iter()
            .fold(TraceFlags::empty(), |acc, s| acc | s.flags);
    }

    /// Sets or clears `silent` in `session` (a match specification's
    /// `silent/1`), keeping the tracer.
    pub fn set_silent(&mut self, session: &Session, on: bool) {
        if let Some(s) = self
            .sessions
            .iter_mut()
            .find(|s| s.session.id() == session.id())
        {
            if on {
                s.flags |= TraceFlags::SILENT;
            } else {
                s.flags.remove(TraceFlags::SILENT);
            }
        }
        self.refresh();
    }

    /// Applies `change` (what `erlang:trace/3` asked for this process).
    pub fn apply(&mut self, change: &TraceChange) {
        let found = self
            .sessions
            .iter_mut()
            .find(|s| s.session.id() == change.session.id());
        match (found, change.set) {
            (Some(s), true) => {
                s.flags |= change.flags;
                s.tracer = change.tracer.clone();
            }
            (Some(s), false) => s.flags.remove(change.flags),
            (None, true) if change.session.is_alive() => self.sessions.push(SessionTrace {
                session: Arc::clone(&change.session),
                flags: change.flags,
                tracer: change.tracer.clone(),
            }),
            (None, _) => {}
        }
        self.refresh();
    }

    /// This trace without the sessions whose tracer is gone (a tracer
    /// process that exited): what `erlang:trace_info/2` shows of the
    /// settings of new processes and ports, which erts clears when their
    /// tracer dies.
    pub fn without_dead_tracers(&self) -> ProcessTrace {
        let mut live = self.clone();
        // A message tracer answers for its process, whoever asks.
        let anyone = Tracee::pid(0);
        live.sessions
            .retain(|s| s.tracer.trace_status(anyone) != Decision::Remove);
        live.refresh();
        live
    }

    /// Drops everything `session` set (it was destroyed).
    pub fn clear_session(&mut self, session: &Session) {
        self.sessions.retain(|s| s.session.id() != session.id());
        self.refresh();
    }

    /// What a process spawned by one traced like this starts with: per
    /// session, everything with `set_on_spawn`; with `set_on_first_spawn`,
    /// the first child gets everything but that flag, which the parent
    /// then loses (as the BEAM documents it); else `None`.
    pub fn inherit_on_spawn(&mut self) -> Option<ProcessTrace> {
        let inherit = TraceFlags::SET_ON_SPAWN | TraceFlags::SET_ON_FIRST_SPAWN;
        if !self.wants(inherit) {
            return None;
        }
        let mut child = ProcessTrace::off();
        for s in &mut self.sessions {
            if s.flags.contains(TraceFlags::SET_ON_SPAWN) {
                child.sessions.push(s.clone());
            } else if s.flags.contains(TraceFlags::SET_ON_FIRST_SPAWN) {
                s.flags.remove(TraceFlags::SET_ON_FIRST_SPAWN);
                child.sessions.push(s.clone());
            }
        }
        self.refresh();
        child.refresh();
        Some(child)
    }

    /// What a process this one links to takes (`set_on_link`, as
    /// [`ProcessTrace::inherit_on_spawn`] for spawns): per session traced
    /// with `set_on_link`, its flags; with `set_on_first_link`, its flags
    /// but that one, which this process then loses.
    pub fn inherit_on_link(&mut self) -> Vec<TraceChange> {
        let inherit = TraceFlags::SET_ON_LINK | TraceFlags::SET_ON_FIRST_LINK;
        if !self.wants(inherit) {
            return Vec::new();
        }
        let mut changes = Vec::new();
        for s in &mut self.sessions {
            if !s.flags.intersects(inherit) {
                continue;
            }
            if !s.flags.contains(TraceFlags::SET_ON_LINK) {
                s.flags.remove(TraceFlags::SET_ON_FIRST_LINK);
            }
            changes.push(TraceChange {
                session: Arc::clone(&s.session),
                set: true,
                flags: s.flags,
                tracer: s.tracer.clone(),
            });
        }
        self.refresh();
        changes
    }

    /// Tells the tracers that `pid` monitors `target` with `reference`,
    /// past the flag test (see `Tracer::monitor`).
    #[cold]
    #[inline(never)]
    pub(super) fn report_monitor(&self, pid: Term, target: Term, reference: Term) {
        let Some(tracee) = Tracee::from_term(pid) else {
            return;
        };
        for s in self.sessions() {
            if s.flags.intersects(TraceFlags::PROCS) {
                s.tracer.monitor(tracee, target, reference, now_ns());
            }
        }
    }

    /// Reports `tag` with `payload` for the process `pid` to every session
    /// traced with `flag`, past the flag test: beamr-trace's protocol, and
    /// a tracer is dropped if it asks to be removed.
    #[cold]
    #[inline(never)]
    pub(super) fn report(
        &mut self,
        flag: TraceFlags,
        tag: TraceTag,
        pid: Term,
        payload: Payload<'_>,
    ) {
        self.report_each(flag, pid, |_, t| {
            report_one(t, tag, pid, payload, |t, e| t.trace(e)).0
        });
    }

    /// Reports `tag` with `payload` to `session`'s tracer if it traces the
    /// process with `flag` (and without `silent` when `quiet_if_silent`).
    #[cold]
    #[inline(never)]
    pub(super) fn report_in(
        &mut self,
        session: &Session,
        flag: TraceFlags,
        quiet_if_silent: bool,
        tag: TraceTag,
        pid: Term,
        payload: Payload<'_>,
    ) {
        let Some(i) = self.reporting(session, flag, quiet_if_silent) else {
            return;
        };
        let tracer = &*self.sessions[i].tracer;
        if report_one(tracer, tag, pid, payload, |t, e| t.trace(e)).0 == Decision::Remove {
            self.remove_session(i);
        }
    }

    /// Where `session` is among the process's sessions, if it is alive and
    /// traces the process with `flag` (and, with `quiet_if_silent`,
    /// without `silent`): the session an event of `flag` goes to.
    fn reporting(
        &self,
        session: &Session,
        flag: TraceFlags,
        quiet_if_silent: bool,
    ) -> Option<usize> {
        self.sessions.iter().position(|s| {
            s.session.id() == session.id()
                && s.session.is_alive()
                && s.flags.contains(flag)
                && !(quiet_if_silent && s.flags.contains(TraceFlags::SILENT))
        })
    }

    /// The `return_from` event of `pid`'s call of `mfa` returning `value`,
    /// to `session`'s tracer if it traces the process with `call` and
    /// without `silent`: [`ProcessTrace::report_in`]'s answers, in the
    /// tracer's one call (`Tracer::fire_return`), as a traced function's
    /// every return makes it.
    pub fn report_return(
        &mut self,
        session: &Session,
        pid: Term,
        mfa: &beamr_trace::Mfa,
        value: Term,
    ) {
        let Some(i) = self.reporting(session, TraceFlags::CALL, true) else {
            return;
        };
        let Some(tracee) = Tracee::from_term(pid) else {
            return;
        };
        let tracer = &*self.sessions[i].tracer;
        if tracer.fire_return(tracee, scheduler_id(), mfa, value) == Decision::Remove {
            self.remove_session(i);
        }
    }

    /// The `call` event of `pid` calling `mfa` with `args` (and the match
    /// specification's `extra`), to `session`'s tracer if it traces the
    /// process with `call` and without `silent`; with `arity`, only the
    /// arity goes. Returns the session's flags if it traces the process
    /// with `call` (before the tracer could ask to be removed), else none.
    /// One search of the process's sessions: this runs for every traced
    /// call (inlined into the interpreter's call-trace paths).
    #[inline(always)]
    pub fn report_call(
        &mut self,
        session: &Session,
        pid: Term,
        mfa: &beamr_trace::Mfa,
        args: &[Term],
        extra: Option<Term>,
    ) -> TraceFlags {
        let Some((i, s)) = self
            .sessions
            .iter()
            .enumerate()
            .find(|(_, s)| s.session.id() == session.id() && s.session.is_alive())
        else {
            return TraceFlags::empty();
        };
        let flags = s.flags;
        if !flags.contains(TraceFlags::CALL) {
            return TraceFlags::empty();
        }
        if flags.contains(TraceFlags::SILENT) {
            return flags;
        }
        let args = if flags.contains(TraceFlags::ARITY) {
            beamr_trace::CallArgs::Arity(mfa.arity)
        } else {
            beamr_trace::CallArgs::Args(args)
        };
        let Some(tracee) = Tracee::from_term(pid) else {
            return flags;
        };
        // `report_one`'s protocol, in the tracer's one call.
        if s.tracer.fire_call(tracee, scheduler_id(), mfa, args, extra) == Decision::Remove {
            self.remove_session(i);
        }
        flags
    }

    /// Drops the `i`th session (its tracer asked to be removed).
    #[cold]
    #[inline(never)]
    fn remove_session(&mut self, i: usize) {
        self.sessions.remove(i);
        self.refresh();
    }

    /// Calls `each` with every live session traced with `flag` and its
    /// tracer; drops the sessions whose tracer answered `Remove`.
    pub(super) fn report_each(
        &mut self,
        flag: TraceFlags,
        pid: Term,
        mut each: impl FnMut(&Session, &(dyn Tracer + 'static)) -> Decision,
    ) {
        let _ = pid;
        let mut removed = false;
        for s in &mut self.sessions {
            if s.flags.intersects(flag)
                && s.session.is_alive()
                && each(&s.session, &*s.tracer) == Decision::Remove
            {
                s.flags = TraceFlags::empty();
                removed = true;
            }
        }
        if removed {
            self.refresh();
        }
    }
}

/// The protocol ([`fire_with`]) for one tracer, with `hand` giving it the
/// event: the tracer's answer, and what `hand` returned. Inlined: its
/// callers are the cold paths of traced processes, and each hands the
/// event over differently.
#[inline(always)]
pub(super) fn report_one<R>(
    tracer: &(dyn Tracer + 'static),
    tag: TraceTag,
    pid: Term,
    payload: Payload<'_>,
    hand: impl FnOnce(&(dyn Tracer + 'static), &TraceEvent<'_>) -> R,
) -> (Decision, Option<R>) {
    let Some(tracee) = Tracee::from_term(pid) else {
        return (Decision::Discard, None);
    };
    let at = || if tracer.reads_clock() { now_ns() } else { 0 };
    let build = || TraceEvent::new(tag, tracee, at(), scheduler_id(), payload);
    fire_with(tracer, tag, tracee, build, hand)
}
