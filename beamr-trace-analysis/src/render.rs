//! Names and one-line renderings of trace events: pids, functions, term
//! summaries, relative times, and the text and JSON lines of `dump` and
//! `tail`.

use std::fmt::Write;

use beamr_ringbuf::{counters, Body, Category, Event, MfaRef, Proc, StringTable, TermSummary};
use beamr_trace::{GcInfo, TraceTag};
use serde_json::{json, Map, Value};

/// How [`dump`](crate::dump), [`stats`](crate::stats) and
/// [`tail`](crate::tail) write.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LineFormat {
    /// Aligned text for people.
    Text,
    /// One JSON object per line.
    Json,
}

/// The name of atom `key`, or `atom#KEY` when the file does not have it.
pub fn atom(key: u32, strings: &StringTable) -> String {
    match strings.atom(key) {
        Some(name) => name.to_owned(),
        None => format!("atom#{key}"),
    }
}

/// A process or port as Erlang prints it (`<0.12.0>`, `#Port<0.3>`,
/// `<node@host.7.0>` for a remote pid), `-` when unknown.
pub fn proc_name(p: Proc, strings: &StringTable) -> String {
    match p {
        Proc::None => "-".to_owned(),
        Proc::Pid(n) => format!("<0.{n}.0>"),
        Proc::Port(n) => format!("#Port<0.{n}>"),
        Proc::Remote { node, id } => format!("<{}.{id}.0>", atom(node, strings)),
    }
}

/// `module:function/arity`.
pub fn mfa_name(m: MfaRef, strings: &StringTable) -> String {
    format!(
        "{}:{}/{}",
        atom(m.module, strings),
        atom(m.function, strings),
        m.arity
    )
}

/// Seconds from `t0` to `ts` (both nanoseconds), with nanosecond digits:
/// `1.000000250`, `-0.000000003`.
pub fn seconds(ts: u64, t0: u64) -> String {
    let d = ts as i128 - t0 as i128;
    let sign = if d < 0 { "-" } else { "" };
    let d = d.unsigned_abs();
    format!("{sign}{}.{:09}", d / 1_000_000_000, d % 1_000_000_000)
}

/// The name of an event's kind: the trace tag (`send`, `seq_trace.print`),
/// `user:K` for a user event, `trace:K` for an unknown trace kind.
pub fn kind_name(category: Category, kind: u16) -> String {
    match category {
        Category::Trace => match TraceTag::from_u16(kind) {
            Some(tag) => tag.display_name().to_owned(),
            None => format!("trace:{kind}"),
        },
        Category::User => format!("user:{kind}"),
        Category::Counters => counters::kind_name(kind),
        Category::Padding => "padding".to_owned(),
    }
}

fn gc_text(info: &GcInfo) -> String {
    let mut s = String::new();
    for (k, v) in GcInfo::KEYS.iter().zip(info.values()) {
        if v != 0 {
            let _ = write!(s, "{}{k}={v}", if s.is_empty() { "" } else { " " });
        }
    }
    s
}

/// The part of a text line after the tag: the MFA or the peer, and a
/// summary of the term the event carries.
pub fn body_text(tag: TraceTag, body: &Body, strings: &StringTable) -> String {
    let p = |p: Proc| proc_name(p, strings);
    let m = |m: MfaRef| mfa_name(m, strings);
    let t = |s: &TermSummary| s.render(strings);
    match body {
        Body::Message { peer, message } if tag == TraceTag::Receive => {
            format!("<- {} {}", p(*peer), t(message))
        }
        Body::Message { peer, message } => format!("-> {} {}", p(*peer), t(message)),
        Body::Call { mfa } => m(*mfa),
        Body::At { mfa } => mfa.map(m).unwrap_or_default(),
        Body::Return { mfa, value } => format!("{} -> {}", m(*mfa), t(value)),
        Body::Exception { mfa, class, reason } => {
            format!("{} {}:{}", m(*mfa), atom(*class, strings), t(reason))
        }
        Body::Spawn { other, mfa } if tag == TraceTag::Spawn => {
            format!("child {} {}", p(*other), m(*mfa))
        }
        Body::Spawn { other, mfa } => format!("parent {} {}", p(*other), m(*mfa)),
        Body::Reason { reason } => t(reason),
        Body::Link { peer } => p(*peer),
        Body::Register { name } => atom(*name, strings),
        Body::PortOpen { parent, driver } => {
            format!("parent {} driver {}", p(*parent), atom(*driver, strings))
        }
        Body::Gc(info) => gc_text(info),
        Body::SeqTrace {
            label,
            serial,
            from,
            to,
            info,
        } => format!(
            "label {} serial {{{},{}}} {} -> {} {}",
            t(label),
            serial.previous,
            serial.current,
            p(*from),
            p(*to),
            t(info)
        ),
    }
}

/// One `dump`/`tail` text line: time since `t0` in seconds, ring
/// (`s1` = scheduler 1's ring; `s0` takes other threads), tracee, tag, and
/// the rest.
pub fn text_line(e: &Event<'_>, strings: &StringTable, t0: u64) -> String {
    let time = seconds(e.timestamp_ns, t0);
    let ring = format!("s{}", e.ring);
    match e.trace() {
        Some(Ok(r)) => {
            let pid = proc_name(r.tracee, strings);
            let rest = body_text(r.tag, &r.body, strings);
            format!(
                "{time:>14} {ring:<3} {pid:<12} {:<16} {rest}",
                r.tag.display_name()
            )
            .trim_end()
            .to_owned()
        }
        Some(Err(err)) => format!(
            "{time:>14} {ring:<3} {:<12} {:<16} {err}",
            "?", "undecodable"
        ),
        None => {
            let kind = kind_name(e.category, e.kind);
            let counted = (e.category == Category::Counters)
                .then(|| counters::text(e.kind, e.payload))
                .flatten();
            let rest = counted.unwrap_or_else(|| {
                let words: Vec<String> = e.payload.iter().map(|w| format!("{w:#x}")).collect();
                format!("[{}]", words.join(","))
            });
            format!("{time:>14} {ring:<3} {:<12} {kind:<16} {rest}", "-")
        }
    }
}

