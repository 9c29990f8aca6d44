//! Execution of [`RecvInstr`](crate::loader::recv::RecvInstr) instructions.

use std::time::Duration;

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use super::{get, put, Flow};
use crate::loader::recv::RecvInstr;
use crate::loader::Target;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;
use crate::signals;

/// Executes one instruction.
pub fn exec(rt: &Runtime, p: &mut Process, op: &RecvInstr) -> Flow {
    match *op {
        RecvInstr::Send => match signals::send(rt, p, p.x[0], p.x[1]) {
            Ok(()) => {
                p.x[0] = p.x[1];
                Flow::Next
            }
            Err(e) => Flow::Raise(e),
        },
        RecvInstr::LoopRec { fail, dst } => match p.mailbox.current() {
            Some(m) => {
                put(p, dst, m);
                Flow::Next
            }
            None => Flow::Jump(fail),
        },
        RecvInstr::LoopRecEnd { target } => {
            p.mailbox.advance();
            Flow::Jump(target)
        }
        RecvInstr::RemoveMessage => {
            if crate::trace::PROBES && seq_trace_may_matter(p) {
                signals::seq_trace::remove_current(rt, p);
            } else {
                p.mailbox.remove_current();
            }
            p.timer.active = false;
            p.timer.fired = false;
            Flow::Next
        }
        RecvInstr::Wait { target } => wait(p, target),
        RecvInstr::WaitTimeout { target, timeout } => {
            // A receive without clauses (`receive after T -> ... end`) loops
            // on itself: messages do not end its wait.
            if target.is_some() && p.mailbox.has_unseen() {
                return Flow::Jump(target);
            }
            if p.timer.fired {
                return Flow::Next;
            }
            let t = get(p, timeout);
            if t == Term::atom(Atom::INFINITY) {
                return Flow::Wait;
            }
            let ms = match t
                .as_integer()
                .and_then(|i| u64::try_from(i.to_bigint()).ok())
            {
                Some(ms) => ms,
                None => {
                    return Flow::Raise(Exception::error(Term::atom(
                        Atom::new("timeout_value").expect("atom"),
                    )))
                }
            };
            if ms == 0 {
                // Signals that have already arrived count: take them in
                // before deciding that no message matches.
                if signals::deliver_pending(rt, p) && target.is_some() {
                    return Flow::Jump(target);
                }
                return Flow::Next;
            }
            if !p.timer.active {
                rt.start_receive_timer(p, Duration::from_millis(ms));
            }
            Flow::Wait
        }
        RecvInstr::Timeout => {
            p.timer.active = false;
            p.timer.fired = false;
            p.mailbox.reset();
            Flow::Next
        }
        RecvInstr::MarkerReserve { dst } => {
            let marker = Term::small_unchecked(p.mailbox.len() as i64);
            put(p, dst, marker);
            Flow::Next
        }
        RecvInstr::MarkerBind { marker, reference } => {
            if let (Some(pos), Some(r)) = (get(p, marker).as_small(), get(p, reference).as_ref()) {
                p.mailbox
                    .bind_marker([r.ids[0], r.ids[1], r.ids[2]], pos as usize);
            }
            Flow::Next
        }
        RecvInstr::MarkerUse { reference } => {
            if let Some(r) = get(p, reference).as_ref() {
                p.mailbox.use_marker([r.ids[0], r.ids[1], r.ids[2]]);
            }
            Flow::Next
        }
        RecvInstr::MarkerClear { reference } => {
            if let Some(r) = get(p, reference).as_ref() {
                p.mailbox.clear_marker([r.ids[0], r.ids[1], r.ids[2]]);
            }
            Flow::Next
        }
    }
}

/// True if rule 3 of `seq_trace` may matter to `remove_message` in `p`:
/// the process has a token, or its mailbox has token words. One branch on
/// the two words or-ed together (`[]` xor `[]` is zero); the message's own
/// word is read only past it, in the cold path, which for a word `[]` and
/// no token does what the plain removal does.
#[inline(always)]
fn seq_trace_may_matter(p: &Process) -> bool {
    ((p.seq_token.raw() ^ Term::NIL.raw()) | p.mailbox.has_token_words() as u64) != 0
}

fn wait(p: &mut Process, target: Target) -> Flow {
    if target.is_some() && p.mailbox.has_unseen() {
        Flow::Jump(target)
    } else {
        Flow::Wait
    }
}
