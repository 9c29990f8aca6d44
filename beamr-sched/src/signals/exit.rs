//! A process's end: its exit reason, and the signals its death sends (exit
//! signals to links, `'DOWN'` messages to monitors, demonitors to what it
//! monitored), its name, ETS tables and native objects (open files)
//! released.

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;

use crate::process::{Exception, ExitWork, Payload, Process, ProcessHandle, Signal};
use crate::runtime::Runtime;
use crate::trace::probes;
use beamr_trace::TraceTag;

/// How long [`Runtime::is_alive_after_signals`] waits for a running process
/// to take its inbox: many time slices, even on a loaded machine.
const ALIVE_WAIT: std::time::Duration = std::time::Duration::from_millis(500);

/// Links and monitors one exit slice takes down (a reduction each, a time
/// slice's worth, as on the BEAM).
pub const EXIT_SLICE: usize = 4000;

/// Links and monitors the first exit slice takes down: the BEAM's first
/// slice also pays for the start of the exit (measured on OTP 25, 27 and
/// 29: a process with 3,845 links and monitors ends in one slice, one with
/// 3,846 in two, 7,845 in two, 7,846 in three).
pub const FIRST_EXIT_SLICE: usize = EXIT_SLICE - 155;

impl Runtime {
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

    /// Ends a process: removes it from the tables, releases its name, ETS
    /// tables and native objects, then breaks its links with exit signals
    /// and tells its monitors, as much of that as fits in the first exit
    /// slice ([`FIRST_EXIT_SLICE`]). Returns the work left, which
    /// [`continue_exit`](Self::continue_exit) finishes in later slices; a
    /// process with few links and monitors ends here (`None`).
    ///
    /// Probes: `exit`, then `unregister` when it had a name, and
    /// `out_exited` when the work is done.
    #[must_use]
    pub fn terminate(
        &self,
        handle: &ProcessHandle,
        process: Box<Process>,
        reason: Term,
    ) -> Option<Box<ExitWork>> {
        let mut work = ExitWork::new(process, reason);
        let process = &mut work.process;
        let pid = process.pid;
        probes::exit(&mut process.trace, pid, reason);
        crate::trace::flight_hook::exited(pid, reason);
        // The trace sessions only it held end with it (see `trace::Session`).
        for session in crate::trace::Session::released_by(pid) {
            self.end_trace_session(&session);
        }
        // Links and monitors whose signals it never saw hear of its death
        // too; once the inbox is closed, new ones are refused (noproc).
        // Objects handed to it are released with its own.
        for signal in handle.close_inbox() {
            if matches!(
                signal,
                Signal::Link { .. }
                    | Signal::Unlink { .. }
                    | Signal::Monitor { .. }
                    | Signal::Demonitor { .. }
                    | Signal::Adopt(_)
            ) {
                super::deliver::deliver(self, process, signal);
            }
        }
        self.processes.remove(process.pid);
        process.owned.release_all();
        if let Some(name) = process.registered_name {
            self.names.unregister(name);
            probes::register(&mut process.trace, TraceTag::Unregister, pid, name);
        }
        self.ets.owner_exited(
            process.pid,
            |heir| self.processes.get(heir).is_some(),
            |heir, transfer| {
                self.send_signal(heir, Signal::Message(transfer, None));
            },
        );
        super::remote::exited(self, pid, reason);
        if self.exit_slice(&mut work, FIRST_EXIT_SLICE) {
            None
        } else {
            Some(Box::new(work))
        }
    }

    /// One more slice of an exit [`terminate`](Self::terminate) left
    /// unfinished: at most [`EXIT_SLICE`] more links and monitors. Returns
    /// the work still left (`None` once the process has ended).
    #[must_use]
    pub fn continue_exit(&self, mut work: Box<ExitWork>) -> Option<Box<ExitWork>> {
        if self.exit_slice(&mut work, EXIT_SLICE) {
            None
        } else {
            Some(work)
        }
    }

