//! Call trace patterns (`erlang:trace_pattern/3` on functions, and
//! `beamr run --trace-call`): per function, what its calls fire.
//!
//! Every trace session ([`Session`]; the classic API is the legacy one)
//! has its own patterns: per function, one [`FunctionTrace`] per session
//! that set any ([`SessionPatterns`]).
//!
//! A function's [`FunctionTrace`] holds its call pattern (`global`: only
//! external calls fire it; `local`: every call), its `meta` pattern, its
//! `call_count` counter, its `call_time` clocks and its `call_memory`
//! counters. The table maps `{M, F, A}` to an `Arc` of it, replaced whole
//! on every change, so the interpreter's cold path clones the `Arc` under
//! a read lock and runs without it.
//!
//! The gates the interpreter tests, one load and one branch each:
//!
//! 1. An external call tests its export's word (`Export::trace`): 1 while
//!    the table holds an entry for the function, 0 otherwise. Kept in step
//!    with the table by [`apply`] under the table's write lock.
//! 2. A local call tests [`pattern::local_calls`]: true while some entry
//!    fires on local calls ([`FunctionTrace::fires_locally`]). Past it,
//!    [`with_local`] finds the callee among the few modules with such
//!    entries ([`local_index`]) and its entry.
//!
//! Loading a module drops the entries of its functions (the new code is
//! not traced, as on the BEAM) and applies the `on_load` pattern, if one
//! is set, to the new functions: the code server calls [`module_loaded`].
//!
//! The table is trace state and lives in this bottom layer; what it needs
//! of the loaded code (which modules are loaded, their functions, where
//! their code is) it is given by its callers as a [`LoadedCode`]
//! ([`traced_code`]), which the code server implements.

mod local_index;
pub mod traced_code;

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, LazyLock, RwLock};

use beamr_core::atom::Atom;
use beamr_core::term::Export;
use beamr_trace::Tracer;

use super::{pattern, CallCount, CallMemory, CallTime, CallTotals, CompiledSpec, Session};
use local_index::rebuild_local_modules;
pub use local_index::{with_local, LocalEntry, PlainCall};
pub use traced_code::{LoadedCode, TracedModule};

/// What a pattern does on a call: fixed flags (`trace::pattern` bits,
/// from `beamr run --trace-call`), or a match specification (none: `true`).
#[derive(Clone, Default)]
pub struct Spec {
    /// `pattern::RETURN_TRACE` and `pattern::EXCEPTION_TRACE`, for every
    /// call.
    pub flags: u32,
    /// The match specification, compiled once when set.
    pub ms: Option<CompiledSpec>,
}

/// A function's call pattern.
#[derive(Clone)]
pub struct CallPattern {
    /// True for `local` (every call fires it), false for `global`
    /// (external calls only).
    pub local: bool,
    /// What it does.
    pub spec: Spec,
}

/// A function's meta pattern: its calls reach `tracer` whatever the
/// process's flags.
#[derive(Clone)]
pub struct MetaPattern {
    /// The meta tracer (`trace_info/2` names it by its `tracer_term`).
    pub tracer: Arc<dyn Tracer>,
    /// What it does.
    pub spec: Spec,
}

/// Everything that traces one function.
#[derive(Clone, Default)]
pub struct FunctionTrace {
    /// The call pattern.
    pub call: Option<CallPattern>,
    /// The meta pattern.
    pub meta: Option<MetaPattern>,
    /// The `call_count` counter.
    pub count: Option<Arc<CallCount>>,
    /// The `call_time` clocks.
    pub time: Option<Arc<CallTime>>,
    /// The `call_memory` counters.
    pub memory: Option<Arc<CallMemory>>,
}

impl FunctionTrace {
    /// True if all it has is a local call pattern with no match
    /// specification (`dbg:tpl(M, F, A, [])`, `beamr run --trace-call`,
    /// with `:x` too): each call is one `call` event and at most one
    /// frame, a return-trace frame (the pattern's fixed flags) or a
    /// `return_to` one, the path [`LocalEntry::plain`] takes.
    pub fn is_plain_local_call(&self) -> bool {
        let fixed = pattern::RETURN_TRACE | pattern::EXCEPTION_TRACE;
        self.call
            .as_ref()
            .is_some_and(|c| c.local && c.spec.ms.is_none() && c.spec.flags & !fixed == 0)
            && self.meta.is_none()
            && self.count.is_none()
            && self.time.is_none()
            && self.memory.is_none()
    }

