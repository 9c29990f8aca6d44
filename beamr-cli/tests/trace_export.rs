//! `beamr trace export --format chrome` and `beamr trace flame` on synthetic
//! files: the JSON and SVG are well-formed and hold the expected slices,
//! instants, flows and frames.

mod trace_support;

use std::collections::{BTreeMap, HashMap};

use beamr_ringbuf::synthetic::{FUNCTIONS, MAX_CALL_DEPTH};
use beamr_trace::TraceTag;
use serde_json::Value;
use trace_support::*;

fn f(v: &Value, k: &str) -> f64 {
    v[k].as_f64()
        .unwrap_or_else(|| panic!("no number {k} in {v}"))
}

/// Asserts that the `X` slices of each track nest: every two either are
/// disjoint or one contains the other.
fn assert_nested(slices: &[&Value], what: &str) {
    let mut tracks: HashMap<(u64, u64), Vec<(f64, f64)>> = HashMap::new();
    for s in slices {
        let key = (s["pid"].as_u64().unwrap(), s["tid"].as_u64().unwrap());
        let ts = f(s, "ts");
        tracks.entry(key).or_default().push((ts, ts + f(s, "dur")));
    }
    for (track, mut v) in tracks {
        // Outer slices first when two start together.
        v.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.total_cmp(&a.1)));
        let mut open: Vec<f64> = Vec::new();
        for (start, end) in v {
            while open.last().is_some_and(|&e| e <= start) {
                open.pop();
            }
            if let Some(&outer) = open.last() {
                assert!(
                    end <= outer + 1e-9,
                    "{what} on {track:?}: [{start}, {end}] crosses {outer}"
                );
            }
            open.push(end);
        }
    }
}

