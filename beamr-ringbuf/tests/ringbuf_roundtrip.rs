//! Every trace tag written by `RingTracer` comes back from a `Cursor` with
//! its fields, and atoms resolve through the string table.

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;
use beamr_ringbuf::{
    Body, Callbacks, Cursor, Event, Options, Proc, Recorder, RingTracer, StringTable, SummaryKind,
    TraceRecord,
};
use beamr_trace::{
    fire, CallArgs, GcInfo, Mfa, Payload, SeqSerial, TraceEvent, TraceTag, Tracee, Tracer,
};

#[derive(Default)]
struct Collect {
    events: Vec<(usize, u64, u64, TraceRecord)>,
    /// The names of calls and returns (and their atom values).
    names: Vec<String>,
    /// The names of spawns' functions and exits' atom reasons.
    lifecycle_names: Vec<String>,
    lost: u64,
}

impl Callbacks for Collect {
    fn event(&mut self, e: &Event<'_>, strings: &StringTable) {
        let rec = e.trace().expect("trace category").expect("decodes");
        let named = match rec.body {
            Body::Call { mfa } => Some((mfa, None)),
            Body::Return { mfa, value } => Some((mfa, Some(value))),
            Body::Spawn { mfa, .. } => {
                let name = |a| strings.atom(a).unwrap();
                let (m, f) = (name(mfa.module), name(mfa.function));
                self.lifecycle_names.push(format!("{m}:{f}/{}", mfa.arity));
                None
            }
            Body::Reason { reason } => {
                if reason.kind == SummaryKind::Atom {
                    let name = strings.atom(reason.detail).unwrap().to_owned();
                    self.lifecycle_names.push(name);
                }
                None
            }
            _ => None,
        };
        if let Some((mfa, value)) = named {
            self.names.push(format!(
                "{}:{}/{}",
                strings.atom(mfa.module).unwrap(),
                strings.atom(mfa.function).unwrap(),
                mfa.arity
            ));
            // An atom's summary names it by its key: the table has it.
            if let Some(v) = value.filter(|v| v.kind == SummaryKind::Atom) {
                self.names.push(strings.atom(v.detail).unwrap().to_owned());
            }
        }
        self.events.push((e.ring, e.seq, e.timestamp_ns, rec));
    }
    fn lost(&mut self, _: usize, n: u64) {
        self.lost += n;
    }
}

fn tmp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("beamr-rt-{}-{name}.trace", std::process::id()))
}

fn mfa(m: &str, f: &str, a: u32) -> Mfa {
    Mfa {
        module: Atom::new(m).unwrap(),
        function: Atom::new(f).unwrap(),
        arity: a,
    }
}

