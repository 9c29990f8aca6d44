//! The probe protocol ([`fire`]) against a [`RecordingTracer`]: filtering,
//! removal, and copies that outlive the tracee's heap.

use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;
use beamr_trace::{
    fire, CallArgs, Decision, GcInfo, Mfa, Payload, RecordingTracer, TraceEvent, TraceTag, Tracee,
    Tracer,
};

fn send_event(heap: &mut Heap, from: u64, to: u64, n: i64) -> TraceEvent<'static> {
    let msg = heap.tuple(&[Term::atom(Atom::OK), heap_int(n)]);
    TraceEvent::new(
        TraceTag::Send,
        Tracee::pid(from),
        1000 + n as u64,
        1,
        Payload::Message {
            message: msg,
            peer: Some(Term::pid(to)),
            match_spec_result: None,
        },
    )
}

fn heap_int(n: i64) -> Term {
    Term::small(n).unwrap()
}

#[test]
fn discarded_events_are_never_built() {
    let rec = RecordingTracer::with_filter(|tag, _| {
        if tag == TraceTag::Send {
            Decision::Trace
        } else {
            Decision::Discard
        }
    });
    let mut built = 0;
    let d = fire(&rec, TraceTag::Exit, Tracee::pid(1), || {
        built += 1;
        TraceEvent::new(
            TraceTag::Exit,
            Tracee::pid(1),
            0,
            1,
            Payload::Exit { reason: Term::NIL },
        )
    });
    assert_eq!(d, Decision::Discard);
    assert_eq!(built, 0);
    assert!(rec.is_empty());
    let mut heap = Heap::new();
    let d = fire(&rec, TraceTag::Send, Tracee::pid(1), || {
        send_event(&mut heap, 1, 2, 7)
    });
    assert_eq!(d, Decision::Trace);
    assert_eq!(rec.tags(), vec![TraceTag::Send]);
    assert_eq!(rec.enabled_calls(), 2);
    assert_eq!(rec.unasked(), 0);
}

#[test]
fn remove_is_reported_to_the_probe_site() {
    let rec = RecordingTracer::with_filter(|_, tracee| {
        if tracee == Tracee::pid(9) {
            Decision::Remove
        } else {
            Decision::Trace
        }
    });
    let ev = |p| {
        TraceEvent::new(
            TraceTag::Link,
            Tracee::pid(p),
            5,
            2,
            Payload::Link { peer: Term::pid(3) },
        )
    };
    assert_eq!(
        fire(&rec, TraceTag::Link, Tracee::pid(9), || ev(9)),
        Decision::Remove
    );
    assert_eq!(
        fire(&rec, TraceTag::Link, Tracee::pid(4), || ev(4)),
        Decision::Trace
    );
    rec.with_events(|evs| {
        assert_eq!(evs.len(), 1);
        assert_eq!(evs[0].tracee, Tracee::pid(4));
        assert_eq!(evs[0].payload, Payload::Link { peer: Term::pid(3) });
    });
}

#[test]
fn recorded_terms_outlive_the_tracee_heap() {
    let rec = RecordingTracer::new();
    {
        let mut heap = Heap::new();
        let ev = send_event(&mut heap, 1, 2, 42);
        rec.trace(&ev);
        let args = [heap.string("abc"), heap.float(1.5)];
        let mfa = Mfa {
            module: Atom::new("lists").unwrap(),
            function: Atom::new("reverse").unwrap(),
            arity: 2,
        };
        rec.trace(&TraceEvent::new(
            TraceTag::Call,
            Tracee::pid(1),
            2000,
            1,
            Payload::Call {
                mfa,
                args: CallArgs::Args(&args),
                match_spec_result: None,
            },
        ));
        // Scribble over the tracee's memory before it goes away.
        let _ = heap.tuple(&[Term::NIL; 64]);
    }
    rec.with_events(|evs| {
        let Payload::Message { message, peer, .. } = evs[0].payload else {
            panic!("{:?}", evs[0])
        };
        assert_eq!(peer, Some(Term::pid(2)));
        let elems = message.as_tuple().expect("a tuple");
        assert_eq!(elems, &[Term::atom(Atom::OK), heap_int(42)]);
        let Payload::Call {
            mfa,
            args: CallArgs::Args(args),
            ..
        } = evs[1].payload
        else {
            panic!("{:?}", evs[1])
        };
        assert_eq!(mfa.function.name(), "reverse");
        assert_eq!(args.len(), 2);
        let s: Vec<i64> = args[0].iter_list().map(|t| t.as_small().unwrap()).collect();
        assert_eq!(s, vec![97, 98, 99]);
        assert_eq!(args[1].as_float(), Some(1.5));
        assert_eq!(evs[1].timestamp_ns, 2000);
    });
}

