//! `Spans`: call spans nested by each process's call stack, and
//! PRODUCER/CONSUMER spans for messages.
//!
//! # Calls
//!
//! `call` starts an INTERNAL span named `module:function/arity`, the child
//! of the process's current span (`ProcState::current`), and pushes it on
//! the process's stack. `return_from` and `exception_from` end the innermost
//! open span of the same function; spans above it (calls whose return was
//! not traced) end with it. An exception sets the span's status to Error
//! and adds an `exception` event.
//!
//! # Messages
//!
//! A send is a PRODUCER span (`send <destination>`), the child of the
//! sender's current span, started and ended at the send. Its context,
//! when sampled, is what the message carries (`context`). Taking
//! a message with a context starts a CONSUMER span (`process <receiver>`),
//! the child of the producer span and linked to it, as the messaging
//! conventions describe; it is the receiver's current span until its next
//! receive or its exit.
//!
//! Every span has `thread.id` (the pid number) and, for registered
//! processes, `thread.name`. Starting a span samples it (parent-based, with
//! the configured ratio for roots); an unsampled span records nothing and is
//! never exported.

use std::time::SystemTime;

use beamr_core::heap::size_of_term;
use beamr_core::term::Term;
use beamr_trace::{CallArgs, Mfa, TraceContext, Tracee, TraceeId};
use opentelemetry::trace::{
    Link, Span as _, SpanContext, SpanKind, Status, TraceContextExt, Tracer as _,
};
use opentelemetry::{Context, KeyValue};
use opentelemetry_sdk::trace::{SdkTracer, Span};

use crate::context;
use crate::keys::{semconv as k, MESSAGING_SYSTEM};
use crate::procs::{Frame, ProcState};
use crate::render;

/// Builds spans with the SDK tracer.
#[derive(Debug)]
pub(crate) struct Spans {
    tracer: SdkTracer,
}

fn parent(sc: Option<SpanContext>) -> Context {
    match sc {
        Some(sc) => Context::new().with_remote_span_context(sc),
        None => Context::new(),
    }
}

fn thread(tracee: Tracee, attrs: &mut Vec<KeyValue>) {
    let id = match tracee.id {
        TraceeId::Pid(n) | TraceeId::Port(n) => n as i64,
    };
    attrs.push(KeyValue::new(k::THREAD_ID, id));
    if let Some(name) = tracee.name {
        attrs.push(KeyValue::new(k::THREAD_NAME, name.name()));
    }
}

/// The attributes of a message span: the process, then the messaging
/// conventions' (`operation` is `messaging.operation.name`, `kind`
/// `messaging.operation.type`), with room for one more.
fn messaging(
    tracee: Tracee,
    operation: &'static str,
    kind: &'static str,
    dest: &str,
    message: Term,
) -> Vec<KeyValue> {
    let mut attrs = Vec::with_capacity(7);
    thread(tracee, &mut attrs);
    attrs.push(KeyValue::new(k::MESSAGING_SYSTEM, MESSAGING_SYSTEM));
    attrs.push(KeyValue::new(k::MESSAGING_OPERATION_NAME, operation));
    attrs.push(KeyValue::new(k::MESSAGING_OPERATION_TYPE, kind));
    attrs.push(KeyValue::new(
        k::MESSAGING_DESTINATION_NAME,
        dest.to_string(),
    ));
    attrs.push(KeyValue::new(
        k::MESSAGING_BODY_SIZE,
        (size_of_term(message) * 8) as i64,
    ));
    attrs
}

/// A destination as the conventions want it: a registered name, else the
/// printed pid.
fn destination(to: Term) -> String {
    match to.as_atom() {
        Some(a) => a.name().to_string(),
        None => render::term(to),
    }
}

fn receiver_name(t: Tracee) -> String {
    match t.name {
        Some(n) => n.name().to_string(),
        None => render::term(t.term()),
    }
}

impl Spans {
    /// Spans through `tracer`.
    pub(crate) fn new(tracer: SdkTracer) -> Spans {
        Spans { tracer }
    }

    /// `call`: opens a span for `mfa`.
    pub(crate) fn call(
        &self,
        st: &mut ProcState,
        tracee: Tracee,
        mfa: Mfa,
        args: CallArgs<'_>,
        t: SystemTime,
    ) {
        let name = render::mfa(mfa);
        let mut attrs = Vec::with_capacity(4);
        thread(tracee, &mut attrs);
        attrs.push(KeyValue::new(k::CODE_FUNCTION_NAME, name.clone()));
        if let CallArgs::Args(a) = args {
            attrs.push(KeyValue::new(k::CALL_ARGS, render::args(a)));
        }
        let span = self
            .tracer
            .span_builder(name)
            .with_kind(SpanKind::Internal)
            .with_start_time(t)
            .with_attributes(attrs)
            .start_with_context(&self.tracer, &parent(st.current()));
        st.calls.push(Frame { mfa, span });
    }

