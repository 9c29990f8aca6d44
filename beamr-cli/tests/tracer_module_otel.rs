//! `beamr_otel_tracer`, the OpenTelemetry backend as a tracer module: an
//! Erlang program (tests/erlang/tracer_module_otel.erl) names it in
//! `erlang:trace/3`, with the collector and the service name in its state,
//! and the loopback OTLP receiver gets the traced processes' lifecycle.

mod otel_support;
mod support;

use std::process::Command;
use std::time::Duration;

use otel_support::receiver::Receiver;
use support::fixtures;

#[test]
fn an_erlang_program_exports_through_the_tracer_module() {
    let receiver = Receiver::grpc();
    let out = Command::new(env!("CARGO_BIN_EXE_beamr"))
        .args(["run", "-e", "tracer_module_otel"])
        .arg(fixtures("tracer_module_otel"))
        .arg("--")
        .arg(receiver.endpoint())
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
    let pids: Vec<&str> = stdout.split_whitespace().collect();
    let [main, child, grandchild] = pids[..] else {
        panic!("three pids: {stdout}");
    };
    // The pipeline is flushed when the run ends.
    let got = receiver.wait_until(Duration::from_secs(10), |c| {
        c.logs.iter().any(|l| l.event_name == "process.exited")
    });
    assert!(
        got.logs.iter().all(|l| {
            l.resource.get("service.name").map(String::as_str) == Some("beamr-tracer-module")
        }),
        "service name from the state"
    );
    let named = |name: &str| -> Vec<(String, String)> {
        got.logs
            .iter()
            .filter(|l| l.event_name == name)
            .map(|l| {
                let pid = l.attrs.get("process.pid").cloned().unwrap_or_default();
                let parent = l
                    .attrs
                    .get("process.parent_pid")
                    .cloned()
                    .unwrap_or_default();
                (pid, parent)
            })
            .collect()
    };
    // The child (traced) spawned the grandchild; main is not traced.
    assert_eq!(
        named("process.spawned"),
        [(grandchild.to_owned(), child.to_owned())],
        "main is {main}"
    );
    let exited: Vec<String> = named("process.exited")
        .into_iter()
        .map(|(p, _)| p)
        .collect();
    assert!(exited.contains(&child.to_owned()), "{exited:?}");
}
