//! Delivery: a process takes the signals waiting in its inbox, in order,
//! and acts on each: messages into the mailbox, links and monitors into its
//! tables, exit signals into a pending exit or an `'EXIT'` message.
//!
//! Probes: `'receive'` for every message that enters the mailbox here
//! (messages, `'DOWN'`, trapped `'EXIT'`; not trace messages, so that
//! tracers tracing each other cannot loop), `getting_linked` and
//! `getting_unlinked` when a link signal changes the link set.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use super::message_trace::{self, runtime_sender};
use crate::process::{Payload, Process, ProcessHandle, Signal};
use crate::runtime::Runtime;
use crate::trace::probes;
use beamr_trace::TraceTag;

/// Moves every signal from the inbox into the process: messages into the
/// mailbox, links and monitors into its tables, exit signals into
/// `pending_exit` or `'EXIT'` messages.
pub fn deliver_signals(rt: &Runtime, handle: &ProcessHandle, p: &mut Process) {
    for signal in handle.take_signals() {
        deliver(rt, p, signal);
    }
}

/// Acts on one signal in `p`.
pub(super) fn deliver(rt: &Runtime, p: &mut Process, signal: Signal) {
    match signal {
        Signal::Message(payload, carried) => {
            deliver_message(rt, p, payload, Term::NIL, runtime_sender(), carried)
        }
        Signal::Sent {
            message,
            from,
            carried,
        } => deliver_message(rt, p, message, Term::NIL, from, carried),
        Signal::SeqMessage {
            message,
            token,
            from,
            carried,
        } => deliver_message(rt, p, message, token, from, carried),
        Signal::SeqTraceReset => super::seq_trace::reset(p),
        Signal::TraceMessage(payload) => {
            let term = absorb(p, payload);
            super::send::push_message(p, term, super::seq_trace::runtime_word());
        }
        Signal::Exit {
            from,
            reason,
            linked,
            token,
        } => {
            if linked {
                match p.links.iter().position(|&l| l == from) {
                    Some(i) => {
                        p.links.swap_remove(i);
                    }
                    // A link to another node's process is kept in the
                    // distribution's table, which had it.
                    None if from.is_pid() && !from.is_local_pid() => {}
                    None => return,
                }
            }
            let reason = absorb(p, reason);
            let kill = Term::atom(Atom::KILL);
            if reason == kill && !linked {
                p.pending_exit = Some(Term::atom(Atom::KILLED));
            } else if p.trap_exit {
                let msg = p.heap.tuple(&[Term::atom(Atom::EXIT), from, reason]);
                super::send::push_message(p, msg, token);
                message_trace::receive(rt, p, msg, from, None);
            } else if reason != Term::atom(Atom::NORMAL) || from == p.pid {
                p.pending_exit = Some(reason);
            }
        }
        Signal::Link { from } => {
            if !p.links.contains(&from) {
                p.links.push(from);
                probes::link(&mut p.trace, TraceTag::GettingLinked, p.pid, from);
            }
        }
        Signal::Unlink { from } => {
            if p.links.contains(&from) {
                p.links.retain(|&l| l != from);
                probes::link(&mut p.trace, TraceTag::GettingUnlinked, p.pid, from);
            }
        }
        Signal::Monitor { from, ids, name } => p.monitored_by.push((ids, from, name)),
        Signal::Demonitor { from, ids } => {
            if let Some(i) = p
                .monitored_by
                .iter()
                .position(|&(i, f, _)| i == ids && f == from)
            {
                // Order kept: `process_info(monitored_by)` and the order
                // of the 'DOWN' messages at exit follow it.
                p.monitored_by.remove(i);
            }
        }
        Signal::Down { ids, message } => {
            // A monitor removed meanwhile (demonitor/1,2) sends no
            // 'DOWN': demonitor's promise, even when the target's end
            // crossed it.
            let before = p.monitors.len();
            p.monitors.retain(|&(m, _, _)| m != ids);
            if p.monitors.len() == before {
                return;
            }
            let term = absorb(p, message);
            super::send::push_message(p, term, super::seq_trace::runtime_word());
            message_trace::receive(rt, p, term, runtime_sender(), None);
        }
        Signal::Trace(change) => p.trace.apply(&change),
        Signal::Adopt(resource) => p.owned.push(resource),
        Signal::Timeout { generation } => {
            if p.timer.active && p.timer.generation == generation {
                p.timer.fired = true;
            }
        }
    }
}

/// A message signal's one shape of delivery: the payload made part of
/// `p`'s heap, into the mailbox with its `seq_trace` token word (`[]` for
/// none), and the `'receive'` probe with its sender and trace context.
#[inline]
fn deliver_message(
    rt: &Runtime,
    p: &mut Process,
    message: Payload,
    token: Term,
    from: Term,
    carried: Option<beamr_trace::TraceContext>,
) {
    let term = absorb(p, message);
    super::send::push_message(p, term, token);
    message_trace::receive(rt, p, term, from, carried);
}

/// Puts `message`, already on `p`'s heap, in `p`'s own mailbox (a message
/// a process's own action produces: a self-send, a BIF's reply, an
/// `'EXIT'` or `'DOWN'` about a process that is gone). Probe: `'receive'`.
pub fn deliver_to_self(rt: &Runtime, p: &mut Process, message: Term) {
    super::send::push_message(p, message, super::seq_trace::runtime_word());
    message_trace::receive(rt, p, message, runtime_sender(), None);
}

/// Makes a payload's term part of the process heap.
pub fn absorb(p: &mut Process, payload: Payload) -> Term {
    if let Some(heap) = payload.heap {
        p.heap.absorb(heap);
    }
    payload.term
}

/// Moves signals waiting in `p`'s inbox into it; true if that added a
/// message the current receive has not looked at.
pub fn deliver_pending(rt: &Runtime, p: &mut Process) -> bool {
    if let Some(handle) = rt.processes.get(p.pid) {
        if handle.has_signals() {
            deliver_signals(rt, &handle, p);
        }
    }
    p.mailbox.has_unseen()
}
