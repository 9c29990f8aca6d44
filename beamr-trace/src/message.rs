//! The message backend: trace events as the BEAM's trace messages, delivered
//! to a tracer process (`erlang:trace/3` with `{tracer, Pid}`, or the caller).
//!
//! [`trace_message`] builds the term (`{trace, Pid, send, Msg, To}`, ... with
//! the shapes in the [`event`](crate::event) table; `trace_ts` and a
//! timestamp last when a timestamp flag is set) on a heap of its own, and
//! [`MessageTracer`] hands that heap to the runtime through [`Deliver`], the
//! one thing it needs from a scheduler: beamr-trace still knows nothing of
//! processes.

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;

use crate::event::{Payload, TraceEvent};
use crate::tag::TraceTag;
pub use crate::trace_tuple::timestamp_term;
use crate::trace_tuple::{message_words, trace_tuple, Terms};
use crate::tracee::Tracee;
use crate::tracer::{Decision, Tracer};

/// What the runtime does for a [`MessageTracer`].
pub trait Deliver: Send + Sync {
    /// Puts `message`, built on `heap`, in `tracer`'s mailbox; false when
    /// there is no such process.
    fn deliver(&self, tracer: Term, message: Term, heap: Heap) -> bool;
    /// Sends `tracer` the trace message of `event` with the timestamp
    /// `ts`; false when there is no such process. The default builds the
    /// message on a heap of its own ([`trace_message_heap`]) and
    /// [`deliver`](Deliver::deliver)s it; a destination that keeps no term
    /// (a port writes the message's encoding) can take the message's
    /// elements with the event's terms as they are
    /// ([`trace_tuple`](crate::trace_tuple::trace_tuple) with
    /// [`Terms::Borrowed`]).
    fn deliver_event(&self, tracer: Term, event: &TraceEvent<'_>, ts: Timestamp) -> bool {
        match trace_message_heap(event, ts) {
            Some((message, heap)) => self.deliver(tracer, message, heap),
            None => true,
        }
    }
    /// True while `tracer` is alive.
    fn is_alive(&self, tracer: Term) -> bool;
    /// The timestamp of `kind` (not [`TimestampKind::None`]) for an event
    /// that happened at `at_ns` on the trace clock
    /// ([`clock::now_ns`](crate::clock::now_ns)), in the runtime's terms:
    /// its system time, its monotonic time, its unique integers.
    fn timestamp(&self, kind: TimestampKind, at_ns: u64) -> Timestamp;
}

/// Which timestamp a trace message carries (`erlang:trace/3`'s flags).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum TimestampKind {
    /// None: a `trace` message.
    #[default]
    None,
    /// `timestamp`: `{MegaSecs, Secs, MicroSecs}` of the wall clock.
    Now,
    /// `monotonic_timestamp`: Erlang monotonic time in nanoseconds.
    Monotonic,
    /// `strict_monotonic_timestamp`: `{Monotonic, UniqueInteger}`.
    StrictMonotonic,
}

/// A timestamp's value, read by the tracer when the event fires.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Timestamp {
    /// No timestamp.
    None,
    /// Microseconds since the Unix epoch.
    Now(u64),
    /// Monotonic nanoseconds.
    Monotonic(i64),
    /// Monotonic nanoseconds and a unique integer.
    StrictMonotonic(i64, u64),
}

/// Builds the BEAM's trace message for `event` on `heap`, copying the
/// event's terms (they live on the tracee's heap); `None` for a tag the
/// message backend does not send (`seq_trace` events go to the system
/// tracer with another shape).
pub fn trace_message(heap: &mut Heap, event: &TraceEvent<'_>, ts: Timestamp) -> Option<Term> {
    let elems = trace_tuple(heap, event, ts, Terms::Copied)?;
    Some(heap.tuple(elems.as_slice()))
}

