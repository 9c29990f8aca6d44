//! The OpenTelemetry context a message carries from its sender to its
//! receiver, as a `seq_trace` token is carried: beamr-trace's
//! [`TraceContext`], made from and read back as an SDK [`SpanContext`].
//!
//! # How the runtime carries it
//!
//! The value is opaque to the runtime: plain data, `Copy`, no heap, no
//! lock. The runtime stores it with the message (`Signal::Message`'s context)
//! and never looks inside.
//!
//! 1. Send. The runtime fires the `send` probe through
//!    [`Tracer::trace_send`](beamr_trace::Tracer::trace_send), which for an
//!    [`OtelTracer`](crate::OtelTracer) builds the PRODUCER span and returns
//!    the context to attach to the message: `Some` only when the span is
//!    sampled. When the send probe is off for the sender, the runtime may
//!    call [`OtelTracer::current_context`](crate::OtelTracer::current_context)
//!    to forward the sender's context unchanged (as a `seq_trace` token
//!    travels through untraced processes). `None` means: attach nothing.
//! 2. Receive. It fires the `'receive'` probe through
//!    [`Tracer::trace_receive`](beamr_trace::Tracer::trace_receive) with the
//!    message's context. With `Some`, that starts a CONSUMER span in the
//!    producer's trace (its child, with a link to it) and makes it the
//!    receiver's current context, so what the receiver calls and sends next
//!    nests under it; it ends when the receiver receives its next message or
//!    exits. With `None`, the receiver's previous consumer span ends and it
//!    has no message context.
//!
//! An unsampled send returns `None`: the message carries nothing and the
//! receiver does no OpenTelemetry work for it.
//!
//! Until beamr-trace carries the process's current context in
//! [`TraceEvent`](beamr_trace::TraceEvent) itself, the backend keeps each
//! process's current context in its own table (`procs`), keyed by pid.

use beamr_trace::TraceContext;
use opentelemetry::trace::{SpanContext, SpanId, TraceFlags, TraceId, TraceState};

/// The context of `span`, if it is valid and sampled (an unsampled span
/// gives `None`: nothing is carried).
pub(crate) fn carried(span: &SpanContext) -> Option<TraceContext> {
    (span.is_valid() && span.is_sampled()).then(|| TraceContext {
        trace_id: span.trace_id().to_bytes(),
        span_id: span.span_id().to_bytes(),
        flags: span.trace_flags().to_u8(),
    })
}

/// The remote span context a carried context stands for.
pub(crate) fn span_context(c: TraceContext) -> SpanContext {
    SpanContext::new(
        TraceId::from_bytes(c.trace_id),
        SpanId::from_bytes(c.span_id),
        TraceFlags::new(c.flags),
        true,
        TraceState::NONE,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_sampled_and_refuses_unsampled() {
        let sc = SpanContext::new(
            TraceId::from_bytes([7; 16]),
            SpanId::from_bytes([9; 8]),
            TraceFlags::SAMPLED,
            false,
            TraceState::NONE,
        );
        let m = carried(&sc).unwrap();
        assert_eq!(TraceId::from_bytes(m.trace_id), sc.trace_id());
        assert_eq!(SpanId::from_bytes(m.span_id), sc.span_id());
        assert!(span_context(m).is_remote() && span_context(m).is_sampled());
        let unsampled = SpanContext::new(
            sc.trace_id(),
            sc.span_id(),
            TraceFlags::default(),
            false,
            TraceState::NONE,
        );
        assert_eq!(carried(&unsampled), None);
        assert_eq!(carried(&SpanContext::empty_context()), None);
        assert!(std::mem::size_of::<TraceContext>() <= 32);
    }
}
