//! [`Session`]: a trace session, as OTP 27 has them (`trace:session_create/3`):
//! a tracer of its own, and its own process flags, function patterns,
//! message patterns (`send`, `'receive'`) and `on_load` pattern, isolated
//! from every other session's. The classic API (`erlang:trace/3`,
//! `erlang:trace_pattern/3`) is one more session, the legacy one
//! ([`Session::legacy`]), which has no tracer of its own (each
//! `erlang:trace/3` names one).
//!
//! A process's flags ([`ProcessTrace`](super::ProcessTrace)) and a
//! function's patterns ([`call_patterns`](super::call_patterns)) are kept per session; the
//! session itself holds what is neither: its message patterns.
//!
//! # Lifetime
//!
//! On the BEAM (27 and 29 alike) a session ends on
//! `trace:session_destroy/1`, or when the last copy of its strong handle
//! (`{Ref, {Name, Id}}`, a magic reference) is garbage-collected: when
//! every process holding one has dropped it and collected, or has exited.
//! Its tracer's end does not end it (the flags of the processes it traced
//! go; the session stays). beamr's heaps do not report the references
//! they drop, so beamr counts the processes that hold the handle instead:
//! the creator, and each process that passes the strong handle to a
//! session BIF ([`Session::hold`]). A session is alive until
//! `trace:session_destroy/1` or until the last of those processes exits
//! ([`Session::released_by`]). The differences: a handle dropped by a
//! live process keeps its session (erts would end it at the next
//! collection), and a process that only stores a copy of the handle, never
//! using it, does not keep it (erts would). `dbg`'s server, which creates
//! its session and keeps it until it ends, sees no difference.
//!
//! A strong handle names its session only with the reference it was
//! created with; the weak handle `{Name, Id}` names it while it is
//! alive.
//!
//! Sessions are runtime-wide, as the pattern table is: [`all`] lists the
//! live ones, newest first, the legacy session last, as erts lists them.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex, RwLock};

use beamr_core::atom::Atom;
use beamr_core::term::Term;

/// A compiled match specification: a `matchspec::MatchSpec`, held as
/// `Any` because it lives below the match-spec layer (the layers above
/// both downcast it).
pub type CompiledSpec = Arc<dyn std::any::Any + Send + Sync>;

/// A session's pattern for `send` or `'receive'` events
/// (`erlang:trace_pattern(send, MS, [])`).
#[derive(Clone, Default)]
pub enum EventPattern {
    /// `true` (the default): every event of a traced process fires.
    #[default]
    All,
    /// `false`: none fires.
    Off,
    /// A match specification over `[Receiver, Msg]` (send) or
    /// `[Node, Sender, Msg]` (receive) decides.
    Spec(CompiledSpec),
}

/// Which message event a pattern is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MessageEvent {
    /// `send`.
    Send,
    /// `'receive'`.
    Receive,
}

/// A session's own tracer (`trace:session_create/3`'s second argument).
#[derive(Clone)]
pub enum SessionTracer {
    /// A process or port: each `trace:process/4` makes a message backend
    /// for it (with that call's timestamp flags).
    Process(Term),
    /// A tracer module's tracer (`{Module, State}`), one for the session.
    Module(Arc<dyn beamr_trace::Tracer>),
}

/// One trace session.
pub struct Session {
    id: u64,
    name: Atom,
    weak_id: Option<u64>,
    /// The id words of the strong handle's reference (none for legacy).
    strong: Option<[u32; 3]>,
    tracer: Option<SessionTracer>,
    /// The processes that hold the strong handle (see the module docs).
    holders: Mutex<Vec<Term>>,
    alive: AtomicBool,
    events: RwLock<[EventPattern; 2]>,
    /// True while a message pattern is other than `true`: the probes take
    /// the lock only then.
    events_set: AtomicBool,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("name", &self.name)
            .field("weak_id", &self.weak_id)
            .finish()
    }
}