/// [`trace_message`] on a heap of its own, allocated once at the size the
/// message needs ([`message_words`]).
pub fn trace_message_heap(event: &TraceEvent<'_>, ts: Timestamp) -> Option<(Term, Heap)> {
    let mut heap = Heap::with_capacity(message_words(event));
    let message = trace_message(&mut heap, event, ts)?;
    Some((message, heap))
}

/// The message the system sequential tracer gets for a `seq_trace` event,
/// built on `heap` (the event's terms copied):
/// `{seq_trace, Label, {send | 'receive', {Previous, Current}, From, To,
/// Message}}` or `{seq_trace, Label, {print, {Previous, Current}, From, [],
/// Info}}`, with the timestamp last when `ts` has one. `None` for any other
/// event.
pub fn seq_trace_message(heap: &mut Heap, event: &TraceEvent<'_>, ts: Timestamp) -> Option<Term> {
    let Payload::SeqTrace {
        label,
        serial,
        from,
        to,
        info,
    } = event.payload
    else {
        return None;
    };
    let kind = Term::atom(event.tag.atom().ok()?);
    let (previous, current) = (
        heap.int(serial.previous as i64),
        heap.int(serial.current as i64),
    );
    let serial = heap.tuple(&[previous, current]);
    let from = heap.copy_term(from);
    let to = to.map_or(Term::NIL, |t| heap.copy_term(t));
    let info = heap.copy_term(info);
    let info = heap.tuple(&[kind, serial, from, to, info]);
    let label = heap.copy_term(label);
    let mut elems = vec![Term::atom(Atom::new("seq_trace").ok()?), label, info];
    elems.extend(timestamp_term(heap, ts));
    Some(heap.tuple(&elems))
}

/// A [`Tracer`] that sends trace messages to a tracer process.
pub struct MessageTracer<D> {
    tracer: Term,
    timestamp: TimestampKind,
    deliver: D,
}

impl<D: Deliver> MessageTracer<D> {
    /// Sends to the process `tracer` (a local pid) through `deliver`, with
    /// `timestamp`'s kind of timestamp in each message.
    pub fn new(tracer: Term, timestamp: TimestampKind, deliver: D) -> MessageTracer<D> {
        MessageTracer {
            tracer,
            timestamp,
            deliver,
        }
    }

    /// The tracer process.
    pub fn tracer(&self) -> Term {
        self.tracer
    }
}

impl<D: Deliver> Tracer for MessageTracer<D> {
    fn enabled(&self, _tag: TraceTag, tracee: Tracee) -> Decision {
        if tracee.term() == self.tracer {
            // The tracer's own events would feed themselves.
            Decision::Discard
        } else if self.deliver.is_alive(self.tracer) {
            Decision::Trace
        } else {
            Decision::Remove
        }
    }

    /// As `erl_tracer`'s: a tracer process or port that is gone takes no
    /// tracee.
    fn trace_status(&self, _tracee: Tracee) -> Decision {
        if self.deliver.is_alive(self.tracer) {
            Decision::Trace
        } else {
            Decision::Remove
        }
    }

    /// Only a timestamp flag puts the event's time in the message.
    fn reads_clock(&self) -> bool {
        self.timestamp != TimestampKind::None
    }

    fn trace(&self, event: &TraceEvent<'_>) {
        let ts = match self.timestamp {
            TimestampKind::None => Timestamp::None,
            kind => self.deliver.timestamp(kind, event.timestamp_ns),
        };
        self.deliver.deliver_event(self.tracer, event, ts);
    }

