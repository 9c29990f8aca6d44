//! [`Runtime`]: what every process shares: loaded code, the process table,
//! registered names, run queues, timers, and the operations that cross
//! processes (spawn, send, exit).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use beamr_core::atom::Atom;
use beamr_core::term::{Export, Term};

use crate::code::{CodePath, CodeServer};
use crate::interp::Outcome;
use crate::loader::{Instr, LoadError};
use crate::process::{Exception, Payload, Process, ProcessHandle, ProcessTable, Registry, Signal};
use crate::sched::{spawn_schedulers, RunQueues, TimerAction, TimerService};

/// The shared state of one beamr runtime.
pub struct Runtime {
    /// Loaded modules and the code path (shared by every runtime of the OS process).
    pub code: &'static CodeServer,
    /// When the runtime started (the origin of monotonic time).
    pub started: Instant,
    /// Live processes.
    pub processes: ProcessTable,
    /// Registered names.
    pub names: Registry,
    /// Active process aliases (`erlang:alias/0,1`, `monitor/3`'s `alias`
    /// option): the reference's ids, its owner, and how it ends.
    pub aliases: Mutex<HashMap<[u32; 3], (Term, AliasMode)>>,
    /// Runnable processes.
    pub run_queues: RunQueues,
    /// Timers.
    pub timers: TimerService,
    /// ETS tables.
    pub ets: crate::ets::Tables,
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
}

impl Runtime {
    /// A runtime loading code from `path` (appended to the process-wide code path).
    pub fn new(path: CodePath) -> Runtime {
        let code = CodeServer::global();
        for dir in path.dirs() {
            code.add_path(dir.clone());
        }
        Runtime {
            code,
            started: Instant::now(),
            processes: ProcessTable::default(),
            names: Registry::default(),
            aliases: Mutex::new(HashMap::new()),
            run_queues: RunQueues::default(),
            timers: TimerService::default(),
            ets: crate::ets::Tables::default(),
            next_ref: AtomicU64::new(1),
            exits: Mutex::new(Vec::new()),
            exited: Condvar::new(),
        }
    }

    /// A fresh local reference's id words.
    pub fn new_ref_ids(&self) -> [u32; 3] {
        let n = self.next_ref.fetch_add(1, Ordering::Relaxed);
        [n as u32, (n >> 32) as u32, 0]
    }

    /// Runs `module:function(args...)` to completion in `p`, on this thread,
    /// loading code as needed; no other process runs. The result is in
    /// `p.x[0]` on return.
    pub fn call_in(
        &self,
        p: &mut Process,
        module: Atom,
        function: Atom,
        args: &[Term],
    ) -> Result<Outcome, LoadError> {
        let code = self.entry(module, function, args.len() as u32)?;
        p.prepare_call(code, args);
        loop {
            match crate::interp::run(self, p, 4000) {
                Outcome::Yielded => continue,
                done => return Ok(done),
            }
        }
    }

