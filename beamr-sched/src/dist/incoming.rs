//! What a peer's control messages do on this node: each frame decoded
//! (`wire`), checked, and turned into the signal it stands for to a local
//! process. A frame that breaks the protocol is an error: the caller
//! closes the connection and logs why. A signal to a process that is
//! gone does what erts does (a link or monitor answered with `noproc`,
//! a message dropped).

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::{ExternalPidView, Term};

use super::connection::{deliver_exit_signal, send_frame};
use super::table::{table, Watched, WatchedBy};
use super::wire::{decode, frame, op, BadFrame};
use crate::process::{Payload, Signal};
use crate::runtime::Runtime;

fn bad(what: &str) -> BadFrame {
    BadFrame(what.to_string())
}

/// Where an exit's reason is, and the control tuple's arity: `{Op, From,
/// To, Reason}` (one more element, the trace token, when `traced`) or,
/// for the payload forms, `{Op, From, To}` with the reason after it.
fn exit_reason(
    in_control: bool,
    traced: bool,
    c: &[Term],
    payload: Option<Term>,
) -> (Option<Term>, usize) {
    let arity = 3 + usize::from(traced);
    if in_control {
        (c.get(arity).copied(), arity + 1)
    } else {
        (payload, arity)
    }
}

/// Handles one non-empty frame from `node`.
pub fn handle(rt: &Runtime, node: Atom, bytes: &[u8]) -> Result<(), BadFrame> {
    let mut heap = Heap::new();
    let (operation, control, payload) = decode(bytes, &mut heap)?;
    let c = control.as_tuple().unwrap_or(&[]);
    let arity = |n: usize| {
        if c.len() == n {
            Ok(())
        } else {
            Err(BadFrame(format!(
                "control message {operation} with {} elements (expected {n})",
                c.len()
            )))
        }
    };
    let need_payload = || payload.ok_or_else(|| bad("a control message without its payload"));
    match operation {
        op::SEND | op::SEND_TT | op::SEND_SENDER | op::SEND_SENDER_TT => {
            let traced = matches!(operation, op::SEND_TT | op::SEND_SENDER_TT);
            arity(if traced { 4 } else { 3 })?;
            let msg = need_payload()?;
            let token = if traced {
                Some(trace_token(c[3])?)
            } else {
                None
            };
            message_to(rt, c[2], msg, heap, c[1], token);
        }
        op::REG_SEND | op::REG_SEND_TT => {
            let traced = operation == op::REG_SEND_TT;
            arity(if traced { 5 } else { 4 })?;
            let msg = need_payload()?;
            let name = c[3]
                .as_atom()
                .ok_or_else(|| bad("REG_SEND to a name that is not an atom"))?;
            let token = if traced {
                Some(trace_token(c[4])?)
            } else {
                None
            };
            if let Some(pid) = rt.names.whereis(name) {
                message_to(rt, pid, msg, heap, c[1], token);
            }
        }
        op::ALIAS_SEND | op::ALIAS_SEND_TT => {
            let traced = operation == op::ALIAS_SEND_TT;
            arity(if traced { 4 } else { 3 })?;
            let msg = need_payload()?;
            let token = if traced {
                Some(trace_token(c[3])?)
            } else {
                None
            };
            if let Some(owner) = rt.alias_receiver(c[2]) {
                message_to(rt, owner, msg, heap, c[1], token);
            }
        }
        op::LINK => {
            arity(3)?;
            let from = remote_pid(c[1], node)?;
            let to = local_pid(c[2])?;
            if rt.processes.get(to).is_some() {
                let mut t = table();
                let e = t.entry(node);
                if !e.links.iter().any(|&(l, r)| l == to && r == from) {
                    e.links.push((to, from));
                }
            } else {
                // The link breaks at once: noproc back.
                let mut h = Heap::new();
                let ctl = h.tuple(&[Term::small_unchecked(op::PAYLOAD_EXIT), to, c[1]]);
                if let Some(f) = frame(ctl, Some(Term::atom(Atom::NOPROC))) {
                    send_frame(rt, node, f, false);
                }
            }
        }
        op::UNLINK_ID => {
            arity(4)?;
            let from = remote_pid(c[2], node)?;
            let to = local_pid(c[3])?;
            table()
                .entry(node)
                .links
                .retain(|&(l, r)| !(l == to && r == from));
            let mut h = Heap::new();
            let ctl = h.tuple(&[Term::small_unchecked(op::UNLINK_ID_ACK), c[1], c[3], c[2]]);
            if let Some(f) = frame(ctl, None) {
                send_frame(rt, node, f, false);
            }
        }
        op::UNLINK_ID_ACK => arity(4)?,
        op::EXIT | op::EXIT_TT | op::PAYLOAD_EXIT | op::PAYLOAD_EXIT_TT => {
            let traced = operation == op::EXIT_TT || operation == op::PAYLOAD_EXIT_TT;
            let (reason, n) = exit_reason(
                operation == op::EXIT || operation == op::EXIT_TT,
                traced,
                c,
                payload,
            );
            arity(n)?;
            let reason = reason.ok_or_else(|| bad("an exit without its reason"))?;
            let token = if traced {
                trace_token(c[3])?
            } else {
                Term::NIL
            };
            let from = remote_pid(c[1], node)?;
            let to = local_pid(c[2])?;
            let linked = {
                let mut t = table();
                let e = t.entry(node);
                let before = e.links.len();
                e.links.retain(|&(l, r)| !(l == to && r == from));
                e.links.len() != before
            };
            if linked {
                let pair = heap.tuple(&[c[1], reason]);
                let pair = Payload {
                    term: pair,
                    heap: Some(heap),
                };
                deliver_exit_signal(rt, to, pair, true, token);
            }
        }
        op::EXIT2 | op::EXIT2_TT | op::PAYLOAD_EXIT2 | op::PAYLOAD_EXIT2_TT => {
            let traced = operation == op::EXIT2_TT || operation == op::PAYLOAD_EXIT2_TT;
            let (reason, n) = exit_reason(
                operation == op::EXIT2 || operation == op::EXIT2_TT,
                traced,
                c,
                payload,
            );
            arity(n)?;
            let reason = reason.ok_or_else(|| bad("an exit without its reason"))?;
            let token = if traced {
                trace_token(c[3])?
            } else {
                Term::NIL
            };
            remote_pid(c[1], node)?;
            let to = local_pid(c[2])?;
            let pair = heap.tuple(&[c[1], reason]);
            let pair = Payload {
                term: pair,
                heap: Some(heap),
            };
            deliver_exit_signal(rt, to, pair, false, token);
        }
        op::MONITOR_P => {
            arity(4)?;
            let watcher = remote_pid(c[1], node)?;
            let reference = c[3]
                .as_ref()
                .ok_or_else(|| bad("MONITOR_P without a reference"))?;
            let (target, name) = match c[2].as_atom() {
                Some(name) => (rt.names.whereis(name), Some(name)),
                None => (Some(local_pid(c[2])?), None),
            };
            match target.filter(|&pid| rt.processes.get(pid).is_some()) {
                Some(local) => table().entry(node).watched_by.push(WatchedBy {
                    local,
                    name,
                    watcher,
                    reference,
                }),
                None => {
                    let mut h = Heap::new();
                    let ctl = h.tuple(&[
                        Term::small_unchecked(op::PAYLOAD_MONITOR_P_EXIT),
                        c[2],
                        c[1],
                        c[3],
                    ]);
                    if let Some(f) = frame(ctl, Some(Term::atom(Atom::NOPROC))) {
                        send_frame(rt, node, f, false);
                    }
                }
            }
        }
        op::DEMONITOR_P => {
            arity(4)?;
            let watcher = remote_pid(c[1], node)?;
            let reference = c[3]
                .as_ref()
                .ok_or_else(|| bad("DEMONITOR_P without a reference"))?;
            table()
                .entry(node)
                .watched_by
                .retain(|w| !(w.watcher == watcher && w.reference == reference));
        }
        op::MONITOR_P_EXIT | op::PAYLOAD_MONITOR_P_EXIT => {
            let (reason, n) = if operation == op::MONITOR_P_EXIT {
                (c.get(4).copied(), 5)
            } else {
                (payload, 4)
            };
            arity(n)?;
            let reason = reason.ok_or_else(|| bad("a monitor exit without its reason"))?;
            let to = local_pid(c[2])?;
            let reference = c[3]
                .as_ref()
                .filter(|r| r.node == Atom::NONODE_NOHOST)
                .ok_or_else(|| bad("a monitor exit whose reference is not this node's"))?;
            let ids = [reference.ids[0], reference.ids[1], reference.ids[2]];
            let found = {
                let mut t = table();
                let e = t.entry(node);
                let i = e
                    .watching
                    .iter()
                    .position(|w| w.local == to && w.ids == ids);
                i.map(|i| e.watching.swap_remove(i))
            };
            if let Some(w) = found {
                let object = match w.target {
                    Watched::Pid(_) => c[1],
                    Watched::Name(name) => heap.tuple(&[Term::atom(name), Term::atom(node)]),
                };
                let down = heap.tuple(&[
                    Term::atom(Atom::DOWN),
                    c[3],
                    Term::atom(Atom::PROCESS),
                    object,
                    reason,
                ]);
                rt.send_signal(
                    to,
                    Signal::Down {
                        ids,
                        message: Payload {
                            term: down,
                            heap: Some(heap),
                        },
                    },
                );
            }
        }
        op::GROUP_LEADER => arity(3)?,
        op::SPAWN_REQUEST | op::SPAWN_REQUEST_TT => {
            arity(if operation == op::SPAWN_REQUEST { 6 } else { 7 })?;
            let args = need_payload()?;
            super::spawn::requested(rt, node, c, args)?;
        }
        op::SPAWN_REPLY | op::SPAWN_REPLY_TT => {
            arity(if operation == op::SPAWN_REPLY { 5 } else { 6 })?;
            super::spawn::replied(rt, node, c)?;
        }
        other => {
            return Err(BadFrame(format!("an unknown control message {other}")));
        }
    }
    Ok(())
}

