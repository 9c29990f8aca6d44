//! `seq_trace`: the token a process carries, passed on with its messages,
//! link exit signals and spawns, and the serial counters as the BEAM keeps
//! them.
//!
//! A process's token is [`Process::seq_token`]: `[]`, or the tuple
//! `{Flags, Label, Serial, From, LastCnt}` ([`SeqToken`]) on its heap,
//! rebuilt (never changed in place) when it changes. Beside it the process
//! keeps `seq_clock` (`curr_cnt`) and `seq_lastcnt` (`prev_cnt`).
//!
//! # Rules (as erts keeps them)
//!
//! 1. Stamping, when a process with a token passes information on (a send,
//!    a link exit signal, a spawn) or prints: `clock += 1`, and the token
//!    becomes `Serial = clock, LastCnt = lastcnt, From = self()`. This
//!    happens with or without a system tracer and whatever the flags.
//! 2. The stamped token travels with the message (copied onto the
//!    message's heap) and is its token word in the receiver's mailbox.
//! 3. Receiving (`remove_message`, when a receive matches the message): a
//!    word `[]` empties the receiver's token; `undefined` (a message of the
//!    runtime's own) leaves it; a token becomes the receiver's token, with
//!    `lastcnt = Serial` and `clock = max(clock, Serial)`.
//! 4. Output: a send with the `send` flag, a receive with `'receive'`, a
//!    print with `print` and a matching label go to the runtime's
//!    [`SeqTracers`](crate::trace::SeqTracers) as
//!    `{send | 'receive', {LastCnt, Serial}, From, To, Message}` or
//!    `{print, {LastCnt, Serial}, From, [], Info}` (the token's fields).
//!
//! A process without a token pays one test of its token word per send, and
//! its mailbox one emptiness test per received message (see
//! [`Mailbox`](crate::process::Mailbox)). Where beamr differs: a spawn
//! passes the stamped token to the child directly, with no seq_trace
//! events for the BEAM's internal spawn_request/spawn_reply signals; and
//! every message of the runtime's own (replies of native servers, `'DOWN'`)
//! is `undefined`, leaving the token alone.

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;
use beamr_trace::seq_token::flags;
use beamr_trace::{Payload, SeqSerial, SeqToken, TraceEvent, TraceTag, Tracee};

use crate::process::Process;
use crate::runtime::Runtime;
use crate::trace::{now_ns, scheduler_id};

/// The token word of a message of the runtime's own (see rule 3).
pub fn runtime_word() -> Term {
    Term::atom(Atom::UNDEFINED)
}

/// The process's token (`[]` when it has none): what
/// `seq_trace:get_token/0` and a match specification's `get_seq_token()`
/// return. The tuple lives on `p`'s heap.
#[inline]
pub fn token(p: &Process) -> Term {
    p.seq_token
}

/// `erlang:seq_trace(Component, Value)` (`seq_trace:set_token/2`, and a
/// match specification's `set_seq_token/2`): sets one component of the
/// token, making a fresh token first when there is none. Returns the
/// component's old value; `None` for arguments the BEAM refuses (badarg).
///
/// Components: a flag (`send`, `'receive'`, `print`, `timestamp`,
/// `monotonic_timestamp`, `strict_monotonic_timestamp`) with `true` or
/// `false`; `label` with any term; `serial` with `{Previous, Current}`
/// (which also sets the process's counters); `sequential_trace_token` with
/// `[]` (empties the token, returning the old one).
pub fn set_token(p: &mut Process, component: Term, value: Term) -> Option<Term> {
    let name = component.as_atom()?.name();
    if let Some(flag) = flags::from_name(name) {
        let on = match value {
            Term::TRUE => true,
            Term::FALSE => false,
            _ => return None,
        };
        let mut token = current_or_new(p);
        let old = Term::bool(token.has(flag));
        if on {
            token.flags |= flag;
        } else {
            token.flags &= !flag;
        }
        p.seq_token = token.build(&mut p.heap);
        return Some(old);
    }
    match name {
        "label" => {
            let mut token = current_or_new(p);
            let old = token.label;
            token.label = value;
            p.seq_token = token.build(&mut p.heap);
            Some(old)
        }
        "serial" => {
            let &[previous, current] = value.as_tuple()? else {
                return None;
            };
            let counter = |t: Term| t.as_small().and_then(|n| u64::try_from(n).ok());
            let (previous, current) = (counter(previous)?, counter(current)?);
            let mut token = current_or_new(p);
            let old = serial_tuple(&mut p.heap, &token);
            token.lastcnt = previous;
            token.serial = current;
            p.seq_clock = current;
            p.seq_lastcnt = previous;
            p.seq_token = token.build(&mut p.heap);
            Some(old)
        }
        "sequential_trace_token" if value == Term::NIL => {
            Some(std::mem::replace(&mut p.seq_token, Term::NIL))
        }
        _ => None,
    }
}

/// `erlang:seq_trace_info(Item)` (`seq_trace:get_token/1`): `{Item, Value}`
/// (or `[]` for `label` and `serial` without a token); `None` for an item
/// the BEAM refuses.
pub fn info(p: &mut Process, item: Term) -> Option<Term> {
    let name = item.as_atom()?.name();
    let Some(token) = SeqToken::read(p.seq_token) else {
        return match name {
            "label" | "serial" => Some(Term::NIL),
            "spawn" => Some(p.heap.tuple(&[item, Term::FALSE])),
            _ if flags::from_name(name).is_some() => Some(p.heap.tuple(&[item, Term::FALSE])),
            _ => None,
        };
    };
    let value = match name {
        "label" => token.label,
        "serial" => serial_tuple(&mut p.heap, &token),
        _ => Term::bool(token.has(flags::from_name(name)?)),
    };
    Some(p.heap.tuple(&[item, value]))
}

