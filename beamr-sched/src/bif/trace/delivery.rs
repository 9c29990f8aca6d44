//! Where the message backend's trace messages go (`{tracer, Pid}`,
//! `{tracer, Port}`, the system sequential tracer): beamr-trace's
//! [`Deliver`] for a tracer process, for a trace port, and through the
//! runtime, and the timestamps they stamp on the runtime's clocks.
//!
//! Every traced event of a tracee comes here, so each step is kept to
//! what the event needs:
//!
//! - a tracer process is found once, when the tracer is set: its handle is
//!   kept, so an event neither looks it up in the process table nor
//!   upgrades a reference to the runtime (but to wake the tracer when it
//!   was waiting); the message is built straight on the tracer's heap
//!   when nobody holds the tracer ([`tracer_inbox`]), else on a heap of
//!   its size, which the tracer takes into its own;
//! - a trace port takes the message's encoding: it is written from the
//!   message's elements, the event's terms as they are (no heap, no copy,
//!   no tuple), into a buffer each scheduler thread reuses.

use std::cell::RefCell;
use std::sync::{Arc, Weak};

use beamr_core::heap::Heap;
use beamr_core::term::Term;
use beamr_trace::message::{trace_message, trace_message_heap, Deliver, Timestamp, TimestampKind};
use beamr_trace::trace_tuple::{trace_tuple, Terms};
use beamr_trace::TraceEvent;

use crate::bif::common::clocks;
use crate::process::{Payload, ProcessHandle, Signal};
use crate::runtime::{Port, Runtime};
use crate::signals::tracer_inbox;

/// Delivers trace messages into a tracer process's inbox.
pub(super) struct RuntimeDelivery {
    /// The runtime.
    pub(super) rt: Weak<Runtime>,
}

impl Deliver for RuntimeDelivery {
    fn deliver(&self, tracer: Term, message: Term, heap: Heap) -> bool {
        self.rt.upgrade().is_some_and(|rt| {
            let payload = Payload {
                term: message,
                heap: Some(heap),
            };
            rt.send_signal(tracer, Signal::TraceMessage(payload))
        })
    }

    fn is_alive(&self, tracer: Term) -> bool {
        self.rt
            .upgrade()
            .is_some_and(|rt| rt.processes.get(tracer).is_some())
    }

    fn timestamp(&self, kind: TimestampKind, at_ns: u64) -> Timestamp {
        runtime_timestamp(kind, at_ns)
    }
}

/// A timestamp on the runtime's clocks: the event's monotonic time is
/// `erlang:monotonic_time/0`'s (one clock), system time adds the time
/// offset, and strict timestamps take the next unique integer.
fn runtime_timestamp(kind: TimestampKind, at_ns: u64) -> Timestamp {
    let at = at_ns as i64;
    match kind {
        TimestampKind::None => Timestamp::None,
        TimestampKind::Now => Timestamp::Now((clocks::system_nanos_at(at) / 1000) as u64),
        TimestampKind::Monotonic => Timestamp::Monotonic(at),
        TimestampKind::StrictMonotonic => {
            Timestamp::StrictMonotonic(at, clocks::next_unique() as u64)
        }
    }
}

/// Delivers trace messages into one tracer process's inbox.
pub(super) struct ProcessDelivery {
    rt: Weak<Runtime>,
    /// The tracer; `None` if it did not exist when it was named.
    handle: Option<Arc<ProcessHandle>>,
}

impl ProcessDelivery {
    /// Delivers to the process `tracer` of `rt` (`weak` refers to `rt`).
    pub(super) fn new(rt: &Runtime, weak: Weak<Runtime>, tracer: Term) -> ProcessDelivery {
        ProcessDelivery {
            rt: weak,
            handle: rt.processes.get(tracer),
        }
    }
}

impl ProcessDelivery {
    /// After a message went in: enqueues the tracer if it was waiting
    /// (`pushed`: what the push answered); false if it has exited.
    fn wake(&self, handle: &Arc<ProcessHandle>, pushed: Option<bool>) -> bool {
        match pushed {
            Some(true) => {
                if let Some(rt) = self.rt.upgrade() {
                    rt.run_queues.push(Arc::clone(handle));
                }
                true
            }
            Some(false) => true,
            None => false,
        }
    }
}

