//! Spawning: a new process running a function or a fun, linked to or
//! monitored by its parent as asked, queued to run.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::{Export, Term};

use crate::code::CodeServer;
use crate::loader::{Instr, LoadError};
use crate::process::{Exception, GcSettings, Process, ProcessHandle};
use crate::runtime::Runtime;
use crate::trace::{flight_hook, probes};
use beamr_trace::{Mfa, TraceFlags, TraceTag};

/// What to run in a new process.
#[derive(Clone, Copy)]
pub enum SpawnTarget {
    /// `M:F(Args)`.
    Mfa(Atom, Atom),
    /// A fun (closure or export fun) applied to the arguments.
    Fun(Term),
}

/// Options of a spawn.
#[derive(Clone, Copy, Default)]
pub struct SpawnOptions {
    /// Link parent and child.
    pub link: bool,
    /// Monitor the child; the reference is returned.
    pub monitor: bool,
    /// The group leader of a process spawned without a parent.
    pub group_leader: Option<Term>,
    /// Keep the exit reason for [`Runtime::wait_exit`].
    pub watched: bool,
    /// Start with `process_flag(trap_exit, true)`.
    pub trap_exit: bool,
    /// The priority level (`spawn_opt`'s `{priority, P}`).
    pub priority: Option<Atom>,
    /// The program's main process (`run_main`'s): traced as
    /// `TraceControl::take_main` says, when it says.
    pub program: bool,
    /// Garbage-collection settings (`spawn_opt`'s `message_queue_data`).
    pub gc: GcSettings,
    /// `spawn_opt`'s `max_heap_size`, when given; the runtime's default
    /// (`erlang:system_flag(max_heap_size, _)`) otherwise.
    pub max_heap_size: Option<crate::process::MaxHeapSize>,
    /// `spawn_opt`'s `min_heap_size` (rounded as the BEAM rounds it), when
    /// given: the child's young generation starts at it and never goes
    /// below it.
    pub min_heap_size: Option<u64>,
    /// `spawn_opt`'s `fullsweep_after`, when given.
    pub fullsweep_after: Option<u32>,
    /// `spawn_opt`'s `async_dist`.
    pub async_dist: bool,
    /// Spawn the process without queueing it: it runs once
    /// [`Runtime::release_held`] lets it (a spawn for another node records
    /// the link and monitor the requester asked for first, so that even a
    /// child that ends at once is seen to end).
    pub held: bool,
    /// `spawn_request`'s reply tag (a term on the parent's heap) when the
    /// parent is to be told of the success: it gets `{Tag, ReqId, ok, Pid}`
    /// before the child can run, so before anything the child sends.
    pub spawn_reply: Option<Term>,
    /// A `spawn_request`: the call returns request ids (the monitor's, when
    /// monitoring) even when neither monitoring nor replying.
    pub request: bool,
}

/// The parent's `spawn` and the child's `spawned` events (only when either
/// is traced for `procs`; the call arguments are then built on the child's
/// heap).
fn fire_spawn_probes(
    parent: &mut Process,
    child: &mut Process,
    target: SpawnTarget,
    args: &[Term],
) {
    if !(parent.trace.wants(TraceFlags::PROCS) || child.trace.wants(TraceFlags::PROCS)) {
        return;
    }
    let (mfa, fun_args);
    let call_args: &[Term] = match target {
        SpawnTarget::Mfa(module, function) => {
            mfa = Mfa {
                module,
                function,
                arity: args.len() as u32,
            };
            args
        }
        SpawnTarget::Fun(fun) => {
            let fun = child.heap.copy_term(fun);
            let list = child.heap.list(args);
            mfa = Mfa {
                module: Atom::ERLANG,
                function: apply_atom(),
                arity: 2,
            };
            fun_args = [fun, list];
            &fun_args
        }
    };
    let (parent_pid, child_pid) = (parent.pid, child.pid);
    probes::spawn(
        &mut parent.trace,
        TraceTag::Spawn,
        parent_pid,
        child_pid,
        mfa,
        call_args,
    );
    probes::spawn(
        &mut child.trace,
        TraceTag::Spawned,
        child_pid,
        parent_pid,
        mfa,
        call_args,
    );
}

