//! Signals to and from ports: a port's messages to its owner, the
//! messages a process sends a port (`Port ! {Pid, {command, Data}}`,
//! `{Pid, close}`, `{Pid, {connect, NewPid}}`), and a port's end, with the
//! exit signals and `'DOWN'` messages it sends, as the BEAM sends them:
//!
//! 1. A port that exits (its program's output ended without `eof`,
//!    `port_close/1`, `{Pid, close}`, its owner's death) sends an exit
//!    signal to every linked process, `normal` unless its owner's death
//!    ended it, then a `'DOWN'` to every monitor.
//! 2. `{Pid, close}` answers `{Port, closed}` after those signals.
//! 3. Messages from a port travel through the owner's inbox like any
//!    process's (`Signal::Message`), so the owner's order holds and its
//!    `'receive'` probe fires; they are sent under the port's lock and
//!    never after its exit (`runtime::port_table`'s protocol).
//! 4. A traced port's probes (`trace::port_probes`) fire here, under the
//!    port's lock: its opening ([`Runtime::insert_port`]), its messages,
//!    links, connections and end; the commands it is given fire in
//!    `Port::command_by`.

use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;
use beamr_trace::TraceTag;

use crate::process::{Payload, Process, Signal};
use crate::runtime::{Port, PortState, Runtime, Sent};
use crate::trace::port_probes;

/// Why a port ends, as its trace shows it.
#[derive(Copy, Clone, Debug)]
pub enum PortEnd {
    /// Its own doing: its program's output ended, bad data, a failed
    /// write (`in 0`, then `closed`).
    Own,
    /// `port_close/1` or `{Pid, close}` from the process `by` (`in close`,
    /// `'receive' {By, close}`, `closed`).
    Close(Term),
    /// An exit signal from `from` (a linked process's end, `exit/2`) with
    /// the reason as sent (`kill`, where the port exits `killed`): erts
    /// hands the port a close (`in 0`, `'receive' {From, close}`,
    /// `closed Sent`).
    Signal {
        /// The sender.
        from: Term,
        /// The reason it sent.
        sent: Term,
    },
}

impl Runtime {
    /// Puts a port just opened in the table, traced as new ports are
    /// (`erlang:trace(new_ports, ...)`), and fires its `open` and its
    /// owner's `getting_linked`: the one site every kind of port passes.
    pub fn insert_port(&self, port: Arc<Port>) {
        let trace = self.trace.for_new_port();
        let traced = !trace.flags().is_empty();
        if traced {
            port.state().trace = trace;
        }
        self.ports.insert(port.clone());
        if traced {
            let mut state = port.state();
            let owner = state.owner;
            let driver = Atom::new_within_limit(&port.name).unwrap_or(Atom::UNDEFINED);
            let t = &mut state.trace;
            port_probes::open(t, port.id, owner, driver);
            port_probes::running(t, TraceTag::In, port.id, Some("open"));
            port_probes::running(t, TraceTag::Out, port.id, Some("open"));
            port_probes::link(t, TraceTag::GettingLinked, port.id, owner);
        }
    }

    /// Sends the message `build` makes (on a heap of its own) from `port`
    /// to its owner, counting `bytes` as input. False when the port has
    /// exited.
    pub fn port_deliver(
        &self,
        port: &Port,
        bytes: usize,
        build: impl FnOnce(&mut Heap) -> Term,
    ) -> bool {
        self.port_deliver_all(port, vec![(bytes, Payload::build(build))])
    }

    /// Sends `messages` (each with the bytes of input it counts) from
    /// `port` to its owner, in order, as one task of the port: under one
    /// hold of its lock, which its trace shows scheduled in and out
    /// around them (`running_ports`' `in 0`/`out 0`). False when the port
    /// has exited.
    pub fn port_deliver_all(&self, port: &Port, messages: Vec<(usize, Payload)>) -> bool {
        let mut state = port.state();
        if state.closed {
            return false;
        }
        port_probes::running(&mut state.trace, TraceTag::In, port.id, None);
        for (bytes, message) in messages {
            self.deliver_port_message(port.id, &mut state, bytes, message);
        }
        port_probes::running(&mut state.trace, TraceTag::Out, port.id, None);
        true
    }

