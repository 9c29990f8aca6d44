//! Call trace patterns (`erlang:trace_pattern/3` on functions, and
//! `beamr run --trace-call`): per function, what its calls fire.
//!
//! A function's [`FunctionTrace`] holds its call pattern (`global`: only
//! external calls fire it; `local`: every call), its `meta` pattern, its
//! `call_count` counter and its `call_time` clocks. The table maps
//! `{M, F, A}` to an `Arc` of it, replaced whole on every change, so the
//! interpreter's cold path clones the `Arc` under a read lock and runs
//! without it.
//!
//! The gates the interpreter tests, one load and one branch each:
//!
//! 1. An external call tests its export's word (`Export::trace`): 1 while
//!    the table holds an entry for the function, 0 otherwise. Kept in step
//!    with the table by [`apply`] under the table's write lock.
//! 2. A local call tests `trace::pattern::local_calls()`: true while some
//!    entry fires on local calls ([`FunctionTrace::fires_locally`]). Past
//!    it, [`at_address`] finds the callee among the few modules with such
//!    entries (kept in `local_modules`) and its entry.
//!
//! Loading a module drops the entries of its functions (the new code is
//! not traced, as on the BEAM) and applies the `on_load` pattern, if one
//! is set, to the new functions.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, LazyLock, RwLock};

use beamr_core::atom::Atom;
use beamr_core::term::{Export, Term};
use beamr_trace::{Mfa, Tracer};

use super::CodeServer;
use crate::loader::{Instr, Module};
use crate::trace::{pattern, CallCount, CallTime};

/// A compiled match specification: a `matchspec::MatchSpec`, held as
/// `Any` because this table lives below the match-spec layer (the
/// interpreter and the BIFs, above both, downcast it).
pub type CompiledSpec = Arc<dyn std::any::Any + Send + Sync>;

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
    /// The meta tracer.
    pub tracer: Arc<dyn Tracer>,
    /// The meta tracer as `trace_info/2` names it (a pid).
    pub tracer_term: Term,
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
}

impl FunctionTrace {
    /// True if nothing traces the function.
    pub fn is_empty(&self) -> bool {
        self.call.is_none() && self.meta.is_none() && self.count.is_none() && self.time.is_none()
    }

    /// True if local calls fire something (all but a global call pattern).
    pub fn fires_locally(&self) -> bool {
        self.call.as_ref().is_some_and(|c| c.local)
            || self.meta.is_some()
            || self.count.is_some()
            || self.time.is_some()
    }
}

/// What `call_count` and `call_time` are told.
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

type Key = (Atom, Atom, u32);

#[derive(Default)]
struct Table {
    functions: HashMap<Key, Arc<FunctionTrace>>,
    /// The module versions with an entry that fires on local calls.
    local_modules: Vec<Arc<Module>>,
    /// The `on_load` pattern: the changes applied to each module loaded.
    on_load: Vec<Change>,
    /// The `on_load` pattern as `trace_info(on_load, _)` reports it.
    on_load_trace: FunctionTrace,
}

static TABLE: LazyLock<RwLock<Table>> = LazyLock::new(Default::default);

/// Applies `changes` to every function of a loaded module that
/// `module:function/arity` names (`None` is the wildcard `'_'`): only
/// exported functions unless a change reaches local ones. Returns how
/// many functions matched.
pub fn apply(
    module: Option<Atom>,
    function: Option<Atom>,
    arity: Option<u32>,
    changes: &[Change],
) -> usize {
    let code = CodeServer::global();
    let modules: Vec<Arc<Module>> = match module {
        Some(m) => code.current(m).into_iter().collect(),
        None => code
            .loaded()
            .into_iter()
            .filter_map(|(m, _)| code.current(m))
            .collect(),
    };
    let locals = changes.iter().any(Change::reaches_local_functions);
    let mut table = TABLE.write().unwrap_or_else(|e| e.into_inner());
    let mut matched = 0;
    for m in &modules {
        for (name, n) in functions_of(m, locals) {
            if function.is_none_or(|f| f == name) && arity.is_none_or(|a| a == n) {
                update(&mut table, (m.name, name, n), changes);
                matched += 1;
            }
        }
    }
    rebuild_local_modules(&mut table);
    matched
}

/// Sets the call pattern `word` (`trace::pattern` bits; 0 removes it) on
/// the exported functions `module:function/arity` names, as a global
/// pattern: `beamr run --trace-call`. Returns how many matched.
pub fn set(module: Option<Atom>, function: Option<Atom>, arity: Option<u32>, word: u32) -> usize {
    let change = match word {
        0 => Change::CallOff { local: false },
        _ => Change::Call(Some(CallPattern {
            local: false,
            spec: Spec {
                flags: word & !pattern::CALL,
                ms: None,
            },
        })),
    };
    apply(module, function, arity, &[change])
}

