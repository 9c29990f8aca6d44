//! `Lifecycle`: process lifecycle as OpenTelemetry log records.
//!
//! | trace event | record | severity |
//! |---|---|---|
//! | `spawn` (tracee spawned `other`) | `process.spawned` | Info |
//! | `exit`, class `normal` or `shutdown` | `process.exited` | Info |
//! | `exit`, any other class | `process.crashed` | Error |
//! | `link` (tracee linked to `peer`) | `process.linked` | Info |
//! | a monitor (no trace tag: `Tracer::monitor`) | `process.monitored` | Info |
//!
//! A spawn is logged from the parent's `spawn` event, which has both ends
//! (the child's `spawned` event would log it twice); a link from the
//! linker's `link` event (not the other side's `getting_linked`).
//!
//! Every record has target and scope `beamr` (scope version: this crate's),
//! the event's time and the time it was observed, the span context the
//! process was in, a one-line body, and each attribute under both its
//! namespaced and its short key ([`crate::keys`]). Emitting a record copies
//! it into the log batch queue and never waits.

use std::time::SystemTime;

use beamr_core::term::Term;
use beamr_trace::{Mfa, Tracee};
use opentelemetry::logs::{AnyValue, LogRecord as _, Logger as _, Severity};
use opentelemetry::trace::SpanContext;
use opentelemetry_sdk::logs::{SdkLogRecord, SdkLogger};

use crate::exit::ExitInfo;
use crate::keys::{self, event, Pair};
use crate::render;

/// Builds and emits lifecycle records.
#[derive(Debug)]
pub(crate) struct Lifecycle {
    logger: SdkLogger,
}

/// When it happened and the span context it happened in.
pub(crate) struct At {
    /// The event's time.
    pub(crate) time: SystemTime,
    /// The process's current span context.
    pub(crate) span: Option<SpanContext>,
}

fn both(r: &mut SdkLogRecord, key: Pair, value: AnyValue) {
    r.add_attribute(key.0, value.clone());
    r.add_attribute(key.1, value);
}

fn text(s: impl Into<String>) -> AnyValue {
    AnyValue::String(s.into().into())
}

fn tracee_pid(t: Tracee) -> String {
    render::term(t.term())
}

impl Lifecycle {
    /// Lifecycle records through `logger`.
    pub(crate) fn new(logger: SdkLogger) -> Lifecycle {
        Lifecycle { logger }
    }

    fn record(
        &self,
        name: &'static str,
        severity: Severity,
        at: &At,
        body: String,
    ) -> SdkLogRecord {
        let mut r = self.logger.create_log_record();
        r.set_event_name(name);
        r.set_target(keys::SCOPE);
        r.set_timestamp(at.time);
        r.set_observed_timestamp(SystemTime::now());
        r.set_severity_number(severity);
        r.set_severity_text(severity.name());
        r.set_body(text(body));
        if let Some(sc) = &at.span {
            r.set_trace_context(sc.trace_id(), sc.span_id(), Some(sc.trace_flags()));
        }
        r
    }

    /// `process.spawned`: `parent` spawned `child` in `mfa`.
    pub(crate) fn spawned(&self, at: &At, parent: Tracee, child: Term, mfa: Mfa) {
        let (p, c) = (tracee_pid(parent), render::term(child));
        let body = format!("{p} spawned {c} in {}", render::mfa(mfa));
        let mut r = self.record(event::SPAWNED, Severity::Info, at, body);
        both(&mut r, keys::PID, text(c));
        both(&mut r, keys::PARENT_PID, text(p));
        both(&mut r, keys::MODULE, text(mfa.module.name()));
        both(&mut r, keys::FUNCTION, text(mfa.function.name()));
        both(&mut r, keys::ARITY, AnyValue::Int(mfa.arity.into()));
        if let Some(name) = parent.name {
            r.add_attribute("process.parent_registered_name", text(name.name()));
        }
        self.logger.emit(r);
    }

    /// `process.exited` or `process.crashed`: `who` exited with `reason`,
    /// which reads as `info` (`exit::classify`).
    pub(crate) fn exited(&self, at: &At, who: Tracee, reason: Term, info: &ExitInfo) {
        let pid = tracee_pid(who);
        let (name, severity) = if info.crashed {
            (event::CRASHED, Severity::Error)
        } else {
            (event::EXITED, Severity::Info)
        };
        let printed = render::term(reason);
        let body = format!("{pid} exited: {printed}");
        let mut r = self.record(name, severity, at, body);
        both(&mut r, keys::PID, text(pid));
        if let Some(n) = who.name {
            both(&mut r, keys::REGISTERED_NAME, text(n.name()));
        }
        both(&mut r, keys::EXIT_REASON, text(printed));
        both(&mut r, keys::EXIT_CLASS, text(info.class));
        if info.crashed {
            let class = match info.class {
                "error" | "throw" => info.class,
                _ => "exit",
            };
            both(&mut r, keys::EXCEPTION_CLASS, text(class));
            both(&mut r, keys::EXCEPTION_REASON, text(info.reason.as_str()));
            if let Some(st) = &info.stacktrace {
                both(&mut r, keys::EXCEPTION_STACKTRACE, text(st.as_str()));
            }
        }
        self.logger.emit(r);
    }

    /// `process.linked`: `a` linked to `b`.
    pub(crate) fn linked(&self, at: &At, a: Tracee, b: Term) {
        let (a, b) = (tracee_pid(a), render::term(b));
        let mut r = self.record(
            event::LINKED,
            Severity::Info,
            at,
            format!("{a} linked to {b}"),
        );
        both(&mut r, keys::PID, text(a.clone()));
        both(&mut r, keys::PID_A, text(a));
        both(&mut r, keys::PID_B, text(b));
        self.logger.emit(r);
    }

    /// `process.monitored`: `watcher` monitors `target` with `reference`.
    pub(crate) fn monitored(&self, at: &At, watcher: Tracee, target: Term, reference: Term) {
        let (w, t) = (tracee_pid(watcher), render::term(target));
        let body = format!("{w} monitors {t}");
        let mut r = self.record(event::MONITORED, Severity::Info, at, body);
        both(&mut r, keys::PID, text(w.clone()));
        both(&mut r, keys::WATCHER_PID, text(w));
        both(&mut r, keys::TARGET_PID, text(t));
        both(&mut r, keys::MONITOR_REF, text(render::term(reference)));
        self.logger.emit(r);
    }
}
