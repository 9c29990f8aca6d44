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

use crate::event::{CallArgs, Mfa, Payload, TraceEvent};
use crate::tag::TraceTag;
use crate::tracee::Tracee;
use crate::tracer::{Decision, Tracer};

/// What the runtime does for a [`MessageTracer`].
pub trait Deliver: Send + Sync {
    /// Puts `message`, built on `heap`, in `tracer`'s mailbox; false when
    /// there is no such process.
    fn deliver(&self, tracer: Term, message: Term, heap: Heap) -> bool;
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
    if event.tag.is_seq_trace() {
        return None;
    }
    let tag = Term::atom(event.tag.atom().ok()?);
    let mut elems = vec![Term::NIL, event.tracee.term(), tag];
    let mfa_tuple = |heap: &mut Heap, mfa: Mfa, third: Term| {
        heap.tuple(&[Term::atom(mfa.module), Term::atom(mfa.function), third])
    };
    let arity = |mfa: Mfa| Term::small_unchecked(mfa.arity as i64);
    match event.payload {
        Payload::Message {
            message,
            peer,
            match_spec_result,
        } => {
            elems.push(heap.copy_term(message));
            if event.tag != TraceTag::Receive {
                let peer = peer.unwrap_or(Term::atom(Atom::UNDEFINED));
                elems.push(heap.copy_term(peer));
            }
            // A message pattern's message(Extra): one more element.
            if let Some(extra) = match_spec_result {
                elems.push(heap.copy_term(extra));
            }
        }
        Payload::Call {
            mfa,
            args,
            match_spec_result,
        } => {
            let third = match args {
                CallArgs::Args(args) => copy_list(heap, args),
                CallArgs::Arity(n) => Term::small_unchecked(n as i64),
            };
            elems.push(mfa_tuple(heap, mfa, third));
            // A match specification's message(Extra): one more element.
            if let Some(extra) = match_spec_result {
                elems.push(heap.copy_term(extra));
            }
        }
        Payload::ReturnTo { mfa } => elems.push(match mfa {
            Some(mfa) => mfa_tuple(heap, mfa, arity(mfa)),
            None => Term::atom(Atom::UNDEFINED),
        }),
        Payload::Return { mfa, value } => {
            elems.push(mfa_tuple(heap, mfa, arity(mfa)));
            elems.push(heap.copy_term(value));
        }
        Payload::Exception { mfa, class, reason } => {
            elems.push(mfa_tuple(heap, mfa, arity(mfa)));
            let reason = heap.copy_term(reason);
            elems.push(heap.tuple(&[Term::atom(class), reason]));
        }
        Payload::Spawn { other, mfa, args } => {
            elems.push(heap.copy_term(other));
            let list = copy_list(heap, args);
            elems.push(mfa_tuple(heap, mfa, list));
        }
        Payload::Exit { reason } => elems.push(heap.copy_term(reason)),
        Payload::Link { peer } => elems.push(heap.copy_term(peer)),
        Payload::Register { name } => elems.push(Term::atom(name)),
        Payload::PortOpen { parent, driver } => {
            elems.push(heap.copy_term(parent));
            elems.push(Term::atom(driver));
        }
        Payload::PortClosed { reason } => elems.push(heap.copy_term(reason)),
        Payload::Running { mfa } => elems.push(match mfa {
            Some(mfa) => mfa_tuple(heap, mfa, arity(mfa)),
            None => Term::small_unchecked(0),
        }),
        Payload::PortTask { task } => {
            elems.push(task.map_or(Term::small_unchecked(0), Term::atom));
        }
        Payload::Gc(info) => elems.push(gc_info(heap, &info)),
        Payload::SeqTrace { .. } => return None,
    }
    let ts = timestamp_term(heap, ts);
    let first = if ts.is_some() { "trace_ts" } else { "trace" };
    elems[0] = Term::atom(Atom::new(first).ok()?);
    elems.extend(ts);
    Some(heap.tuple(&elems))
}

/// A timestamp as the BEAM writes it last in a trace message: `{MegaSecs,
/// Secs, MicroSecs}`, monotonic nanoseconds, or `{Monotonic, Unique}`;
/// `None` for no timestamp.
pub fn timestamp_term(heap: &mut Heap, ts: Timestamp) -> Option<Term> {
    match ts {
        Timestamp::None => None,
        Timestamp::Now(us) => {
            let parts = [
                us / 1_000_000_000_000,
                us / 1_000_000 % 1_000_000,
                us % 1_000_000,
            ];
            let parts: Vec<Term> = parts.iter().map(|&n| heap.int(n as i64)).collect();
            Some(heap.tuple(&parts))
        }
        Timestamp::Monotonic(ns) => Some(heap.int(ns)),
        Timestamp::StrictMonotonic(ns, unique) => {
            let (ns, unique) = (heap.int(ns), heap.int(unique as i64));
            Some(heap.tuple(&[ns, unique]))
        }
    }
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

/// `items` copied onto `heap` as a list.
fn copy_list(heap: &mut Heap, items: &[Term]) -> Term {
    let copied: Vec<Term> = items.iter().map(|&t| heap.copy_term(t)).collect();
    heap.list(&copied)
}

/// The BEAM's garbage-collection info list, `[{Name, Words}, ...]`.
fn gc_info(heap: &mut Heap, info: &crate::event::GcInfo) -> Term {
    let pairs: [(&str, u64); 12] = [
        ("wordsize", info.wordsize),
        ("old_heap_block_size", info.old_heap_block_size),
        ("heap_block_size", info.heap_block_size),
        ("mbuf_size", info.mbuf_size),
        ("recent_size", info.recent_size),
        ("stack_size", info.stack_size),
        ("old_heap_size", info.old_heap_size),
        ("heap_size", info.heap_size),
        ("bin_vheap_size", info.bin_vheap_size),
        ("bin_vheap_block_size", info.bin_vheap_block_size),
        ("bin_old_vheap_size", info.bin_old_vheap_size),
        ("bin_old_vheap_block_size", info.bin_old_vheap_block_size),
    ];
    let items: Vec<Term> = pairs
        .iter()
        .filter_map(|&(name, words)| {
            let name = Term::atom(Atom::new(name).ok()?);
            let words = heap.int(words as i64);
            Some(heap.tuple(&[name, words]))
        })
        .collect();
    heap.list(&items)
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

    fn trace(&self, event: &TraceEvent<'_>) {
        let mut heap = Heap::new();
        let ts = match self.timestamp {
            TimestampKind::None => Timestamp::None,
            kind => self.deliver.timestamp(kind, event.timestamp_ns),
        };
        if let Some(message) = trace_message(&mut heap, event, ts) {
            self.deliver.deliver(self.tracer, message, heap);
        }
    }

    fn tracer_term(&self) -> Option<Term> {
        Some(self.tracer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
