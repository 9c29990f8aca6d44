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

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;

use crate::process::{Payload, Process, Signal};
use crate::runtime::{Port, Runtime, Sent};

impl Runtime {
    /// Sends the message `build` makes (on a heap of its own) from `port`
    /// to its owner, counting `bytes` as input. False when the port has
    /// exited.
    pub fn port_deliver(
        &self,
        port: &Port,
        bytes: usize,
        build: impl FnOnce(&mut Heap) -> Term,
    ) -> bool {
        let mut state = port.state();
        if state.closed {
            return false;
        }
        state.input += bytes as u64;
        self.send_signal(state.owner, Signal::Message(Payload::build(build), None));
        true
    }

    /// Ends port `id` with `reason`: it leaves the table, its output
    /// channel closes, its links get exit signals and its monitors
    /// `'DOWN'` messages; then `closed_to`, if given, gets
    /// `{Port, closed}`. False when the port had exited already.
    pub fn port_exit(&self, id: Term, reason: Term, closed_to: Option<Term>) -> bool {
        let Some(port) = self.ports.remove(id) else {
            return false;
        };
        let (links, monitors) = {
            let mut state = port.state();
            if state.closed {
                return false;
            }
            state.closed = true;
            state.sink = None;
            if let Some(driver) = &port.driver {
                driver.stop();
            }
            if let Some(name) = state.registered_name.take() {
                self.names.unregister(name);
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
            self.port_exit(id, reason, None);
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
        }
        true
    }

    /// Removes the link between port `id` and `pid`.
    pub fn port_unlink(&self, id: Term, pid: Term) {
        if let Some(port) = self.ports.get(id) {
            port.state().links.retain(|&l| l != pid);
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
    /// them); false when the port has exited.
    pub fn port_connect(&self, id: Term, new_owner: Term) -> bool {
        let Some(port) = self.ports.get(id) else {
            return false;
        };
        let mut state = port.state();
        if state.closed {
            return false;
        }
        state.owner = new_owner;
        if !state.links.contains(&new_owner) {
            state.links.push(new_owner);
        }
        true
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
        if port.command_by(from, data) == Sent::TooLarge {
            let einval = Term::atom(Atom::new("einval").expect("atom"));
            rt.port_exit(id, einval, None);
        }
        return;
    }
    if is(what, "close") {
        rt.port_exit(id, Term::atom(Atom::NORMAL), Some(from));
        return;
    }
    match what.as_tuple() {
        Some(&[tag, new_owner])
            if is(tag, "connect") && new_owner.is_local_pid() && rt.port_connect(id, new_owner) =>
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