    /// Sends `message` from port `id` (its lock held as `state`) to its
    /// owner, counting `bytes` as the port's input: one message of
    /// [`Runtime::port_deliver_all`], or a built-in driver's answer to a
    /// command ([`Port::command_by`]).
    pub(crate) fn deliver_port_message(
        &self,
        id: Term,
        state: &mut PortState,
        bytes: usize,
        message: Payload,
    ) {
        let owner = state.owner;
        state.input += bytes as u64;
        if port_probes::wants_send(&state.trace) {
            let alive = self.processes.get(owner).is_some();
            port_probes::send(&mut state.trace, id, message.term, owner, alive);
        }
        self.send_signal(owner, Signal::Message(message, None));
    }

    /// Ends port `id` with `reason`: it leaves the table, its output
    /// channel closes, its links get exit signals and its monitors
    /// `'DOWN'` messages; then `closed_to`, if given, gets
    /// `{Port, closed}`. False when the port had exited already.
    pub fn port_exit(&self, id: Term, reason: Term, closed_to: Option<Term>) -> bool {
        self.port_exit_by(id, reason, closed_to, PortEnd::Own)
    }

    /// [`Runtime::port_exit`] for the cause `end`, which the port's trace
    /// shows.
    pub fn port_exit_by(
        &self,
        id: Term,
        reason: Term,
        closed_to: Option<Term>,
        end: PortEnd,
    ) -> bool {
        let Some(port) = self.ports.remove(id) else {
            return false;
        };
        self.end_port(&port, reason, closed_to, end)
    }

    /// Sends `last` (each message with the bytes of input it counts) from
    /// `port` to its owner and then ends the port with `reason`, out of the
    /// table before the first is sent: an owner that has them finds the
    /// port gone (`port_info/2` answers `undefined`), as erts's driver
    /// sends them and exits in one call (a program's `exit_status`).
    /// False when the port had exited.
    pub fn port_exit_after(&self, port: &Port, last: Vec<(usize, Payload)>, reason: Term) -> bool {
        if self.ports.remove(port.id).is_none() {
            return false;
        }
        self.port_deliver_all(port, last);
        self.end_port(port, reason, None, PortEnd::Own)
    }

    /// Ends `port`, which its driver has taken out of the table already
    /// (so that no lookup finds it while it sends its last messages, as
    /// inet_drv's `tcp_closed` is followed by a port that is gone): the
    /// rest of [`Runtime::port_exit_by`]. False when it had exited.
    pub fn end_port(
        &self,
        port: &Port,
        reason: Term,
        closed_to: Option<Term>,
        end: PortEnd,
    ) -> bool {
        let id = port.id;
        let (links, monitors) = {
            let mut state = port.state();
            if state.closed {
                return false;
            }
            state.closed = true;
            state.sink = None;
            if let Some(driver) = &port.driver {
                driver.stop(reason);
            }
            if !state.trace.flags().is_empty() {
                trace_end(&mut state, id, reason, end);
            }
            if let Some(name) = state.registered_name.take() {
                self.names.unregister(name);
                port_probes::register(&mut state.trace, TraceTag::Unregister, id, name);
            }
            if let Some(pid) = closed_to.filter(|_| port_probes::wants_send(&state.trace)) {
                // erts's trace names the reply by its second element.
                let closed = Term::atom(Atom::new("closed").expect("atom"));
                let alive = self.processes.get(pid).is_some();
                port_probes::send(&mut state.trace, id, closed, pid, alive);
            }
            (
                std::mem::take(&mut state.links),
                std::mem::take(&mut state.monitors),
            )
        };
        for link in links {
            self.send_signal(
                link,
                Signal::Exit {
                    from: id,
                    reason: Payload::copy(reason),
                    linked: true,
                    token: Term::NIL,
                },
            );
        }
        for (ids, watcher) in monitors {
            self.send_down(watcher, ids, Term::atom(Atom::PORT), reason, |_| id);
        }
        if let Some(pid) = closed_to {
            let closed = Term::atom(Atom::new("closed").expect("atom"));
            let message = Payload::build(|heap| heap.tuple(&[id, closed]));
            self.send_signal(pid, Signal::Message(message, None));
        }
        true
    }