struct Registry {
    /// The live sessions other than the legacy one, oldest first.
    live: RwLock<Vec<Arc<Session>>>,
    next_id: AtomicU64,
    next_weak: AtomicU64,
    /// How many sessions are alive besides the legacy one: a process's end
    /// looks for the sessions it held only while this is nonzero.
    owned: AtomicUsize,
}

static REGISTRY: LazyLock<Registry> = LazyLock::new(|| Registry {
    live: RwLock::new(Vec::new()),
    next_id: AtomicU64::new(1),
    next_weak: AtomicU64::new(0),
    owned: AtomicUsize::new(0),
});

static LEGACY: LazyLock<Arc<Session>> = LazyLock::new(|| {
    Arc::new(Session::new(
        0,
        Atom::new("legacy").expect("atom"),
        (None, None),
        None,
        Vec::new(),
    ))
});

impl Session {
    fn new(
        id: u64,
        name: Atom,
        (weak_id, strong): (Option<u64>, Option<[u32; 3]>),
        tracer: Option<SessionTracer>,
        holders: Vec<Term>,
    ) -> Session {
        Session {
            id,
            name,
            weak_id,
            strong,
            tracer,
            holders: Mutex::new(holders),
            alive: AtomicBool::new(true),
            events: RwLock::new([EventPattern::All, EventPattern::All]),
            events_set: AtomicBool::new(false),
        }
    }