    /// True if nothing traces the function.
    pub fn is_empty(&self) -> bool {
        self.call.is_none()
            && self.meta.is_none()
            && self.count.is_none()
            && self.time.is_none()
            && self.memory.is_none()
    }

    /// True if local calls fire something (all but a global call pattern).
    pub fn fires_locally(&self) -> bool {
        self.call.as_ref().is_some_and(|c| c.local)
            || self.meta.is_some()
            || self.count.is_some()
            || self.time.is_some()
            || self.memory.is_some()
    }
}

/// One session's patterns of a function.
#[derive(Clone)]
pub struct SessionPatterns {
    /// The session.
    pub session: Arc<Session>,
    /// Its patterns.
    pub trace: FunctionTrace,
}

/// Every session's patterns of one function.
pub type Patterns = Arc<Vec<SessionPatterns>>;

/// What `call_count`, `call_time` and `call_memory` are told.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CounterOp {
    /// `true`: start (from zero).
    Start,
    /// `false`: remove.
    Stop,
    /// `pause`: stop counting, keep the values.
    Pause,
    /// `restart`: back to zero, counting (only where a counter exists).
    Restart,
}

/// One change a `trace_pattern/3` call makes to each function it matches.
#[derive(Clone)]
pub enum Change {
    /// Sets (`Some`) or removes (`None`) the call pattern.
    Call(Option<CallPattern>),
    /// Removes the call pattern if it is local (`local`) or global (not).
    CallOff {
        /// Which kind goes.
        local: bool,
    },
    /// Sets (`Some`) or removes (`None`) the meta pattern.
    Meta(Option<MetaPattern>),
    /// Changes the `call_count` counter.
    Count(CounterOp),
    /// Changes the `call_time` clocks.
    Time(CounterOp),
    /// Changes the `call_memory` counters.
    Memory(CounterOp),
}

impl Change {
    /// True if the change applies to every function of a module, not only
    /// the exported ones (all but a global call pattern).
    fn reaches_local_functions(&self) -> bool {
        match self {
            Change::Call(c) => c.as_ref().is_some_and(|c| c.local),
            Change::CallOff { local } => *local,
            _ => true,
        }
    }
}

/// A function: module, name, arity.
type Key = (Atom, Atom, u32);

/// One session's `on_load` pattern: the changes applied to each module
/// loaded, and the pattern as `trace_info(on_load, _)` reports it.
struct OnLoad {
    session: Arc<Session>,
    changes: Vec<Change>,
    trace: FunctionTrace,
}

#[derive(Default)]
struct Table {
    functions: HashMap<Key, Patterns>,
    /// The `on_load` patterns, per session id.
    on_load: HashMap<u64, OnLoad>,
}

static TABLE: LazyLock<RwLock<Table>> = LazyLock::new(Default::default);

/// Applies `changes` of `session` to every function of a loaded module
/// that `module:function/arity` names (`None` is the wildcard `'_'`):
/// only exported functions unless a change reaches local ones. Returns
/// how many functions matched.
pub fn apply(
    code: &dyn LoadedCode,
    session: &Arc<Session>,
    module: Option<Atom>,
    function: Option<Atom>,
    arity: Option<u32>,
    changes: &[Change],
) -> usize {
    let modules: Vec<Arc<dyn TracedModule>> = match module {
        Some(m) => code.current_module(m).into_iter().collect(),
        None => code
            .loaded_modules()
            .into_iter()
            .filter_map(|m| code.current_module(m))
            .collect(),
    };
    let locals = changes.iter().any(Change::reaches_local_functions);
    let mut table = TABLE.write().unwrap_or_else(|e| e.into_inner());
    prune_dead(&mut table);
    let mut matched = 0;
    for m in &modules {
        for (name, n) in functions_of(m.as_ref(), locals) {
            if function.is_none_or(|f| f == name) && arity.is_none_or(|a| a == n) {
                update(&mut table, session, (m.name(), name, n), changes);
                matched += 1;
            }
        }
    }
    rebuild_local_modules(code, &table.functions);
    matched
}

/// Sets `session`'s `on_load` pattern: `changes` are applied to the
/// functions of every module loaded from now on.
pub fn set_on_load(session: &Arc<Session>, changes: &[Change]) {
    let mut table = TABLE.write().unwrap_or_else(|e| e.into_inner());
    let mut trace = table
        .on_load
        .get(&session.id())
        .map(|o| o.trace.clone())
        .unwrap_or_default();
    for change in changes {
        change_one(&mut trace, change);
    }
    if trace.is_empty() {
        table.on_load.remove(&session.id());
    } else {
        let on_load = OnLoad {
            session: Arc::clone(session),
            changes: changes_of(&trace),
            trace,
        };
        table.on_load.insert(session.id(), on_load);
    }
}