    /// The linked process `from` exited with `reason`: the link ends, and
    /// the port exits too when `from` was its owner or the reason is not
    /// `normal`.
    pub fn port_link_exit(&self, id: Term, from: Term, reason: Term) {
        let Some(port) = self.ports.get(id) else {
            return;
        };
        let owner = {
            let mut state = port.state();
            state.links.retain(|&l| l != from);
            state.owner == from
        };
        if owner || reason != Term::atom(Atom::NORMAL) {
            let end = PortEnd::Signal { from, sent: reason };
            self.port_exit_by(id, reason, None, end);
        } else {
            // erts hands the port the close all the same; it stays.
            let mut state = port.state();
            if !state.trace.flags().is_empty() {
                let t = &mut state.trace;
                port_probes::running(t, TraceTag::In, id, None);
                trace_close(t, id, from);
                port_probes::running(t, TraceTag::Out, id, None);
            }
        }
    }

    /// Links port `id` with `pid`; false when the port has exited.
    pub fn port_link(&self, id: Term, pid: Term) -> bool {
        let Some(port) = self.ports.get(id) else {
            return false;
        };
        let mut state = port.state();
        if state.closed {
            return false;
        }
        if !state.links.contains(&pid) {
            state.links.push(pid);
            let t = &mut state.trace;
            port_probes::running(t, TraceTag::In, id, Some("link"));
            port_probes::link(t, TraceTag::GettingLinked, id, pid);
            port_probes::running(t, TraceTag::Out, id, Some("link"));
        }
        true
    }

    /// Removes the link between port `id` and `pid`.
    pub fn port_unlink(&self, id: Term, pid: Term) {
        if let Some(port) = self.ports.get(id) {
            let mut state = port.state();
            let before = state.links.len();
            state.links.retain(|&l| l != pid);
            if state.links.len() < before {
                let t = &mut state.trace;
                port_probes::running(t, TraceTag::In, id, Some("unlink"));
                port_probes::link(t, TraceTag::GettingUnlinked, id, pid);
                port_probes::running(t, TraceTag::Out, id, Some("unlink"));
            }
        }
    }

    /// `watcher` monitors port `id` with reference `ids`; false when the
    /// port has exited.
    pub fn port_monitor(&self, id: Term, ids: [u32; 3], watcher: Term) -> bool {
        let Some(port) = self.ports.get(id) else {
            return false;
        };
        let mut state = port.state();
        if state.closed {
            return false;
        }
        state.monitors.push((ids, watcher));
        true
    }

    /// Ends the monitor `ids` of port `id`.
    pub fn port_demonitor(&self, id: Term, ids: [u32; 3]) {
        if let Some(port) = self.ports.get(id) {
            port.state().monitors.retain(|&(m, _)| m != ids);
        }
    }

    /// Makes `new_owner` the connected process of port `id` (and links
    /// them), as process `by` asked; false when the port has exited.
    /// The port's trace shows the request and its `{Port, connected}`
    /// answer to `by` (which `port_connect/2`'s caller does not get).
    pub fn port_connect(&self, id: Term, new_owner: Term, by: Term) -> bool {
        let Some(port) = self.ports.get(id) else {
            return false;
        };
        let mut state = port.state();
        if state.closed {
            return false;
        }
        state.owner = new_owner;
        let t = &mut state.trace;
        port_probes::running(t, TraceTag::In, id, Some("connect"));
        if !state.links.contains(&new_owner) {
            state.links.push(new_owner);
            port_probes::link(&mut state.trace, TraceTag::GettingLinked, id, new_owner);
        }
        if !state.trace.flags().is_empty() {
            trace_connect(&mut state.trace, id, by, new_owner);
            let alive = self.processes.get(by).is_some();
            let t = &mut state.trace;
            if port_probes::wants_send(t) {
                let mut heap = Heap::new();
                let connected = Term::atom(Atom::new("connected").expect("atom"));
                let message = heap.tuple(&[id, connected]);
                port_probes::send(t, id, message, by, alive);
            }
            port_probes::running(t, TraceTag::Out, id, Some("connect"));
        }
        true
    }
}