    /// Pops the frames down to the innermost one for `mfa`; spans above it
    /// end at `t`. `None` (nothing popped) if `mfa` is not open.
    fn pop(st: &mut ProcState, mfa: Mfa, t: SystemTime) -> Option<Span> {
        let at = st.calls.iter().rposition(|f| f.mfa == mfa)?;
        for mut f in st.calls.drain(at + 1..).rev() {
            f.span.end_with_timestamp(t);
        }
        st.calls.pop().map(|f| f.span)
    }

    /// `return_from`: ends `mfa`'s span with its result.
    pub(crate) fn returned(&self, st: &mut ProcState, mfa: Mfa, value: Term, t: SystemTime) {
        if let Some(mut span) = Self::pop(st, mfa, t) {
            span.set_attribute(KeyValue::new(k::CALL_RESULT, render::term(value)));
            span.end_with_timestamp(t);
        }
    }

    /// `exception_from`: ends `mfa`'s span with an error.
    pub(crate) fn raised(
        &self,
        st: &mut ProcState,
        mfa: Mfa,
        class: &str,
        reason: Term,
        t: SystemTime,
    ) {
        if let Some(mut span) = Self::pop(st, mfa, t) {
            let reason = render::term(reason);
            let attrs = vec![
                KeyValue::new(k::EXCEPTION_TYPE, class.to_string()),
                KeyValue::new(k::EXCEPTION_MESSAGE, reason.clone()),
            ];
            span.add_event_with_timestamp("exception", t, attrs.clone());
            span.set_attributes(attrs);
            span.set_status(Status::error(format!("{class}:{reason}")));
            span.end_with_timestamp(t);
        }
    }

    /// A send: a PRODUCER span; returns the context the message carries
    /// (`None` when unsampled, or when the receiver did not exist).
    pub(crate) fn send(
        &self,
        st: &ProcState,
        tracee: Tracee,
        to: Term,
        message: Term,
        delivered: bool,
        t: SystemTime,
    ) -> Option<TraceContext> {
        let dest = destination(to);
        let mut attrs = messaging(tracee, "send", "send", &dest, message);
        if !delivered {
            attrs.push(KeyValue::new(k::ERROR_TYPE, "noproc"));
        }
        let mut span = self
            .tracer
            .span_builder(format!("send {dest}"))
            .with_kind(SpanKind::Producer)
            .with_start_time(t)
            .with_attributes(attrs)
            .start_with_context(&self.tracer, &parent(st.current()));
        if !delivered {
            span.set_status(Status::error("noproc"));
        }
        let carried = context::carried(span.span_context());
        span.end_with_timestamp(t);
        carried.filter(|_| delivered)
    }

    /// A message taken with context `carried`: ends the previous CONSUMER
    /// span and, with a context, starts the next one.
    pub(crate) fn receive(
        &self,
        st: &mut ProcState,
        tracee: Tracee,
        message: Term,
        carried: Option<TraceContext>,
        t: SystemTime,
    ) {
        if let Some(mut old) = st.consumer.take() {
            old.end_with_timestamp(t);
        }
        let Some(carried) = carried else {
            return;
        };
        let producer = context::span_context(carried);
        let dest = receiver_name(tracee);
        let attrs = messaging(tracee, "receive", "process", &dest, message);
        let span = self
            .tracer
            .span_builder(format!("process {dest}"))
            .with_kind(SpanKind::Consumer)
            .with_start_time(t)
            .with_attributes(attrs)
            .with_links(vec![Link::with_context(producer.clone())])
            .start_with_context(&self.tracer, &parent(Some(producer)));
        st.consumer = Some(span);
    }

    /// The process exited: every open span ends; calls end with an error
    /// status when it crashed.
    pub(crate) fn exit(&self, st: &mut ProcState, crash: Option<&str>, t: SystemTime) {
        for mut f in st.calls.drain(..).rev() {
            if let Some(reason) = crash {
                f.span
                    .set_status(Status::error(format!("process crashed: {reason}")));
            }
            f.span.end_with_timestamp(t);
        }
        if let Some(mut c) = st.consumer.take() {
            c.end_with_timestamp(t);
        }
    }
}
