//! `beamr run --trace procs --trace-to otel` on a real supervisor program
//! (tests/erlang/otel_sup_tree.erl), exporting to an OTLP receiver on
//! loopback, configured only by the standard `OTEL_*` variables: the
//! supervision tree the program prints (each supervisor and its children)
//! is rebuilt from the exported `process.spawned`, `process.linked` and
//! `process.monitored` log records alone. And with `--trace
//! send,receive,procs` (a process's exit ends its CONSUMER span), a message
//! passed along three processes (tests/erlang/otel_chain.erl) makes one
//! trace: the runtime carries the context with each message. Runtime
//! metrics, sampled from the runtime at each metric interval, arrive too.

mod otel_support;
mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;
use std::time::Duration;

use otel_support::model::{Collected, Log, Span};
use otel_support::receiver::Receiver;
use support::fixtures;

fn logs_named<'a>(c: &'a Collected, name: &'a str) -> impl Iterator<Item = &'a Log> {
    c.logs.iter().filter(move |l| l.event_name == name)
}

fn attr<'a>(log: &'a Log, key: &str) -> &'a str {
    log.attrs
        .get(key)
        .unwrap_or_else(|| panic!("{} has no {key}: {:?}", log.event_name, log.attrs))
}

#[test]
fn a_supervision_tree_is_rebuilt_from_the_exported_logs() {
    let receiver = Receiver::grpc();
    let out = Command::new(env!("CARGO_BIN_EXE_beamr"))
        .args([
            "run",
            "--trace",
            "procs",
            "--trace-to",
            "otel",
            "-e",
            "otel_sup_tree",
        ])
        .arg(fixtures("otel_sup_tree"))
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint())
        .env("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
        .env("OTEL_SERVICE_NAME", "beamr-sup-tree")
        .env("OTEL_BLRP_SCHEDULE_DELAY", "50")
        .env("OTEL_BSP_SCHEDULE_DELAY", "50")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // What the program saw: "<Sup> [<Child>,...]" per supervisor.
    let printed: BTreeMap<String, BTreeSet<String>> = stdout
        .lines()
        .map(|l| {
            let (sup, kids) = l.split_once(' ').expect("sup and children");
            let kids = kids.trim_matches(|c| c == '[' || c == ']');
            (sup.to_owned(), kids.split(',').map(str::to_owned).collect())
        })
        .collect();
    assert_eq!(printed.len(), 2, "{stdout}");

    // The program ends before the run does, and the pipeline is flushed at
    // shutdown: everything is there when the run has exited.
    let got = receiver.wait_until(Duration::from_secs(10), |c| {
        logs_named(c, "process.spawned").count() >= 5
    });
    assert!(
        got.logs
            .iter()
            .all(|l| l.resource.get("service.name").map(String::as_str) == Some("beamr-sup-tree")),
        "service name from OTEL_SERVICE_NAME"
    );
    let mut children: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for log in logs_named(&got, "process.spawned") {
        children
            .entry(attr(log, "process.parent_pid").to_owned())
            .or_default()
            .insert(attr(log, "process.pid").to_owned());
    }
    let links: BTreeSet<(String, String)> = logs_named(&got, "process.linked")
        .map(|l| {
            let (a, b) = (attr(l, "process.pid_a"), attr(l, "process.pid_b"));
            (a.min(b).to_owned(), a.max(b).to_owned())
        })
        .collect();
    for (sup, kids) in &printed {
        assert_eq!(
            children.get(sup),
            Some(kids),
            "children of {sup} from the logs: {children:?}"
        );
        for kid in kids {
            let pair = (sup.min(kid).clone(), sup.max(kid).clone());
            assert!(links.contains(&pair), "{sup} linked to {kid}: {links:?}");
        }
    }
    // The tree has two levels: the sub-supervisor is a child of the top one.
    let (top, sub) = {
        let sups: Vec<&String> = printed.keys().collect();
        if printed[sups[0]].contains(sups[1]) {
            (sups[0], sups[1])
        } else {
            (sups[1], sups[0])
        }
    };
    assert!(printed[top].contains(sub), "{printed:?}");
    // Shutting the tree down, each supervisor monitors each of its children
    // (supervisor:terminate_children), and the program monitors the top.
    let monitors: BTreeSet<(String, String)> = logs_named(&got, "process.monitored")
        .map(|l| {
            assert!(l.attrs.contains_key("process.monitor.ref"), "{:?}", l.attrs);
            (
                attr(l, "process.watcher_pid").to_owned(),
                attr(l, "process.target_pid").to_owned(),
            )
        })
        .collect();
    for (sup, kids) in &printed {
        for kid in kids {
            assert!(
                monitors.contains(&(sup.clone(), kid.clone())),
                "{sup} monitored {kid}: {monitors:?}"
            );
        }
    }
    assert!(
        monitors.iter().any(|(_, target)| target == top),
        "the program's monitor of {top}: {monitors:?}"
    );
    // Every supervised process exited when the tree was shut down.
    let exited: BTreeSet<&str> = logs_named(&got, "process.exited")
        .chain(logs_named(&got, "process.crashed"))
        .map(|l| attr(l, "process.pid"))
        .collect();
    for pid in printed.values().flatten().chain(printed.keys()) {
        assert!(
            exited.contains(pid.as_str()),
            "{pid} exit not logged: {exited:?}"
        );
    }
}

