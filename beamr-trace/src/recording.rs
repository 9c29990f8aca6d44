//! [`RecordingTracer`]: a backend that keeps a copy of every event it is
//! given, for tests: today of the protocol in [`fire`](crate::fire), later
//! of probe sites in the runtime (none exist yet) and of other backends.
//!
//! It is also the reference for "a backend copies what it keeps": every term
//! of an event is deep-copied onto the recorder's own [`Heap`] before the
//! event is stored, so the recorded events stay valid after the tracee's heap
//! is collected or dropped.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use beamr_core::heap::Heap;
use beamr_core::term::Term;

use crate::event::{CallArgs, Payload, TraceEvent};
use crate::tag::TraceTag;
use crate::tracee::Tracee;
use crate::tracer::{Decision, Tracer};

/// The filter a [`RecordingTracer`] answers [`Tracer::enabled`] with.
pub type Filter = Box<dyn Fn(TraceTag, Tracee) -> Decision + Send + Sync>;

struct Inner {
    /// Holds the copies of every recorded term. Never collected: a recorder
    /// lives as long as a test.
    heap: Heap,
    /// Events whose terms all point into `heap` (or are immediates).
    events: Vec<Recorded>,
}

/// One recorded event. Argument lists are kept as a tuple on the recorder's
/// heap, and the event's own slice is empty until [`Recorded::view`] lends
/// it out, borrowed from `args`.
struct Recorded {
    event: TraceEvent<'static>,
    /// The call's or spawn's arguments as a tuple, or `[]`.
    args: Term,
}

impl Recorded {
    /// The event with its arguments borrowed from this record.
    fn view(&self) -> TraceEvent<'_> {
        let mut event = self.event;
        let args = self.args.as_tuple().unwrap_or(&[]);
        match &mut event.payload {
            Payload::Call {
                args: CallArgs::Args(slot),
                ..
            } => *slot = args,
            Payload::Spawn { args: slot, .. } => *slot = args,
            _ => {}
        }
        event
    }
}

/// A tracer that records copies of the events it is given.
pub struct RecordingTracer {
    filter: Filter,
    inner: Mutex<Inner>,
    enabled_calls: AtomicU64,
    unasked: AtomicU64,
}

impl Default for RecordingTracer {
    fn default() -> RecordingTracer {
        RecordingTracer::new()
    }
}

impl RecordingTracer {
    /// A recorder that wants every event.
    pub fn new() -> RecordingTracer {
        RecordingTracer::with_filter(|_, _| Decision::Trace)
    }