#[test]
fn trace_without_asking_is_counted_not_recorded() {
    let rec = RecordingTracer::with_filter(|_, _| Decision::Discard);
    rec.trace(&TraceEvent::new(
        TraceTag::GcMinorStart,
        Tracee::pid(1),
        0,
        1,
        Payload::Gc(GcInfo {
            heap_size: 10,
            ..GcInfo::default()
        }),
    ));
    assert_eq!(rec.unasked(), 1);
    assert!(rec.is_empty());
}

#[test]
fn schedulers_trace_concurrently() {
    let rec = Arc::new(RecordingTracer::new());
    let threads: Vec<_> = (1..=4u32)
        .map(|sched| {
            let rec = Arc::clone(&rec);
            std::thread::spawn(move || {
                let mut heap = Heap::new();
                for i in 0..250 {
                    let tracer: &dyn Tracer = &rec;
                    fire(tracer, TraceTag::Send, Tracee::pid(sched as u64), || {
                        let mut e = send_event(&mut heap, sched as u64, 0, i);
                        e.scheduler_id = sched;
                        e
                    });
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(rec.len(), 1000);
    rec.with_events(|evs| {
        for sched in 1..=4 {
            let mine: Vec<i64> = evs
                .iter()
                .filter(|e| e.scheduler_id == sched)
                .map(|e| match e.payload {
                    Payload::Message { message, .. } => {
                        message.as_tuple().unwrap()[1].as_small().unwrap()
                    }
                    _ => unreachable!(),
                })
                .collect();
            assert_eq!(
                mine,
                (0..250).collect::<Vec<_>>(),
                "scheduler {sched} in order"
            );
        }
    });
}

#[test]
fn fire_call_asks_first_and_records_the_call_event() {
    let rec = RecordingTracer::with_filter(|_, tracee| {
        if tracee == Tracee::pid(1) {
            Decision::Trace
        } else {
            Decision::Discard
        }
    });
    let mfa = Mfa {
        module: Atom::new("m").unwrap(),
        function: Atom::new("f").unwrap(),
        arity: 2,
    };
    let args = [Term::small_unchecked(1), Term::NIL];
    // A reading past the clock's origin, to tell a stamped event from 0.
    let _ = beamr_trace::clock::now_ns();
    std::thread::sleep(std::time::Duration::from_millis(2));
    let before = beamr_trace::clock::now_ns();
    let d = rec.fire_call(
        Tracee::pid(1),
        3,
        &mfa,
        CallArgs::Args(&args),
        Some(Term::NIL),
    );
    assert_eq!(d, Decision::Trace);
    let d = rec.fire_call(Tracee::pid(2), 3, &mfa, CallArgs::Arity(2), None);
    assert_eq!(d, Decision::Discard);
    assert_eq!(rec.enabled_calls(), 2);
    assert_eq!(rec.unasked(), 0);
    rec.with_events(|events| {
        assert_eq!(events.len(), 1);
        let e = &events[0];
        assert_eq!(
            (e.tag, e.tracee, e.scheduler_id),
            (TraceTag::Call, Tracee::pid(1), 3)
        );
        assert!(
            before > 0 && e.timestamp_ns >= before,
            "stamped: it reads the clock"
        );
        match e.payload {
            Payload::Call {
                mfa: m,
                args: CallArgs::Args(a),
                match_spec_result: Some(x),
            } => {
                assert_eq!(m, mfa);
                assert_eq!(a, &args[..]);
                assert_eq!(x, Term::NIL);
            }
            other => panic!("{other:?}"),
        }
    });
}