#[test]
fn every_tag_round_trips() {
    let path = tmp("all");
    let tracer = RingTracer::new(Recorder::create(Options::new(3).path(&path)).unwrap());
    let mut heap = Heap::new();
    let msg = heap.tuple(&[Term::atom(Atom::new("ping").unwrap()), Term::pid(7)]);
    let args = [Term::small_unchecked(1), Term::NIL];
    let m = mfa("lists", "seq", 2);
    let gc = GcInfo::from_values(std::array::from_fn(|i| 100 + i as u64));
    let p = |t, payload| (t, payload);
    let cases: Vec<(TraceTag, Payload<'_>)> = vec![
        p(
            TraceTag::Send,
            Payload::Message {
                message: msg,
                peer: Some(Term::pid(9)),
                match_spec_result: None,
            },
        ),
        p(
            TraceTag::SendToNonExistingProcess,
            Payload::Message {
                message: msg,
                peer: Some(Term::pid(99)),
                match_spec_result: None,
            },
        ),
        p(
            TraceTag::Receive,
            Payload::Message {
                message: msg,
                peer: None,
                match_spec_result: None,
            },
        ),
        p(
            TraceTag::Call,
            Payload::Call {
                mfa: m,
                args: CallArgs::Args(&args),
                match_spec_result: None,
            },
        ),
        p(TraceTag::ReturnTo, Payload::ReturnTo { mfa: Some(m) }),
        p(
            TraceTag::ReturnFrom,
            Payload::Return {
                mfa: m,
                value: Term::small_unchecked(-5),
            },
        ),
        p(
            TraceTag::ExceptionFrom,
            Payload::Exception {
                mfa: m,
                class: Atom::ERROR,
                reason: Term::atom(Atom::BADARG),
            },
        ),
        p(
            TraceTag::Spawn,
            Payload::Spawn {
                other: Term::pid(10),
                mfa: m,
                args: &args,
            },
        ),
        p(
            TraceTag::Spawned,
            Payload::Spawn {
                other: Term::pid(1),
                mfa: m,
                args: &args,
            },
        ),
        p(
            TraceTag::Exit,
            Payload::Exit {
                reason: Term::atom(Atom::NORMAL),
            },
        ),
        p(TraceTag::Link, Payload::Link { peer: Term::pid(3) }),
        p(TraceTag::Unlink, Payload::Link { peer: Term::pid(3) }),
        p(
            TraceTag::GettingLinked,
            Payload::Link {
                peer: Term::port(4),
            },
        ),
        p(
            TraceTag::GettingUnlinked,
            Payload::Link {
                peer: Term::port(4),
            },
        ),
        p(
            TraceTag::Register,
            Payload::Register {
                name: Atom::new("srv").unwrap(),
            },
        ),
        p(
            TraceTag::Unregister,
            Payload::Register {
                name: Atom::new("srv").unwrap(),
            },
        ),
        p(
            TraceTag::Open,
            Payload::PortOpen {
                parent: Term::pid(2),
                driver: Atom::new("spawn").unwrap(),
            },
        ),
        p(
            TraceTag::Closed,
            Payload::PortClosed {
                reason: Term::atom(Atom::NORMAL),
            },
        ),
        p(TraceTag::In, Payload::Running { mfa: Some(m) }),
        p(TraceTag::Out, Payload::Running { mfa: None }),
        p(TraceTag::InExiting, Payload::Running { mfa: None }),
        p(TraceTag::OutExiting, Payload::Running { mfa: None }),
        p(TraceTag::OutExited, Payload::Running { mfa: None }),
        p(TraceTag::GcMinorStart, Payload::Gc(gc)),
        p(TraceTag::GcMinorEnd, Payload::Gc(gc)),
        p(TraceTag::GcMajorStart, Payload::Gc(gc)),
        p(TraceTag::GcMajorEnd, Payload::Gc(gc)),
        p(
            TraceTag::SeqTraceSend,
            Payload::SeqTrace {
                label: Term::small_unchecked(17),
                serial: SeqSerial {
                    previous: 3,
                    current: 4,
                },
                from: Term::pid(1),
                to: Some(Term::pid(2)),
                info: msg,
            },
        ),
        p(
            TraceTag::SeqTraceReceive,
            Payload::SeqTrace {
                label: Term::small_unchecked(17),
                serial: SeqSerial {
                    previous: 4,
                    current: 5,
                },
                from: Term::pid(1),
                to: Some(Term::pid(2)),
                info: msg,
            },
        ),
        p(
            TraceTag::SeqTracePrint,
            Payload::SeqTrace {
                label: Term::small_unchecked(17),
                serial: SeqSerial {
                    previous: 5,
                    current: 6,
                },
                from: Term::pid(2),
                to: None,
                info: Term::NIL,
            },
        ),
    ];
    assert_eq!(cases.len(), TraceTag::ALL.len(), "one case per tag");
    for (i, (tag, payload)) in cases.iter().enumerate() {
        let sched = (i % 3) as u32; // rings 0 (non-scheduler), 1 and 2
        let d = fire(&tracer, *tag, Tracee::pid(1), || {
            TraceEvent::new(*tag, Tracee::pid(1), 1_000 + i as u64, sched, *payload)
        });
        assert_eq!(d, beamr_trace::Decision::Trace);
    }
    let mut c = Collect::default();
    let mut cursor = Cursor::open(&path).unwrap();
    assert_eq!(cursor.poll_merged(&mut c), cases.len());
    assert_eq!(c.lost, 0);
    let strings = cursor.strings().clone();
    for (i, ((ring, _, ts, rec), (tag, _))) in c.events.iter().zip(&cases).enumerate() {
        assert_eq!(rec.tag, *tag, "merged order is timestamp order");
        assert_eq!(*ts, 1_000 + i as u64);
        assert_eq!(*ring, i % 3);
        assert_eq!(rec.tracee, Proc::Pid(1));
    }
    let by_tag = |t: TraceTag| c.events.iter().find(|e| e.3.tag == t).unwrap().3.body;
    match by_tag(TraceTag::Send) {
        Body::Message { peer, message } => {
            assert_eq!(peer, Proc::Pid(9));
            assert_eq!(
                (message.kind, message.count, message.size_words),
                (SummaryKind::Tuple, 2, 3)
            );
            assert_eq!(strings.atom(message.detail), Some("ping"));
            assert_eq!(message.render(&strings), "{ping,...}/2 (3 words)");
        }
        other => panic!("{other:?}"),
    }
    // The call's function, and the return's.
    assert_eq!(c.names, vec!["lists:seq/2", "lists:seq/2"]);
    match by_tag(TraceTag::ExceptionFrom) {
        Body::Exception { class, reason, .. } => {
            assert_eq!(strings.atom(class), Some("error"));
            assert_eq!(strings.atom(reason.detail), Some("badarg"));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(by_tag(TraceTag::GcMajorEnd), Body::Gc(gc));
    assert_eq!(by_tag(TraceTag::Out), Body::At { mfa: None });
    assert_eq!(
        by_tag(TraceTag::GettingLinked),
        Body::Link {
            peer: Proc::Port(4)
        }
    );
    match by_tag(TraceTag::SeqTracePrint) {
        Body::SeqTrace {
            serial, to, label, ..
        } => {
            assert_eq!(
                serial,
                SeqSerial {
                    previous: 5,
                    current: 6
                }
            );
            assert_eq!(to, Proc::None);
            assert_eq!(label.detail as i32, 17);
        }
        other => panic!("{other:?}"),
    }
    match by_tag(TraceTag::Register) {
        Body::Register { name } => assert_eq!(strings.atom(name), Some("srv")),
        other => panic!("{other:?}"),
    }
    drop(tracer);
    assert!(!path.exists(), "not preserved: removed on drop");
}

#[test]
fn pause_and_tag_filter_stop_events_at_enabled() {
    let path = tmp("pause");
    let tracer = RingTracer::new(Recorder::create(Options::new(2).path(&path)).unwrap());
    let ev = |ts| {
        TraceEvent::new(
            TraceTag::Exit,
            Tracee::pid(1),
            ts,
            1,
            Payload::Exit { reason: Term::NIL },
        )
    };
    tracer.recorder().pause();
    assert_eq!(
        tracer.enabled(TraceTag::Exit, Tracee::pid(1)),
        beamr_trace::Decision::Discard
    );
    assert!(!tracer.record(&ev(1)));
    tracer.recorder().resume();
    assert!(tracer.record(&ev(2)));
    tracer.set_tags(&[TraceTag::Send]);
    assert_eq!(
        tracer.enabled(TraceTag::Exit, Tracee::pid(1)),
        beamr_trace::Decision::Discard
    );
    assert_eq!(
        tracer.enabled(TraceTag::Send, Tracee::pid(1)),
        beamr_trace::Decision::Trace
    );
    let mut c = Collect::default();
    Cursor::open(&path).unwrap().finish(&mut c);
    assert_eq!(c.events.len(), 1);
    assert_eq!(c.events[0].2, 2);
    assert_eq!(c.lost, 0);
}

/// `fire_call`, the ring's one-step `call`, records what the protocol's
/// two steps record: the same words in the same rings (the timestamp
/// aside, which it reads itself), the names in the string table (also for
/// functions that share a slot of the ring's cache of known functions),
/// and the same answers when paused or filtered.
#[test]
fn fire_call_records_what_the_protocol_records() {
    let args = [Term::NIL];
    one_step_records_what_the_protocol_records(
        TraceTag::Call,
        |tracer, tracee, sched, m, _| {
            tracer.fire_call(tracee, sched, m, CallArgs::Args(&args), None)
        },
        |m, _| Payload::Call {
            mfa: *m,
            args: CallArgs::Args(&args),
            match_spec_result: None,
        },
    );
}

/// `fire_return`, the ring's one-step `return_from`, the same way, with
/// values whose summaries hold atoms (which go to the string table) and
/// values that hold none.
#[test]
fn fire_return_records_what_the_protocol_records() {
    let value = |i: usize| match i % 4 {
        0 => Term::small_unchecked(i as i64),
        1 => Term::atom(Atom::new(&format!("value_{}", i % 7)).unwrap()),
        2 => Term::NIL,
        _ => Term::atom(Atom::OK),
    };
    one_step_records_what_the_protocol_records(
        TraceTag::ReturnFrom,
        |tracer, tracee, sched, m, i| tracer.fire_return(tracee, sched, m, value(i)),
        |m, i| Payload::Return {
            mfa: *m,
            value: value(i),
        },
    );
}

/// `record_spawned`, the flight recorder's one-step `spawned`, the same
/// way, with parents that are local pids, remote pids and none.
#[test]
fn record_spawned_records_what_the_protocol_records() {
    let parent = |i: usize| match i % 3 {
        0 => Term::pid(i as u64 + 100),
        1 => Term::NIL,
        _ => Term::pid(3),
    };
    one_step_records_what_the_protocol_records(
        TraceTag::Spawned,
        |tracer, tracee, sched, m, i| tracer.record_spawned(tracee, sched, parent(i), m),
        |m, i| Payload::Spawn {
            other: parent(i),
            mfa: *m,
            args: &[],
        },
    );
}

/// `record_exit`, the flight recorder's one-step `exit`, the same way,
/// with atom reasons and others.
#[test]
fn record_exit_records_what_the_protocol_records() {
    let reason = |i: usize| match i % 3 {
        0 => Term::atom(Atom::NORMAL),
        1 => Term::atom(Atom::new(&format!("reason_{}", i % 5)).unwrap()),
        _ => Term::small_unchecked(i as i64),
    };
    one_step_records_what_the_protocol_records(
        TraceTag::Exit,
        |tracer, tracee, sched, _, i| tracer.record_exit(tracee, sched, reason(i)),
        |_, i| Payload::Exit { reason: reason(i) },
    );
}

/// Records events of `tag` with `one_step` (a backend's one-call probe)
/// and with the protocol's two steps (`payload` built into an event), for
/// 40 functions over every ring (0, not a scheduler; 1; 2; and 7, past the
/// last: ring 0), and asserts the two files hold the same events and
/// names, and that the one step answers as the protocol when paused and
/// when filtered.
fn one_step_records_what_the_protocol_records<'a>(
    tag: TraceTag,
    one_step: impl Fn(&RingTracer, Tracee, u32, &Mfa, usize) -> beamr_trace::Decision,
    payload: impl Fn(&Mfa, usize) -> Payload<'a>,
) {
    let calls: Vec<(u32, Mfa)> = (0..40)
        .map(|i| {
            // Repeats (cache hits), a module with two functions, and more
            // functions than a ring's cache has slots.
            let f = format!("f{}", i % 11);
            let m = if i % 3 == 0 { "mod_a" } else { "mod_b" };
            ([0, 1, 2, 7][i % 4], mfa(m, &f, (i % 5) as u32))
        })
        .collect();
    let record = |one: bool| {
        let path = tmp(&format!(
            "{tag:?}_{}",
            if one { "one_step" } else { "two_steps" }
        ));
        let tracer = RingTracer::new(Recorder::create(Options::new(3).path(&path)).unwrap());
        for (i, (sched, m)) in calls.iter().enumerate() {
            let tracee = Tracee::pid(i as u64);
            let d = if one {
                one_step(&tracer, tracee, *sched, m, i)
            } else {
                fire(&tracer, tag, tracee, || {
                    TraceEvent::new(tag, tracee, 0, *sched, payload(m, i))
                })
            };
            assert_eq!(d, beamr_trace::Decision::Trace);
        }
        tracer.recorder().pause();
        let d = one_step(&tracer, Tracee::pid(1), 1, &calls[0].1, 0);
        assert_eq!(d, beamr_trace::Decision::Discard, "paused");
        tracer.recorder().resume();
        tracer.set_tags(&[TraceTag::Send]);
        let d = one_step(&tracer, Tracee::pid(1), 1, &calls[0].1, 0);
        assert_eq!(d, beamr_trace::Decision::Discard, "filtered");
        let mut c = Collect::default();
        let mut cursor = Cursor::open(&path).unwrap();
        cursor.finish(&mut c);
        let events: Vec<_> = c
            .events
            .iter()
            .map(|(r, s, _, rec)| (*r, *s, *rec))
            .collect();
        let names = [c.names, c.lifecycle_names].concat();
        (events, names, c.lost)
    };
    let (one, one_names, one_lost) = record(true);
    let (two, two_names, two_lost) = record(false);
    assert_eq!(one.len(), calls.len());
    let sorted = |mut v: Vec<(usize, u64, TraceRecord)>| {
        v.sort_by_key(|e| (e.0, e.1));
        v
    };
    assert_eq!(sorted(one), sorted(two));
    let mut one_names = one_names;
    let mut two_names = two_names;
    one_names.sort();
    two_names.sort();
    assert_eq!(one_names, two_names);
    let named = |name: &str| one_names.iter().any(|n| n == name);
    match tag {
        TraceTag::Exit => assert!(named("normal") && named("reason_1"), "{one_names:?}"),
        _ => assert!(named("mod_a:f0/0"), "{one_names:?}"),
    }
    assert_eq!((one_lost, two_lost), (0, 0));
}
