//! Trace messages into a tracer process: the message backend's delivery
//! (`{tracer, Pid}`), one message per traced event.
//!
//! A trace message takes the direct path of a plain message (the module
//! docs' rule 2): when nobody holds the tracer (it waits, or is queued)
//! and its inbox is empty, the message is built straight on the tracer's
//! heap and put in its mailbox, under its body lock. A tracer that keeps
//! up with its tracees waits for the next message most of the time, so
//! most messages skip the heap of their own (its allocation, the tracer's
//! absorbing it, the collection of one fragment per message), the inbox
//! and the signal. Otherwise the message goes through the inbox as a
//! `Signal::TraceMessage` on a heap of its own (rule 1).
//!
//! Trace messages fire no `'receive'` event (tracers tracing each other
//! could loop), whichever path they take.

use beamr_core::heap::Heap;
use beamr_core::term::Term;

use crate::process::ProcessHandle;

/// Builds a trace message with `build` on the tracer `handle`'s heap and
/// puts it in its mailbox, if nobody holds the tracer and its inbox is
/// empty: `Some(true)` if the caller must enqueue the tracer (it was
/// waiting), `Some(false)` if not (or if `build` made no message); `None`
/// if the message could not go straight in (the caller sends it as a
/// signal).
pub fn deliver_direct(
    handle: &ProcessHandle,
    build: impl FnOnce(&mut Heap) -> Option<Term>,
) -> Option<bool> {
    let mut body = handle.body.try_lock().ok()?;
    let p = body.as_mut()?;
    if !handle.inbox_is_empty() {
        return None;
    }
    let Some(message) = build(&mut p.heap) else {
        return Some(false);
    };
    super::send::push_message(p, message, super::seq_trace::runtime_word());
    drop(body);
    Some(handle.state.notify())
}