/// A message to local pid `to` (dropped if it is gone or not local).
/// A message for the local process `to`, from `from` (a pid of the peer,
/// or the atom a `SEND` has in its place), with the `seq_trace` token a
/// `_TT` control message carried: the receiver takes it when it receives
/// the message, as from a local sender.
fn message_to(rt: &Runtime, to: Term, msg: Term, heap: Heap, from: Term, token: Option<Term>) {
    if !to.is_local_pid() {
        return;
    }
    let message = Payload {
        term: msg,
        heap: Some(heap),
    };
    let signal = match token {
        Some(token) => Signal::SeqMessage {
            message,
            token,
            from,
            carried: None,
        },
        None => Signal::Message(message, None),
    };
    rt.send_signal(to, signal);
}

/// A `_TT` control message's trace token: erts's `{Flags, Label, Serial,
/// From, LastCnt}`, or `[]`.
fn trace_token(t: Term) -> Result<Term, BadFrame> {
    if t == Term::NIL || beamr_trace::SeqToken::read(t).is_some() {
        Ok(t)
    } else {
        Err(bad(
            "a trace token that is not {Flags, Label, Serial, From, LastCnt}",
        ))
    }
}

/// A pid of `node` from a control message.
fn remote_pid(t: Term, node: Atom) -> Result<ExternalPidView, BadFrame> {
    match t.as_external_pid() {
        Some(p) if p.node == node => Ok(p),
        _ => Err(BadFrame(format!(
            "a sender that is not a pid of {}",
            node.name()
        ))),
    }
}

