//! Writers on every core and a slow reader: for each ring, events written =
//! events delivered + events reported lost, and no delivered event is torn.
//!
//! Nothing waits forever: each writer reports on a channel when it has
//! written all its events, and the test waits for those reports with a
//! deadline ([`LIMIT`]). A writer that panics (its report never comes) or
//! stalls fails the test with what each writer managed to write; a thread
//! that still does not end after being told to stop ends the process with a
//! message, since the scope would wait for it forever. The `a_*` tests
//! inject those faults into one writer to check the check.

use std::any::Any;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread::ScopedJoinHandle;
use std::time::{Duration, Instant};

use beamr_ringbuf::{Callbacks, Cursor, Event, Options, Recorder, StringTable};

/// How long the writers may take, and then how long each thread may take to
/// end once told to: generous, for a loaded two-core machine (the whole
/// test takes well under a second there).
const LIMIT: Duration = Duration::from_secs(60);

/// What the reader saw, per ring.
struct Check {
    delivered: Vec<u64>,
    lost: Vec<u64>,
    last_seq: Vec<Option<u64>>,
    torn: u64,
}

impl Callbacks for Check {
    fn event(&mut self, e: &Event<'_>, _: &StringTable) {
        // Event `seq` of ring `r` has `seq % 6 + 1` payload words, each
        // `seq ^ (r << 56) ^ i`; its timestamp is `seq`.
        let r = e.ring as u64;
        let ok = e.payload.len() as u64 == e.seq % 6 + 1
            && e.timestamp_ns == e.seq
            && e.kind == (e.seq % 7) as u16
            && e.payload
                .iter()
                .enumerate()
                .all(|(i, &w)| w == e.seq ^ (r << 56) ^ i as u64);
        if !ok {
            self.torn += 1;
        }
        if let Some(prev) = self.last_seq[e.ring] {
            assert!(e.seq > prev, "ring {} went backwards", e.ring);
        }
        self.last_seq[e.ring] = Some(e.seq);
        self.delivered[e.ring] += 1;
    }
    fn lost(&mut self, ring: usize, n: u64) {
        self.lost[ring] += n;
    }
    fn corrupt(&mut self, ring: usize, pos: u64, why: &str) {
        panic!("ring {ring} corrupt at {pos}: {why}");
    }
}

/// A fault injected into one writer, for the tests that check the test.
#[derive(Clone, Copy, Debug)]
enum Fault {
    /// Writer `ring` panics after writing `after` events.
    Dies { ring: usize, after: u64 },
    /// Writer `ring` stops writing after `after` events (until told to stop).
    Stalls { ring: usize, after: u64 },
}

/// One run: `rings` writers writing `per_writer` events each, which must be
/// written within `limit`.
struct Stress {
    name: &'static str,
    rings: usize,
    per_writer: u64,
    limit: Duration,
    fault: Option<Fault>,
}

/// What a run that completed left: events written per ring, and what the
/// reader saw.
struct Outcome {
    written: Vec<u64>,
    check: Check,
}

/// A panic's message, if it has one.
fn panic_message(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)")
}