/// The text line of a loss.
pub fn lost_text(ring: usize, count: u64) -> String {
    format!("# s{ring}: {count} events lost")
}

fn summary_json(s: &TermSummary, strings: &StringTable) -> Value {
    json!({
        "term": s.render(strings),
        "kind": format!("{:?}", s.kind).to_lowercase(),
        "words": s.size_words,
        "exact": s.size_exact,
    })
}

/// One `dump`/`tail` JSON line. Every line has `"type"`: `"event"` here,
/// `"lost"` in [`lost_json`].
pub fn json_line(e: &Event<'_>, strings: &StringTable, t0: u64) -> Value {
    let mut o = Map::new();
    o.insert("type".into(), json!("event"));
    o.insert("ring".into(), json!(e.ring));
    o.insert("seq".into(), json!(e.seq));
    o.insert("ts_ns".into(), json!(e.timestamp_ns));
    o.insert("time".into(), json!(seconds(e.timestamp_ns, t0)));
    o.insert("kind".into(), json!(kind_name(e.category, e.kind)));
    match e.trace() {
        Some(Ok(r)) => {
            o.insert("tag".into(), json!(r.tag.display_name()));
            o.insert("pid".into(), json!(proc_name(r.tracee, strings)));
            body_json(r.tag, &r.body, strings, &mut o);
        }
        Some(Err(err)) => {
            o.insert("error".into(), json!(err.to_string()));
            o.insert("payload".into(), json!(e.payload));
        }
        None => {
            o.insert("payload".into(), json!(e.payload));
        }
    }
    Value::Object(o)
}

fn body_json(tag: TraceTag, body: &Body, strings: &StringTable, o: &mut Map<String, Value>) {
    let p = |p: Proc| json!(proc_name(p, strings));
    let m = |m: MfaRef| json!(mfa_name(m, strings));
    let t = |s: &TermSummary| summary_json(s, strings);
    let mut put = |k: &str, v: Value| {
        o.insert(k.into(), v);
    };
    match body {
        Body::Message { peer, message } => {
            let role = if tag == TraceTag::Receive {
                "from"
            } else {
                "to"
            };
            put(role, p(*peer));
            put("message", t(message));
        }
        Body::Call { mfa } => put("mfa", m(*mfa)),
        Body::At { mfa } => put("mfa", mfa.map_or(Value::Null, m)),
        Body::Return { mfa, value } => {
            put("mfa", m(*mfa));
            put("value", t(value));
        }
        Body::Exception { mfa, class, reason } => {
            put("mfa", m(*mfa));
            put("class", json!(atom(*class, strings)));
            put("reason", t(reason));
        }
        Body::Spawn { other, mfa } => {
            let role = if tag == TraceTag::Spawn {
                "child"
            } else {
                "parent"
            };
            put(role, p(*other));
            put("mfa", m(*mfa));
        }
        Body::Reason { reason } => put("reason", t(reason)),
        Body::Link { peer } => put("peer", p(*peer)),
        Body::Register { name } => put("name", json!(atom(*name, strings))),
        Body::PortOpen { parent, driver } => {
            put("parent", p(*parent));
            put("driver", json!(atom(*driver, strings)));
        }
        Body::Gc(info) => {
            let sizes: Map<String, Value> = GcInfo::KEYS
                .iter()
                .zip(info.values())
                .map(|(k, v)| ((*k).to_owned(), json!(v)))
                .collect();
            put("gc", Value::Object(sizes));
        }
        Body::SeqTrace {
            label,
            serial,
            from,
            to,
            info,
        } => {
            put("label", t(label));
            put("serial", json!([serial.previous, serial.current]));
            put("from", p(*from));
            put("to", p(*to));
            put("info", t(info));
        }
    }
}

/// The JSON line of a loss.
pub fn lost_json(ring: usize, count: u64) -> Value {
    json!({"type": "lost", "ring": ring, "count": count})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_keep_nanoseconds_and_sign() {
        assert_eq!(seconds(1_000_000_250, 0), "1.000000250");
        assert_eq!(seconds(5, 8), "-0.000000003");
        assert_eq!(seconds(u64::MAX, 0), "18446744073.709551615");
    }

    #[test]
    fn names_fall_back_to_keys() {
        let s = StringTable::default();
        assert_eq!(proc_name(Proc::Pid(12), &s), "<0.12.0>");
        assert_eq!(proc_name(Proc::Port(3), &s), "#Port<0.3>");
        assert_eq!(proc_name(Proc::None, &s), "-");
        let m = MfaRef {
            module: 1,
            function: 2,
            arity: 3,
        };
        assert_eq!(mfa_name(m, &s), "atom#1:atom#2/3");
        assert_eq!(kind_name(Category::Trace, 3), "call");
        assert_eq!(kind_name(Category::Trace, 999), "trace:999");
        assert_eq!(kind_name(Category::User, 7), "user:7");
    }
}
