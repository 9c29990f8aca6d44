//! The traced table: what tracing costs on the BEAM and on beamr, as each
//! runtime's traced time over its own untraced time, in one run.
//!
//! Every run is one function of our driver, `xtask/bench/traced_driver.erl`
//! (compiled next to the peer workloads, whose `ring` and `fib` it runs):
//! it sets its tracing up, then times exactly the traced region and prints
//! `<variant> <result> <N> us` as its last line. The variants ([`VARIANTS`]):
//!
//! - on both runtimes: `ring` and `fib` untraced (the baselines); `ring`
//!   with dbg to a file trace port and to a tracer process, `fib(30)` with
//!   every call traced by dbg to a file port (as `../shared/bench/traced.erl`
//!   does; the region includes flushing the port and draining the tracer;
//!   untraced `fib` reports the median of five `fib(30)`, each timed alone,
//!   as one takes about a time slice of a loaded machine);
//! - on beamr only, the untraced `ring` and `fib` traced from outside, the
//!   same work timed the same way: into the ring buffer (`--trace
//!   send,receive` on every process; `--trace-call fib:fib/1`, every call,
//!   and `fib:fib/1:x`, every call and return),
//!   and into OpenTelemetry (`--trace-to otel`, OTLP over HTTP/protobuf to
//!   a loopback sink of ours that answers every export, [`otlp_sink`]; a
//!   call's span lasts from the call to its return, so OTel traces the
//!   returns too and is held against the ring buffer's `:x` run; the
//!   batch exporter's standard settings, so what its queue cannot hold is
//!   dropped, and said).
//!
//! Per repetition every variant runs once, back to back, so that all see
//! the same machine load; the table shows medians and the ratios, with the
//! goals of issue 10 point 10 marked met or not. Every variant of a
//! function must print the same result on both runtimes and in every
//! repetition (the trace files' sizes and the count of trace messages
//! included): a difference fails the variant.
//!
//! [`otlp_sink`]: super::otlp_sink

use super::options::Options;
use super::otlp_sink::Sink;
use super::peer::{beamr_run, erl};
use super::runner::{human, measure, median, parse_last_line, ratio};
use crate::{Error, Result};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The peer workloads the driver runs.
pub const WORKLOADS: [&str; 2] = ["ring", "fib"];

/// The driver's module name.
const DRIVER: &str = "traced_driver";

/// The driver's source.
pub fn driver(root: &Path) -> PathBuf {
    root.join("xtask")
        .join("bench")
        .join(format!("{DRIVER}.erl"))
}

/// Which runtime runs a variant.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Runtime {
    Beam,
    Beamr,
}

/// How beamr traces a variant from outside the program.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Outside {
    /// Not at all.
    No,
    /// Into a ring-buffer file, with these trace options.
    Ring(&'static [&'static str]),
    /// Into OpenTelemetry, with these trace options.
    Otel(&'static [&'static str]),
}

/// One thing to time: a driver function on a runtime, maybe traced from
/// outside.
#[derive(Debug)]
struct Variant {
    /// How rows and messages name it.
    key: &'static str,
    runtime: Runtime,
    /// The driver's function.
    function: &'static str,
    outside: Outside,
}

const RING_SEND_RECEIVE: &[&str] = &["--trace", "send,receive"];
const FIB_EVERY_CALL: &[&str] = &["--trace-call", "fib:fib/1"];
const FIB_EVERY_CALL_AND_RETURN: &[&str] = &["--trace-call", "fib:fib/1:x"];

const fn variant(
    key: &'static str,
    runtime: Runtime,
    function: &'static str,
    outside: Outside,
) -> Variant {
    Variant {
        key,
        runtime,
        function,
        outside,
    }
}