impl Deliver for ProcessDelivery {
    fn deliver(&self, _tracer: Term, message: Term, heap: Heap) -> bool {
        let Some(handle) = &self.handle else {
            return false;
        };
        let payload = Payload {
            term: message,
            heap: Some(heap),
        };
        self.wake(handle, handle.push_signal(Signal::TraceMessage(payload)))
    }

    fn deliver_event(&self, _tracer: Term, event: &TraceEvent<'_>, ts: Timestamp) -> bool {
        let Some(handle) = &self.handle else {
            return false;
        };
        let build = |heap: &mut Heap| trace_message(heap, event, ts);
        if let Some(pushed) = tracer_inbox::deliver_direct(handle, build) {
            return self.wake(handle, Some(pushed));
        }
        let Some((message, heap)) = trace_message_heap(event, ts) else {
            return true;
        };
        let payload = Payload {
            term: message,
            heap: Some(heap),
        };
        self.wake(handle, handle.push_signal(Signal::TraceMessage(payload)))
    }

    fn is_alive(&self, _tracer: Term) -> bool {
        self.handle.as_ref().is_some_and(|h| !h.state.is_exited())
    }

    fn timestamp(&self, kind: TimestampKind, at_ns: u64) -> Timestamp {
        runtime_timestamp(kind, at_ns)
    }
}

/// Delivers trace messages to a port (`{tracer, Port}`, as `dbg`'s trace
/// ports are): each one in the external format, as erts hands a port its
/// trace messages.
pub(super) struct PortDelivery {
    pub(super) port: Arc<Port>,
}

/// The most bytes the buffer keeps between messages.
const KEPT: usize = 1 << 16;

thread_local! {
    /// The encoding of the trace message being delivered.
    static ENCODED: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

impl PortDelivery {
    /// Hands the port `bytes`, one trace message's encoding.
    fn output(&self, bytes: &[u8]) {
        match &self.port.driver {
            Some(driver) => driver.output(bytes),
            None => {
                let _ = self.port.command(self.port.data(bytes.to_vec()));
            }
        }
    }
}

impl Deliver for PortDelivery {
    fn deliver(&self, _tracer: Term, message: Term, _heap: Heap) -> bool {
        // As this release's term_to_binary/1 writes it.
        let options = crate::bif::common::etf::encode_defaults();
        let Ok(bytes) = beamr_core::etf::encode_with(message, &options) else {
            return false;
        };
        self.output(&bytes);
        true
    }

    fn deliver_event(&self, _tracer: Term, event: &TraceEvent<'_>, ts: Timestamp) -> bool {
        // Only what the message adds to the event's terms (an {M, F, A}, a
        // timestamp) goes on this heap: none for a send or a receive, and
        // an empty heap allocates nothing.
        let mut heap = Heap::with_capacity(0);
        let Some(elems) = trace_tuple(&mut heap, event, ts, Terms::Borrowed) else {
            return true;
        };
        let options = crate::bif::common::etf::encode_defaults();
        ENCODED.with(|cell| {
            let mut fresh = Vec::new();
            let mut reused = cell.try_borrow_mut();
            let out = match reused.as_deref_mut() {
                Ok(out) => out,
                Err(_) => &mut fresh,
            };
            out.clear();
            if beamr_core::etf::encode_tuple_into(elems.as_slice(), &options, out).is_err() {
                return false;
            }
            self.output(out);
            if out.capacity() > KEPT {
                *out = Vec::new();
            }
            true
        })
    }

    fn is_alive(&self, _tracer: Term) -> bool {
        match &self.port.driver {
            Some(driver) => !driver.stopped(),
            None => !self.port.state().closed,
        }
    }

    fn timestamp(&self, kind: TimestampKind, at_ns: u64) -> Timestamp {
        runtime_timestamp(kind, at_ns)
    }
}
