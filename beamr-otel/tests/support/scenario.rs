//! Three processes, fed to an `OtelTracer` as the runtime would fire them,
//! and the checks of what a collector must receive from them.
//!
//! ```text
//! <0.10.0> (registered `boss`)  spawns <0.11.0> and <0.12.0>, links to
//!          <0.11.0>, monitors <0.12.0>; in demo:start/1 sends `go` to <0.11.0>
//! <0.11.0> receives it and sends `{work, 1}` to `worker` (<0.12.0>), exits normal
//! <0.12.0> (registered `worker`) receives it, demo:crash/1 raises badarith,
//!          crashes
//! ```

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;
use beamr_otel::{OtelTracer, RuntimeSnapshot};
use beamr_trace::{CallArgs, GcInfo, Mfa, Payload, TraceEvent, TraceTag, Tracee, Tracer};

use super::model::{Collected, Span};

pub const BOSS: u64 = 10;
pub const MIDDLE: u64 = 11;
pub const WORKER: u64 = 12;

fn atom(s: &str) -> Term {
    Term::atom(Atom::new(s).unwrap())
}

fn mfa(m: &str, f: &str, a: u32) -> Mfa {
    Mfa {
        module: Atom::new(m).unwrap(),
        function: Atom::new(f).unwrap(),
        arity: a,
    }
}

/// Fires the scenario into `t`; every probe asks `enabled` first, as the
/// runtime does.
pub fn run(t: &OtelTracer) {
    let mut h = Heap::new();
    let boss = Tracee::pid(BOSS).with_name(Atom::new("boss").unwrap());
    let middle = Tracee::pid(MIDDLE);
    let worker = Tracee::pid(WORKER).with_name(Atom::new("worker").unwrap());
    let mut ts = 1_000_000u64;
    let mut next = || {
        ts += 1_000;
        ts
    };
    let fire = |t: &OtelTracer, ev: TraceEvent<'_>| {
        beamr_trace::fire(t, ev.tag, ev.tracee, || ev);
    };
    t.anchor_clock(1_000_000);
    let args = [atom("x")];
    for child in [MIDDLE, WORKER] {
        let ev = TraceEvent::new(
            TraceTag::Spawn,
            boss,
            next(),
            1,
            Payload::Spawn {
                other: Term::pid(child),
                mfa: mfa("demo", "loop", 1),
                args: &args,
            },
        );
        fire(t, ev);
    }
    fire(
        t,
        TraceEvent::new(
            TraceTag::Link,
            boss,
            next(),
            1,
            Payload::Link {
                peer: Term::pid(MIDDLE),
            },
        ),
    );
    let mref = h.local_ref([1, 2, 3]);
    t.monitor(boss, Term::pid(WORKER), mref, next());
    let start_args = [Term::small_unchecked(7)];
    fire(
        t,
        TraceEvent::new(
            TraceTag::Call,
            boss,
            next(),
            1,
            Payload::Call {
                mfa: mfa("demo", "start", 1),
                args: CallArgs::Args(&start_args),
                match_spec_result: None,
            },
        ),
    );
    let go = atom("go");
    let ctx1 = t.trace_send(&TraceEvent::new(
        TraceTag::Send,
        boss,
        next(),
        1,
        Payload::Message {
            message: go,
            peer: Some(Term::pid(MIDDLE)),
            match_spec_result: None,
        },
    ));
    assert!(ctx1.is_some(), "a sampled send carries a context");
    t.trace_receive(
        &TraceEvent::new(
            TraceTag::Receive,
            middle,
            next(),
            2,
            Payload::Message {
                message: go,
                peer: Some(Term::pid(BOSS)),
                match_spec_result: None,
            },
        ),
        ctx1,
    );
    let work = h.tuple(&[atom("work"), Term::small_unchecked(1)]);
    let ctx2 = t.trace_send(&TraceEvent::new(
        TraceTag::Send,
        middle,
        next(),
        2,
        Payload::Message {
            message: work,
            peer: Some(atom("worker")),
            match_spec_result: None,
        },
    ));
    assert!(ctx2.is_some());
    t.trace_receive(
        &TraceEvent::new(
            TraceTag::Receive,
            worker,
            next(),
            1,
            Payload::Message {
                message: work,
                peer: Some(Term::pid(MIDDLE)),
                match_spec_result: None,
            },
        ),
        ctx2,
    );
    fire(
        t,
        TraceEvent::new(
            TraceTag::ReturnFrom,
            boss,
            next(),
            1,
            Payload::Return {
                mfa: mfa("demo", "start", 1),
                value: atom("ok"),
            },
        ),
    );
    fire(
        t,
        TraceEvent::new(
            TraceTag::GcMinorStart,
            boss,
            next(),
            1,
            Payload::Gc(GcInfo::default()),
        ),
    );
    fire(
        t,
        TraceEvent::new(
            TraceTag::GcMinorEnd,
            boss,
            next(),
            1,
            Payload::Gc(GcInfo::default()),
        ),
    );
    let crash_args = [Term::small_unchecked(0)];
    fire(
        t,
        TraceEvent::new(
            TraceTag::Call,
            worker,
            next(),
            1,
            Payload::Call {
                mfa: mfa("demo", "crash", 1),
                args: CallArgs::Args(&crash_args),
                match_spec_result: None,
            },
        ),
    );
    fire(
        t,
        TraceEvent::new(
            TraceTag::ExceptionFrom,
            worker,
            next(),
            1,
            Payload::Exception {
                mfa: mfa("demo", "crash", 1),
                class: Atom::new("error").unwrap(),
                reason: atom("badarith"),
            },
        ),
    );
    let file = h.string("demo.erl");
    let ft = h.tuple(&[atom("file"), file]);
    let lt = h.tuple(&[atom("line"), Term::small_unchecked(9)]);
    let loc = h.list(&[ft, lt]);
    let frame = h.tuple(&[atom("demo"), atom("crash"), Term::small_unchecked(1), loc]);
    let stack = h.list(&[frame]);
    let reason = h.tuple(&[atom("badarith"), stack]);
    fire(
        t,
        TraceEvent::new(TraceTag::Exit, worker, next(), 1, Payload::Exit { reason }),
    );
    fire(
        t,
        TraceEvent::new(
            TraceTag::Exit,
            middle,
            next(),
            2,
            Payload::Exit {
                reason: atom("normal"),
            },
        ),
    );
}

