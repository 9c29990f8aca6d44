//! One function per port probe, as [`probes`](super::probes) has for
//! processes. A port's [`ProcessTrace`] lives in its state (under the
//! port's lock, which every site holds already); each probe tests its
//! flag (one load, one branch) and reports only past it.
//!
//! ```text
//! tag                          flag           fired in (signals::port)       payload
//! open                         ports          Runtime::insert_port           {trace, Port, open, Pid, Driver}
//! closed                       ports          Runtime::port_exit_by          {trace, Port, closed, Reason}
//! getting_linked / _unlinked   ports          port_link, port_unlink,        {trace, Port, getting_linked, Pid}
//!                                             port_connect, insert_port
//! register / unregister        ports          bif (register/2), port exit    {trace, Port, register, Name}
//! 'receive'                    receive        Port::command_by, port_exit_by {trace, Port, 'receive', {Pid, Op}}
//!                                             port_connect, port_link_exit
//! send                         send           port_deliver, port_exit_by     {trace, Port, send, Msg, To}
//! in / out                     running_ports  around each of the above       {trace, Port, in, Task | 0}
//! ```
//!
//! `Op` in a `'receive'` is what the port was asked to do, as erts writes
//! it: `{command, Binary}` (the data flattened, `port_command/2` and
//! `Port ! {Pid, {command, Data}}` alike), `close` (`port_close/1`,
//! `{Pid, close}`, and an exit signal from a linked or any process, which
//! erts hands the port as a close), `{connect, NewPid}`.

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use beamr_trace::{Payload, TraceFlags, TraceTag};

use super::process_trace::report_one;
use super::ProcessTrace;

/// The flags that make a port emit events: `ports` and `running_ports`
/// (processes ignore them).
pub const PORT_EVENTS: TraceFlags = TraceFlags::PORTS.union(TraceFlags::RUNNING_PORTS);

/// The flags that modify events of processes and ports alike, or name
/// events both have (`send`, `'receive'`): erts's tracee modifier flags.
pub const MODIFIERS: TraceFlags = TraceFlags::SILENT
    .union(TraceFlags::TIMESTAMP)
    .union(TraceFlags::CPU_TIMESTAMP)
    .union(TraceFlags::MONOTONIC_TIMESTAMP)
    .union(TraceFlags::STRICT_MONOTONIC_TIMESTAMP)
    .union(TraceFlags::SCHEDULER_ID)
    .union(TraceFlags::SEND)
    .union(TraceFlags::RECEIVE);

/// The flags a port can have traced (erts's port tracee flags).
pub const PORT_FLAGS: TraceFlags = PORT_EVENTS.union(MODIFIERS);

/// The flags a process can have traced (all but the port events).
pub const PROCESS_FLAGS: TraceFlags = TraceFlags::all().difference(PORT_EVENTS);

/// `open`: `port` was opened by `parent`, with the driver `driver`.
#[inline(always)]
pub fn open(t: &mut ProcessTrace, port: Term, parent: Term, driver: Atom) {
    if t.wants(TraceFlags::PORTS) {
        let payload = Payload::PortOpen { parent, driver };
        t.report(TraceFlags::PORTS, TraceTag::Open, port, payload);
    }
}

/// `closed`: `port` exited with `reason`.
#[inline(always)]
pub fn closed(t: &mut ProcessTrace, port: Term, reason: Term) {
    if t.wants(TraceFlags::PORTS) {
        let payload = Payload::PortClosed { reason };
        t.report(TraceFlags::PORTS, TraceTag::Closed, port, payload);
    }
}

/// `getting_linked` or `getting_unlinked` (`tag`): `pid` linked to or
/// unlinked from `port`.
#[inline(always)]
pub fn link(t: &mut ProcessTrace, tag: TraceTag, port: Term, pid: Term) {
    debug_assert!(matches!(
        tag,
        TraceTag::GettingLinked | TraceTag::GettingUnlinked
    ));
    if t.wants(TraceFlags::PORTS) {
        t.report(TraceFlags::PORTS, tag, port, Payload::Link { peer: pid });
    }
}

/// `register` or `unregister` (`tag`): `port` got or lost `name`.
#[inline(always)]
pub fn register(t: &mut ProcessTrace, tag: TraceTag, port: Term, name: Atom) {
    debug_assert!(matches!(tag, TraceTag::Register | TraceTag::Unregister));
    if t.wants(TraceFlags::PORTS) {
        t.report(TraceFlags::PORTS, tag, port, Payload::Register { name });
    }
}

/// True if `t` wants `'receive'` events: a site asks before it builds the
/// operation's term for [`receive`].
#[inline(always)]
pub fn wants_receive(t: &ProcessTrace) -> bool {
    t.wants(TraceFlags::RECEIVE)
}

/// `'receive'`: `port` was asked `{Pid, Op}` (`message`, built by the
/// site past [`wants_receive`]).
#[cold]
#[inline(never)]
pub fn receive(t: &mut ProcessTrace, port: Term, message: Term) {
    let payload = Payload::Message {
        message,
        peer: None,
        match_spec_result: None,
    };
    t.report(TraceFlags::RECEIVE, TraceTag::Receive, port, payload);
}

/// True if `t` wants `send` events (as [`wants_receive`]).
#[inline(always)]
pub fn wants_send(t: &ProcessTrace) -> bool {
    t.wants(TraceFlags::SEND)
}

/// `send` (`to` alive) or `send_to_non_existing_process`: `port` sent
/// `message` to `to`.
#[cold]
#[inline(never)]
pub fn send(t: &mut ProcessTrace, port: Term, message: Term, to: Term, alive: bool) {
    let tag = if alive {
        TraceTag::Send
    } else {
        TraceTag::SendToNonExistingProcess
    };
    let payload = Payload::Message {
        message,
        peer: Some(to),
        match_spec_result: None,
    };
    t.report_each(TraceFlags::SEND, port, |_, tracer| {
        report_one(tracer, tag, port, payload, |t, e| t.trace(e)).0
    });
}

/// `in` or `out` (`tag`): `port` was scheduled in or out for `task`
/// (`None`: input from its OS side, erts's `0`).
#[inline(always)]
pub fn running(t: &mut ProcessTrace, tag: TraceTag, port: Term, task: Option<&str>) {
    debug_assert!(matches!(tag, TraceTag::In | TraceTag::Out));
    if t.wants(TraceFlags::RUNNING_PORTS) {
        running_slow(t, tag, port, task);
    }
}

#[cold]
#[inline(never)]
fn running_slow(t: &mut ProcessTrace, tag: TraceTag, port: Term, task: Option<&str>) {
    let task = task.and_then(|name| Atom::new(name).ok());
    let payload = Payload::PortTask { task };
    t.report(TraceFlags::RUNNING_PORTS, tag, port, payload);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn port_and_process_flags_share_only_the_modifiers() {
        assert_eq!(PORT_FLAGS & PROCESS_FLAGS, MODIFIERS);
        assert!(PORT_FLAGS.contains(TraceFlags::RUNNING_PORTS | TraceFlags::SEND));
        assert!(!PORT_FLAGS.contains(TraceFlags::CALL));
        assert!(!PROCESS_FLAGS.contains(TraceFlags::PORTS));
        assert_eq!(PORT_FLAGS | PROCESS_FLAGS, TraceFlags::all());
    }
}
