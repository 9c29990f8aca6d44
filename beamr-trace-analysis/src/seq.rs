//! One `seq_trace` label of a recording as a Mermaid sequence diagram, the
//! diagram people draw by hand from seq_trace output (`beamr trace seq FILE
//! --label L [-o OUT]`), or of several nodes' recordings merged into one
//! (`beamr trace seq NODE=FILE NODE=FILE ... --label L`).
//!
//! The recording holds the `seq_trace` events the run's tokens produced
//! (`beamr run --trace ... --trace-to ring:FILE` records them whatever the
//! flags: the token's own `send`, `'receive'` and `print` flags decide).
//! Events of label `L` (an integer, or an atom's name) are ordered by their
//! serial (`Current`, then `Previous`), then by time. A send becomes an
//! arrow from sender to receiver; a receive whose send was not recorded
//! (the token had `'receive'` but not `send`) becomes the arrow instead;
//! a print becomes a note over the printing process. Participants appear in
//! the order they first take part, named by pid. Message texts are the
//! recording's sketches of the terms (`{ping,...}/2 (3 words)`).

use std::path::Path;

use beamr_ringbuf::{Body, Cursor, Proc, StringTable, SummaryKind, TermSummary};
use beamr_trace::TraceTag;

use crate::error::Error;
use crate::read::{self, Item, Order};
use crate::render;

/// One `seq_trace` event of the label, as drawn.
struct Step {
    previous: u64,
    current: u64,
    timestamp_ns: u64,
    tag: TraceTag,
    from: String,
    to: String,
    info: String,
}

/// One node's recording for [`mermaid_of`]: its cursor, its path, and the
/// node's name (`a@host`) when several nodes' recordings are drawn
/// together.
pub struct Recording<'a> {
    /// The reader, opened on `path`.
    pub cursor: &'a mut Cursor,
    /// The file.
    pub path: &'a Path,
    /// The node that recorded it: its own pids are drawn as
    /// `<NODE.N.0>`, as the other nodes' recordings show them.
    pub node: Option<&'a str>,
}

/// The Mermaid text of the events of `label` (an integer, or an atom's
/// name) in `cursor` (opened on `path`). Fails with [`Error::Corrupt`] if a
/// ring was corrupt, and with [`Error::NoSeqTraceEvents`] if the label has
/// no events.
pub fn mermaid(cursor: &mut Cursor, path: &Path, label: &str) -> Result<String, Error> {
    mermaid_of(
        &mut [Recording {
            cursor,
            path,
            node: None,
        }],
        label,
    )
}

/// The Mermaid text of the events of `label` in several nodes'
/// recordings, merged by the token's serials: a message sent on one node
/// and received on another is one arrow. A send to a registered name
/// (`{Name, Node}`, which the recording keeps no pid for) is drawn to the
/// process that received it, when a recording has that receive.
pub fn mermaid_of(recordings: &mut [Recording<'_>], label: &str) -> Result<String, Error> {
    let mut steps = Vec::new();
    for r in recordings.iter_mut() {
        steps.extend(steps_of(r, label)?);
    }
    if steps.is_empty() {
        let paths: Vec<String> = recordings
            .iter()
            .map(|r| r.path.display().to_string())
            .collect();
        return Err(Error::NoSeqTraceEvents {
            path: paths.join(", ").into(),
            label: label.to_owned(),
        });
    }
    steps.sort_by_key(|s| (s.current, s.previous, s.timestamp_ns, s.tag));
    fill_named_destinations(&mut steps);
    Ok(diagram(&steps))
}

/// The steps of `label` in one recording.
fn steps_of(r: &mut Recording<'_>, label: &str) -> Result<Vec<Step>, Error> {
    let mut steps = Vec::new();
    let node = r.node;
    let totals = read::read_all(r.cursor, Order::Time, |item| {
        if let Item::Event(e, strings) = item {
            if let Some(Ok(t)) = e.trace() {
                if let Body::SeqTrace {
                    label: l,
                    serial,
                    from,
                    to,
                    info,
                } = t.body
                {
                    if t.tag.is_seq_trace() && label_is(&l, label, strings) {
                        steps.push(Step {
                            previous: serial.previous,
                            current: serial.current,
                            timestamp_ns: e.timestamp_ns,
                            tag: t.tag,
                            from: name(from, node, strings),
                            to: name(to, node, strings),
                            info: info.render(strings),
                        });
                    }
                }
            }
        }
        Ok(())
    })
    // The consumer above never fails.
    .unwrap_or_default();
    totals.check(r.path)?;
    Ok(steps)
}

/// A send whose destination is no pid (`-`: a registered name) takes the
/// receiver of the receive with the same serials.
fn fill_named_destinations(steps: &mut [Step]) {
    let received: std::collections::HashMap<(u64, u64), String> = steps
        .iter()
        .filter(|s| s.tag == TraceTag::SeqTraceReceive)
        .map(|s| ((s.previous, s.current), s.to.clone()))
        .collect();
    for s in steps.iter_mut() {
        if s.tag == TraceTag::SeqTraceSend && s.to == "-" {
            if let Some(to) = received.get(&(s.previous, s.current)) {
                s.to = to.clone();
            }
        }
    }
}

fn label_is(label: &TermSummary, wanted: &str, strings: &StringTable) -> bool {
    match label.kind {
        SummaryKind::Small => wanted.parse::<i64>().ok() == Some(i64::from(label.detail as i32)),
        SummaryKind::Atom => strings.atom(label.detail) == Some(wanted.trim_matches('\'')),
        _ => false,
    }
}

/// A process as a participant's name: a pid of the recording's own node
/// `<NODE.N.0>` when the node is named, as other nodes write it.
fn name(p: Proc, node: Option<&str>, strings: &StringTable) -> String {
    match (p, node) {
        (Proc::Pid(n), Some(node)) => format!("<{node}.{n}.0>"),
        _ => render::proc_name(p, strings),
    }
}

/// Text made safe for a Mermaid message: `;` and `#` are Mermaid syntax,
/// written as entity codes.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '#' => out.push_str("#35;"),
            ';' => out.push_str("#59;"),
            c => out.push(c),
        }
    }
    out
}

