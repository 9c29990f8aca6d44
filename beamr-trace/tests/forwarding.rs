//! Every wrapper of `Tracer` forwards every method of the trait.
//!
//! Two wrappers implement the trait: `forward_tracer!` (for `Arc` and
//! `Box`, in `src/tracer.rs`) and `Layered` (every wrapper that changes
//! something: limits, tracer modules' names; `src/layer.rs`). A method
//! one of them does not define falls back to the trait's default, which
//! for the one-call paths loses the inner tracer's override without a
//! word. So:
//! - the source test reads the trait's methods from `src/tracer.rs` and
//!   fails when either wrapper lacks one of them;
//! - the behavioural test calls each of them through each wrapper on a
//!   tracer that overrides them all and records which it was given.

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use beamr_trace::{
    limited, CallArgs, Decision, Layered, Limits, Mfa, Payload, Plain, TraceContext, TraceEvent,
    TraceTag, Tracee, Tracer,
};

/// The `fn` names between the line starting with `start` and the first
/// line after it that is `end`.
fn methods_between(source: &str, start: &str, end: &str) -> BTreeSet<String> {
    let body = source
        .split_once(start)
        .unwrap_or_else(|| panic!("no `{start}` in the source"))
        .1;
    let body = body
        .split_once(end)
        .unwrap_or_else(|| panic!("no end `{end}` after `{start}`"))
        .0;
    body.lines()
        .filter_map(|line| line.trim_start().strip_prefix("fn "))
        .map(|rest| rest.split(['(', '<']).next().unwrap_or("").to_string())
        .collect()
}

fn source(file: &str) -> String {
    let path = format!("{}/src/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn trait_methods() -> BTreeSet<String> {
    methods_between(
        &source("tracer.rs"),
        "pub trait Tracer: Send + Sync {",
        "\n}\n",
    )
}

#[test]
fn both_wrappers_define_every_method_of_the_trait() {
    let methods = trait_methods();
    assert!(
        methods.len() >= 10 && methods.contains("fire_return"),
        "{methods:?}"
    );
    let pointers = methods_between(
        &source("tracer.rs"),
        "macro_rules! forward_tracer {",
        "forward_tracer!(",
    );
    assert_eq!(pointers, methods, "forward_tracer! (Arc, Box)");
    let layered = methods_between(&source("layer.rs"), "Tracer for Layered<L, T> {", "\n}\n");
    assert_eq!(layered, methods, "Layered");
}

/// Each method of the trait, by its bit in [`Probe::seen`].
const METHODS: [&str; 10] = [
    "enabled",
    "trace",
    "trace_status",
    "reads_clock",
    "monitor",
    "trace_send",
    "trace_receive",
    "tracer_term",
    "fire_call",
    "fire_return",
];

/// A tracer overriding every method, recording which were called.
#[derive(Default)]
struct Probe {
    seen: AtomicU32,
}

impl Probe {
    fn saw(&self, method: &str) {
        let bit = METHODS.iter().position(|m| *m == method).unwrap();
        self.seen.fetch_or(1 << bit, Ordering::Relaxed);
    }

    fn seen(&self) -> BTreeSet<String> {
        let seen = self.seen.load(Ordering::Relaxed);
        METHODS
            .iter()
            .enumerate()
            .filter(|(bit, _)| seen & (1 << bit) != 0)
            .map(|(_, m)| m.to_string())
            .collect()
    }
}

impl Tracer for Probe {
    fn enabled(&self, _: TraceTag, _: Tracee) -> Decision {
        self.saw("enabled");
        Decision::Trace
    }
    fn trace(&self, _: &TraceEvent<'_>) {
        self.saw("trace");
    }
    fn trace_status(&self, _: Tracee) -> Decision {
        self.saw("trace_status");
        Decision::Trace
    }
    fn reads_clock(&self) -> bool {
        self.saw("reads_clock");
        false
    }
    fn monitor(&self, _: Tracee, _: Term, _: Term, _: u64) {
        self.saw("monitor");
    }
    fn trace_send(&self, _: &TraceEvent<'_>) -> Option<TraceContext> {
        self.saw("trace_send");
        None
    }
    fn trace_receive(&self, _: &TraceEvent<'_>, _: Option<TraceContext>) {
        self.saw("trace_receive");
    }
    fn tracer_term(&self) -> Option<Term> {
        self.saw("tracer_term");
        None
    }
    fn fire_call(&self, _: Tracee, _: u32, _: &Mfa, _: CallArgs<'_>, _: Option<Term>) -> Decision {
        self.saw("fire_call");
        Decision::Trace
    }
    fn fire_return(&self, _: Tracee, _: u32, _: &Mfa, _: Term) -> Decision {
        self.saw("fire_return");
        Decision::Trace
    }
}

/// Calls every method of `tracer` once.
fn call_every_method(tracer: &dyn Tracer) {
    let me = Tracee::pid(1);
    let mfa = Mfa {
        module: Atom::OK,
        function: Atom::OK,
        arity: 0,
    };
    let event = TraceEvent::new(
        TraceTag::Send,
        me,
        0,
        0,
        Payload::Message {
            message: Term::NIL,
            peer: Some(Term::pid(2)),
            match_spec_result: None,
        },
    );
    tracer.enabled(TraceTag::Send, me);
    tracer.trace(&event);
    tracer.trace_status(me);
    tracer.reads_clock();
    tracer.monitor(me, Term::pid(2), Term::NIL, 0);
    tracer.trace_send(&event);
    tracer.trace_receive(&event, None);
    tracer.tracer_term();
    tracer.fire_call(me, 0, &mfa, CallArgs::Arity(0), None);
    tracer.fire_return(me, 0, &mfa, Term::NIL);
}

/// Wraps a probe in one of the wrappers.
type Wrap = fn(Arc<Probe>) -> Box<dyn Tracer>;

#[test]
fn every_wrapper_passes_every_method_through() {
    let all: BTreeSet<String> = METHODS.iter().map(|m| m.to_string()).collect();
    assert_eq!(all, trait_methods(), "METHODS lists the trait's methods");
    let wrappers: [(&str, Wrap); 4] = [
        ("Arc", |p| Box::new(p)),
        ("Box", |p| Box::new(Box::new(p) as Box<dyn Tracer>)),
        ("Layered<Plain, _>", |p| Box::new(Layered::new(Plain, p))),
        ("LimitedTracer", |p| {
            Box::new(limited(
                p,
                Limits {
                    total: Some(u64::MAX),
                    per_second: None,
                },
            ))
        }),
    ];
    for (name, wrap) in wrappers {
        let probe = Arc::new(Probe::default());
        call_every_method(&*wrap(probe.clone()));
        assert_eq!(probe.seen(), all, "{name} forwards every method");
    }
}
