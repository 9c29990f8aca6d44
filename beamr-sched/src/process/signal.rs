//! Signals: everything one process sends another. Between one pair of
//! processes they are delivered in the order they were sent, because they all
//! travel through the receiver's one inbox.

use beamr_core::heap::Heap;
use beamr_core::term::Term;

/// A term together with the heap it lives on, built by the sender.
pub struct Payload {
    /// The term.
    pub term: Term,
    /// Its heap (absorbed by the receiver), or `None` for an immediate.
    pub heap: Option<Heap>,
}

impl Payload {
    /// A term `build` makes on a heap of its own.
    pub fn build(build: impl FnOnce(&mut Heap) -> Term) -> Payload {
        let mut heap = Heap::new();
        let term = build(&mut heap);
        Payload {
            term,
            heap: Some(heap),
        }
    }

    /// Copies `term` into a heap of its own.
    pub fn copy(term: Term) -> Payload {
        if term.is_immediate() {
            return Payload { term, heap: None };
        }
        let mut heap = Heap::with_capacity(beamr_core::heap::size_of_term(term).max(1));
        let term = heap.copy_term(term);
        Payload {
            term,
            heap: Some(heap),
        }
    }
}

/// A signal to a process.
pub enum Signal {
    /// A message of the runtime's own (a timer's, a port's, the system
    /// logger's), with the trace context it carries to its receiver's
    /// `'receive'` probe (`None` for most).
    Message(Payload, Option<beamr_trace::TraceContext>),
    /// A message a process sent: as [`Signal::Message`], with its sender
    /// (which `'receive'` trace patterns match on).
    Sent {
        /// The message.
        message: Payload,
        /// The sender's pid.
        from: Term,
        /// The trace context, as for [`Signal::Message`].
        carried: Option<beamr_trace::TraceContext>,
    },
    /// A trace message for a tracer process (the message backend's). It
    /// enters the mailbox without firing the tracer's own `'receive'`
    /// probe: two processes tracing each other's receives would otherwise
    /// feed each other forever (the BEAM does loop so).
    TraceMessage(Payload),
    /// A message with a `seq_trace` token word other than `[]` (see
    /// `signals::seq_trace`): a token tuple built on the payload's heap, or
    /// `undefined` for a message of the runtime's own.
    SeqMessage {
        /// The message.
        message: Payload,
        /// The token word, on `message`'s heap.
        token: Term,
        /// The sender (a pid, or an atom for the runtime's own).
        from: Term,
        /// The trace context, as for [`Signal::Message`].
        carried: Option<beamr_trace::TraceContext>,
    },
    /// An exit signal from `from` (a link breaking when `linked`, or `exit/2`).
    Exit {
        /// The sender's pid.
        from: Term,
        /// The exit reason.
        reason: Payload,
        /// True when caused by a link (the receiver drops the link).
        linked: bool,
        /// The sender's `seq_trace` token (on `reason`'s heap), or `[]`:
        /// a trapped exit's `'EXIT'` message carries it.
        token: Term,
    },
    /// `seq_trace:reset_trace/0`: empty the token and the counters, and
    /// the tokens of the messages waiting.
    SeqTraceReset,
    /// `from` linked to the receiver.
    Link {
        /// The linking process.
        from: Term,
    },
    /// `from` unlinked from the receiver.
    Unlink {
        /// The unlinking process.
        from: Term,
    },
    /// `from` monitors the receiver with the reference `ids`.
    Monitor {
        /// The monitoring process.
        from: Term,
        /// The monitor reference's id words (a local reference: the
        /// receiver keeps only these, so no term travels).
        ids: [u32; 3],
        /// The registered name monitored (`monitor(process, Name)`), if any.
        name: Option<beamr_core::atom::Atom>,
    },
    /// `from` stops monitoring the receiver.
    Demonitor {
        /// The monitoring process.
        from: Term,
        /// The monitor reference's id words.
        ids: [u32; 3],
    },
    /// A monitor of the receiver fired: its `'DOWN'` message; the monitor
    /// (these reference ids) ends as the message arrives.
    Down {
        /// The monitor reference's ids.
        ids: [u32; 3],
        /// The `'DOWN'` message.
        message: Payload,
    },
    /// `erlang:trace/3` changed how the receiver is traced.
    Trace(crate::trace::TraceChange),
    /// A `receive ... after` timer of the receiver fired.
    Timeout {
        /// Which timer (stale ones are ignored).
        generation: u64,
    },
    /// The receiver now controls this native object (a `socket` handed
    /// over by `setopt(S, {otp, controlling_process}, Pid)`): its end
    /// releases it, as the end of the process that opened it would have.
    Adopt(std::sync::Arc<dyn super::OwnedResource>),
}
