//! [`Runtime`]: the state every process shares: the process table,
//! registered names, aliases, run queues, the timer service, ETS tables and
//! ports.
//!
//! Only the state lives here. What crosses processes is elsewhere, each in
//! one place: sending, delivering and exit signals in `signals`, spawning in
//! `sched::spawn`, starting a runtime (`Runtime::new`, `run_main`) in `boot`.
//! Loaded code is process-wide (`code::CodeServer::global()`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Instant;

use beamr_core::atom::Atom;
use beamr_core::hash::word::WordMap;
use beamr_core::term::Term;

use super::run_queue::RunQueues;
use super::timer_service::TimerService;
use crate::process::{Payload, ProcessTable, Registry};

/// The shared state of one beamr runtime.
pub struct Runtime {
    /// When the runtime started (the origin of monotonic time).
    pub started: Instant,
    /// Live processes.
    pub processes: ProcessTable,
    /// Registered names.
    pub names: Registry,
    /// Active process aliases (`erlang:alias/0,1`, `monitor/3`'s `alias`
    /// option): the reference's ids, its owner, and how it ends.
    pub aliases: Mutex<WordMap<[u32; 3], (Term, AliasMode)>>,
    /// Runnable processes.
    pub run_queues: RunQueues,
    /// Timers.
    pub timers: TimerService,
    /// ETS tables.
    pub ets: crate::ets::Tables,
    /// Live ports.
    pub ports: super::port_table::PortTable,
    /// Runtime-wide trace settings (how new processes are traced).
    pub trace: crate::trace::TraceControl,
    /// This runtime, for what must reach it later from outside a BIF call
    /// (a tracer sending trace messages); set by `run_main`.
    pub(crate) weak_self: std::sync::OnceLock<std::sync::Weak<Runtime>>,
    /// Reductions executed by all processes so far.
    pub(crate) reductions: super::stats::ReductionCounter,
    /// The command line's plain arguments (`beamr run ... -- ARGS`), which
    /// `init:get_plain_arguments/0` answers; set before [`Runtime::run_main`].
    pub plain_arguments: Mutex<Vec<String>>,
    /// The command line's flags (`-Flag Value...`, in order after erl's
    /// own `root`, `bindir`, `progname` and `home`), which
    /// `init:get_arguments/0` and `init:get_argument/1` answer: `-noshell`
    /// alone for `beamr run`, the user's flags for `beamr erl`; set before
    /// [`Runtime::run_main`].
    pub init_flags: Mutex<Vec<(String, Vec<String>)>>,
    /// The system logger (`erlang:system_flag(system_logger, _)`):
    /// `logger`, `undefined` or a pid; see `signals::system_logger`.
    pub(crate) system_logger: Mutex<Term>,
    /// The `max_heap_size` of processes spawned without one
    /// (`erlang:system_flag(max_heap_size, _)`).
    pub(crate) default_max_heap: Mutex<crate::process::MaxHeapSize>,
    /// The most processes that may exist at once (`+P`); 0: the release's
    /// default (see [`Runtime::process_limit`]).
    process_limit: std::sync::atomic::AtomicUsize,
    next_ref: AtomicU64,
    /// Exit reasons of exited processes someone may wait for
    /// ([`Runtime::run_main`]), each on a heap of its own.
    exits: Mutex<Vec<(Term, Payload)>>,
    exited: Condvar,
}

/// How a process alias ends, besides `erlang:unalias/1` and its owner's exit.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AliasMode {
    /// Only by `unalias/1`.
    Explicit,
    /// With its monitor (`demonitor/1,2` or the `'DOWN'` message).
    Demonitor,
    /// With its monitor, or after the first message sent through it.
    ReplyDemonitor,
    /// After the first message sent through it.
    Reply,
}