/// The atom `apply`, looked up once: a traced spawn of a fun names
/// `erlang:apply/2`, and each lookup of the atom table costs more than the
/// event's write to a ring buffer.
fn apply_atom() -> Atom {
    static APPLY: std::sync::OnceLock<Atom> = std::sync::OnceLock::new();
    *APPLY.get_or_init(|| Atom::new("apply").expect("atom"))
}

impl Runtime {
    /// The most processes that may exist at once: `+P`'s, or erts's
    /// default (262,144; 1,048,576 from OTP 26). A spawn past it fails with
    /// `system_limit`.
    pub fn process_limit(&self) -> usize {
        match self.process_limit_set() {
            0 if crate::code::otp_release() >= 26 => 1 << 20,
            0 => 1 << 18,
            n => n,
        }
    }

    /// The entry address of exported `module:function/arity`, loading the module.
    pub fn entry(
        &self,
        module: Atom,
        function: Atom,
        arity: u32,
    ) -> Result<*const Instr, LoadError> {
        CodeServer::global().ensure_loaded(module)?;
        let code = Export::intern(module, function, arity)
            .code
            .load(Ordering::Acquire);
        if code == 0 {
            return Err(LoadError::Atom {
                module: module.name().to_string(),
                reason: format!("function {module}:{function}/{arity} is undefined"),
            });
        }
        Ok(code as *const Instr)
    }

