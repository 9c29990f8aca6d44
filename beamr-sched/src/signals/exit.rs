//! A process's end: its exit reason, and the signals its death sends (exit
//! signals to links, `'DOWN'` messages to monitors, demonitors to what it
//! monitored), its name, ETS tables and native objects (open files)
//! released.

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;

use crate::process::{Exception, Payload, Process, ProcessHandle, Signal};
use crate::runtime::Runtime;
use crate::trace::probes;
use beamr_trace::TraceTag;

/// How long [`Runtime::is_alive_after_signals`] waits for a running process
/// to take its inbox: many time slices, even on a loaded machine.
const ALIVE_WAIT: std::time::Duration = std::time::Duration::from_millis(500);

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

    /// Ends a process: removes it from the tables, breaks its links with
    /// exit signals, and tells its monitors.
    ///
    /// Probes: `exit`, then `unregister` when it had a name, and
    /// `out_exited` last.
    pub fn terminate(&self, handle: &ProcessHandle, mut process: Box<Process>, reason: Term) {
        let pid = process.pid;
        probes::exit(&mut process.trace, pid, reason);
        // The trace sessions only it held end with it (see `trace::Session`).
        for session in crate::trace::Session::released_by(pid) {
            self.end_trace_session(&session);
        }
        // Links and monitors whose signals it never saw hear of its death
        // too; once the inbox is closed, new ones are refused (noproc).
        for signal in handle.close_inbox() {
            if matches!(
                signal,
                Signal::Link { .. }
                    | Signal::Unlink { .. }
                    | Signal::Monitor { .. }
                    | Signal::Demonitor { .. }
            ) {
                super::deliver::deliver(self, &mut process, signal);
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
        for link in process.links.clone() {
            if link.is_local_port() {
                self.port_link_exit(link, process.pid, reason);
                continue;
            }
            let (reason, token) = if !crate::trace::PROBES || process.seq_token == Term::NIL {
                (Payload::copy(reason), Term::NIL)
            } else {
                let mut heap = Heap::new();
                let term = heap.copy_term(reason);
                let token =
                    super::seq_trace::stamp_exit(self, &mut process, link, reason, &mut heap);
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
        for &(ids, watcher, name) in &process.monitored_by {
            let pid = process.pid;
            self.send_down(
                watcher,
                ids,
                Term::atom(Atom::PROCESS),
                reason,
                |heap| match name {
                    Some(name) => heap.tuple(&[Term::atom(name), Term::atom(Atom::NONODE_NOHOST)]),
                    None => pid,
                },
            );
        }
        for &(ids, target, _) in &process.monitors {
            if target.is_local_port() {
                self.port_demonitor(target, ids);
                continue;
            }
            self.send_signal(
                target,
                Signal::Demonitor {
                    from: process.pid,
                    reference: Payload::build(|heap| heap.local_ref(ids)),
                },
            );
        }
        if process.watched {
            self.record_exit(process.pid, reason);
        }
        probes::exiting(&mut process.trace, TraceTag::OutExited, pid);
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
        self.terminate(&handle, process, Term::atom(Atom::KILLED));
    }
}
