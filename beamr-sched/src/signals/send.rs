//! Sending: resolving a destination (pid, registered name, alias,
//! `{Name, Node}`) and putting a signal in the receiver's inbox, or a
//! message straight into its mailbox.

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;

use super::message_trace;
use crate::process::{Exception, Payload, Process, ProcessHandle, Signal};
use crate::runtime::{AliasMode, Runtime};
use crate::trace::probes;
use beamr_trace::TraceContext;

impl Runtime {
    /// Sends a signal to the process `pid`; false if there is no such
    /// process, or it has exited (its inbox is closed).
    pub fn send_signal(&self, pid: Term, signal: Signal) -> bool {
        let Some(handle) = self.processes.get(pid) else {
            if pid.is_pid() && !pid.is_local_pid() {
                super::remote::signal(self, pid, signal);
                return true;
            }
            return false;
        };
        match handle.push_signal(signal) {
            Some(enqueue) => {
                if enqueue {
                    self.run_queues.push(handle);
                }
                true
            }
            None => false,
        }
    }

    /// Sends `message` (copied) to `pid`. Sending to a dead process does
    /// nothing; returns false then.
    pub fn send(&self, pid: Term, message: Term) -> bool {
        match self.processes.get(pid) {
            Some(handle) => {
                let word = super::seq_trace::runtime_word();
                let from = super::message_trace::runtime_sender();
                if send_message(self, &handle, message, from, None, word) {
                    self.run_queues.push(handle);
                }
                true
            }
            None => false,
        }
    }

    /// Sends `message` through the alias `reference`; dropped when the alias
    /// is not active.
    pub fn send_alias(&self, reference: Term, message: Term) {
        self.send_through_alias(reference, message);
    }

    /// [`Runtime::send_alias`]; false when the alias is not active.
    fn send_through_alias(&self, reference: Term, message: Term) -> bool {
        match self.alias_receiver(reference) {
            Some(owner) => self.send(owner, message),
            None => false,
        }
    }