/// `session`'s `on_load` pattern.
pub fn on_load(session: &Session) -> FunctionTrace {
    let table = TABLE.read().unwrap_or_else(|e| e.into_inner());
    table
        .on_load
        .get(&session.id())
        .map(|o| o.trace.clone())
        .unwrap_or_default()
}

/// The patterns `session` set on `module:function/arity`, if any.
pub fn of(session: &Session, module: Atom, function: Atom, arity: u32) -> Option<FunctionTrace> {
    let table = TABLE.read().unwrap_or_else(|e| e.into_inner());
    let all = table.functions.get(&(module, function, arity))?;
    all.iter()
        .find(|s| s.session.id() == session.id())
        .map(|s| s.trace.clone())
}

/// The live sessions with patterns on `module:function/arity`.
pub fn sessions_of(module: Atom, function: Atom, arity: u32) -> Vec<Arc<Session>> {
    let table = TABLE.read().unwrap_or_else(|e| e.into_inner());
    table
        .functions
        .get(&(module, function, arity))
        .map(|all| {
            all.iter()
                .filter(|s| s.session.is_alive())
                .map(|s| Arc::clone(&s.session))
                .collect()
        })
        .unwrap_or_default()
}

/// The patterns of the function an external call of `export` runs.
#[inline]
pub fn of_export(export: &Export) -> Option<Patterns> {
    let table = TABLE.read().unwrap_or_else(|e| e.into_inner());
    table
        .functions
        .get(&(export.module, export.function, export.arity))
        .cloned()
}

/// Drops every pattern of `session` (it was destroyed).
pub fn clear_session(code: &dyn LoadedCode, session: &Session) {
    let mut table = TABLE.write().unwrap_or_else(|e| e.into_inner());
    table.on_load.remove(&session.id());
    let keys: Vec<Key> = table
        .functions
        .iter()
        .filter(|(_, all)| all.iter().any(|s| s.session.id() == session.id()))
        .map(|(k, _)| *k)
        .collect();
    for key in keys {
        let all = table.functions.get(&key).cloned().unwrap_or_default();
        let rest: Vec<SessionPatterns> = all
            .iter()
            .filter(|s| s.session.id() != session.id())
            .cloned()
            .collect();
        store(&mut table, key, rest);
    }
    rebuild_local_modules(code, &table.functions);
}

/// Drops the patterns of destroyed sessions.
fn prune_dead(table: &mut Table) {
    table.on_load.retain(|_, o| o.session.is_alive());
    let dead: Vec<Key> = table
        .functions
        .iter()
        .filter(|(_, all)| all.iter().any(|s| !s.session.is_alive()))
        .map(|(k, _)| *k)
        .collect();
    for key in dead {
        let all = table.functions.get(&key).cloned().unwrap_or_default();
        let rest = all
            .iter()
            .filter(|s| s.session.is_alive())
            .cloned()
            .collect();
        store(table, key, rest);
    }
}

/// True if `session` has an `on_load` pattern.
pub fn has_on_load(session: &Session) -> bool {
    let table = TABLE.read().unwrap_or_else(|e| e.into_inner());
    table.on_load.contains_key(&session.id())
}

/// A module was loaded: its functions lose their patterns, and take the
/// `on_load` patterns of the sessions that set one. The code server
/// calls it, passing itself, once the new version is current.
pub fn module_loaded(code: &dyn LoadedCode, name: Atom) {
    let mut table = TABLE.write().unwrap_or_else(|e| e.into_inner());
    if table.functions.is_empty() && table.on_load.is_empty() {
        return;
    }
    let stale: Vec<Key> = table
        .functions
        .keys()
        .filter(|k| k.0 == name)
        .copied()
        .collect();
    for key in stale {
        store(&mut table, key, Vec::new());
    }
    let on_load: Vec<(Arc<Session>, Vec<Change>)> = table
        .on_load
        .values()
        .filter(|o| o.session.is_alive())
        .map(|o| (Arc::clone(&o.session), o.changes.clone()))
        .collect();
    if !on_load.is_empty() {
        if let Some(module) = code.current_module(name) {
            for (session, changes) in on_load {
                let locals = changes.iter().any(Change::reaches_local_functions);
                for (f, a) in functions_of(module.as_ref(), locals) {
                    update(&mut table, &session, (name, f, a), &changes);
                }
            }
        }
    }
    rebuild_local_modules(code, &table.functions);
}

