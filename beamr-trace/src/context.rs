//! [`TraceContext`]: a distributed-tracing context (W3C trace context: a
//! trace id, a span id and flags) that the runtime carries with a message,
//! as it carries a `seq_trace` token, from the send probe that made it to
//! the receive probe of the message's receiver. The runtime never looks
//! inside; a backend makes one on `send` ([`Tracer::trace_send`]) and gets it
//! back on `'receive'` ([`Tracer::trace_receive`]).
//!
//! [`Tracer::trace_send`]: crate::Tracer::trace_send
//! [`Tracer::trace_receive`]: crate::Tracer::trace_receive

/// A trace context carried by a message.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TraceContext {
    /// The trace's id.
    pub trace_id: [u8; 16],
    /// The sending span's id.
    pub span_id: [u8; 8],
    /// The W3C trace flags (bit 0: sampled).
    pub flags: u8,
}
