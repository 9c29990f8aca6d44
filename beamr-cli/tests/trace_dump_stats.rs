//! `beamr trace dump` and `beamr trace stats` on synthetic files: counts per
//! kind and per ring, time order, losses, JSON lines.

mod trace_support;

use beamr_ringbuf::synthetic::FUNCTIONS;
use beamr_ringbuf::{Options, Recorder};
use beamr_trace::TraceTag;
use serde_json::Value;
use trace_support::*;

#[test]
fn stats_json_counts_what_was_written() {
    let dir = scratch("stats-json");
    let (path, written) = synthetic_file(&dir, 3000);
    let out = ok_stdout(&["trace", "stats", "--format", "json", path.to_str().unwrap()]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["events"], 3000);
    assert_eq!(v["lost"], 0);
    assert_eq!(v["rings"], 5);
    for &tag in TraceTag::ALL {
        let n = written.tag(tag);
        let got = v["kinds"].get(tag.display_name()).and_then(Value::as_u64);
        assert_eq!(got.unwrap_or(0), n, "{tag}");
    }
    let per_ring = v["per_ring"].as_array().unwrap();
    assert_eq!(per_ring.len(), 5);
    for (r, ring) in per_ring.iter().enumerate() {
        assert_eq!(ring["read"].as_u64(), Some(written.ring(r)), "ring {r}");
        assert_eq!(ring["written"].as_u64(), Some(written.ring(r)), "ring {r}");
        assert_eq!(ring["lost"], 0);
    }
    let (first, last) = (
        v["first_ts_ns"].as_u64().unwrap(),
        v["last_ts_ns"].as_u64().unwrap(),
    );
    assert!(last > first);
    assert_eq!(v["span_ns"].as_u64(), Some(last - first));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stats_text_shows_kinds_rings_and_span() {
    let dir = scratch("stats-text");
    let (path, written) = synthetic_file(&dir, 1000);
    let out = ok_stdout(&["trace", "stats", path.to_str().unwrap()]);
    assert!(out.contains("events    1000 read, 0 lost"), "{out}");
    assert!(out.contains("5 rings of 65536 words"), "{out}");
    let span = out.lines().find(|l| l.starts_with("span ")).unwrap();
    assert!(span.ends_with("s after creation)"), "{span}");
    let row = |name: &str| {
        out.lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no row {name} in {out}"))
            .split_whitespace()
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(row("call")[1], written.tag(TraceTag::Call).to_string());
    assert_eq!(
        row("receive")[1],
        written.tag(TraceTag::Receive).to_string()
    );
    for r in 1..=4 {
        let cols = row(&format!("s{r}"));
        let n = written.ring(r).to_string();
        // ring, read, lost, written
        assert_eq!(&cols[1..4], &[n.clone(), "0".to_owned(), n]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dump_text_is_one_decoded_line_per_event_in_time_order() {
    let dir = scratch("dump-text");
    let (path, written) = synthetic_file(&dir, 2000);
    let out = ok_stdout(&["trace", "dump", path.to_str().unwrap()]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2000);
    let mut last = 0.0f64;
    let mut calls = 0;
    for l in &lines {
        let cols: Vec<&str> = l.split_whitespace().collect();
        let t: f64 = cols[0].parse().unwrap();
        assert!(t >= last, "out of order: {l}");
        last = t;
        assert!(
            cols[1].starts_with('s') && cols[2].starts_with("<0."),
            "{l}"
        );
        if cols[3] == "call" {
            calls += 1;
            let known = FUNCTIONS
                .iter()
                .any(|(m, f, a)| cols[4] == format!("{m}:{f}/{a}"));
            assert!(known, "{l}");
        }
        if cols[3] == "send" {
            assert_eq!(cols[4], "->", "{l}");
            assert!(cols[6].starts_with("{req,...}/3"), "{l}");
        }
    }
    assert_eq!(calls, written.tag(TraceTag::Call));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dump_json_lines_parse_and_carry_the_fields() {
    let dir = scratch("dump-json");
    let (path, written) = synthetic_file(&dir, 2000);
    let out = ok_stdout(&["trace", "dump", "--format", "json", path.to_str().unwrap()]);
    let mut last = 0;
    let mut per_tag = std::collections::HashMap::<String, u64>::new();
    for l in out.lines() {
        let v: Value = serde_json::from_str(l).unwrap();
        assert_eq!(v["type"], "event");
        let ts = v["ts_ns"].as_u64().unwrap();
        assert!(ts >= last);
        last = ts;
        let tag = v["tag"].as_str().unwrap().to_owned();
        match tag.as_str() {
            "send" => {
                assert!(v["to"].as_str().unwrap().starts_with("<0."));
                assert_eq!(v["message"]["kind"], "tuple");
                assert_eq!(v["message"]["words"], 4);
            }
            "receive" => assert!(v["from"].as_str().unwrap().starts_with("<0.")),
            "return_from" => assert_eq!(v["value"]["term"], "ok"),
            "gc_minor_end" => assert!(v["gc"]["heap_size"].as_u64().is_some()),
            _ => {}
        }
        *per_tag.entry(tag).or_default() += 1;
    }
    for &tag in TraceTag::ALL {
        let got = per_tag.get(tag.display_name()).copied().unwrap_or(0);
        assert_eq!(got, written.tag(tag), "{tag}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn overwritten_events_are_reported_lost_per_ring() {
    let dir = scratch("lost");
    // 512-word rings hold about 90 events each: most of 4000 are overwritten.
    let (path, written) = synthetic_with(&dir, 4000, 512);
    let p = path.to_str().unwrap();
    let v: Value =
        serde_json::from_str(&ok_stdout(&["trace", "stats", "--format", "json", p])).unwrap();
    let mut lost_total = 0;
    for (r, ring) in v["per_ring"].as_array().unwrap().iter().enumerate() {
        let (read, lost) = (
            ring["read"].as_u64().unwrap(),
            ring["lost"].as_u64().unwrap(),
        );
        assert_eq!(read + lost, written.ring(r), "ring {r}");
        if r > 0 {
            assert!(lost > 0 && read > 0, "ring {r}: read {read} lost {lost}");
        }
        lost_total += lost;
    }
    assert_eq!(v["lost"].as_u64(), Some(lost_total));
    // dump reports the same losses, one line per ring and loss.
    let dump = ok_stdout(&["trace", "dump", p]);
    let lost_lines: u64 = dump
        .lines()
        .filter(|l| l.starts_with("# s"))
        .map(|l| l.split_whitespace().nth(2).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(lost_lines, lost_total);
    let events = dump.lines().filter(|l| !l.starts_with('#')).count() as u64;
    assert_eq!(events, v["events"].as_u64().unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn user_events_are_shown_by_kind_and_payload() {
    let dir = scratch("user");
    let path = dir.join("user.trace");
    {
        let rec =
            Recorder::create(Options::new(1).path(&path).ring_words(512).preserve(true)).unwrap();
        let mut w = rec.writer(0).unwrap();
        for i in 0..3u64 {
            assert!(w.write_now(7, &[i, 0xff]));
        }
    }
    let p = path.to_str().unwrap();
    let out = ok_stdout(&["trace", "dump", p]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(
        lines[2].ends_with("s0  -            user:7           [0x2,0xff]"),
        "{out}"
    );
    let stats = ok_stdout(&["trace", "stats", p]);
    assert!(
        stats
            .lines()
            .any(|l| l.split_whitespace().eq(["user:7", "3"])),
        "{stats}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