/// The snapshot the scenario's runtime reports.
pub fn snapshot() -> RuntimeSnapshot {
    RuntimeSnapshot {
        processes: 3,
        run_queue_lengths: vec![1, 2],
        reductions: 1234,
        heap_bytes: 4096,
        message_queue_lengths: vec![0, 3, 5],
    }
}

/// True once everything the scenario makes has arrived.
pub fn complete(c: &Collected) -> bool {
    c.logs.len() >= 6
        && c.spans.len() >= 6
        && c.metrics
            .get("beamr.messages.sent")
            .is_some_and(|p| p.iter().any(|p| p.value >= 2.0))
        && c.metrics.contains_key("beamr.process.message_queue.length")
}

fn span<'a>(c: &'a Collected, name: &str) -> &'a Span {
    c.spans.iter().find(|s| s.name == name).unwrap_or_else(|| {
        panic!(
            "no span {name}: {:#?}",
            c.spans.iter().map(|s| &s.name).collect::<Vec<_>>()
        )
    })
}

const KIND_INTERNAL: i32 = 1;
const KIND_PRODUCER: i32 = 4;
const KIND_CONSUMER: i32 = 5;
const STATUS_ERROR: i32 = 2;

/// Checks logs, spans and metrics of the scenario.
pub fn check(c: &Collected, service: &str) {
    check_logs(c, service);
    check_spans(c, service);
    check_metrics(c);
}

fn log<'a>(c: &'a Collected, event: &str) -> Vec<&'a super::model::Log> {
    c.logs.iter().filter(|l| l.event_name == event).collect()
}

