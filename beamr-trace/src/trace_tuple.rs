//! [`TraceTuple`]: the elements of the BEAM's trace message for one event
//! (`trace` or `trace_ts`, the tracee, the tag, the payload's terms, the
//! timestamp), before they are made a tuple.
//!
//! The message backend makes them a tuple on a heap of its own, with the
//! event's terms copied there ([`Terms::Copied`]): the message outlives
//! the event. A destination that only encodes the message while the event
//! lasts (a trace port writes it in the external format) takes the
//! elements with the event's terms as they are ([`Terms::Borrowed`]): no
//! heap, no copy, no tuple. Only the terms the message adds (an `{M, F,
//! A}`, a timestamp tuple, a garbage-collection info list) are built, on
//! the heap given.
//!
//! [`message_words`] bounds the words a copied message takes, so its heap
//! is allocated once at the right size.

use beamr_core::atom::Atom;
use beamr_core::heap::{size_of_term, Heap};
use beamr_core::term::Term;

use crate::event::{CallArgs, GcInfo, Mfa, Payload, TraceEvent};
use crate::message::Timestamp;
use crate::tag::TraceTag;

/// The most elements a trace message has: `trace_ts`, the tracee, the
/// tag, a message, its peer, a match specification's extra term and the
/// timestamp.
const MAX: usize = 7;

/// Whether the event's own terms are copied onto the heap.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Terms {
    /// Copied: the message outlives the event.
    Copied,
    /// Used as they are, valid only while the event lasts.
    Borrowed,
}

/// The elements of one trace message, in order.
#[derive(Copy, Clone, Debug)]
pub struct TraceTuple {
    elems: [Term; MAX],
    len: usize,
}

impl TraceTuple {
    fn push(&mut self, t: Term) {
        self.elems[self.len] = t;
        self.len += 1;
    }

    /// The elements.
    pub fn as_slice(&self) -> &[Term] {
        &self.elems[..self.len]
    }
}

/// The elements of the BEAM's trace message for `event` with the
/// timestamp `ts`, the terms it adds built on `heap` and the event's own
/// terms copied there or not (`terms`); `None` for a tag the message
/// backend does not send (`seq_trace` events go to the system tracer with
/// another shape).
pub fn trace_tuple(
    heap: &mut Heap,
    event: &TraceEvent<'_>,
    ts: Timestamp,
    terms: Terms,
) -> Option<TraceTuple> {
    if event.tag.is_seq_trace() {
        return None;
    }
    let copy = |heap: &mut Heap, t: Term| match terms {
        Terms::Copied => heap.copy_term(t),
        Terms::Borrowed => t,
    };
    let first = if ts == Timestamp::None {
        Atom::TRACE
    } else {
        Atom::TRACE_TS
    };
    let mut out = TraceTuple {
        elems: [Term::NIL; MAX],
        len: 0,
    };
    out.push(Term::atom(first));
    out.push(event.tracee.term());
    out.push(Term::atom(event.tag.atom().ok()?));
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
            out.push(copy(heap, message));
            if event.tag != TraceTag::Receive {
                let peer = peer.unwrap_or(Term::atom(Atom::UNDEFINED));
                out.push(copy(heap, peer));
            }
            // A message pattern's message(Extra): one more element.
            if let Some(extra) = match_spec_result {
                out.push(copy(heap, extra));
            }
        }
        Payload::Call {
            mfa,
            args,
            match_spec_result,
        } => {
            let third = match args {
                CallArgs::Args(args) => copy_list(heap, args, terms),
                CallArgs::Arity(n) => Term::small_unchecked(n as i64),
            };
            out.push(mfa_tuple(heap, mfa, third));
            // A match specification's message(Extra): one more element.
            if let Some(extra) = match_spec_result {
                out.push(copy(heap, extra));
            }
        }
        Payload::ReturnTo { mfa } => out.push(match mfa {
            Some(mfa) => mfa_tuple(heap, mfa, arity(mfa)),
            None => Term::atom(Atom::UNDEFINED),
        }),
        Payload::Return { mfa, value } => {
            out.push(mfa_tuple(heap, mfa, arity(mfa)));
            out.push(copy(heap, value));
        }
        Payload::Exception { mfa, class, reason } => {
            out.push(mfa_tuple(heap, mfa, arity(mfa)));
            let reason = copy(heap, reason);
            out.push(heap.tuple(&[Term::atom(class), reason]));
        }
        Payload::Spawn { other, mfa, args } => {
            out.push(copy(heap, other));
            let list = copy_list(heap, args, terms);
            out.push(mfa_tuple(heap, mfa, list));
        }
        Payload::Exit { reason } => out.push(copy(heap, reason)),
        Payload::Link { peer } => out.push(copy(heap, peer)),
        Payload::Register { name } => out.push(Term::atom(name)),
        Payload::PortOpen { parent, driver } => {
            out.push(copy(heap, parent));
            out.push(Term::atom(driver));
        }
        Payload::PortClosed { reason } => out.push(copy(heap, reason)),
        Payload::Running { mfa } => out.push(match mfa {
            Some(mfa) => mfa_tuple(heap, mfa, arity(mfa)),
            None => Term::small_unchecked(0),
        }),
        Payload::PortTask { task } => {
            out.push(task.map_or(Term::small_unchecked(0), Term::atom));
        }
        Payload::Gc(info) => out.push(gc_info(heap, &info)),
        Payload::SeqTrace { .. } => return None,
    }
    if let Some(ts) = timestamp_term(heap, ts) {
        out.push(ts);
    }
    Some(out)
}