/// Runs `module` with `flags` into a fresh loopback receiver; returns what
/// the program printed and what arrived once `done` holds.
fn run_to_receiver(
    module: &str,
    trace: &[&str],
    done: impl Fn(&Collected) -> bool,
) -> (String, Collected) {
    let receiver = Receiver::grpc();
    let out = Command::new(env!("CARGO_BIN_EXE_beamr"))
        .arg("run")
        .args(trace)
        .args(["--trace-to", "otel", "-e", module])
        .arg(fixtures(module))
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint())
        .env("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
        .env("OTEL_SERVICE_NAME", "beamr-chain")
        .env("OTEL_BSP_SCHEDULE_DELAY", "50")
        .env("OTEL_METRIC_EXPORT_INTERVAL", "100")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got = receiver.wait_until(Duration::from_secs(10), done);
    (stdout, got)
}

const KIND_PRODUCER: i32 = 4;
const KIND_CONSUMER: i32 = 5;

#[test]
fn a_message_chain_across_three_processes_is_one_trace() {
    let (stdout, got) = run_to_receiver("otel_chain", &["--trace", "send,receive,procs"], |c| {
        c.spans.len() >= 6
    });
    let pids: Vec<&str> = stdout.split_whitespace().collect();
    let [main, b, c, from] = pids[..] else {
        panic!("expected four pids: {stdout}")
    };
    assert_eq!(c, from, "the last hop answers");
    let find = |what: &str, ok: &dyn Fn(&Span) -> bool| -> Span {
        got.spans
            .iter()
            .find(|s| ok(s))
            .cloned()
            .unwrap_or_else(|| {
                let names: Vec<(&str, i32)> = got
                    .spans
                    .iter()
                    .map(|s| (s.name.as_str(), s.kind))
                    .collect();
                panic!("no span for {what}: {names:?}")
            })
    };
    let consumer_of = |send: &Span| {
        let send = send.clone();
        find(
            &format!("the receipt of {}", send.name),
            &move |s: &Span| s.kind == KIND_CONSUMER && s.parent_span_id == send.span_id,
        )
    };
    let s1 = find("main's send to B", &|s: &Span| {
        s.kind == KIND_PRODUCER && s.name == format!("send {b}")
    });
    let r1 = consumer_of(&s1);
    let s2 = find("B's send to C", &|s: &Span| {
        s.kind == KIND_PRODUCER && s.name == format!("send {c}") && s.parent_span_id == r1.span_id
    });
    let r2 = consumer_of(&s2);
    let s3 = find("C's send to main", &|s: &Span| {
        s.kind == KIND_PRODUCER
            && s.name == format!("send {main}")
            && s.parent_span_id == r2.span_id
    });
    let r3 = consumer_of(&s3);
    for s in [&s1, &r1, &s2, &r2, &s3, &r3] {
        assert_eq!(s.trace_id, s1.trace_id, "{} is in the one trace", s.name);
    }
    assert_eq!(r1.links, vec![(s1.trace_id.clone(), s1.span_id.clone())]);
}