pub fn check_logs(c: &Collected, service: &str) {
    let spawned = log(c, "process.spawned");
    assert_eq!(spawned.len(), 2, "{:#?}", c.logs);
    let s = spawned
        .iter()
        .find(|l| l.attrs["pid"] == "<0.11.0>")
        .expect("spawn of <0.11.0>");
    for (long, short, v) in [
        ("process.pid", "pid", "<0.11.0>"),
        ("process.parent_pid", "parent_pid", "<0.10.0>"),
        ("code.module", "module", "demo"),
        ("code.function", "function", "loop"),
        ("code.arity", "arity", "1"),
    ] {
        assert_eq!(s.attrs[long], v, "{long}");
        assert_eq!(s.attrs[short], v, "{short}");
    }
    assert_eq!(s.severity_number, 9, "Info");
    assert_eq!(
        s.scope,
        ("beamr".to_string(), env!("CARGO_PKG_VERSION").to_string())
    );
    assert_eq!(s.resource["service.name"], service);
    assert!(s.time_unix_nano > 0 && s.observed_time_unix_nano > 0);
    assert!(s.body.contains("spawned"), "{}", s.body);

    let linked = log(c, "process.linked");
    assert_eq!(linked.len(), 1);
    assert_eq!(linked[0].attrs["process.pid_a"], "<0.10.0>");
    assert_eq!(linked[0].attrs["pid_b"], "<0.11.0>");

    let mon = log(c, "process.monitored");
    assert_eq!(mon.len(), 1);
    assert_eq!(mon[0].attrs["process.watcher_pid"], "<0.10.0>");
    assert_eq!(mon[0].attrs["target_pid"], "<0.12.0>");
    assert!(
        mon[0].attrs["process.monitor.ref"].starts_with("#Ref<"),
        "{:?}",
        mon[0].attrs
    );

    let crashed = log(c, "process.crashed");
    assert_eq!(crashed.len(), 1);
    let cr = crashed[0];
    assert_eq!(cr.severity_number, 17, "Error");
    assert_eq!(cr.attrs["process.pid"], "<0.12.0>");
    assert_eq!(cr.attrs["process.exit_class"], "error");
    assert_eq!(cr.attrs["exception.class"], "error");
    assert_eq!(cr.attrs["exception_reason"], "badarith");
    assert_eq!(
        cr.attrs["exception.stacktrace"],
        "demo:crash/1 (demo.erl:9)"
    );
    assert!(cr.attrs["process.exit.reason"].starts_with("{badarith,"));
    // The worker crashed while processing the message <0.11.0> sent: the
    // record is in that trace.
    let consumer = span(c, "process worker");
    assert_eq!(
        cr.trace_id, consumer.trace_id,
        "crash record carries the span context"
    );

    let exited = log(c, "process.exited");
    assert_eq!(exited.len(), 1);
    assert_eq!(exited[0].attrs["exit_class"], "normal");
    assert_eq!(exited[0].severity_number, 9);
}