    /// Who a message sent to the alias `reference` now goes to, if it is
    /// active; a reply alias is used up by it.
    pub fn alias_receiver(&self, reference: Term) -> Option<Term> {
        let r = reference.as_ref()?;
        let ids = [r.ids[0], r.ids[1], r.ids[2]];
        let mut aliases = self.aliases.lock().unwrap_or_else(|e| e.into_inner());
        let &(owner, mode) = aliases.get(&ids)?;
        if matches!(mode, AliasMode::Reply | AliasMode::ReplyDemonitor) {
            aliases.remove(&ids);
        }
        Some(owner)
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
}

/// Where a send's destination leads, once names are looked up.
enum Target {
    /// Another live process of this node.
    Process(std::sync::Arc<ProcessHandle>),
    /// The sender itself.
    Own,
    /// A port (by its id or a name registered for it).
    Port(Term),
    /// An alias, active or not.
    Alias(Term),
    /// Another node (a pid, `{Name, Node}` or an alias of it).
    Remote,
    /// Nowhere: the message is dropped. `non_existing` for a pid that
    /// leads nowhere (a dead local one, or one of another node: beamr is
    /// not distributed), traced as `send_to_non_existing_process`; false
    /// for `{Name, Node}` with no such name here, which the BEAM traces
    /// as a plain send.
    Nowhere { non_existing: bool },
}

/// Looks `dest` up: what a message sent to it reaches, or `badarg` for
/// what is no destination (an unregistered name, a term of another kind).
#[inline(always)]
fn resolve(rt: &Runtime, p: &Process, dest: Term) -> Result<Target, Exception> {
    let pid = if dest.is_local_pid() {
        dest
    } else if let Some(name) = dest.as_atom() {
        rt.names.whereis(name).ok_or_else(Exception::badarg)?
    } else if let Some([name, node]) = dest
        .as_tuple()
        .and_then(|t| <&[Term; 2]>::try_from(t).ok())
        .copied()
    {
        let this = beamr_core::etf::local::this_node().0;
        match (name.as_atom(), node.as_atom()) {
            (Some(_), Some(node)) if node != this => return Ok(Target::Remote),
            (Some(name), Some(_)) => match rt.names.whereis(name) {
                Some(pid) => pid,
                None => {
                    return Ok(Target::Nowhere {
                        non_existing: false,
                    })
                }
            },
            _ => return Err(Exception::badarg()),
        }
    } else if dest.is_local_port() {
        return Ok(Target::Port(dest));
    } else if dest.is_reference() {
        if dest.as_ref().is_some_and(|r| r.node != Atom::NONODE_NOHOST) {
            return Ok(Target::Remote);
        }
        return Ok(Target::Alias(dest));
    } else if dest.is_pid() {
        return Ok(Target::Remote);
    } else {
        return Err(Exception::badarg());
    };
    Ok(if pid.is_local_port() {
        Target::Port(pid)
    } else if pid == p.pid {
        Target::Own
    } else if let Some(handle) = rt.processes.get(pid) {
        Target::Process(handle)
    } else {
        Target::Nowhere { non_existing: true }
    })
}

/// Sends `msg` to `dest` (a pid, a port, a registered name, an alias, or
/// `{Name, Node}`).
///
/// Probes, from one place for every kind of destination: `send` (with
/// `dest` as given), or `send_to_non_existing_process` when a pid leads
/// nowhere, then the `seq_trace` token stamped; a message to itself also
/// fires the sender's `'receive'`, as a message put straight into a
/// waiting receiver's mailbox fires the receiver's (see
/// [`send_message`]).
pub fn send(rt: &Runtime, p: &mut Process, dest: Term, msg: Term) -> Result<(), Exception> {
    let target = resolve(rt, p, dest)?;
    // The common case, a sender neither traced for `send` nor holding a
    // `seq_trace` token, sends with no trace context and the token word
    // `[]`: constants that fold `send_message`'s token handling away.
    let untraced =
        !crate::trace::PROBES || (!probes::wants_send(&p.trace) && p.seq_token == Term::NIL);
    match target {
        Target::Process(handle) if untraced => {
            if send_message(rt, &handle, msg, p.pid, None, Term::NIL) {
                rt.run_queues.push(handle);
            }
        }
        target => send_traced(rt, p, dest, msg, target),
    }
    Ok(())
}

/// [`send`] past its fast path: the one `send` probe site, then the
/// message to where `target` leads, stamped with the sender's
/// `seq_trace` token if it has one.
#[inline(never)]
fn send_traced(rt: &Runtime, p: &mut Process, dest: Term, msg: Term, target: Target) {
    let non_existing = matches!(target, Target::Nowhere { non_existing: true });
    let carried = message_trace::send(rt, p, msg, dest, non_existing);
    match target {
        Target::Process(handle) => {
            let token = seq_token_for(rt, p, handle.pid, msg);
            if send_message(rt, &handle, msg, p.pid, carried, token) {
                rt.run_queues.push(handle);
            }
        }
        Target::Own => {
            // The message is already on the process's heap.
            let token = seq_token_for(rt, p, p.pid, msg);
            p.mailbox.push_with_token(msg, token);
            message_trace::receive(rt, p, msg, p.pid, carried);
        }
        Target::Port(port) => super::port::send_to_port(rt, p, port, msg),
        Target::Alias(alias) => {
            rt.send_through_alias(alias, msg);
        }
        Target::Remote => {
            let token = seq_token_for(rt, p, dest, msg);
            super::remote::send(rt, p.pid, dest, msg, token)
        }
        Target::Nowhere { .. } => {}
    }
}

/// The `seq_trace` token word a message from `p` to `to` carries: `[]`
/// unless `p` has a token (one test), else the stamped token.
#[inline(always)]
fn seq_token_for(rt: &Runtime, p: &mut Process, to: Term, msg: Term) -> Term {
    if !crate::trace::PROBES || p.seq_token == Term::NIL {
        Term::NIL
    } else {
        super::seq_trace::stamp_send(rt, p, to, msg)
    }
}

/// Puts `term` (on `p`'s heap) in `p`'s mailbox with its `seq_trace` token
/// word (on `p`'s heap too): `[]` and `undefined` for a process without a
/// token cost nothing more than a plain message (see
/// [`seq_trace`](super::seq_trace) rule 3).
#[inline]
pub(super) fn push_message(p: &mut Process, term: Term, token: Term) {
    p.messages_in = p.messages_in.wrapping_add(1);
    if token == Term::NIL || (p.seq_token == Term::NIL && !token.is_tuple()) {
        p.mailbox.push(term);
    } else {
        p.mailbox.push_with_token(term, token);
    }
}

/// Sends a message: copies `message` straight onto the receiver's heap
/// and into its mailbox when nobody holds the process (it is waiting or
/// queued), as the BEAM does when it can take the receiver's main lock,
/// after delivering the signals already in its inbox; otherwise queues it
/// as a [`Signal::Message`] on a heap of its own. Returns true if the
/// caller must enqueue the process (it was waiting).
///
/// The direct path saves the message heap's allocation, its absorption
/// into the receiver and the collection of the fragment. It keeps the
/// order of signals between two processes: the sender's earlier signals
/// are either delivered already or in the inbox, which is delivered
/// before the message goes in.
///
/// `token` is the message's `seq_trace` token word (on the sender's heap,
/// or an immediate), copied with the message. Inlined: the untraced send
/// passes constants for `carried` and `token`.
///
/// On the direct path the receiver's `'receive'` probe runs here, on the
/// sender's thread, while the sender holds the receiver's body: the
/// receiver is not running on any scheduler then (nobody held it), so no
/// thread of its own exists to run the probe on, and the probe keeps the
/// order of events (the receive after its send). This is the one place
/// where a tracer is called off its tracee's thread; beamr-trace's
/// contract says so.
#[must_use]
#[inline(always)]
fn send_message(
    rt: &Runtime,
    handle: &ProcessHandle,
    message: Term,
    from: Term,
    carried: Option<TraceContext>,
    token: Term,
) -> bool {
    if handle.state.is_exited() {
        return false;
    }
    if let Ok(mut body) = handle.body.try_lock() {
        if let Some(p) = body.as_mut() {
            // Signals already waiting go in first, in order, as the
            // receiver itself would take them: a `gen_server:call` sends
            // its monitor signal just before the request, which otherwise
            // always took the slow path (a heap of its own, absorbed and
            // collected later).
            if !handle.inbox_is_empty() {
                super::deliver::deliver_signals(rt, handle, p);
            }
            let term = p.heap.copy_term(message);
            // Almost always `[]`: no call for an immediate.
            let token = if token.is_immediate() {
                token
            } else {
                p.heap.copy_term(token)
            };
            push_message(p, term, token);
            message_trace::receive(rt, p, term, from, carried);
            drop(body);
            return handle.state.notify();
        }
    }
    let signal = if token == Term::NIL {
        Signal::Sent {
            message: Payload::copy(message),
            from,
            carried,
        }
    } else if token.is_immediate() {
        // `undefined`: a message of the runtime's own, no token to copy.
        Signal::SeqMessage {
            message: Payload::copy(message),
            token,
            from,
            carried,
        }
    } else {
        let mut heap = Heap::new();
        let term = heap.copy_term(message);
        let token = heap.copy_term(token);
        Signal::SeqMessage {
            message: Payload {
                term,
                heap: Some(heap),
            },
            token,
            from,
            carried,
        }
    };
    handle.push_signal(signal).unwrap_or(false)
}