/// Every variant, in the order each repetition runs them.
const VARIANTS: [Variant; 15] = [
    variant("erl ring", Runtime::Beam, "ring", Outside::No),
    variant("beamr ring", Runtime::Beamr, "ring", Outside::No),
    variant("erl ring_file", Runtime::Beam, "ring_file", Outside::No),
    variant("beamr ring_file", Runtime::Beamr, "ring_file", Outside::No),
    variant("erl ring_proc", Runtime::Beam, "ring_proc", Outside::No),
    variant("beamr ring_proc", Runtime::Beamr, "ring_proc", Outside::No),
    variant(
        "beamr ring +ring",
        Runtime::Beamr,
        "ring",
        Outside::Ring(RING_SEND_RECEIVE),
    ),
    variant(
        "beamr ring +otel",
        Runtime::Beamr,
        "ring",
        Outside::Otel(RING_SEND_RECEIVE),
    ),
    variant("erl fib", Runtime::Beam, "fib", Outside::No),
    variant("beamr fib", Runtime::Beamr, "fib", Outside::No),
    variant("erl fib_file", Runtime::Beam, "fib_file", Outside::No),
    variant("beamr fib_file", Runtime::Beamr, "fib_file", Outside::No),
    variant(
        "beamr fib +ring",
        Runtime::Beamr,
        "fib",
        Outside::Ring(FIB_EVERY_CALL),
    ),
    variant(
        "beamr fib +ring x",
        Runtime::Beamr,
        "fib",
        Outside::Ring(FIB_EVERY_CALL_AND_RETURN),
    ),
    variant(
        "beamr fib +otel",
        Runtime::Beamr,
        "fib",
        Outside::Otel(FIB_EVERY_CALL),
    ),
];

/// What a row holds beamr's ratio to.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Goal {
    /// beamr's ratio at most this times the BEAM's.
    CheaperThanBeam(f64),
    /// beamr's ratio at most this.
    AtMost(f64),
    /// No goal; beamr's traced time against that variant's (`key`).
    Against(&'static str),
}

/// One row: a traced workload, its untraced and traced variants on the
/// BEAM (`None`: beamr only) and on beamr.
struct Row {
    name: &'static str,
    beam: Option<(&'static str, &'static str)>,
    beamr: (&'static str, &'static str),
    goal: Goal,
}

const ROWS: [Row; 8] = [
    Row {
        name: "ring, dbg to a file port",
        beam: Some(("erl ring", "erl ring_file")),
        beamr: ("beamr ring", "beamr ring_file"),
        goal: Goal::CheaperThanBeam(0.5),
    },
    Row {
        name: "ring, dbg to a tracer process",
        beam: Some(("erl ring", "erl ring_proc")),
        beamr: ("beamr ring", "beamr ring_proc"),
        goal: Goal::CheaperThanBeam(0.5),
    },
    Row {
        name: "fib, every call, dbg to a file port",
        beam: Some(("erl fib", "erl fib_file")),
        beamr: ("beamr fib", "beamr fib_file"),
        goal: Goal::CheaperThanBeam(0.5),
    },
    Row {
        name: "ring, ring buffer (all processes)",
        beam: None,
        beamr: ("beamr ring", "beamr ring +ring"),
        goal: Goal::AtMost(1.3),
    },
    Row {
        name: "fib, every call, ring buffer",
        beam: None,
        beamr: ("beamr fib", "beamr fib +ring"),
        goal: Goal::AtMost(3.0),
    },
    Row {
        name: "ring, OTel (all processes)",
        beam: None,
        beamr: ("beamr ring", "beamr ring +otel"),
        goal: Goal::Against("beamr ring +ring"),
    },
    Row {
        name: "fib, every call and return, ring buffer",
        beam: None,
        beamr: ("beamr fib", "beamr fib +ring x"),
        goal: Goal::Against("beamr fib +ring"),
    },
    Row {
        name: "fib, every call, OTel (spans)",
        beam: None,
        beamr: ("beamr fib", "beamr fib +otel"),
        goal: Goal::Against("beamr fib +ring x"),
    },
];