    /// The entry address of exported `module:function/arity`, loading the module.
    pub fn entry(
        &self,
        module: Atom,
        function: Atom,
        arity: u32,
    ) -> Result<*const Instr, LoadError> {
        self.code.ensure_loaded(module)?;
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
    /// asked to monitor.
    pub fn spawn(
        &self,
        parent: Option<&mut Process>,
        target: SpawnTarget,
        args: &[Term],
        options: SpawnOptions,
    ) -> Result<(Term, Option<[u32; 3]>), Exception> {
        let pid = self.processes.new_pid();
        let mut child = Box::new(Process::new(pid));
        let args: Vec<Term> = args.iter().map(|&a| child.heap.copy_term(a)).collect();
        match target {
            SpawnTarget::Mfa(m, f) => {
                child.initial_call = (m, f, args.len() as u32);
                match self.entry(m, f, args.len() as u32) {
                    Ok(code) => child.prepare_call(code, &args),
                    Err(_) => {
                        // The BEAM spawns the process, which then fails with undef.
                        let arg_list = child.heap.list(&args);
                        let mut e = Exception::error(Term::atom(Atom::UNDEF));
                        e.args = arg_list;
                        e.mfa = Some((m, f));
                        child.startup_error = Some(e);
                    }
                }
            }
            SpawnTarget::Fun(fun) => {
                let fun = child.heap.copy_term(fun);
                // A process spawned with a fun starts, for process_info, in
                // erlang:apply/2 (as on the BEAM).
                child.initial_call = (Atom::ERLANG, Atom::new("apply").expect("atom"), 2);
                if let Some(c) = fun.as_closure() {
                    let mut all = args.clone();
                    all.extend_from_slice(c.free);
                    let mut code = c.entry.code.load(Ordering::Acquire);
                    if code == 0 {
                        let _ = self.code.ensure_loaded(c.entry.module);
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
                    child.prepare_call(code, &args);
                } else {
                    return Err(Exception::badarg());
                }
            }
        }
        let mut monitor = None;
        child.watched = options.watched;
        child.trap_exit = options.trap_exit;
        if let Some(level) = options.priority {
            child.priority = level;
        }
        if let Some(gl) = options.group_leader {
            child.group_leader = gl;
        }
        if let Some(parent) = parent {
            child.group_leader = parent.group_leader;
            if options.link {
                parent.links.push(pid);
                child.links.push(parent.pid);
            }
            if options.monitor {
                let ids = self.new_ref_ids();
                parent.monitors.push((ids, pid, None));
                child.monitored_by.push((ids, parent.pid, None));
                monitor = Some(ids);
            }
        }
        let handle = Arc::new(ProcessHandle::new(child));
        self.processes.insert(handle.clone());
        self.run_queues.push(handle);
        Ok((pid, monitor))
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

    /// Sends a signal to the process `pid`; false if there is no such process.
    pub fn send_signal(&self, pid: Term, signal: Signal) -> bool {
        match self.processes.get(pid) {
            Some(handle) => {
                if handle.push_signal(signal) {
                    self.run_queues.push(handle);
                }
                true
            }
            None => false,
        }
    }

    /// Sends `message` (copied) to `pid`. Sending to a dead process does nothing.
    pub fn send(&self, pid: Term, message: Term) {
        if let Some(handle) = self.processes.get(pid) {
            if handle.send_message(message) {
                self.run_queues.push(handle);
            }
        }
    }

    /// Sends `message` through the alias `reference`; dropped when the alias
    /// is not active.
    pub fn send_alias(&self, reference: Term, message: Term) {
        let Some(r) = reference.as_ref() else {
            return;
        };
        let ids = [r.ids[0], r.ids[1], r.ids[2]];
        let owner = {
            let mut aliases = self.aliases.lock().unwrap_or_else(|e| e.into_inner());
            match aliases.get(&ids) {
                Some(&(owner, mode)) => {
                    if matches!(mode, AliasMode::Reply | AliasMode::ReplyDemonitor) {
                        aliases.remove(&ids);
                    }
                    owner
                }
                None => return,
            }
        };
        self.send(owner, message);
    }

    /// Deactivates the alias `ids` if it ends with its monitor.
    pub fn monitor_ended(&self, ids: [u32; 3]) {
        let mut aliases = self.aliases.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&(_, mode)) = aliases.get(&ids) {
            if matches!(mode, AliasMode::Demonitor | AliasMode::ReplyDemonitor) {
                aliases.remove(&ids);
            }
        }
    }

    /// Starts a `receive ... after` timer for `p`.
    pub fn start_receive_timer(&self, p: &mut Process, after: Duration) {
        p.timer.generation += 1;
        p.timer.active = true;
        p.timer.fired = false;
        let (pid, generation) = (p.pid, p.timer.generation);
        self.timers
            .start(after, |_| TimerAction::ReceiveTimeout { pid, generation });
    }

    /// Carries out a fired timer.
    pub fn fire_timer(&self, action: TimerAction) {
        match action {
            TimerAction::ReceiveTimeout { pid, generation } => {
                self.send_signal(pid, Signal::Timeout { generation });
            }
            TimerAction::Send { to, message } => {
                let pid = match to.as_atom() {
                    Some(name) => self.names.whereis(name),
                    None => Some(to),
                };
                if let Some(pid) = pid {
                    self.send_signal(pid, Signal::Message(message));
                }
            }
        }
    }

    /// The exit reason of an uncaught exception: `Reason` for exit,
    /// `{Reason, Trace}` for error, `{{nocatch, Value}, Trace}` for throw.
    pub fn exit_reason(&self, p: &mut Process, e: Exception, trace: Term) -> Term {
        match e.class {
            crate::process::Class::Exit => e.reason,
            crate::process::Class::Error => p.heap.tuple(&[e.reason, trace]),
            crate::process::Class::Throw => {
                let nocatch = p.heap.tuple(&[Term::atom(Atom::NOCATCH), e.reason]);
                p.heap.tuple(&[nocatch, trace])
            }
        }
    }

    /// Ends a process: removes it from the tables, breaks its links with
    /// exit signals, and tells its monitors.
    pub fn terminate(&self, handle: &ProcessHandle, process: Box<Process>, reason: Term) {
        handle.state.exit();
        self.processes.remove(process.pid);
        if let Some(name) = process.registered_name {
            self.names.unregister(name);
        }
        self.ets.owner_exited(self, process.pid);
        for &link in &process.links {
            self.send_signal(
                link,
                Signal::Exit {
                    from: process.pid,
                    reason: Payload::copy(reason),
                    linked: true,
                },
            );
        }
        for &(ids, watcher, name) in &process.monitored_by {
            self.monitor_ended(ids);
            let mut heap = beamr_core::heap::Heap::new();
            let reference = heap.local_ref(ids);
            let reason = heap.copy_term(reason);
            let object = match name {
                Some(name) => heap.tuple(&[Term::atom(name), Term::atom(Atom::NONODE_NOHOST)]),
                None => process.pid,
            };
            let msg = heap.tuple(&[
                Term::atom(Atom::DOWN),
                reference,
                Term::atom(Atom::PROCESS),
                object,
                reason,
            ]);
            self.send_signal(
                watcher,
                Signal::Down {
                    ids,
                    message: Payload {
                        term: msg,
                        heap: Some(heap),
                    },
                },
            );
        }
        for &(ids, target, _) in &process.monitors {
            let mut heap = beamr_core::heap::Heap::new();
            let reference = heap.local_ref(ids);
            self.send_signal(
                target,
                Signal::Demonitor {
                    from: process.pid,
                    reference: Payload {
                        term: reference,
                        heap: Some(heap),
                    },
                },
            );
        }
        if process.watched {
            let mut exits = self.exits.lock().unwrap_or_else(|e| e.into_inner());
            exits.push((process.pid, Payload::copy(reason)));
            self.exited.notify_all();
        }
        process.recycle();
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

    /// Runs `module:function(args)` as the first process on `schedulers`
    /// scheduler threads until it exits; returns its exit reason (`normal`
    /// when the call returned). Other processes are stopped then.
    pub fn run_main(
        self: &Arc<Runtime>,
        module: Atom,
        function: Atom,
        args: &[Term],
        schedulers: usize,
    ) -> Result<Payload, LoadError> {
        self.entry(module, function, args.len() as u32)?;
        crate::code::embedded::ensure_embedded(self.code)?;
        let cannot_spawn = |_| LoadError::Atom {
            module: module.name().to_string(),
            reason: "cannot spawn".into(),
        };
        let gl_module = Atom::new(crate::code::embedded::GROUP_LEADER.0).expect("atom");
        let start = Atom::new("start").expect("atom");
        let (gl, _) = self
            .spawn(
                None,
                SpawnTarget::Mfa(gl_module, start),
                &[],
                SpawnOptions::default(),
            )
            .map_err(cannot_spawn)?;
        // erl -noshell's group leader is the `user` process; io:format(user, ...) names it.
        self.register_name(Atom::new("user").expect("atom"), gl);
        let init_module = Atom::new(crate::code::embedded::INIT.0).expect("atom");
        let options = SpawnOptions {
            group_leader: Some(gl),
            ..SpawnOptions::default()
        };
        let (init, _) = self
            .spawn(None, SpawnTarget::Mfa(init_module, start), &[], options)
            .map_err(cannot_spawn)?;
        self.register_name(Atom::new("init").expect("atom"), init);
        let logger_module = Atom::new(crate::code::embedded::LOGGER.0).expect("atom");
        let mut boot = Process::new(self.processes.new_pid());
        let boot_fn = Atom::new("boot").expect("atom");
        if !matches!(
            self.call_in(&mut boot, logger_module, boot_fn, &[])?,
            Outcome::Returned
        ) {
            return Err(LoadError::Atom {
                module: logger_module.name().to_string(),
                reason: "boot/0 failed".into(),
            });
        }
        let (logger, _) = self
            .spawn(None, SpawnTarget::Mfa(logger_module, start), &[], options)
            .map_err(cannot_spawn)?;
        self.register_name(Atom::new("logger").expect("atom"), logger);
        let sup_module = Atom::new(crate::code::embedded::KERNEL_SUP.0).expect("atom");
        let (kernel_sup, _) = self
            .spawn(None, SpawnTarget::Mfa(sup_module, start), &[], options)
            .map_err(cannot_spawn)?;
        self.register_name(Atom::new("kernel_sup").expect("atom"), kernel_sup);
        let ac_module = Atom::new(crate::code::embedded::APP_CONTROLLER.0).expect("atom");
        self.spawn(None, SpawnTarget::Mfa(ac_module, start), &[], options)
            .map_err(cannot_spawn)?;
        let timer_rt = self.clone();
        let timer_thread = std::thread::Builder::new()
            .name("beamr-timers".into())
            .spawn(move || {
                let rt = timer_rt.clone();
                timer_rt.timers.run(|action| rt.fire_timer(action))
            })
            .expect("spawn timer thread");
        let threads = spawn_schedulers(self, schedulers.max(1));
        // The application controller registers itself once its table
        // exists: the program may read the application environment at once.
        let ac_name = Atom::new("application_controller").expect("atom");
        let deadline = Instant::now() + Duration::from_secs(2);
        while self.names.whereis(ac_name).is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_micros(50));
        }
        let options = SpawnOptions {
            group_leader: Some(gl),
            watched: true,
            // As erl's boot process, which runs the -s functions, does.
            trap_exit: true,
            ..SpawnOptions::default()
        };
        let (pid, _) = self
            .spawn(None, SpawnTarget::Mfa(module, function), args, options)
            .map_err(cannot_spawn)?;
        let reason = self.wait_exit(pid);
        self.run_queues.shutdown();
        self.timers.shutdown();
        for t in threads {
            let _ = t.join();
        }
        let _ = timer_thread.join();
        Ok(reason)
    }
}