/// The functions of `m` a pattern may match: every one with `locals`,
/// else the exported ones.
fn functions_of(m: &dyn TracedModule, locals: bool) -> Vec<(Atom, u32)> {
    if locals {
        m.functions()
    } else {
        m.exports()
    }
}

/// Applies `changes` of `session` to the entry of `key` and sets its
/// export's word.
fn update(table: &mut Table, session: &Arc<Session>, key: Key, changes: &[Change]) {
    let mut all: Vec<SessionPatterns> = table
        .functions
        .get(&key)
        .map(|all| {
            all.iter()
                .filter(|s| s.session.is_alive())
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    let i = match all.iter().position(|s| s.session.id() == session.id()) {
        Some(i) => i,
        None => {
            all.push(SessionPatterns {
                session: Arc::clone(session),
                trace: FunctionTrace::default(),
            });
            all.len() - 1
        }
    };
    for change in changes {
        change_one(&mut all[i].trace, change);
    }
    if all[i].trace.is_empty() {
        all.remove(i);
    }
    store(table, key, all);
}

/// Makes `all` the patterns of `key` and sets its export's word: 1 while
/// any session has a pattern on it.
fn store(table: &mut Table, key: Key, all: Vec<SessionPatterns>) {
    let export = Export::intern(key.0, key.1, key.2);
    if all.is_empty() {
        table.functions.remove(&key);
        export.trace.store(0, Ordering::Relaxed);
    } else {
        table.functions.insert(key, Arc::new(all));
        export.trace.store(pattern::CALL, Ordering::Relaxed);
    }
}
/// A global call pattern excludes every other kind of pattern, as on the
/// BEAM (where global patterns live in the export entry and the others in
/// the function's code): setting one removes the others.
fn change_one(trace: &mut FunctionTrace, change: &Change) {
    let global = trace.call.as_ref().is_some_and(|c| !c.local);
    match change {
        Change::Call(Some(c)) if !c.local => {
            trace.meta = None;
            trace.count = None;
            trace.time = None;
            trace.memory = None;
        }
        Change::Call(Some(_))
        | Change::Meta(Some(_))
        | Change::Count(CounterOp::Start)
        | Change::Time(CounterOp::Start)
        | Change::Memory(CounterOp::Start)
            if global =>
        {
            trace.call = None;
        }
        _ => {}
    }
    match change {
        Change::Call(c) => trace.call = c.clone(),
        Change::CallOff { local } => {
            if trace.call.as_ref().is_some_and(|c| c.local == *local) {
                trace.call = None;
            }
        }
        Change::Meta(m) => trace.meta = m.clone(),
        Change::Count(op) => match (op, &trace.count) {
            (CounterOp::Start, Some(c)) => c.restart(),
            (CounterOp::Start, None) => trace.count = Some(Arc::default()),
            (CounterOp::Stop, _) => trace.count = None,
            (CounterOp::Pause, Some(c)) => c.pause(),
            (CounterOp::Restart, Some(c)) => c.restart(),
            (_, None) => {}
        },
        Change::Time(op) => totals(&mut trace.time, *op),
        Change::Memory(op) => totals(&mut trace.memory, *op),
    }
}

/// Applies `op` to a `call_time` or `call_memory` pattern's counters.
fn totals(slot: &mut Option<Arc<CallTotals>>, op: CounterOp) {
    match (op, &*slot) {
        (CounterOp::Start, Some(t)) => t.restart(),
        (CounterOp::Start, None) => *slot = Some(Arc::default()),
        (CounterOp::Stop, _) => *slot = None,
        (CounterOp::Pause, Some(t)) => t.pause(),
        (CounterOp::Restart, Some(t)) => t.restart(),
        (_, None) => {}
    }
}

/// The changes that give a function `trace` (fresh counters).
fn changes_of(trace: &FunctionTrace) -> Vec<Change> {
    let mut changes = Vec::new();
    if let Some(c) = &trace.call {
        changes.push(Change::Call(Some(c.clone())));
    }
    if let Some(m) = &trace.meta {
        changes.push(Change::Meta(Some(m.clone())));
    }
    if trace.count.is_some() {
        changes.push(Change::Count(CounterOp::Start));
    }
    if trace.time.is_some() {
        changes.push(Change::Time(CounterOp::Start));
    }
    if trace.memory.is_some() {
        changes.push(Change::Memory(CounterOp::Start));
    }
    changes
}
