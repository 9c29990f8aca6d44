//! Writes N synthetic BEAM-like trace events into a ring-buffer file, so the
//! whole pipeline (`beamr trace dump|stats|export|flame`) can be tried
//! without the runtime.
//!
//! ```text
//! cargo run --release -p beamr-ringbuf --example synthetic -- FILE N
//! ```
//!
//! Four "schedulers" (threads) each run a few processes in turn: a process is
//! spawned, scheduled in, calls nested functions (call / return_from pairs),
//! sends messages to processes on other schedulers which receive them, links,
//! collects garbage, is scheduled out, and eventually exits. The file is
//! kept (it is the output).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;
use beamr_ringbuf::{clock, Options, Recorder, RingTracer};
use beamr_trace::{fire, CallArgs, GcInfo, Mfa, Payload, TraceEvent, TraceTag, Tracee};

const SCHEDULERS: u32 = 4;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(n)) = (args.get(1), args.get(2).and_then(|n| n.parse::<u64>().ok()))
    else {
        eprintln!("usage: synthetic FILE N");
        std::process::exit(2);
    };
    let rec = match Recorder::create(
        Options::new(SCHEDULERS as usize + 1)
            .path(path)
            .ring_words(1 << 20)
            .preserve(true),
    ) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("synthetic: {e}");
            std::process::exit(1);
        }
    };
    let tracer = Arc::new(RingTracer::new(rec));
    let written = Arc::new(AtomicU64::new(0));
    let per = n / SCHEDULERS as u64;
    let threads: Vec<_> = (1..=SCHEDULERS)
        .map(|s| {
            let (tracer, written) = (Arc::clone(&tracer), Arc::clone(&written));
            let quota = if s == SCHEDULERS {
                n - per * (SCHEDULERS as u64 - 1)
            } else {
                per
            };
            std::thread::spawn(move || Sim::new(s, &tracer, quota).run(&written))
        })
        .collect();
    for t in threads {
        let _ = t.join();
    }
    println!(
        "{path}: {} events on {SCHEDULERS} schedulers",
        written.load(Ordering::Relaxed)
    );
}

struct Sim<'t> {
    sched: u32,
    tracer: &'t RingTracer,
    quota: u64,
    count: u64,
    /// Returns owed to calls already emitted: their slots are reserved.
    pending: u64,
    heap: Heap,
    rng: u64,
    funs: Vec<Mfa>,
}

impl<'t> Sim<'t> {
    fn new(sched: u32, tracer: &'t RingTracer, quota: u64) -> Sim<'t> {
        let a = |s: &str| Atom::new(s).unwrap_or(Atom::UNDEFINED);
        let funs = [
            ("app", "handle", 2),
            ("app", "parse", 1),
            ("lists", "map", 2),
            ("lists", "foldl", 3),
            ("maps", "get", 2),
            ("app", "encode", 1),
        ]
        .iter()
        .map(|&(m, f, ar)| Mfa {
            module: a(m),
            function: a(f),
            arity: ar,
        })
        .collect();
        Sim {
            sched,
            tracer,
            quota,
            count: 0,
            pending: 0,
            heap: Heap::new(),
            rng: sched as u64 * 7919 + 1,
            funs,
        }
    }

    fn rand(&mut self, n: u64) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng % n
    }

    fn emit(&mut self, tag: TraceTag, pid: u64, payload: Payload<'_>) -> bool {
        if self.count + self.pending >= self.quota {
            return false;
        }
        if tag == TraceTag::Call {
            self.pending += 1;
        }
        let sched = self.sched;
        fire(self.tracer, tag, Tracee::pid(pid), || {
            TraceEvent::new(tag, Tracee::pid(pid), clock::now_ns(), sched, payload)
        });
        self.count += 1;
        true
    }

    fn pid(&self, local: u64) -> u64 {
        local * SCHEDULERS as u64 + self.sched as u64
    }

    fn run(mut self, written: &AtomicU64) {
        let main = Mfa {
            module: Atom::new("app").unwrap(),
            function: Atom::new("loop").unwrap(),
            arity: 1,
        };
        let mut local = 1u64;
        while self.count < self.quota {
            let pid = self.pid(local);
            let parent = self.pid(local.saturating_sub(1));
            self.emit(
                TraceTag::Spawned,
                pid,
                Payload::Spawn {
                    other: Term::pid(parent),
                    mfa: main,
                    args: &[],
                },
            );
            self.emit(
                TraceTag::Link,
                pid,
                Payload::Link {
                    peer: Term::pid(parent),
                },
            );
            for _slice in 0..1 + self.rand(4) {
                self.emit(TraceTag::In, pid, Payload::Running { mfa: Some(main) });
                for _ in 0..1 + self.rand(6) {
                    self.calls(pid, 0);
                    let to = self.rand(64) * SCHEDULERS as u64 + 1 + self.rand(SCHEDULERS as u64);
                    let tag = Term::atom(Atom::new("req").unwrap());
                    let msg = self.heap.tuple(&[
                        tag,
                        Term::pid(pid),
                        Term::small_unchecked(self.count as i64),
                    ]);
                    self.emit(
                        TraceTag::Send,
                        pid,
                        Payload::Message {
                            message: msg,
                            peer: Some(Term::pid(to)),
                        },
                    );
                    self.emit(
                        TraceTag::Receive,
                        pid,
                        Payload::Message {
                            message: msg,
                            peer: Some(Term::pid(to)),
                        },
                    );
                }
                if self.rand(3) == 0 {
                    let sizes = GcInfo {
                        heap_size: 233 + self.rand(1000),
                        heap_block_size: 1598,
                        old_heap_size: self.rand(500),
                        ..GcInfo::default()
                    };
                    self.emit(TraceTag::GcMinorStart, pid, Payload::Gc(sizes));
                    self.emit(
                        TraceTag::GcMinorEnd,
                        pid,
                        Payload::Gc(GcInfo {
                            heap_size: sizes.heap_size / 3,
                            ..sizes
                        }),
                    );
                }
                self.emit(TraceTag::Out, pid, Payload::Running { mfa: Some(main) });
            }
            self.emit(
                TraceTag::Exit,
                pid,
                Payload::Exit {
                    reason: Term::atom(Atom::NORMAL),
                },
            );
            self.emit(TraceTag::OutExited, pid, Payload::Running { mfa: None });
            local += 1;
            if local % 64 == 0 {
                self.heap = Heap::new();
            }
        }
        written.fetch_add(self.count, Ordering::Relaxed);
    }

    fn calls(&mut self, pid: u64, depth: u32) {
        let i = self.rand(self.funs.len() as u64) as usize;
        let f = self.funs[i];
        let arg = Term::small_unchecked(depth as i64);
        if !self.emit(
            TraceTag::Call,
            pid,
            Payload::Call {
                mfa: f,
                args: CallArgs::Args(&[arg]),
                match_spec_result: None,
            },
        ) {
            return;
        }
        if depth < 4 && self.rand(2) == 0 {
            for _ in 0..1 + self.rand(2) {
                self.calls(pid, depth + 1);
            }
        }
        // The return always goes out if the call did (its slot was
        // reserved), so pairs match.
        self.pending -= 1;
        self.emit(
            TraceTag::ReturnFrom,
            pid,
            Payload::Return {
                mfa: f,
                value: Term::atom(Atom::OK),
            },
        );
    }
}
