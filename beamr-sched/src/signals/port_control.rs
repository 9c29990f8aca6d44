//! `port_control/3` and `port_call/2,3` on a port: the driver's answer,
//! and the port's trace of the request as erts writes it.
//!
//! ```text
//! port_control(Port, Op, Data) from Pid, Port traced:
//!   {trace, Port, in, control}                         running_ports
//!   {trace, Port, 'receive', {Pid, {control, {Op, Bin}}}}   'receive'
//!   {trace, Port, send, {Port, {control, Reply}}, Pid}  send (answered)
//!   {trace, Port, out, control}                        running_ports
//! port_call(Port, Op[, Data]):
//!   {trace, Port, in, call}, {trace, Port, out, call}
//! ```
//!
//! `Bin` is the request's data and `Reply` the answer, both as binaries
//! whatever the caller gets (a list for a port in list mode). A driver that
//! refuses the operation (badarg) shows no `send`; no driver beamr has
//! takes calls (erts's spawn, fd, inet and trace drivers have no call
//! callback either), so `port_call` is scheduled in and out and refused.
//! The caller's own trace shows nothing of it, as on the BEAM. The port's
//! lock is not held while its driver answers: the driver may deliver
//! messages, which takes the lock.

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;
use beamr_trace::TraceTag;

use crate::runtime::{Port, Runtime};
use crate::trace::{port_probes, ProcessTrace};

impl Runtime {
    /// `port_control(Port, Op, Data)` from `caller` on the live `port`:
    /// the reply and whether it is a binary (else a list of bytes); `None`
    /// (badarg) for a port without a driver or a request its driver
    /// refuses.
    pub fn port_control(
        &self,
        port: &Port,
        caller: Term,
        op: u32,
        data: &[u8],
    ) -> Option<(Vec<u8>, bool)> {
        {
            let mut state = port.state();
            if !state.trace.flags().is_empty() {
                trace_control_request(&mut state.trace, port.id, caller, op, data);
            }
        }
        let reply = port
            .driver
            .as_ref()
            .and_then(|driver| driver.control_by(caller, op, data));
        let mut state = port.state();
        if !state.trace.flags().is_empty() {
            let answer = reply.as_ref().map(|(bytes, _)| bytes.as_slice());
            trace_control_reply(&mut state.trace, port.id, caller, answer);
        }
        reply
    }

    /// `port_call(Port, Op, Data)` from `caller` on the live `port`:
    /// refused (`None`, badarg), since no driver beamr has takes calls;
    /// the port is scheduled in and out for it.
    pub fn port_call(&self, port: &Port, caller: Term) -> Option<Term> {
        let _ = caller;
        let mut state = port.state();
        let t = &mut state.trace;
        port_probes::running(t, TraceTag::In, port.id, Some("call"));
        port_probes::running(t, TraceTag::Out, port.id, Some("call"));
        None
    }
}

/// `in control` and `'receive' {Caller, {control, {Op, Data}}}`.
#[cold]
#[inline(never)]
fn trace_control_request(t: &mut ProcessTrace, id: Term, caller: Term, op: u32, data: &[u8]) {
    port_probes::running(t, TraceTag::In, id, Some("control"));
    if port_probes::wants_receive(t) {
        let mut heap = Heap::new();
        let data = heap.binary(data);
        let request = heap.tuple(&[Term::small_unchecked(i64::from(op)), data]);
        let op = heap.tuple(&[control(), request]);
        let message = heap.tuple(&[caller, op]);
        port_probes::receive(t, id, message);
    }
}

/// `send {Port, {control, Reply}}` to the caller when the driver answered
/// (`reply`), then `out control`.
#[cold]
#[inline(never)]
fn trace_control_reply(t: &mut ProcessTrace, id: Term, caller: Term, reply: Option<&[u8]>) {
    if let Some(reply) = reply.filter(|_| port_probes::wants_send(t)) {
        let mut heap = Heap::new();
        let reply = heap.binary(reply);
        let answer = heap.tuple(&[control(), reply]);
        let message = heap.tuple(&[id, answer]);
        port_probes::send(t, id, message, caller, true);
    }
    port_probes::running(t, TraceTag::Out, id, Some("control"));
}

/// The atom `control`.
fn control() -> Term {
    Term::atom(Atom::new("control").expect("atom"))
}