pub fn check_spans(c: &Collected, service: &str) {
    let call = span(c, "demo:start/1");
    assert_eq!(call.kind, KIND_INTERNAL);
    assert!(call.parent_span_id.is_empty(), "the call is a root");
    assert_eq!(call.attrs["code.function.name"], "demo:start/1");
    assert_eq!(call.attrs["beamr.call.arguments"], "[7]");
    assert_eq!(call.attrs["beamr.call.result"], "ok");
    assert_eq!(call.attrs["thread.id"], "10");
    assert_eq!(call.attrs["thread.name"], "boss");
    assert_eq!(call.resource["service.name"], service);
    assert_eq!(call.resource["process.pid"], std::process::id().to_string());

    let send1 = span(c, "send <0.11.0>");
    assert_eq!(send1.kind, KIND_PRODUCER);
    assert_eq!(
        send1.parent_span_id, call.span_id,
        "send is the call's child"
    );
    assert_eq!(send1.attrs["messaging.system"], "beamr");
    assert_eq!(send1.attrs["messaging.operation.type"], "send");
    assert_eq!(send1.attrs["messaging.destination.name"], "<0.11.0>");
    assert_eq!(
        send1.attrs["messaging.message.body.size"], "0",
        "an atom is immediate"
    );

    let recv1 = span(c, "process <0.11.0>");
    assert_eq!(recv1.kind, KIND_CONSUMER);
    assert_eq!(recv1.parent_span_id, send1.span_id);
    assert_eq!(
        recv1.links,
        vec![(send1.trace_id.clone(), send1.span_id.clone())]
    );
    assert_eq!(recv1.attrs["messaging.operation.type"], "process");
    assert_eq!(recv1.attrs["thread.id"], "11");

    let send2 = span(c, "send worker");
    assert_eq!(send2.kind, KIND_PRODUCER);
    assert_eq!(send2.parent_span_id, recv1.span_id);
    assert_eq!(send2.attrs["messaging.destination.name"], "worker");
    assert_eq!(
        send2.attrs["messaging.message.body.size"], "24",
        "{{work, 1}}: 3 words"
    );

    let recv2 = span(c, "process worker");
    assert_eq!(recv2.kind, KIND_CONSUMER);
    assert_eq!(recv2.parent_span_id, send2.span_id);
    assert_eq!(
        recv2.links,
        vec![(send2.trace_id.clone(), send2.span_id.clone())]
    );
    assert_eq!(recv2.attrs["thread.name"], "worker");

    let crash = span(c, "demo:crash/1");
    assert_eq!(
        crash.parent_span_id, recv2.span_id,
        "a call nests under the consumer span"
    );
    assert_eq!(crash.status_code, STATUS_ERROR);
    assert_eq!(crash.attrs["exception.type"], "error");
    assert_eq!(crash.attrs["exception.message"], "badarith");
    assert!(crash.events.iter().any(|e| e == "exception"));

    for s in [send1, recv1, send2, recv2, crash] {
        assert_eq!(s.trace_id, call.trace_id, "{} is in the one trace", s.name);
    }
}

fn point(c: &Collected, name: &str, attr: Option<(&str, &str)>) -> f64 {
    let points = c
        .metrics
        .get(name)
        .unwrap_or_else(|| panic!("no metric {name}: {:?}", c.metrics.keys()));
    points
        .iter()
        .find(|p| attr.is_none_or(|(k, v)| p.attrs.get(k).map(String::as_str) == Some(v)))
        .unwrap_or_else(|| panic!("{name} has no point {attr:?}: {points:?}"))
        .value
}

pub fn check_metrics(c: &Collected) {
    assert_eq!(point(c, "beamr.messages.sent", None), 2.0);
    assert_eq!(point(c, "beamr.messages.received", None), 2.0);
    assert_eq!(point(c, "beamr.processes.spawned", None), 2.0);
    assert_eq!(
        point(
            c,
            "beamr.processes.exited",
            Some(("process.exit_class", "error"))
        ),
        1.0
    );
    assert_eq!(
        point(
            c,
            "beamr.processes.exited",
            Some(("process.exit_class", "normal"))
        ),
        1.0
    );
    assert_eq!(
        point(c, "beamr.gc.count", Some(("beamr.gc.kind", "minor"))),
        1.0
    );
    assert_eq!(
        point(c, "beamr.gc.duration", Some(("beamr.gc.kind", "minor"))),
        1.0
    );
    assert_eq!(point(c, "beamr.process.count", None), 3.0);
    assert_eq!(
        point(
            c,
            "beamr.scheduler.run_queue.length",
            Some(("beamr.scheduler.id", "2"))
        ),
        2.0
    );
    assert_eq!(point(c, "beamr.reductions", None), 1234.0);
    assert_eq!(point(c, "beamr.memory.heap", None), 4096.0);
    assert_eq!(
        point(c, "beamr.process.message_queue.length", None),
        3.0,
        "three processes sampled"
    );
    assert_eq!(
        point(
            c,
            "beamr.otel.dropped",
            Some(("beamr.otel.signal", "spans"))
        ),
        0.0
    );
    for (name, points) in &c.metrics {
        for p in points {
            for k in p.attrs.keys() {
                assert!(
                    !k.contains("pid") && k != "thread.id",
                    "{name} has a per-process attribute {k}"
                );
            }
        }
    }
}