#[test]
fn runtime_metrics_are_sampled_from_the_running_runtime() {
    let (stdout, got) = run_to_receiver("otel_metrics", &["--trace", "procs"], |c| {
        c.metrics.contains_key("beamr.process.count")
            && c.metrics.contains_key("beamr.process.message_queue.length")
    });
    assert_eq!(stdout.trim(), "50");
    let value = |name: &str| -> f64 {
        got.metrics
            .get(name)
            .unwrap_or_else(|| panic!("no {name}: {:?}", got.metrics.keys()))
            .iter()
            .map(|p| p.value)
            .fold(0.0, f64::max)
    };
    // The last export before shutdown sees the fifty waiting processes.
    assert!(
        value("beamr.process.count") >= 50.0,
        "{:?}",
        got.metrics["beamr.process.count"]
    );
    assert!(value("beamr.reductions") > 0.0);
    assert!(value("beamr.memory.heap") > 0.0);
    assert!(
        value("beamr.process.message_queue.length") >= 50.0,
        "a histogram's count"
    );
    assert!(got.metrics.contains_key("beamr.scheduler.run_queue.length"));
}

#[test]
fn traced_calls_are_spans_nested_by_the_call_stack() {
    // fib(5) through ?MODULE:fib/1: external calls.
    fib_calls_are_nested_spans("trace_calls", ":x");
}

#[test]
fn traced_local_calls_are_spans_nested_by_the_call_stack() {
    // fib(5) calling itself locally, fib/1 not even exported; without :x,
    // which OTel implies (a span ends at its return).
    fib_calls_are_nested_spans("trace_local_calls", "");
}

/// Runs `module`, whose main prints fib(5) of its fib/1, with every call of
/// fib/1 traced (`--trace-call MODULE:fib/1` then `suffix`): 15 calls, each
/// a span from call to return; every call but the first is made inside
/// another's span, and each span's children are the two calls it made,
/// whose results add up to its own.
fn fib_calls_are_nested_spans(module: &str, suffix: &str) {
    let name = format!("{module}:fib/1");
    let pattern = format!("{name}{suffix}");
    let trace = ["--trace-call", pattern.as_str()];
    let (stdout, got) = run_to_receiver(module, &trace, |c| {
        c.spans.iter().filter(|s| s.name == name).count() >= 15
    });
    assert_eq!(stdout, "5\n");
    let calls: Vec<&Span> = got.spans.iter().filter(|s| s.name == name).collect();
    assert_eq!(
        calls.len(),
        15,
        "{:?}",
        got.spans.iter().map(|s| &s.name).collect::<Vec<_>>()
    );
    let ids: Vec<&Vec<u8>> = calls.iter().map(|s| &s.span_id).collect();
    let roots: Vec<&&Span> = calls
        .iter()
        .filter(|s| !ids.contains(&&s.parent_span_id))
        .collect();
    assert_eq!(roots.len(), 1, "one outermost call");
    assert_eq!(roots[0].attrs["beamr.call.result"], "5");
    assert!(
        calls.iter().all(|s| s.trace_id == roots[0].trace_id),
        "one trace"
    );
    let result = |s: &Span| -> u32 { s.attrs["beamr.call.result"].parse().unwrap() };
    for call in &calls {
        let children: Vec<u32> = calls
            .iter()
            .filter(|c| c.parent_span_id == call.span_id)
            .map(|c| result(c))
            .collect();
        match result(call) {
            0 | 1 if children.is_empty() => {}
            r => assert_eq!(
                (children.len(), children.iter().sum::<u32>()),
                (2, r),
                "fib's call returning {r} made two calls adding up to it"
            ),
        }
    }

    assert_eq!(
        calls
            .iter()
            .filter(|s| s.attrs.get("beamr.call.result").map(String::as_str) == Some("1"))
            .count(),
        8,
        "fib(5) returns 1 from five calls of fib(1) and three of fib(2)"
    );
}