/// What became of one variant over the repetitions.
#[derive(Debug, Default)]
struct Measured {
    /// Its times.
    times: Vec<u64>,
    /// Its result (the driver's line without its time).
    result: Option<String>,
    /// Why it failed, if it did (no more runs then).
    failed: Option<String>,
    /// beamr's OpenTelemetry report on standard error, if it made one.
    otel_note: Option<String>,
    /// What the OTLP sink received during its last run.
    received: Option<String>,
}

impl Measured {
    fn median(&self) -> Option<u64> {
        if self.failed.is_some() || self.times.is_empty() {
            None
        } else {
            Some(median(&mut self.times.clone()))
        }
    }
}

/// Runs the variants and prints the table; returns the names of the rows
/// that failed.
pub fn run(root: &Path, beamr: &Path, beam_dir: &Path, options: &Options) -> Result<Vec<String>> {
    let scratch = root.join("target").join("bench").join("traced-run");
    let _ = fs::remove_dir_all(&scratch);
    fs::create_dir_all(&scratch)
        .map_err(|err| Error::new(format!("creating {}: {err}", scratch.display())))?;
    let sink = Sink::start()
        .map_err(|err| Error::new(format!("starting the loopback OTLP sink: {err}")))?;
    println!(
        "bench: traced table, {} run(s) of each of {} variants, median times; \
         load average before: {}",
        options.repeat,
        VARIANTS.len(),
        load_average()
    );
    let mut measured: BTreeMap<&str, Measured> = BTreeMap::new();
    for round in 0..options.repeat {
        for v in &VARIANTS {
            let m = measured.entry(v.key).or_default();
            if m.failed.is_some() {
                continue;
            }
            run_variant(v, m, beamr, beam_dir, &scratch, &sink, options);
            let shown = match (&m.failed, m.times.last()) {
                (Some(_), _) => "FAILED".to_owned(),
                (None, Some(t)) => human(*t),
                (None, None) => "-".to_owned(),
            };
            println!(
                "  {:>2}/{} {:<18} {shown:>10}",
                round + 1,
                options.repeat,
                v.key
            );
        }
    }
    check_results(&mut measured);
    let _ = fs::remove_dir_all(&scratch);
    print_table(&measured, options);
    let failed: Vec<String> = ROWS
        .iter()
        .filter(|r| row_keys(r).any(|k| measured[k].failed.is_some()))
        .map(|r| format!("traced: {}", r.name))
        .collect();
    Ok(failed)
}

fn row_keys(row: &Row) -> impl Iterator<Item = &'static str> {
    let beam = row.beam.map(|(a, b)| [a, b]).into_iter().flatten();
    beam.chain([row.beamr.0, row.beamr.1])
}

/// One run of `v`, recorded into `m`.
fn run_variant(
    v: &Variant,
    m: &mut Measured,
    beamr: &Path,
    beam_dir: &Path,
    scratch: &Path,
    sink: &Sink,
    options: &Options,
) {
    let mut cmd = command(v, beamr, beam_dir, scratch, sink, options);
    cmd.current_dir(scratch);
    let runtime = match v.runtime {
        Runtime::Beam => "erl",
        Runtime::Beamr => "beamr",
    };
    let outcome = measure(runtime, &mut cmd, options.timeout, parse_last_line);
    // Whatever the run left (a ring file, a trace file after a crash).
    clear(scratch);
    match outcome {
        Ok((line, out)) => {
            m.times.push(line.micros);
            if let Some(previous) = &m.result {
                if *previous != line.result {
                    m.failed = Some(format!(
                        "its result changed between runs: `{previous}`, then `{}`",
                        line.result
                    ));
                }
            }
            m.result = Some(line.result);
            if matches!(v.outside, Outside::Otel(_)) {
                m.otel_note = out
                    .stderr
                    .lines()
                    .find(|l| l.starts_with("beamr: otel:"))
                    .map(str::to_owned);
                m.received = Some(describe(&sink.take()));
            }
        }
        Err(why) => m.failed = Some(why),
    }
}