/// The Mermaid text.
fn diagram(steps: &[Step]) -> String {
    let mut participants: Vec<&str> = Vec::new();
    for s in steps {
        let ends = [
            Some(s.from.as_str()),
            (s.tag != TraceTag::SeqTracePrint).then_some(s.to.as_str()),
        ];
        for p in ends.into_iter().flatten() {
            if !participants.contains(&p) {
                participants.push(p);
            }
        }
    }
    let id = |p: &str| {
        participants
            .iter()
            .position(|q| *q == p)
            .map_or_else(|| "P0".to_owned(), |i| format!("P{}", i + 1))
    };
    let mut out = String::from("sequenceDiagram\n");
    for p in &participants {
        out.push_str(&format!("    participant {} as {}\n", id(p), escape(p)));
    }
    let sent: std::collections::HashSet<(u64, u64)> = steps
        .iter()
        .filter(|s| s.tag == TraceTag::SeqTraceSend)
        .map(|s| (s.previous, s.current))
        .collect();
    for s in steps {
        let serial = format!("{},{}", s.previous, s.current);
        match s.tag {
            TraceTag::SeqTraceSend => out.push_str(&format!(
                "    {}->>{}: {} [{serial}]\n",
                id(&s.from),
                id(&s.to),
                escape(&s.info)
            )),
            TraceTag::SeqTraceReceive if !sent.contains(&(s.previous, s.current)) => {
                out.push_str(&format!(
                    "    {}->>{}: {} [{serial}, received]\n",
                    id(&s.from),
                    id(&s.to),
                    escape(&s.info)
                ))
            }
            TraceTag::SeqTracePrint => out.push_str(&format!(
                "    Note over {}: print {} [{serial}]\n",
                id(&s.from),
                escape(&s.info)
            )),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(tag: TraceTag, previous: u64, current: u64, from: &str, to: &str) -> Step {
        Step {
            previous,
            current,
            timestamp_ns: current,
            tag,
            from: from.into(),
            to: to.into(),
            info: "{ping,...}/2 (3 words)".into(),
        }
    }

    #[test]
    fn a_send_to_a_name_is_drawn_to_its_receiver() {
        let mut steps = [
            step(TraceTag::SeqTraceSend, 0, 1, "<a@h.5.0>", "-"),
            step(TraceTag::SeqTraceReceive, 0, 1, "<a@h.5.0>", "<b@h.9.0>"),
        ];
        fill_named_destinations(&mut steps);
        assert_eq!(steps[0].to, "<b@h.9.0>");
        let text = diagram(&steps);
        assert!(
            text.ends_with("    P1->>P2: {ping,...}/2 (3 words) [0,1]\n"),
            "{text}"
        );
    }

    #[test]
    fn sends_are_arrows_and_prints_are_notes() {
        let steps = [
            step(TraceTag::SeqTraceSend, 0, 1, "<0.5.0>", "<0.6.0>"),
            step(TraceTag::SeqTraceReceive, 0, 1, "<0.5.0>", "<0.6.0>"),
            step(TraceTag::SeqTracePrint, 1, 2, "<0.6.0>", "-"),
            step(TraceTag::SeqTraceReceive, 2, 3, "<0.6.0>", "<0.7.0>"),
        ];
        let text = diagram(&steps);
        assert_eq!(
            text,
            "sequenceDiagram\n\
             \x20   participant P1 as <0.5.0>\n\
             \x20   participant P2 as <0.6.0>\n\
             \x20   participant P3 as <0.7.0>\n\
             \x20   P1->>P2: {ping,...}/2 (3 words) [0,1]\n\
             \x20   Note over P2: print {ping,...}/2 (3 words) [1,2]\n\
             \x20   P2->>P3: {ping,...}/2 (3 words) [2,3, received]\n"
        );
        assert_eq!(escape("#{a;b}"), "#35;{a#59;b}");
    }
}