    /// Sends the exit signals, `'DOWN'`s and demonitors of `work` that are
    /// not sent yet, `budget` at most (one reduction each, as on the
    /// BEAM). True if that ended the process: then it records the exit of a
    /// watched process and fires `out_exited`.
    fn exit_slice(&self, work: &mut ExitWork, budget: usize) -> bool {
        let ExitWork {
            process,
            reason,
            links,
            monitored_by,
            monitors,
        } = work;
        let reason = *reason;
        let mut budget = budget;
        while *links < process.links.len() {
            if budget == 0 {
                return false;
            }
            budget -= 1;
            let link = process.links[*links];
            *links += 1;
            self.send_link_exit(process, link, reason);
        }
        while *monitored_by < process.monitored_by.len() {
            if budget == 0 {
                return false;
            }
            budget -= 1;
            let (ids, watcher, name) = process.monitored_by[*monitored_by];
            *monitored_by += 1;
            let pid = process.pid;
            self.send_down(
                watcher,
                ids,
                Term::atom(Atom::PROCESS),
                reason,
                |heap| match name {
                    Some(name) => heap.tuple(&[
                        Term::atom(name),
                        Term::atom(beamr_core::etf::local::this_node().0),
                    ]),
                    None => pid,
                },
            );
        }
        while *monitors < process.monitors.len() {
            if budget == 0 {
                return false;
            }
            budget -= 1;
            let (ids, target, _) = process.monitors[*monitors];
            *monitors += 1;
            if target.is_local_port() {
                self.port_demonitor(target, ids);
                continue;
            }
            self.send_signal(
                target,
                Signal::Demonitor {
                    from: process.pid,
                    ids,
                },
            );
        }
        if process.watched {
            self.record_exit(process.pid, reason);
        }
        let pid = process.pid;
        probes::exiting(&mut process.trace, TraceTag::OutExited, pid);
        true
    }

    /// The exit signal of the exiting `process` to `link` (a process or a
    /// port), with `reason` and its seq_trace token.
    fn send_link_exit(&self, process: &mut Process, link: Term, reason: Term) {
        if link.is_local_port() {
            self.port_link_exit(link, process.pid, reason);
            return;
        }
        let (reason, token) = if !crate::trace::PROBES || process.seq_token == Term::NIL {
            (Payload::copy(reason), Term::NIL)
        } else {
            let mut heap = Heap::new();
            let term = heap.copy_term(reason);
            let token = super::seq_trace::stamp_exit(self, process, link, reason, &mut heap);
            let heap = Some(heap);
            (Payload { term, heap }, token)
        };
        self.send_signal(
            link,
            Signal::Exit {
                from: process.pid,
                reason,
                linked: true,
                token,
            },
        );
    }

    /// Ends monitor `ids` of `watcher` on something that exited with
    /// `reason`: `{'DOWN', Ref, Kind, Object, Reason}` to the watcher,
    /// `Object` made by `object` (a pid, a port, `{Name, Node}`).
    pub fn send_down(
        &self,
        watcher: Term,
        ids: [u32; 3],
        kind: Term,
        reason: Term,
        object: impl FnOnce(&mut beamr_core::heap::Heap) -> Term,
    ) {
        self.monitor_ended(ids);
        let message = Payload::build(|heap| {
            let reference = heap.local_ref(ids);
            let reason = heap.copy_term(reason);
            let object = object(heap);
            heap.tuple(&[Term::atom(Atom::DOWN), reference, kind, object, reason])
        });
        self.send_signal(watcher, Signal::Down { ids, message });
    }

    /// Whether `pid` is alive once the signals already in its inbox have
    /// taken effect, as `is_process_alive/1` answers on the BEAM: a caller
    /// that sent `exit(Pid, kill)` sees `false` at once.
    ///
    /// When the process is not running, the caller delivers its inbox for
    /// it under its body lock (the rule of the module doc: another thread
    /// writes a heap only holding that lock). When it is running, the
    /// caller waits for the end of its slice, where it takes its inbox, but
    /// no longer than [`ALIVE_WAIT`] (two processes asking this of each
    /// other while both run would otherwise wait forever): then it answers
    /// from what it sees.
    pub fn is_alive_after_signals(&self, pid: Term) -> bool {
        let started = std::time::Instant::now();
        loop {
            let Some(handle) = self.processes.get(pid) else {
                return false;
            };
            if handle.state.is_exited() {
                return false;
            }
            // Its body lock free, it is not running: take its inbox for it
            // and see whether an exit is pending. Running, it takes its inbox
            // at its next slice (and dies there if it must): wait.
            if let Ok(mut body) = handle.body.try_lock() {
                return match body.as_mut() {
                    Some(p) => {
                        if handle.has_signals() {
                            super::deliver_signals(self, &handle, p);
                        }
                        p.pending_exit.is_none()
                    }
                    // Taken out of its body: it is being terminated.
                    None => false,
                };
            }
            if started.elapsed() > ALIVE_WAIT {
                return true;
            }
            std::thread::yield_now();
        }
    }

    /// Terminates `pid` now with reason `killed`.
    pub fn kill_now(&self, pid: Term) {
        let Some(handle) = self.processes.get(pid) else {
            return;
        };
        let mut body = handle.body.lock().unwrap_or_else(|e| e.into_inner());
        let Some(process) = body.take() else {
            return;
        };
        drop(body);
        // Not on a scheduler: the whole exit at once.
        if let Some(mut work) = self.terminate(&handle, process, Term::atom(Atom::KILLED)) {
            while !self.exit_slice(&mut work, usize::MAX) {}
        }
    }
}