/// A pid of this node from a control message. A pid of an older
/// incarnation of this node is refused the same way.
fn local_pid(t: Term) -> Result<Term, BadFrame> {
    if t.is_local_pid() {
        Ok(t)
    } else if t.is_pid() {
        // Another incarnation's, or another node's: its signal goes nowhere.
        Ok(Term::NIL)
    } else {
        Err(bad("a receiver that is not a pid"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exit_reason_is_in_the_control_tuple_or_after_it() {
        let n = |v| Term::small_unchecked(v);
        let reason = Term::atom(Atom::new("boom").unwrap());
        let plain = [n(3), n(0), n(0), reason];
        let traced = [n(8), n(0), n(0), n(0), reason];
        // EXIT {3, From, To, Reason}; EXIT_TT {8, From, To, Token, Reason}.
        assert_eq!(exit_reason(true, false, &plain, None), (Some(reason), 4));
        assert_eq!(exit_reason(true, true, &traced, None), (Some(reason), 5));
        // PAYLOAD_EXIT {24, From, To} + Reason; PAYLOAD_EXIT_TT one more.
        assert_eq!(
            exit_reason(false, false, &plain[..3], Some(reason)),
            (Some(reason), 3)
        );
        assert_eq!(
            exit_reason(false, true, &traced[..4], Some(reason)),
            (Some(reason), 4)
        );
        // A control tuple too short for its reason has none.
        assert_eq!(exit_reason(true, false, &plain[..3], None), (None, 4));
    }
}