    /// Spawns a process running `target` with `args` (copied from the
    /// caller's heap). Returns the pid, and the monitor reference's ids when
    /// asked to monitor (a `spawn_request`'s request ids, which are the
    /// monitor's when it monitors).
    ///
    /// The child is traced as its parent passes on (`set_on_spawn`) or else
    /// as the runtime traces new processes. Probes: the parent's `spawn` and
    /// the child's `spawned` (then `link` and `getting_linked` when linked),
    /// with `{M, F, Args}` (`{erlang, apply, [Fun,
    /// Args]}` for a fun, as on the BEAM); then the child's `call` of its
    /// function when that has a trace pattern (`M:F` or an export fun),
    /// as the BEAM's new process meets the pattern entering it.
    pub fn spawn(
        &self,
        mut parent: Option<&mut Process>,
        target: SpawnTarget,
        args: &[Term],
        options: SpawnOptions,
    ) -> Result<(Term, Option<[u32; 3]>), Exception> {
        if self.processes.len() >= self.process_limit() {
            // As erts: the error, and a report with no group leader.
            let from = parent.as_deref().map_or(Term::NIL, |p| p.pid);
            self.log_emulator_text(from, None, "Too many processes");
            return Err(Exception::error(Term::atom(Atom::SYSTEM_LIMIT)));
        }
        let pid = self.processes.new_pid();
        let heap = match options.min_heap_size {
            Some(words) => {
                let mut heap = Heap::with_capacity(words as usize);
                heap.set_min_heap_size(words as usize);
                heap
            }
            None => Heap::new(),
        };
        let mut child = Box::new(Process::with_heap(pid, heap));
        child.gc = options.gc;
        child.gc.max_heap = options
            .max_heap_size
            .unwrap_or_else(|| self.default_max_heap());
        if let Some(n) = options.fullsweep_after {
            child.heap.set_fullsweep_after(n);
        }
        child.async_dist = options.async_dist;
        if let Some(parent) = parent.as_deref() {
            child.parent = parent.pid;
        }
        let args: Vec<Term> = args.iter().map(|&a| child.heap.copy_term(a)).collect();
        // The export the child enters through, whose trace patterns its
        // first call meets (a closure enters its code directly).
        let mut entered: Option<&'static Export> = None;
        match target {
            SpawnTarget::Mfa(m, f) => {
                child.initial_call = (m, f, args.len() as u32);
                match self.entry(m, f, args.len() as u32) {
                    Ok(code) => {
                        entered = Some(Export::intern(m, f, args.len() as u32));
                        child.prepare_call(code, &args);
                    }
                    Err(_) => {
                        // The BEAM spawns the process, which then fails with undef.
                        let arg_list = child.heap.list(&args);
                        let mut e = Exception::error(Term::atom(Atom::UNDEF));
                        e.args = arg_list;
                        e.mfa = Some((m, f));
                        child.startup_error = Some(Box::new(e));
                    }
                }
            }
            SpawnTarget::Fun(fun) => {
                let fun = child.heap.copy_term(fun);
                // A process spawned with a fun starts, for process_info, in
                // erlang:apply/2 (as on the BEAM).
                child.initial_call = (Atom::ERLANG, apply_atom(), 2);
                if let Some(c) = fun.as_closure() {
                    let mut all = args.clone();
                    all.extend_from_slice(c.free);
                    let mut code = c.entry.code.load(Ordering::Acquire);
                    if code == 0 {
                        let _ = CodeServer::global().ensure_loaded(c.entry.module);
                        code = c.entry.code.load(Ordering::Acquire);
                    }
                    if code == 0 || c.entry.arity as usize != args.len() {
                        return Err(Exception::badarg());
                    }
                    child.prepare_call(code as *const Instr, &all);
                } else if let Some(e) = fun.as_export() {
                    let code = self
                        .entry(e.module, e.function, e.arity)
                        .map_err(|_| Exception::badarg())?;
                    entered = Some(e);
                    child.prepare_call(code, &args);
                } else {
                    return Err(Exception::badarg());
                }
            }
        }
        child.trace = parent
            .as_deref_mut()
            .and_then(|p| p.trace.inherit_on_spawn())
            .or_else(|| options.program.then(|| self.trace.take_main()).flatten())
            .unwrap_or_else(|| self.trace.for_new_process());
        if let Some(parent) = parent.as_deref_mut() {
            fire_spawn_probes(parent, &mut child, target, &args);
            if crate::trace::PROBES && parent.seq_token != Term::NIL {
                crate::signals::seq_trace::pass_to_child(parent, &mut child);
            }
        }
        if flight_hook::installed() {
            let (module, function, arity) = child.initial_call;
            let other = parent.as_deref().map_or(Term::NIL, |p| p.pid);
            let mfa = Mfa {
                module,
                function,
                arity,
            };
            flight_hook::spawned(child.pid, other, &mfa);
        }
        let mut monitor = None;
        child.watched = options.watched;
        child.trap_exit = options.trap_exit;
        if let Some(level) = options.priority {
            child.priority = level;
        }
        if let Some(gl) = options.group_leader {
            // Another node's pid is boxed: the child keeps its own copy.
            child.group_leader = child.heap.copy_term(gl);
        }
        if let Some(parent) = parent {
            child.group_leader = child.heap.copy_term(parent.group_leader);
            if options.link {
                parent.links.push(pid);
                child.links.push(parent.pid);
                probes::link(&mut parent.trace, TraceTag::Link, parent.pid, pid);
                probes::link(&mut child.trace, TraceTag::GettingLinked, pid, parent.pid);
            }
            if options.monitor || options.request {
                monitor = Some(self.new_ref_ids());
            }
            if let (true, Some(ids)) = (options.monitor, monitor) {
                parent.monitors.push((ids, pid, None));
                child.monitored_by.push((ids, parent.pid, None));
            }
            if let (Some(tag), Some(ids)) = (options.spawn_reply, monitor) {
                let request = parent.heap.local_ref(ids);
                let reply = parent
                    .heap
                    .tuple(&[tag, request, Term::atom(Atom::OK), pid]);
                crate::signals::deliver_to_self(self, parent, reply);
            }
        }
        if let Some(export) = entered {
            if crate::trace::PROBES && export.trace.load(Ordering::Relaxed) != 0 {
                crate::interp::first_call(self, &mut child, export, &args);
            }
        }
        let handle = Arc::new(ProcessHandle::new(child));
        self.processes.insert(handle.clone());
        if !options.held {
            self.run_queues.push(handle);
        }
        Ok((pid, monitor))
    }

    /// Lets a process spawned with [`SpawnOptions::held`] run.
    pub fn release_held(&self, pid: Term) {
        if let Some(handle) = self.processes.get(pid) {
            self.run_queues.push(handle);
        }
    }
}