impl Runtime {
    /// The tables of a runtime with no process yet. [`Runtime::new`] (in
    /// `boot`) is the constructor to use: it also installs the native BIFs
    /// and the code path.
    pub(crate) fn empty() -> Runtime {
        Runtime {
            started: Instant::now(),
            processes: ProcessTable::default(),
            names: Registry::default(),
            aliases: Mutex::new(WordMap::default()),
            run_queues: RunQueues::default(),
            timers: TimerService::default(),
            ets: crate::ets::Tables::default(),
            ports: super::port_table::PortTable::default(),
            trace: crate::trace::TraceControl::default(),
            weak_self: std::sync::OnceLock::new(),
            reductions: super::stats::ReductionCounter::default(),
            plain_arguments: Mutex::new(Vec::new()),
            init_flags: Mutex::new(vec![("noshell".to_string(), Vec::new())]),
            system_logger: Mutex::new(Term::atom(Atom::new("logger").expect("atom"))),
            default_max_heap: Mutex::new(crate::process::MaxHeapSize::default()),
            process_limit: std::sync::atomic::AtomicUsize::new(0),
            next_ref: AtomicU64::new(1),
            exits: Mutex::new(Vec::new()),
            exited: Condvar::new(),
        }
    }

    /// The process limit `+P` set (0: none, erts's default for the
    /// release applies; `sched`'s `Runtime::process_limit` says which).
    pub fn process_limit_set(&self) -> usize {
        self.process_limit.load(Ordering::Relaxed)
    }

    /// Sets the process limit to `requested` rounded as erts rounds `+P`
    /// ([`super::erts_table_size`]).
    pub fn set_process_limit(&self, requested: usize) {
        let limit = super::erts_table_size(requested);
        self.process_limit.store(limit, Ordering::Relaxed);
    }

    /// The `max_heap_size` of processes spawned without one.
    pub fn default_max_heap(&self) -> crate::process::MaxHeapSize {
        *self
            .default_max_heap
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// Sets the `max_heap_size` of processes spawned without one; returns
    /// the previous one.
    pub fn set_default_max_heap(
        &self,
        limit: crate::process::MaxHeapSize,
    ) -> crate::process::MaxHeapSize {
        let mut current = self
            .default_max_heap
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        std::mem::replace(&mut *current, limit)
    }

    /// A fresh local reference's id words.
    pub fn new_ref_ids(&self) -> [u32; 3] {
        let n = self.next_ref.fetch_add(1, Ordering::Relaxed);
        [n as u32, (n >> 32) as u32, 0]
    }

    /// Registers `name` for the live process `pid`; false if the name is
    /// taken or the process is gone.
    pub fn register_name(&self, name: Atom, pid: Term) -> bool {
        let Some(handle) = self.processes.get(pid) else {
            return false;
        };
        let mut body = handle.body.lock().unwrap_or_else(|e| e.into_inner());
        match body.as_mut() {
            Some(p) if p.registered_name.is_none() && self.names.register(name, pid) => {
                p.registered_name = Some(name);
                true
            }
            _ => false,
        }
    }

    /// Keeps the exit reason of a watched process for [`Runtime::wait_exit`].
    pub(crate) fn record_exit(&self, pid: Term, reason: Term) {
        let mut exits = self.exits.lock().unwrap_or_else(|e| e.into_inner());
        exits.push((pid, Payload::copy(reason)));
        self.exited.notify_all();
    }

    /// [`Runtime::wait_exit`] for at most `timeout`: `None` when `pid` has
    /// not exited by then (its exit reason is kept for a later wait).
    pub fn wait_exit_timeout(&self, pid: Term, timeout: std::time::Duration) -> Option<Payload> {
        let deadline = Instant::now() + timeout;
        let mut exits = self.exits.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(i) = exits.iter().position(|(p, _)| *p == pid) {
                return Some(exits.swap_remove(i).1);
            }
            let left = deadline.checked_duration_since(Instant::now())?;
            exits = self
                .exited
                .wait_timeout(exits, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// Waits until `pid`, spawned with `watched`, has exited; returns its exit reason.
    pub fn wait_exit(&self, pid: Term) -> Payload {
        let mut exits = self.exits.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(i) = exits.iter().position(|(p, _)| *p == pid) {
                return exits.swap_remove(i).1;
            }
            exits = self.exited.wait(exits).unwrap_or_else(|e| e.into_inner());
        }
    }
}