    /// The legacy session: the classic API's.
    pub fn legacy() -> &'static Arc<Session> {
        &LEGACY
    }

    /// Creates a session named `name` whose events go to `tracer` (`None`:
    /// each call names its own, as `undefined` has it), held by the
    /// process `owner`, its strong handle's reference having the id words
    /// `strong`.
    pub fn create(
        name: Atom,
        tracer: Option<SessionTracer>,
        owner: Term,
        strong: [u32; 3],
    ) -> Arc<Session> {
        Session::register(name, tracer, vec![owner], strong)
    }

    /// Creates a session that no process holds (a control client's, see
    /// beamr-ctl): no process's end ends it; its creator ends it with
    /// `Runtime::end_trace_session`.
    pub fn create_unheld(
        name: Atom,
        tracer: Option<SessionTracer>,
        strong: [u32; 3],
    ) -> Arc<Session> {
        Session::register(name, tracer, Vec::new(), strong)
    }

    fn register(
        name: Atom,
        tracer: Option<SessionTracer>,
        holders: Vec<Term>,
        strong: [u32; 3],
    ) -> Arc<Session> {
        let r = &*REGISTRY;
        let id = r.next_id.fetch_add(1, Ordering::Relaxed);
        let weak = r.next_weak.fetch_add(1, Ordering::Relaxed);
        let handle = (Some(weak), Some(strong));
        let session = Arc::new(Session::new(id, name, handle, tracer, holders));
        r.live
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .push(Arc::clone(&session));
        r.owned.fetch_add(1, Ordering::Relaxed);
        session
    }

    /// The live session whose weak reference is `{name, weak_id}` and, for
    /// a strong handle, whose reference has the id words `strong`.
    pub fn find(name: Atom, weak_id: u64, strong: Option<[u32; 3]>) -> Option<Arc<Session>> {
        let live = REGISTRY.live.read().unwrap_or_else(|e| e.into_inner());
        live.iter()
            .find(|s| {
                s.name == name
                    && s.weak_id == Some(weak_id)
                    && strong.is_none_or(|ids| s.strong == Some(ids))
            })
            .cloned()
    }

    /// `pid` holds the strong handle (it passed it to a session BIF): the
    /// session lives at least as long as it does.
    pub fn hold(&self, pid: Term) {
        if self.is_legacy() || !self.is_alive() {
            return;
        }
        let mut holders = self.holders.lock().unwrap_or_else(|e| e.into_inner());
        if !holders.contains(&pid) {
            holders.push(pid);
        }
    }

    /// Ends the session: true if it was alive. Its flags and patterns are
    /// the caller's to clear; from now on the probes skip it.
    pub fn destroy(self: &Arc<Session>) -> bool {
        if self.is_legacy() || !self.alive.swap(false, Ordering::AcqRel) {
            return false;
        }
        let r = &*REGISTRY;
        r.live
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|s| !Arc::ptr_eq(s, self));
        r.owned.fetch_sub(1, Ordering::Relaxed);
        true
    }

    /// The process `pid` has ended: it holds no session any more. Returns
    /// the live sessions nothing holds now, which are to end (none, at the
    /// cost of one load, while only the legacy session lives).
    pub fn released_by(pid: Term) -> Vec<Arc<Session>> {
        let r = &*REGISTRY;
        if r.owned.load(Ordering::Relaxed) == 0 {
            return Vec::new();
        }
        let live = r.live.read().unwrap_or_else(|e| e.into_inner());
        live.iter()
            .filter(|s| {
                let mut holders = s.holders.lock().unwrap_or_else(|e| e.into_inner());
                let before = holders.len();
                holders.retain(|&h| h != pid);
                holders.len() < before && holders.is_empty()
            })
            .cloned()
            .collect()
    }

    /// Every live session, newest first, the legacy one last.
    pub fn all() -> Vec<Arc<Session>> {
        let live = REGISTRY.live.read().unwrap_or_else(|e| e.into_inner());
        let mut all: Vec<_> = live.iter().rev().cloned().collect();
        all.push(Arc::clone(Session::legacy()));
        all
    }

    /// A number that tells sessions apart (0 for the legacy one).
    #[inline]
    pub fn id(&self) -> u64 {
        self.id
    }

    /// True for the legacy session.
    #[inline]
    pub fn is_legacy(&self) -> bool {
        self.id == 0
    }

    /// True until the session is destroyed.
    #[inline]
    pub fn is_alive(&self) -> bool {
        self.alive.load(Ordering::Acquire)
    }

    /// The session's name.
    pub fn name(&self) -> Atom {
        self.name
    }

    /// The number of its weak reference `{Name, Id}` (`None` for the
    /// legacy session, whose reference is `{legacy, default}`).
    pub fn weak_id(&self) -> Option<u64> {
        self.weak_id
    }

    /// The session's own tracer (`None` for the legacy session, and for
    /// one created with `undefined`).
    pub fn tracer(&self) -> Option<&SessionTracer> {
        self.tracer.as_ref()
    }

    /// The pattern for `event`.
    pub fn event_pattern(&self, event: MessageEvent) -> EventPattern {
        if !self.events_set.load(Ordering::Acquire) {
            return EventPattern::All;
        }
        let events = self.events.read().unwrap_or_else(|e| e.into_inner());
        events[event as usize].clone()
    }

    /// Sets the pattern for `event`.
    pub fn set_event_pattern(&self, event: MessageEvent, pattern: EventPattern) {
        let mut events = self.events.write().unwrap_or_else(|e| e.into_inner());
        events[event as usize] = pattern;
        let set = events.iter().any(|e| !matches!(e, EventPattern::All));
        self.events_set.store(set, Ordering::Release);
    }
}

/// A tracer that takes nothing: what a [`TraceChange`](super::TraceChange)
/// that only clears flags carries.
pub struct Detached;

impl beamr_trace::Tracer for Detached {
    fn enabled(
        &self,
        _tag: beamr_trace::TraceTag,
        _tracee: beamr_trace::Tracee,
    ) -> beamr_trace::Decision {
        beamr_trace::Decision::Discard
    }

    fn trace(&self, _event: &beamr_trace::TraceEvent<'_>) {}
}

impl Session {
    /// The change that clears every flag this session set on a process.
    pub fn clear_all(self: &Arc<Session>) -> super::TraceChange {
        super::TraceChange {
            session: Arc::clone(self),
            set: false,
            flags: beamr_trace::TraceFlags::all(),
            tracer: Arc::new(Detached),
        }
    }
}
