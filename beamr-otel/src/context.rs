//! [`MessageContext`]: the OpenTelemetry context a message carries from its
//! sender to its receiver, as a `seq_trace` token is carried.
//!
//! # How the runtime carries it
//!
//! The value is opaque to the runtime: 25 bytes of plain data, `Copy`, no
//! heap, no lock. The runtime stores it beside the message's `seq_trace`
//! token and never looks inside.
//!
//! 1. Send. Where the runtime fires the `send` probe for a backend that is an
//!    [`OtelTracer`](crate::OtelTracer), it calls
//!    [`OtelTracer::trace_send`](crate::OtelTracer::trace_send) instead of
//!    `Tracer::trace`. That builds the PRODUCER span and returns the context
//!    to attach to the message: `Some` only when the span is sampled. When
//!    the send probe is off for the sender, the runtime may call
//!    [`OtelTracer::current_context`](crate::OtelTracer::current_context)
//!    to forward the sender's context unchanged (as a `seq_trace` token
//!    travels through untraced processes). `None` means: attach nothing.
//! 2. Receive. Where it fires the `'receive'` probe, it calls
//!    [`OtelTracer::trace_receive`](crate::OtelTracer::trace_receive) with the
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
//! Until beamr-trace carries this value in [`TraceEvent`](beamr_trace::TraceEvent)
//! itself, the backend keeps each process's current context in its own
//! table (`procs`), keyed by pid.

use opentelemetry::trace::{SpanContext, SpanId, TraceFlags, TraceId, TraceState};

/// A sampled span's identity, carried with a message.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MessageContext {
    trace_id: [u8; 16],
    span_id: [u8; 8],
    flags: u8,
}

impl MessageContext {
    /// The context of `span`, if it is valid and sampled (an unsampled span
    /// gives `None`: nothing is carried).
    pub fn from_span_context(span: &SpanContext) -> Option<MessageContext> {
        (span.is_valid() && span.is_sampled()).then(|| MessageContext {
            trace_id: span.trace_id().to_bytes(),
            span_id: span.span_id().to_bytes(),
            flags: span.trace_flags().to_u8(),
        })
    }

    /// The remote span context this value stands for.
    pub fn span_context(&self) -> SpanContext {
        SpanContext::new(
            TraceId::from_bytes(self.trace_id),
            SpanId::from_bytes(self.span_id),
            TraceFlags::new(self.flags),
            true,
            TraceState::NONE,
        )
    }

    /// As the runtime carries it with a message.
    pub fn to_carried(self) -> beamr_trace::TraceContext {
        beamr_trace::TraceContext {
            trace_id: self.trace_id,
            span_id: self.span_id,
            flags: self.flags,
        }
    }

    /// Back from what a message carried.
    pub fn from_carried(c: beamr_trace::TraceContext) -> MessageContext {
        MessageContext {
            trace_id: c.trace_id,
            span_id: c.span_id,
            flags: c.flags,
        }
    }

    /// The trace's id.
    pub fn trace_id(&self) -> TraceId {
        TraceId::from_bytes(self.trace_id)
    }

    /// The sending span's id.
    pub fn span_id(&self) -> SpanId {
        SpanId::from_bytes(self.span_id)
    }
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
        let m = MessageContext::from_span_context(&sc).unwrap();
        assert_eq!(m.trace_id(), sc.trace_id());
        assert_eq!(m.span_id(), sc.span_id());
        assert!(m.span_context().is_remote() && m.span_context().is_sampled());
        let unsampled = SpanContext::new(
            sc.trace_id(),
            sc.span_id(),
            TraceFlags::default(),
            false,
            TraceState::NONE,
        );
        assert_eq!(MessageContext::from_span_context(&unsampled), None);
        assert_eq!(
            MessageContext::from_span_context(&SpanContext::empty_context()),
            None
        );
        assert!(std::mem::size_of::<MessageContext>() <= 32);
    }
}