/// Sets the `on_load` pattern: `changes` are applied to the functions of
/// every module loaded from now on.
pub fn set_on_load(changes: &[Change]) {
    let mut table = TABLE.write().unwrap_or_else(|e| e.into_inner());
    let mut trace = table.on_load_trace.clone();
    for change in changes {
        change_one(&mut trace, change);
    }
    table.on_load = changes_of(&trace);
    table.on_load_trace = trace;
}

/// The `on_load` pattern.
pub fn on_load() -> FunctionTrace {
    let table = TABLE.read().unwrap_or_else(|e| e.into_inner());
    table.on_load_trace.clone()
}

/// The patterns of `module:function/arity`, if it has any.
pub fn of(module: Atom, function: Atom, arity: u32) -> Option<Arc<FunctionTrace>> {
    let table = TABLE.read().unwrap_or_else(|e| e.into_inner());
    table.functions.get(&(module, function, arity)).cloned()
}

/// The patterns of the function an external call of `export` runs.
#[inline]
pub fn of_export(export: &Export) -> Option<Arc<FunctionTrace>> {
    of(export.module, export.function, export.arity)
}

/// The function whose code starts at `entry` and its patterns, if they
/// fire on local calls.
pub fn at_address(entry: *const Instr) -> Option<(Mfa, Arc<FunctionTrace>)> {
    let table = TABLE.read().unwrap_or_else(|e| e.into_inner());
    let module = table.local_modules.iter().find(|m| m.contains(entry))?;
    let function = module.function_at(module.index_of(entry))?;
    let key = (module.name, function.name, function.arity);
    let trace = table.functions.get(&key)?;
    trace.fires_locally().then(|| {
        let mfa = Mfa {
            module: key.0,
            function: key.1,
            arity: key.2,
        };
        (mfa, trace.clone())
    })
}

/// A module was loaded: its functions lose their patterns, and take the
/// `on_load` pattern if one is set.
pub(super) fn module_loaded(name: Atom) {
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
        update(&mut table, key, &[Change::Call(None), Change::Meta(None)]);
        update(
            &mut table,
            key,
            &[
                Change::Count(CounterOp::Stop),
                Change::Time(CounterOp::Stop),
            ],
        );
    }
    let on_load = table.on_load.clone();
    if !on_load.is_empty() {
        if let Some(module) = CodeServer::global().current(name) {
            let locals = on_load.iter().any(Change::reaches_local_functions);
            for (f, a) in functions_of(&module, locals) {
                update(&mut table, (name, f, a), &on_load);
            }
        }
    }
    rebuild_local_modules(&mut table);
}

/// The functions of `m` a pattern may match: every one with `locals`,
/// else the exported ones.
fn functions_of(m: &Module, locals: bool) -> Vec<(Atom, u32)> {
    if locals {
        m.functions.iter().map(|f| (f.name, f.arity)).collect()
    } else {
        m.exports.iter().map(|&(f, a, _)| (f, a)).collect()
    }
}

/// Applies `changes` to the entry of `key` and sets its export's word.
fn update(table: &mut Table, key: Key, changes: &[Change]) {
    let mut trace = table
        .functions
        .get(&key)
        .map(|t| FunctionTrace::clone(t))
        .unwrap_or_default();
    for change in changes {
        change_one(&mut trace, change);
    }
    let export = Export::intern(key.0, key.1, key.2);
    if trace.is_empty() {
        table.functions.remove(&key);
        export.trace.store(0, Ordering::Relaxed);
    } else {
        table.functions.insert(key, Arc::new(trace));
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
        }
        Change::Call(Some(_))
        | Change::Meta(Some(_))
        | Change::Count(CounterOp::Start)
        | Change::Time(CounterOp::Start)
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
        Change::Time(op) => match (op, &trace.time) {
            (CounterOp::Start, Some(t)) => t.restart(),
            (CounterOp::Start, None) => trace.time = Some(Arc::default()),
            (CounterOp::Stop, _) => trace.time = None,
            (CounterOp::Pause, Some(t)) => t.pause(),
            (CounterOp::Restart, Some(t)) => t.restart(),
            (_, None) => {}
        },
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
    changes
}

/// Recomputes the modules local calls look in, and the local-call gate.
fn rebuild_local_modules(table: &mut Table) {
    let mut names: Vec<Atom> = table
        .functions
        .iter()
        .filter(|(_, t)| t.fires_locally())
        .map(|(k, _)| k.0)
        .collect();
    names.sort_unstable_by_key(|a| a.index());
    names.dedup();
    let code = CodeServer::global();
    table.local_modules = names.into_iter().filter_map(|m| code.current(m)).collect();
    pattern::set_local_calls(!table.local_modules.is_empty());
}