#[test]
fn chrome_json_has_slices_instants_and_flows() {
    let dir = scratch("chrome");
    let (path, written) = synthetic_file(&dir, 6000);
    let out = dir.join("out.json");
    ok_stdout(&[
        "trace",
        "export",
        path.to_str().unwrap(),
        "--format",
        "chrome",
        "-o",
        out.to_str().unwrap(),
    ]);
    let v: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let events = v["traceEvents"].as_array().unwrap();
    let by = |ph: &str, cat: Option<&str>| -> Vec<&Value> {
        events
            .iter()
            .filter(|e| e["ph"] == ph && cat.is_none_or(|c| e["cat"] == c))
            .collect()
    };
    // Process slices: one per `in`, on the scheduler tracks.
    let runs = by("X", Some("process"));
    assert_eq!(runs.len() as u64, written.tag(TraceTag::In));
    for r in &runs {
        assert_eq!(r["pid"], 1);
        assert!(r["name"].as_str().unwrap().starts_with("<0."));
        assert!(f(r, "dur") >= 0.0);
        assert!(r["args"].get("unfinished").is_none(), "{r}");
    }
    // Call slices: one per call, on process tracks, named by function.
    let calls = by("X", Some("call"));
    assert_eq!(calls.len() as u64, written.tag(TraceTag::Call));
    let names: Vec<String> = FUNCTIONS
        .iter()
        .map(|(m, f, a)| format!("{m}:{f}/{a}"))
        .collect();
    for c in &calls {
        assert_eq!(c["pid"], 2);
        assert!(names.iter().any(|n| c["name"] == n.as_str()), "{c}");
        assert_eq!(c["args"]["value"], "ok");
    }
    assert_eq!(
        by("X", Some("gc")).len() as u64,
        written.tag(TraceTag::GcMinorStart)
    );
    assert_nested(
        &runs
            .iter()
            .chain(&by("X", Some("gc")))
            .copied()
            .collect::<Vec<_>>(),
        "runs",
    );
    assert_nested(&calls, "calls");
    // Instants for spawn, exit, link, send, receive.
    let instants = by("i", None);
    for tag in [
        TraceTag::Spawned,
        TraceTag::Exit,
        TraceTag::Link,
        TraceTag::Send,
        TraceTag::Receive,
    ] {
        let n = instants
            .iter()
            .filter(|e| e["name"] == tag.display_name())
            .count();
        assert_eq!(n as u64, written.tag(tag), "{tag}");
    }
    assert!(instants.iter().all(|e| e["s"] == "t" && e["pid"] == 1));
    // A flow from each send to its receive: ids pair up, time goes forward.
    let starts: BTreeMap<u64, &Value> = by("s", Some("message"))
        .into_iter()
        .map(|e| (e["id"].as_u64().unwrap(), e))
        .collect();
    let ends: BTreeMap<u64, &Value> = by("f", Some("message"))
        .into_iter()
        .map(|e| (e["id"].as_u64().unwrap(), e))
        .collect();
    assert_eq!(starts.len() as u64, written.tag(TraceTag::Receive));
    assert_eq!(
        starts.keys().collect::<Vec<_>>(),
        ends.keys().collect::<Vec<_>>()
    );
    let instant_at: std::collections::HashSet<(String, String, String)> = instants
        .iter()
        .map(|i| {
            (
                i["name"].as_str().unwrap().to_owned(),
                i["tid"].to_string(),
                i["ts"].to_string(),
            )
        })
        .collect();
    let mut cross = 0;
    for (id, s) in &starts {
        let e = ends[id];
        assert_eq!(e["bp"], "e");
        assert!(f(e, "ts") >= f(s, "ts"), "flow {id} goes back in time");
        // Each end sits on a receive instant, each start on a send instant.
        let at = |ev: &Value, name: &str| {
            instant_at.contains(&(name.to_owned(), ev["tid"].to_string(), ev["ts"].to_string()))
        };
        assert!(at(s, "send") && at(e, "receive"), "flow {id}");
        if s["tid"] != e["tid"] {
            cross += 1;
        }
    }
    assert!(cross > 0, "no message crossed schedulers");
    // Every track is named.
    let named: std::collections::HashSet<(u64, u64)> = by("M", None)
        .iter()
        .filter(|m| m["name"] == "thread_name")
        .map(|m| (m["pid"].as_u64().unwrap(), m["tid"].as_u64().unwrap()))
        .collect();
    for e in runs.iter().chain(&calls) {
        let track = (e["pid"].as_u64().unwrap(), e["tid"].as_u64().unwrap());
        assert!(named.contains(&track), "unnamed track of {e}");
    }
    // Thread ids are unique across the two groups, and never 0.
    let mut owner: HashMap<u64, u64> = HashMap::new();
    for e in events.iter().filter(|e| e.get("tid").is_some()) {
        let (pid, tid) = (e["pid"].as_u64().unwrap(), e["tid"].as_u64().unwrap());
        assert_ne!(tid, 0, "{e}");
        assert_eq!(
            *owner.entry(tid).or_insert(pid),
            pid,
            "tid {tid} in two groups"
        );
    }
    let other = &v["otherData"];
    assert_eq!(other["events"], 6000);
    assert_eq!(other["unmatched_returns"], 0);
    assert_eq!(other["unmatched_receives"], 0);
    assert_eq!(other["unfinished"], 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn flame_svg_is_well_formed_with_the_synthetic_functions() {
    let dir = scratch("flame");
    let (path, _) = synthetic_file(&dir, 4000);
    let svg = dir.join("out.svg");
    ok_stdout(&[
        "trace",
        "flame",
        path.to_str().unwrap(),
        "-o",
        svg.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&svg).unwrap();
    // inferno writes an SVG doctype.
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(&text, opts).expect("well-formed SVG");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let titles: Vec<&str> = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "title")
        .filter_map(|n| n.text())
        .collect();
    for (m, f, a) in FUNCTIONS {
        let name = format!("{m}:{f}/{a} (");
        assert!(
            titles.iter().any(|t| t.starts_with(&name)),
            "no frame {name}"
        );
    }
    assert!(
        titles.iter().any(|t| t.starts_with("all (")),
        "no root frame"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn collapsed_stacks_follow_the_call_nesting() {
    let dir = scratch("collapsed");
    let (path, _) = synthetic_file(&dir, 4000);
    let p = path.to_str().unwrap();
    let names: Vec<String> = FUNCTIONS
        .iter()
        .map(|(m, f, a)| format!("{m}:{f}/{a}"))
        .collect();
    let folded = ok_stdout(&["trace", "flame", p, "--collapsed", "-o", "-"]);
    let mut total = 0u64;
    let mut deepest = 0;
    for line in folded.lines() {
        let (stack, n) = line.rsplit_once(' ').unwrap();
        let n: u64 = n.parse().unwrap();
        assert!(n > 0);
        total += n;
        let frames: Vec<&str> = stack.split(';').collect();
        assert!(
            frames.iter().all(|f| names.iter().any(|n| n == f)),
            "{line}"
        );
        deepest = deepest.max(frames.len());
    }
    assert!(deepest > 1 && deepest <= MAX_CALL_DEPTH, "depth {deepest}");
    // Per process: the same time, each stack under its pid.
    let per = ok_stdout(&[
        "trace",
        "flame",
        p,
        "--collapsed",
        "--per-process",
        "-o",
        "-",
    ]);
    let mut per_total = 0;
    for line in per.lines() {
        assert!(line.starts_with("<0."), "{line}");
        per_total += line.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap();
    }
    assert_eq!(per_total, total);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn flame_without_calls_is_one_error_line() {
    let dir = scratch("flame-empty");
    let path = dir.join("empty.trace");
    drop(
        beamr_ringbuf::Recorder::create(
            beamr_ringbuf::Options::new(1)
                .path(&path)
                .ring_words(512)
                .preserve(true),
        )
        .unwrap(),
    );
    let out = run(&["trace", "flame", path.to_str().unwrap(), "-o", "-"]);
    assert_one_line_error(&out, "nothing to draw");
    let _ = std::fs::remove_dir_all(&dir);
}