/// At least the words [`trace_tuple`] with [`Terms::Copied`] and the
/// message's tuple take for `event` (the copied terms' sizes, and a bound
/// for what the message adds).
pub fn message_words(event: &TraceEvent<'_>) -> usize {
    // The tuple, an {M, F, A} or {Class, Reason}, a timestamp (bignums
    // included).
    const FIXED: usize = 1 + MAX + 4 + 3 + 4 + 3 * 3;
    let list = |args: &[Term]| args.iter().map(|&a| 2 + size_of_term(a)).sum::<usize>();
    let opt = |t: Option<Term>| t.map_or(0, size_of_term);
    FIXED
        + match event.payload {
            Payload::Message {
                message,
                peer,
                match_spec_result,
            } => size_of_term(message) + opt(peer) + opt(match_spec_result),
            Payload::Call {
                args,
                match_spec_result,
                ..
            } => {
                let args = match args {
                    CallArgs::Args(args) => list(args),
                    CallArgs::Arity(_) => 0,
                };
                args + opt(match_spec_result)
            }
            Payload::ReturnTo { .. }
            | Payload::Register { .. }
            | Payload::Running { .. }
            | Payload::PortTask { .. } => 0,
            Payload::Return { value, .. } => size_of_term(value),
            Payload::Exception { reason, .. } => size_of_term(reason),
            Payload::Spawn { other, args, .. } => size_of_term(other) + list(args),
            Payload::Exit { reason } | Payload::PortClosed { reason } => size_of_term(reason),
            Payload::Link { peer } => size_of_term(peer),
            Payload::PortOpen { parent, .. } => size_of_term(parent),
            // Twelve {Name, Words} pairs in a list, bignums included.
            Payload::Gc(_) => 12 * (3 + 2 + 3),
            Payload::SeqTrace { .. } => 0,
        }
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
            let parts = parts.map(|n| heap.int(n as i64));
            Some(heap.tuple(&parts))
        }
        Timestamp::Monotonic(ns) => Some(heap.int(ns)),
        Timestamp::StrictMonotonic(ns, unique) => {
            let (ns, unique) = (heap.int(ns), heap.int(unique as i64));
            Some(heap.tuple(&[ns, unique]))
        }
    }
}

/// `items` as a list on `heap`, each copied there or not (`terms`).
fn copy_list(heap: &mut Heap, items: &[Term], terms: Terms) -> Term {
    let copied: Vec<Term> = match terms {
        Terms::Copied => items.iter().map(|&t| heap.copy_term(t)).collect(),
        Terms::Borrowed => items.to_vec(),
    };
    heap.list(&copied)
}

/// The BEAM's garbage-collection info list, `[{Name, Words}, ...]`.
fn gc_info(heap: &mut Heap, info: &GcInfo) -> Term {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{trace_message, trace_message_heap};
    use crate::tracee::Tracee;
    use beamr_core::format::format_p;

    fn text(t: Term) -> String {
        format_p(t, &Default::default())
    }

    #[test]
    fn a_message_fits_its_heap_and_borrowed_elements_are_the_same_terms() {
        let mut tracee = Heap::new();
        let inner = tracee.tuple(&[Term::atom(Atom::OK), Term::small_unchecked(7)]);
        let msg = tracee.list(&[inner, Term::pid(3), inner]);
        let args = [msg, inner];
        let mfa = Mfa {
            module: Atom::ERLANG,
            function: Atom::OK,
            arity: 2,
        };
        let me = Tracee::pid(5);
        let message = Payload::Message {
            message: msg,
            peer: Some(Term::pid(6)),
            match_spec_result: Some(inner),
        };
        let call = Payload::Call {
            mfa,
            args: CallArgs::Args(&args),
            match_spec_result: None,
        };
        let spawn = Payload::Spawn {
            other: Term::pid(8),
            mfa,
            args: &args,
        };
        let gc = Payload::Gc(GcInfo {
            heap_size: u64::MAX / 2,
            ..GcInfo::default()
        });
        let events = [
            TraceEvent::new(TraceTag::Send, me, 1, 1, message),
            TraceEvent::new(TraceTag::Call, me, 1, 1, call),
            TraceEvent::new(TraceTag::Spawn, me, 1, 1, spawn),
            TraceEvent::new(TraceTag::GcMinorStart, me, 1, 1, gc),
        ];
        let stamps = [
            Timestamp::None,
            Timestamp::Now(1_700_000_123_456_789),
            Timestamp::StrictMonotonic(i64::MAX, u64::MAX),
        ];
        for event in &events {
            for ts in stamps {
                let (built, heap) = trace_message_heap(event, ts).unwrap();
                assert_eq!(heap.fragment_words(), 0, "{event:?} overflowed");
                let mut other = Heap::new();
                let expected = trace_message(&mut other, event, ts).unwrap();
                assert_eq!(text(built), text(expected));
                let mut scratch = Heap::new();
                let borrowed = trace_tuple(&mut scratch, event, ts, Terms::Borrowed).unwrap();
                let tuple = scratch.tuple(borrowed.as_slice());
                assert_eq!(text(tuple), text(expected));
            }
        }
    }
}