/// The command that runs `v`.
fn command(
    v: &Variant,
    beamr: &Path,
    beam_dir: &Path,
    scratch: &Path,
    sink: &Sink,
    options: &Options,
) -> Command {
    match v.runtime {
        Runtime::Beam => erl(beam_dir, DRIVER, v.function),
        Runtime::Beamr => {
            let entry = format!("{DRIVER}:{}", v.function);
            let mut extra: Vec<String> = Vec::new();
            match v.outside {
                Outside::No => {}
                Outside::Ring(args) => {
                    extra.extend(args.iter().map(|a| a.to_string()));
                    let file = scratch.join(format!("{}.ring", v.function));
                    extra.push("--trace-to".into());
                    extra.push(format!("ring:{}", file.display()));
                }
                Outside::Otel(args) => {
                    extra.extend(args.iter().map(|a| a.to_string()));
                    extra.push("--trace-to".into());
                    extra.push("otel".into());
                }
            }
            let mut cmd = beamr_run(beamr, beam_dir, &entry, &extra, options);
            for (name, _) in std::env::vars_os() {
                if name.to_string_lossy().starts_with("OTEL_") {
                    cmd.env_remove(name);
                }
            }
            if matches!(v.outside, Outside::Otel(_)) {
                cmd.env("OTEL_EXPORTER_OTLP_ENDPOINT", sink.endpoint())
                    .env("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
                    .env("OTEL_SERVICE_NAME", "beamr-bench");
            }
            cmd
        }
    }
}

/// Empties the scratch folder (the runs' trace files).
fn clear(scratch: &Path) {
    if let Ok(entries) = fs::read_dir(scratch) {
        for entry in entries.flatten() {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// What the sink received, in a few words.
fn describe(received: &super::otlp_sink::Received) -> String {
    if received.is_empty() {
        return "nothing".into();
    }
    received
        .iter()
        .map(|(path, (requests, bytes))| format!("{path}: {requests} request(s), {bytes} bytes"))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Fails every variant whose result differs from the BEAM's for the same
/// driver function (every function runs on the BEAM, untraced or traced
/// from inside).
fn check_results(measured: &mut BTreeMap<&str, Measured>) {
    let mut reference: BTreeMap<&str, (&str, String)> = BTreeMap::new();
    for v in VARIANTS.iter().filter(|v| v.runtime == Runtime::Beam) {
        if let Some(result) = &measured[v.key].result {
            reference.insert(v.function, (v.key, result.clone()));
        }
    }
    for v in &VARIANTS {
        let m = measured.get_mut(v.key).expect("every variant ran");
        let (Some(result), Some((by, expected))) = (&m.result, reference.get(v.function)) else {
            continue;
        };
        if m.failed.is_none() && result != expected {
            m.failed = Some(format!(
                "results differ\n    {by}: {expected}\n    {}: {result}",
                v.key
            ));
        }
    }
}

/// The 1-minute load average, as `/proc/loadavg` says (`?` elsewhere).
fn load_average() -> String {
    fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".into())
}

/// A row's verdict on its goal: the text, and whether it is met (`None`
/// for a row without one).
fn verdict(
    goal: Goal,
    beam: Option<f64>,
    beamr: f64,
    against: Option<f64>,
) -> (String, Option<bool>) {
    match goal {
        Goal::CheaperThanBeam(k) => match beam {
            Some(beam) => {
                let share = beamr / beam;
                let met = share <= k;
                let word = if met { "met" } else { "NOT met" };
                (
                    format!("beamr's ratio is {share:.2} of the BEAM's (goal <= {k:.2}): {word}"),
                    Some(met),
                )
            }
            None => ("no BEAM ratio".into(), None),
        },
        Goal::AtMost(limit) => {
            let met = beamr <= limit;
            let word = if met { "met" } else { "NOT met" };
            (format!("goal <= {limit:.1}x: {word}"), Some(met))
        }
        Goal::Against(key) => match against {
            Some(t) => (format!("{t:.2}x the time of {key}"), None),
            None => (format!("({key} failed)"), None),
        },
    }
}

fn print_table(measured: &BTreeMap<&str, Measured>, options: &Options) {
    let time = |key: &str| measured[key].median();
    let cell = |t: Option<u64>| t.map_or_else(|| "-".to_owned(), human);
    let ratio_cell = |r: Option<f64>| r.map_or_else(|| "-".to_owned(), |r| format!("{r:.2}x"));
    println!();
    println!(
        "Traced: each runtime's traced time over its own untraced time, medians of {} run(s), \
         all in this one run on this machine.",
        options.repeat
    );
    println!(
        "| {:<40} | {:>10} | {:>10} | {:>8} | {:>10} | {:>10} | {:>8} | goal",
        "traced workload", "BEAM off", "BEAM on", "BEAM x", "beamr off", "beamr on", "beamr x"
    );
    println!(
        "|{:-<42}|{:->12}|{:->12}|{:->10}|{:->12}|{:->12}|{:->10}|------",
        "", "", "", "", "", "", ""
    );
    let mut verdicts = Vec::new();
    for row in &ROWS {
        let (beam_off, beam_on) = row
            .beam
            .map_or((None, None), |(off, on)| (time(off), time(on)));
        let beam_ratio = beam_off.zip(beam_on).map(|(off, on)| ratio(on, off));
        let (beamr_off, beamr_on) = (time(row.beamr.0), time(row.beamr.1));
        let beamr_ratio = beamr_off.zip(beamr_on).map(|(off, on)| ratio(on, off));
        let goal = match (row.goal, beamr_ratio) {
            (_, None) => "FAILED (see above)".to_owned(),
            (goal, Some(r)) => {
                let against = match goal {
                    Goal::Against(key) => beamr_on.zip(time(key)).map(|(a, b)| ratio(a, b)),
                    _ => None,
                };
                let (text, met) = verdict(goal, beam_ratio, r, against);
                if let Some(met) = met {
                    verdicts.push((row.name, met));
                }
                text
            }
        };
        println!(
            "| {:<40} | {:>10} | {:>10} | {:>8} | {:>10} | {:>10} | {:>8} | {goal}",
            row.name,
            cell(beam_off),
            cell(beam_on),
            ratio_cell(beam_ratio),
            cell(beamr_off),
            cell(beamr_on),
            ratio_cell(beamr_ratio),
        );
    }
    println!();
    println!(
        "BEAM: erl -noshell (OTP {}), its default schedulers; beamr: release build{}.",
        otp_release(),
        options
            .schedulers
            .map_or_else(String::new, |n| format!(", -S {n}"))
    );
    println!(
        "dbg rows: the clock runs from tracing on to the last event written (port flushed) \
         or taken (tracer drained); BEAM traces only the ring's processes (dbg:p(new, ...)), \
         as traced.erl does."
    );
    println!(
        "Ring-buffer and OTel rows: beamr run --trace send,receive (every process, the \
         driver's too) or --trace-call fib:fib/1 (a local pattern: every call; :x, and \
         every return; OTel always traces returns, a span's end), --trace-to ring:FILE or otel."
    );
    println!(
        "OTel rows: OTLP/HTTP protobuf to a loopback sink in this harness that answers every \
         request (the exporter does all its work); standard batch settings (queue 2048, \
         batch 512, 1 s delay): spans the queue cannot take are dropped and counted; the \
         export of what is queued at the end runs after the clock stops."
    );
    for key in ["beamr ring +otel", "beamr fib +otel"] {
        let m = &measured[key];
        if m.failed.is_none() {
            println!(
                "  {key}: sink received {}; {}",
                m.received.as_deref().unwrap_or("nothing"),
                m.otel_note.as_deref().unwrap_or("beamr reported no drops")
            );
        }
    }
    println!("Results (the same on every runtime and run):");
    let mut shown = Vec::new();
    for v in &VARIANTS {
        if let Some(result) = &measured[v.key].result {
            if !shown.contains(&v.function) && measured[v.key].failed.is_none() {
                println!("  {:<10} {result}", v.function);
                shown.push(v.function);
            }
        }
    }
    for v in &VARIANTS {
        if let Some(why) = &measured[v.key].failed {
            println!("  {} FAILED: {why}", v.key);
        }
    }
    println!(
        "Load average after: {} (the machine is shared: read ratios, not times).",
        load_average()
    );
    let met = verdicts.iter().filter(|(_, m)| *m).count();
    println!(
        "Goals of issue 10 point 10: {met} of {} met.",
        verdicts.len()
    );
}

/// The OTP release of the `erl` on the path (`?` if it cannot tell).
fn otp_release() -> String {
    crate::process::output(Command::new("erl").args([
        "-noshell",
        "-eval",
        "io:format(\"~s\", [erlang:system_info(otp_release)]), halt().",
    ]))
    .unwrap_or_else(|| "?".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_name_variants_that_exist() {
        let keys: Vec<&str> = VARIANTS.iter().map(|v| v.key).collect();
        for row in &ROWS {
            for key in row_keys(row) {
                assert!(keys.contains(&key), "{}: {key}", row.name);
            }
            if let Goal::Against(key) = row.goal {
                assert!(keys.contains(&key), "{}: {key}", row.name);
            }
        }
        let mut unique = keys.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), keys.len(), "keys are unique");
    }

    #[test]
    fn the_driver_exports_every_function_used() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let source = fs::read_to_string(driver(root)).unwrap();
        let exports = source
            .lines()
            .find(|l| l.starts_with("-export("))
            .expect("an export list");
        for v in &VARIANTS {
            assert!(
                exports.contains(&format!("{}/0", v.function)),
                "{} in {exports}",
                v.function
            );
        }
    }

    #[test]
    fn goals_are_judged() {
        let (text, met) = verdict(Goal::CheaperThanBeam(0.5), Some(7.0), 3.6, None);
        assert_eq!(met, Some(false));
        assert!(
            text.contains("0.51 of the BEAM's") && text.contains("NOT met"),
            "{text}"
        );
        let (text, met) = verdict(Goal::CheaperThanBeam(0.5), Some(7.0), 3.5, None);
        assert_eq!(met, Some(true), "{text}");
        assert!(text.ends_with("(goal <= 0.50): met"), "{text}");
        assert_eq!(verdict(Goal::AtMost(1.3), None, 1.29, None).1, Some(true));
        assert_eq!(verdict(Goal::AtMost(1.3), None, 1.31, None).1, Some(false));
        let (text, met) = verdict(Goal::Against("x"), None, 5.0, Some(2.5));
        assert_eq!((text.as_str(), met), ("2.50x the time of x", None));
    }

    #[test]
    fn results_must_agree_with_the_beams() {
        let mut measured: BTreeMap<&str, Measured> = BTreeMap::new();
        for v in &VARIANTS {
            let result = match v.function {
                "ring_proc" if v.runtime == Runtime::Beamr => {
                    "ring_proc 10000 100, 7 trace messages"
                }
                "ring_proc" => "ring_proc 10000 100, 8 trace messages",
                f => f,
            };
            measured.insert(
                v.key,
                Measured {
                    times: vec![1],
                    result: Some(result.into()),
                    ..Measured::default()
                },
            );
        }
        check_results(&mut measured);
        let failed: Vec<&str> = measured
            .iter()
            .filter(|(_, m)| m.failed.is_some())
            .map(|(k, _)| *k)
            .collect();
        assert_eq!(failed, ["beamr ring_proc"]);
        assert_eq!(measured["beamr ring +ring"].median(), Some(1));
        assert_eq!(measured["beamr ring_proc"].median(), None);
    }
}