/// `erlang:seq_trace_print/1,2`: with a token (and, for `Some(label)`, a
/// token of that label, compared exactly), stamps it and reports the print;
/// true then, false otherwise.
pub fn print(rt: &Runtime, p: &mut Process, label: Option<Term>, message: Term) -> bool {
    let Some(token) = SeqToken::read(p.seq_token) else {
        return false;
    };
    if label.is_some_and(|l| !beamr_core::order::exact_eq(l, token.label)) {
        return false;
    }
    let token = stamp_token(p, token);
    if token.has(flags::PRINT) {
        output(rt, p, TraceTag::SeqTracePrint, &token, None, message);
    }
    true
}

/// `seq_trace:reset_trace/0` for one process: no token, counters at zero,
/// no token on any waiting message.
pub fn reset(p: &mut Process) {
    p.seq_token = Term::NIL;
    p.seq_clock = 0;
    p.seq_lastcnt = 0;
    p.mailbox.clear_tokens();
}

/// Rule 1 and the send output, for a send from `p` (which has a token) to
/// `to` of `message`: the stamped token, on `p`'s heap, for the message to
/// carry; `[]` when `p` has no token.
#[cold]
#[inline(never)]
pub fn stamp_send(rt: &Runtime, p: &mut Process, to: Term, message: Term) -> Term {
    let Some(token) = SeqToken::read(p.seq_token) else {
        return Term::NIL;
    };
    let token = stamp_token(p, token);
    if token.has(flags::SEND) {
        output(rt, p, TraceTag::SeqTraceSend, &token, Some(to), message);
    }
    p.seq_token
}

/// A link exit signal from the exiting `p` (which has a token) to `to`:
/// the token stamped as for a send of `{'EXIT', Pid, Reason}`, copied onto
/// `heap` (the signal's).
#[cold]
#[inline(never)]
pub fn stamp_exit(rt: &Runtime, p: &mut Process, to: Term, reason: Term, heap: &mut Heap) -> Term {
    let Some(token) = SeqToken::read(p.seq_token) else {
        return Term::NIL;
    };
    let token = stamp_token(p, token);
    if token.has(flags::SEND) {
        let exit = p.heap.tuple(&[Term::atom(Atom::EXIT), p.pid, reason]);
        output(rt, p, TraceTag::SeqTraceSend, &token, Some(to), exit);
    }
    heap.copy_term(p.seq_token)
}

/// A spawn by `parent` (which has a token): stamps it and gives the child
/// the stamped token and counters, as if it had received it.
#[cold]
#[inline(never)]
pub fn pass_to_child(parent: &mut Process, child: &mut Process) {
    let Some(token) = SeqToken::read(parent.seq_token) else {
        return;
    };
    let token = stamp_token(parent, token);
    child.seq_token = child.heap.copy_term(parent.seq_token);
    child.seq_lastcnt = token.serial;
    child.seq_clock = token.serial;
}

/// Rule 3 for the message under `p`'s mailbox cursor, then its removal: the
/// `remove_message` instruction, when the message has a token word or `p`
/// has a token.
#[cold]
#[inline(never)]
pub fn remove_current(rt: &Runtime, p: &mut Process) {
    let word = p.mailbox.current_token();
    let message = p.mailbox.current().unwrap_or(Term::NIL);
    p.mailbox.remove_current();
    if word == Term::NIL {
        p.seq_token = Term::NIL;
        return;
    }
    let Some(token) = SeqToken::read(word) else {
        return; // `undefined`: a message of the runtime's own.
    };
    p.seq_token = word;
    p.seq_lastcnt = token.serial;
    p.seq_clock = p.seq_clock.max(token.serial);
    if token.has(flags::RECEIVE) {
        output(
            rt,
            p,
            TraceTag::SeqTraceReceive,
            &token,
            Some(p.pid),
            message,
        );
    }
}

/// The process's token, or a fresh one when it has none.
fn current_or_new(p: &Process) -> SeqToken {
    SeqToken::read(p.seq_token).unwrap_or_else(|| SeqToken::new(p.pid, p.seq_lastcnt))
}

/// Rule 1: stamps `token` (the process's) and stores it; returns it.
fn stamp_token(p: &mut Process, mut token: SeqToken) -> SeqToken {
    p.seq_clock += 1;
    token.serial = p.seq_clock;
    token.lastcnt = p.seq_lastcnt;
    token.from = p.pid;
    p.seq_token = token.build(&mut p.heap);
    token
}

/// `{LastCnt, Serial}` of a token.
fn serial_tuple(heap: &mut Heap, token: &SeqToken) -> Term {
    let (previous, current) = (
        heap.int(token.lastcnt as i64),
        heap.int(token.serial as i64),
    );
    heap.tuple(&[previous, current])
}

/// Rule 4: hands the event to the runtime's `seq_trace` destinations.
fn output(
    rt: &Runtime,
    p: &Process,
    tag: TraceTag,
    token: &SeqToken,
    to: Option<Term>,
    info: Term,
) {
    let Some(tracee) = Tracee::from_term(p.pid) else {
        return;
    };
    let payload = Payload::SeqTrace {
        label: token.label,
        serial: SeqSerial {
            previous: token.lastcnt,
            current: token.serial,
        },
        from: token.from,
        to,
        info,
    };
    let event = TraceEvent::new(tag, tracee, now_ns(), scheduler_id(), payload);
    rt.trace.seq.output(&event, token.flags);
}