/// Waits up to `limit` for every thread in `threads` to end. One that does
/// not would hang the scope that must join it, so this writes `what` to
/// standard error (past libtest's capture) and ends the process instead.
fn end_or_exit<T>(threads: &[&ScopedJoinHandle<'_, T>], limit: Duration, what: &str) {
    let deadline = Instant::now() + limit;
    while !threads.iter().all(|t| t.is_finished()) {
        if Instant::now() > deadline {
            let _ = writeln!(
                std::io::stderr(),
                "ringbuf_stress: {what}: still running {limit:?} after being told to stop; \
                 ending the test process"
            );
            std::process::exit(101);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Runs `s`: its writers, one per ring, and a slow reader, which lets the
/// writers lap it. `Err` says what went wrong when a writer did not write
/// all its events within the limit (it panicked or stalled) or a thread
/// panicked.
fn stress(s: &Stress) -> Result<Outcome, String> {
    let path: PathBuf = std::env::temp_dir().join(format!(
        "beamr-stress-{}-{}.trace",
        std::process::id(),
        s.name
    ));
    let rec = Recorder::create(Options::new(s.rings).path(&path).ring_words(4096)).unwrap();
    let (stop, done) = (AtomicBool::new(false), AtomicBool::new(false));
    let mut check = Check {
        delivered: vec![0; s.rings],
        lost: vec![0; s.rings],
        last_seq: vec![None; s.rings],
        torn: 0,
    };
    let per_writer = s.per_writer;
    let failure = std::thread::scope(|scope| {
        let (finished, reports) = mpsc::channel();
        let writers: Vec<ScopedJoinHandle<'_, ()>> = (0..s.rings)
            .map(|r| {
                let mut w = rec.writer(r).unwrap();
                let (finished, stop, fault) = (finished.clone(), &stop, s.fault);
                scope.spawn(move || {
                    let mut buf = [0u64; 6];
                    for seq in 0..per_writer {
                        if seq % 1024 == 0 && stop.load(Ordering::Relaxed) {
                            return;
                        }
                        match fault {
                            Some(Fault::Dies { ring, after }) if ring == r && seq == after => {
                                panic!("writer {r}: injected failure after {after} events")
                            }
                            Some(Fault::Stalls { ring, after }) if ring == r && seq == after => {
                                while !stop.load(Ordering::Relaxed) {
                                    std::thread::sleep(Duration::from_millis(1));
                                }
                                return;
                            }
                            _ => {}
                        }
                        let n = (seq % 6 + 1) as usize;
                        for (i, b) in buf[..n].iter_mut().enumerate() {
                            *b = seq ^ ((r as u64) << 56) ^ i as u64;
                        }
                        assert!(w.write((seq % 7) as u16, seq, &buf[..n]));
                    }
                    let _ = finished.send(r);
                })
            })
            .collect();
        // Only the writers hold senders now: when all are gone, so is the
        // channel, and a report missing then is a writer that died.
        drop(finished);
        let mut cursor = Cursor::open(&path).unwrap();
        let (done, check, rec) = (&done, &mut check, &rec);
        let rings = s.rings;
        let reader = scope.spawn(move || {
            // A slow reader: its first poll waits until every writer has
            // written more than its ring holds (4,096 events of 3 words or
            // more; or all its events, or it was told to stop), so that it
            // is lapped however the machine runs the threads.
            let lapped = |r: usize| rec.written(r) >= per_writer.min(4096);
            while !done.load(Ordering::Acquire) && !(0..rings).all(lapped) {
                std::thread::sleep(Duration::from_millis(1));
            }
            let mut polls = 0u64;
            loop {
                cursor.poll(check);
                polls += 1;
                if done.load(Ordering::Acquire) {
                    break;
                }
                // And slow after: let the writers lap it again.
                std::thread::sleep(Duration::from_micros(200));
            }
            cursor.finish(check);
            assert!(polls > 0);
        });

        let deadline = Instant::now() + s.limit;
        let mut reported = vec![false; s.rings];
        let mut failure = None;
        for _ in 0..s.rings {
            match reports.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(r) => reported[r] = true,
                Err(e) => {
                    let short: Vec<String> = (0..s.rings)
                        .filter(|&r| !reported[r])
                        .map(|r| {
                            format!("writer {r} wrote {} of {per_writer} events", rec.written(r))
                        })
                        .collect();
                    let why = match e {
                        mpsc::RecvTimeoutError::Timeout => format!("after {:?}", s.limit),
                        mpsc::RecvTimeoutError::Disconnected => {
                            "a writer's thread ended without finishing".to_owned()
                        }
                    };
                    failure = Some(format!("{why}: {}", short.join("; ")));
                    break;
                }
            }
        }
        // Stop the writers (when one failed), then the reader: `finish`
        // must not run while a writer still writes.
        stop.store(true, Ordering::Relaxed);
        end_or_exit(&writers.iter().collect::<Vec<_>>(), LIMIT, "a writer");
        done.store(true, Ordering::Release);
        end_or_exit(&[&reader], LIMIT, "the reader");
        // Join each thread here, so that a panic is reported with its
        // message instead of as "a scoped thread panicked".
        let mut problems: Vec<String> = failure.into_iter().collect();
        for (r, writer) in writers.into_iter().enumerate() {
            if let Err(panic) = writer.join() {
                problems.push(format!("writer {r} panicked: {}", panic_message(&*panic)));
            }
        }
        if let Err(panic) = reader.join() {
            problems.push(format!("the reader panicked: {}", panic_message(&*panic)));
        }
        problems
    });
    if !failure.is_empty() {
        return Err(failure.join("\n"));
    }
    Ok(Outcome {
        written: (0..s.rings).map(|r| rec.written(r)).collect(),
        check,
    })
}

#[test]
fn accounting_is_exact_under_contention() {
    let cores = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .max(2);
    let per_writer: u64 = if cfg!(debug_assertions) {
        200_000
    } else {
        2_000_000
    };
    let run = stress(&Stress {
        name: "contention",
        rings: cores,
        per_writer,
        limit: LIMIT,
        fault: None,
    });
    let Outcome { written, check } = run.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(check.torn, 0, "torn or mixed-up events were delivered");
    assert_eq!(written.len(), cores);
    for (r, &written) in written.iter().enumerate() {
        assert_eq!(written, per_writer, "ring {r}: written");
        assert_eq!(
            check.delivered[r] + check.lost[r],
            per_writer,
            "ring {r}: delivered {} + lost {}",
            check.delivered[r],
            check.lost[r]
        );
        assert_eq!(
            check.last_seq[r],
            Some(per_writer - 1),
            "ring {r}: newest event delivered"
        );
    }
    assert!(
        check.lost.iter().sum::<u64>() > 0,
        "the reader, lapped before its first poll, lost events"
    );
}

#[test]
fn a_dead_writer_fails_instead_of_hanging() {
    let run = stress(&Stress {
        name: "dead-writer",
        rings: 2,
        per_writer: 10_000,
        limit: LIMIT,
        fault: Some(Fault::Dies {
            ring: 1,
            after: 100,
        }),
    });
    let err = run.err().expect("a writer that died passed");
    assert!(
        err.starts_with(
            "a writer's thread ended without finishing: writer 1 wrote 100 of 10000 events"
        ) && err.contains("writer 1 panicked: writer 1: injected failure after 100 events"),
        "{err}"
    );
}

#[test]
fn a_stalled_writer_fails_at_the_deadline() {
    let started = Instant::now();
    let run = stress(&Stress {
        name: "stalled-writer",
        rings: 2,
        per_writer: 10_000,
        limit: Duration::from_secs(2),
        fault: Some(Fault::Stalls {
            ring: 0,
            after: 100,
        }),
    });
    let err = run.err().expect("a writer that stalled passed");
    assert!(
        err.starts_with("after 2s: writer 0 wrote 100 of 10000 events"),
        "{err}"
    );
    assert!(started.elapsed() >= Duration::from_secs(2));
}