    fn tracer_term(&self) -> Option<Term> {
        Some(self.tracer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Mfa;
    use beamr_core::format::format_p;

    fn text(t: Term) -> String {
        format_p(t, &Default::default())
    }

    #[test]
    fn messages_have_the_beams_shapes() {
        let mut heap = Heap::new();
        let me = Tracee::pid(5);
        let msg = Term::atom(Atom::OK);
        let send = TraceEvent::new(
            TraceTag::Send,
            me,
            1,
            1,
            Payload::Message {
                message: msg,
                peer: Some(Term::pid(6)),
                match_spec_result: None,
            },
        );
        let t = trace_message(&mut heap, &send, Timestamp::None).unwrap();
        assert_eq!(text(t), "{trace,<0.5.0>,send,ok,<0.6.0>}");
        let recv = TraceEvent::new(
            TraceTag::Receive,
            me,
            1,
            1,
            Payload::Message {
                message: msg,
                peer: None,
                match_spec_result: None,
            },
        );
        let t = trace_message(&mut heap, &recv, Timestamp::Monotonic(42)).unwrap();
        assert_eq!(text(t), "{trace_ts,<0.5.0>,'receive',ok,42}");
        // A message pattern's message(Extra) comes after the peer.
        let hello = Term::atom(Atom::new("hello").unwrap());
        let with_extra = |tag, peer| {
            let payload = Payload::Message {
                message: msg,
                peer,
                match_spec_result: Some(hello),
            };
            TraceEvent::new(tag, me, 1, 1, payload)
        };
        let send = with_extra(TraceTag::Send, Some(Term::pid(6)));
        let t = trace_message(&mut heap, &send, Timestamp::None).unwrap();
        assert_eq!(text(t), "{trace,<0.5.0>,send,ok,<0.6.0>,hello}");
        let recv = with_extra(TraceTag::Receive, None);
        let t = trace_message(&mut heap, &recv, Timestamp::Monotonic(7)).unwrap();
        assert_eq!(text(t), "{trace_ts,<0.5.0>,'receive',ok,hello,7}");
        let args = [Term::small_unchecked(1)];
        let mfa = Mfa {
            module: Atom::ERLANG,
            function: Atom::new("apply").unwrap(),
            arity: 1,
        };
        let spawn = TraceEvent::new(
            TraceTag::Spawn,
            me,
            1,
            1,
            Payload::Spawn {
                other: Term::pid(7),
                mfa,
                args: &args,
            },
        );
        let t = trace_message(&mut heap, &spawn, Timestamp::Now(1_700_000_123_456_789)).unwrap();
        assert_eq!(
            text(t),
            "{trace_ts,<0.5.0>,spawn,<0.7.0>,{erlang,apply,[1]},{1700,123,456789}}"
        );
        let out = TraceEvent::new(TraceTag::Out, me, 1, 1, Payload::Running { mfa: None });
        let t = trace_message(&mut heap, &out, Timestamp::None).unwrap();
        assert_eq!(text(t), "{trace,<0.5.0>,out,0}");
    }

    struct Mailbox(std::sync::Mutex<Vec<String>>, bool);

    impl Deliver for Mailbox {
        fn deliver(&self, _tracer: Term, message: Term, _heap: Heap) -> bool {
            self.0.lock().unwrap().push(text(message));
            true
        }
        fn is_alive(&self, _tracer: Term) -> bool {
            self.1
        }
        fn timestamp(&self, _kind: TimestampKind, at_ns: u64) -> Timestamp {
            Timestamp::Monotonic(at_ns as i64)
        }
    }

    #[test]
    fn the_tracer_never_traces_itself_and_a_dead_one_is_removed() {
        let live = MessageTracer::new(
            Term::pid(9),
            TimestampKind::None,
            Mailbox(Default::default(), true),
        );
        assert_eq!(
            live.enabled(TraceTag::Send, Tracee::pid(9)),
            Decision::Discard
        );
        assert_eq!(
            live.enabled(TraceTag::Send, Tracee::pid(3)),
            Decision::Trace
        );
        let dead = MessageTracer::new(
            Term::pid(9),
            TimestampKind::None,
            Mailbox(Default::default(), false),
        );
        assert_eq!(
            dead.enabled(TraceTag::Send, Tracee::pid(3)),
            Decision::Remove
        );
        // trace_status: set on a tracee only while the tracer lives.
        assert_eq!(live.trace_status(Tracee::pid(9)), Decision::Trace);
        assert_eq!(dead.trace_status(Tracee::pid(3)), Decision::Remove);
    }
}