    /// A recorder that answers [`Tracer::enabled`] with `filter`.
    pub fn with_filter(
        filter: impl Fn(TraceTag, Tracee) -> Decision + Send + Sync + 'static,
    ) -> RecordingTracer {
        RecordingTracer {
            filter: Box::new(filter),
            inner: Mutex::new(Inner {
                heap: Heap::new(),
                events: Vec::new(),
            }),
            enabled_calls: AtomicU64::new(0),
            unasked: AtomicU64::new(0),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many events were recorded.
    pub fn len(&self) -> usize {
        self.lock().events.len()
    }

    /// True if nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The tags of the recorded events, in order.
    pub fn tags(&self) -> Vec<TraceTag> {
        self.lock().events.iter().map(|e| e.event.tag).collect()
    }

    /// Calls `f` with the recorded events. Their terms live on the
    /// recorder's heap and are valid during the call.
    pub fn with_events<R>(&self, f: impl FnOnce(&[TraceEvent<'_>]) -> R) -> R {
        let inner = self.lock();
        let events: Vec<TraceEvent<'_>> = inner.events.iter().map(Recorded::view).collect();
        f(&events)
    }

    /// How many times [`Tracer::enabled`] was called.
    pub fn enabled_calls(&self) -> u64 {
        self.enabled_calls.load(Ordering::Relaxed)
    }

    /// How many events reached [`Tracer::trace`] although the filter does not
    /// answer [`Decision::Trace`] for them: probe sites that skipped the
    /// `enabled` question. Zero with a correct caller.
    pub fn unasked(&self) -> u64 {
        self.unasked.load(Ordering::Relaxed)
    }

    /// Forgets every recorded event.
    pub fn clear(&self) {
        let mut inner = self.lock();
        inner.events.clear();
        inner.heap = Heap::new();
    }
}

/// Deep-copies every term of `payload` onto `heap`; an argument list goes
/// into the returned tuple (`[]` when there is none) and its slice in the
/// payload is left empty (see [`Recorded`]).
fn copy_payload(heap: &mut Heap, payload: &Payload<'_>) -> (Payload<'static>, Term) {
    let mut args_tuple = Term::NIL;
    let payload = copy_terms(heap, payload, &mut args_tuple);
    (payload, args_tuple)
}

fn copy_terms(heap: &mut Heap, payload: &Payload<'_>, args_tuple: &mut Term) -> Payload<'static> {
    let mut copy = |t: Term| heap.copy_term(t);
    match *payload {
        Payload::Message {
            message,
            peer,
            match_spec_result,
        } => Payload::Message {
            message: copy(message),
            peer: peer.map(&mut copy),
            match_spec_result: match_spec_result.map(&mut copy),
        },
        Payload::Call {
            mfa,
            args,
            match_spec_result,
        } => {
            let args = match args {
                CallArgs::Args(args) => {
                    let copied: Vec<Term> = args.iter().map(|&t| copy(t)).collect();
                    *args_tuple = heap.tuple(&copied);
                    CallArgs::Args(&[])
                }
                CallArgs::Arity(n) => CallArgs::Arity(n),
            };
            Payload::Call {
                mfa,
                args,
                match_spec_result: match_spec_result.map(|t| heap.copy_term(t)),
            }
        }
        Payload::ReturnTo { mfa } => Payload::ReturnTo { mfa },
        Payload::Return { mfa, value } => Payload::Return {
            mfa,
            value: copy(value),
        },
        Payload::Exception { mfa, class, reason } => Payload::Exception {
            mfa,
            class,
            reason: copy(reason),
        },
        Payload::Spawn { other, mfa, args } => {
            let other = copy(other);
            let copied: Vec<Term> = args.iter().map(|&t| copy(t)).collect();
            *args_tuple = heap.tuple(&copied);
            Payload::Spawn {
                other,
                mfa,
                args: &[],
            }
        }
        Payload::Exit { reason } => Payload::Exit {
            reason: copy(reason),
        },
        Payload::Link { peer } => Payload::Link { peer: copy(peer) },
        Payload::Register { name } => Payload::Register { name },
        Payload::PortOpen { parent, driver } => Payload::PortOpen {
            parent: copy(parent),
            driver,
        },
        Payload::PortClosed { reason } => Payload::PortClosed {
            reason: copy(reason),
        },
        Payload::Running { mfa } => Payload::Running { mfa },
        Payload::PortTask { task } => Payload::PortTask { task },
        Payload::Gc(info) => Payload::Gc(info),
        Payload::SeqTrace {
            label,
            serial,
            from,
            to,
            info,
        } => Payload::SeqTrace {
            label: copy(label),
            serial,
            from: copy(from),
            to: to.map(&mut copy),
            info: copy(info),
        },
    }
}

impl Tracer for RecordingTracer {
    fn enabled(&self, tag: TraceTag, tracee: Tracee) -> Decision {
        self.enabled_calls.fetch_add(1, Ordering::Relaxed);
        (self.filter)(tag, tracee)
    }

    fn trace(&self, event: &TraceEvent<'_>) {
        if (self.filter)(event.tag, event.tracee) != Decision::Trace {
            self.unasked.fetch_add(1, Ordering::Relaxed);
            return;
        }
        let mut inner = self.lock();
        let (payload, args) = copy_payload(&mut inner.heap, &event.payload);
        let event = TraceEvent {
            tag: event.tag,
            tracee: event.tracee,
            timestamp_ns: event.timestamp_ns,
            scheduler_id: event.scheduler_id,
            payload,
        };
        inner.events.push(Recorded { event, args });
    }
}