/// The trace of a port's end: scheduled in for it, the close it was
/// handed, `closed`.
#[cold]
#[inline(never)]
fn trace_end(state: &mut PortState, id: Term, reason: Term, end: PortEnd) {
    let t = &mut state.trace;
    let (task, from, reason) = match end {
        PortEnd::Own => (None, None, reason),
        PortEnd::Close(by) => (Some("close"), Some(by), reason),
        PortEnd::Signal { from, sent } => (None, Some(from), sent),
    };
    port_probes::running(t, TraceTag::In, id, task);
    if let Some(from) = from {
        trace_close(t, id, from);
    }
    port_probes::closed(t, id, reason);
}

/// `'receive'` of `{From, close}`.
fn trace_close(t: &mut crate::trace::ProcessTrace, id: Term, from: Term) {
    if port_probes::wants_receive(t) {
        let mut heap = Heap::new();
        let close = Term::atom(Atom::new("close").expect("atom"));
        let message = heap.tuple(&[from, close]);
        port_probes::receive(t, id, message);
    }
}

/// `'receive'` of `{By, {connect, NewOwner}}`.
#[cold]
#[inline(never)]
fn trace_connect(t: &mut crate::trace::ProcessTrace, id: Term, by: Term, new_owner: Term) {
    if port_probes::wants_receive(t) {
        let mut heap = Heap::new();
        let connect = Term::atom(Atom::new("connect").expect("atom"));
        let op = heap.tuple(&[connect, new_owner]);
        let message = heap.tuple(&[by, op]);
        port_probes::receive(t, id, message);
    }
}

/// `Port ! Msg` from `p` (`Port` a port, or the port a name was resolved
/// to), as erts acts on it:
///
/// - `{Pid, {command, Data}}` writes Data; Data that is not iodata is
///   logged as "Bad value on output port" (whoever Pid is);
/// - `{Pid, close}` closes the port and answers `{Port, closed}`;
/// - `{Pid, {connect, NewPid}}` connects NewPid and answers
///   `{Port, connected}` to Pid.
///
/// Pid must be the connected process; the port exits with `badsig` when
/// it is not, on bad data, and on any other message. A message to a port
/// that has exited is dropped.
pub(super) fn send_to_port(rt: &Runtime, p: &mut Process, id: Term, msg: Term) {
    let Some(port) = rt.ports.get(id) else {
        return;
    };
    let is = |t: Term, name: &str| t.as_atom().is_some_and(|a| a.name() == name);
    let badsig = || {
        rt.port_exit(id, Term::atom(Atom::new("badsig").expect("atom")), None);
    };
    let Some(&[from, what]) = msg.as_tuple() else {
        return badsig();
    };
    let command = match what.as_tuple() {
        Some(&[tag, data]) if tag == Term::atom(Atom::COMMAND) => match port.iodata(data) {
            Some(data) => Some(data),
            None => {
                rt.log_bad_port_output(p.pid, &port.name);
                return badsig();
            }
        },
        _ => None,
    };
    if !from.is_local_pid() || port.state().owner != from {
        return badsig();
    }
    if let Some(data) = command {
        if port.command_by(rt, from, data) == Sent::TooLarge {
            let einval = Term::atom(Atom::new("einval").expect("atom"));
            rt.port_exit(id, einval, None);
        }
        return;
    }
    if is(what, "close") {
        rt.port_exit_by(
            id,
            Term::atom(Atom::NORMAL),
            Some(from),
            PortEnd::Close(from),
        );
        return;
    }
    match what.as_tuple() {
        Some(&[tag, new_owner])
            if is(tag, "connect")
                && new_owner.is_local_pid()
                && rt.port_connect(id, new_owner, from) =>
        {
            let connected = Term::atom(Atom::new("connected").expect("atom"));
            let reply = p.heap.tuple(&[id, connected]);
            if from == p.pid {
                super::deliver_to_self(rt, p, reply);
            } else {
                rt.send(from, reply);
            }
        }
        _ => badsig(),
    }
}
