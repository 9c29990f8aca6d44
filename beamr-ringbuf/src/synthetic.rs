//! A generator of synthetic BEAM-like trace files, so the whole pipeline
//! (`beamr trace dump|stats|tail|export|flame`) can be tried and tested
//! without the runtime. The `synthetic` example is a command-line front end
//! to [`write`]; the `beamr trace` tests call it directly.
//!
//! Each of [`Config::schedulers`] threads plays one scheduler and writes
//! through a [`RingTracer`] to its own ring, running processes one after
//! the other, in step with the other schedulers (one process each per
//! round, so that messages cross schedulers whatever the OS does with the
//! threads). A process is spawned (`spawned`, `link` to its parent), then
//! runs in one to four time slices (`in` ... `out`). In a slice it makes
//! nested calls (`call` / `return_from` pairs, depth at most
//! [`MAX_CALL_DEPTH`]), sends `{req, Self, N}` to the process currently
//! running on a random scheduler (`send`), receives what was sent to it
//! (`'receive'`, on the receiver's own scheduler, after the send), and
//! sometimes collects garbage (`gc_minor_start` / `gc_minor_end`). Its last
//! slice ends with `exit` and `out_exited` instead of `out`.
//!
//! Timestamps come from a simulated clock per scheduler, not from how fast
//! this generator runs (which would mostly show the OS preempting it): every
//! event advances its scheduler's clock by a modelled cost (each function in
//! [`FUNCTIONS`] has its own), and a receive happens at least
//! [`DELIVERY_NS`] after its send. The clocks start together just after the
//! file is created; each ring's timestamps only grow.
//!
//! Pairs always match: a thread reserves the closing event (`return_from`,
//! `out`, `exit` + `out_exited`) when it writes the opening one, so exactly
//! [`Config::events`] events are written in all and none is left open. The
//! sequence of events of one scheduler depends on a fixed seed, except for
//! the order in which messages from different senders arrive; every message
//! is received before its receiver exits (unless the quota runs out), and
//! [`Written`] says exactly what was written.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Barrier, Mutex};

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;
use beamr_trace::{fire, CallArgs, GcInfo, Mfa, Payload, TraceEvent, TraceTag, Tracee};

use crate::clock;
use crate::error::Error;
use crate::recorder::{Options, Recorder};
use crate::tracer::RingTracer;

/// Deepest call nesting the generator makes (a stack of at most this many
/// frames).
pub const MAX_CALL_DEPTH: usize = 5;

/// The functions the generator calls, as `(module, function, arity)`.
pub const FUNCTIONS: &[(&str, &str, u32)] = &[
    ("app", "handle", 2),
    ("app", "parse", 1),
    ("lists", "map", 2),
    ("lists", "foldl", 3),
    ("maps", "get", 2),
    ("app", "encode", 1),
];

/// Modelled self time of each of [`FUNCTIONS`], in nanoseconds (half before
/// its nested calls, half after).
pub const FUNCTION_NS: &[u64] = &[800, 1500, 400, 600, 100, 1200];

/// Least time from a send to its receive, in nanoseconds.
pub const DELIVERY_NS: u64 = 1000;

/// The function every generated process is spawned with.
pub const MAIN: (&str, &str, u32) = ("app", "loop", 1);

/// What to generate.
#[derive(Clone, Debug)]
pub struct Config {
    /// The file to create (replaced if it exists; kept afterwards).
    pub path: PathBuf,
    /// Events to write in all.
    pub events: u64,
    /// Scheduler threads (rings `1..=schedulers`; ring 0 stays empty).
    pub schedulers: u32,
    /// Words per ring (a power of two from 512 to 2^30). When a ring is too
    /// small for its share, its oldest events are overwritten.
    pub ring_words: usize,
    /// Bytes of the string table (names that do not fit are counted, and
    /// their events show atom keys).
    pub string_bytes: usize,
}

impl Config {
    /// `events` events on 4 schedulers, rings big enough to keep them all
    /// (at least 2^16 words each).
    pub fn new(path: impl Into<PathBuf>, events: u64) -> Config {
        let schedulers = 4;
        // Events average under 6 words; leave room for padding.
        let per_ring = (events / schedulers as u64 + 1) * 8;
        let ring_words = per_ring
            .next_power_of_two()
            .clamp(1 << 16, crate::layout::MAX_RING_WORDS as u64) as usize;
        Config {
            path: path.into(),
            events,
            schedulers,
            ring_words,
            string_bytes: 1 << 20,
        }
    }
}

/// What [`write`] wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// `counts[ring][tag as usize]`: events of each tag written to each ring.
    pub counts: Vec<Vec<u64>>,
}

impl Written {
    /// Events written in all.
    pub fn total(&self) -> u64 {
        self.counts.iter().flatten().sum()
    }

    /// Events of `tag` written to any ring.
    pub fn tag(&self, tag: TraceTag) -> u64 {
        self.counts.iter().map(|r| r[tag as usize]).sum()
    }

    /// Events written to `ring`.
    pub fn ring(&self, ring: usize) -> u64 {
        self.counts.get(ring).map_or(0, |r| r.iter().sum())
    }
}

/// Writes `events` synthetic events to `path` with [`Config::new`].
pub fn write(path: impl Into<PathBuf>, events: u64) -> Result<Written, Error> {
    write_with(&Config::new(path, events))
}

/// Writes the file `config` describes and says what went into it.
pub fn write_with(config: &Config) -> Result<Written, Error> {
    if config.schedulers == 0 {
        return Err(Error::InvalidOptions("0 schedulers".to_owned()));
    }
    let rec = Recorder::create(
        Options::new(config.schedulers as usize + 1)
            .path(&config.path)
            .ring_words(config.ring_words)
            .string_bytes(config.string_bytes)
            .preserve(true),
    )?;
    let world = World {
        tracer: RingTracer::new(rec),
        schedulers: config.schedulers,
        running: (0..config.schedulers).map(|_| AtomicU64::new(0)).collect(),
        mailboxes: (0..config.schedulers)
            .map(|_| Mutex::new(VecDeque::new()))
            .collect(),
        step: Barrier::new(config.schedulers as usize),
        done: AtomicUsize::new(0),
        epoch: clock::now_ns(),
    };
    let s = config.schedulers as u64;
    let per = config.events / s;
    let mut counts = vec![vec![0; TraceTag::ALL.len()]];
    std::thread::scope(|scope| {
        let threads: Vec<_> = (1..=config.schedulers)
            .map(|id| {
                let quota = if id == config.schedulers {
                    config.events - per * (s - 1)
                } else {
                    per
                };
                let world = &world;
                scope.spawn(move || Sim::new(id, world, quota).run())
            })
            .collect();
        for t in threads {
            // A generator thread only panics on a bug in this module.
            counts.push(t.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        }
    });
    Ok(Written { counts })
}

/// A message in flight: who sent it to whom, and its number.
struct Msg {
    from: u64,
    to: u64,
    n: i64,
    /// When it was sent.
    sent: u64,
}

/// What the scheduler threads share.
struct World {
    tracer: RingTracer,
    schedulers: u32,
    /// The pid each scheduler runs now (0: none).
    running: Vec<AtomicU64>,
    /// Messages to the processes of each scheduler.
    mailboxes: Vec<Mutex<VecDeque<Msg>>>,
    /// The schedulers run in step, one process each per round.
    step: Barrier,
    /// Schedulers that have written their quota.
    done: AtomicUsize,
    /// Where the simulated clocks start.
    epoch: u64,
}

/// One scheduler thread's simulation.
struct Sim<'w> {
    sched: u32,
    world: &'w World,
    quota: u64,
    count: u64,
    /// This scheduler's simulated clock (ns).
    now: u64,
    /// Closing events owed to opening events already written.
    pending: u64,
    counts: Vec<u64>,
    heap: Heap,
    rng: u64,
    funs: Vec<Mfa>,
    main: Mfa,
    req: Term,
}

fn mfa((m, f, a): (&str, &str, u32)) -> Mfa {
    let atom = |s: &str| Atom::new(s).unwrap_or(Atom::UNDEFINED);
    Mfa {
        module: atom(m),
        function: atom(f),
        arity: a,
    }
}

impl<'w> Sim<'w> {
    fn new(sched: u32, world: &'w World, quota: u64) -> Sim<'w> {
        Sim {
            sched,
            world,
            quota,
            count: 0,
            now: world.epoch,
            pending: 0,
            counts: vec![0; TraceTag::ALL.len()],
            heap: Heap::new(),
            rng: sched as u64 * 7919 + 1,
            funs: FUNCTIONS.iter().copied().map(mfa).collect(),
            main: mfa(MAIN),
            req: Term::atom(Atom::new("req").unwrap_or(Atom::UNDEFINED)),
        }
    }

    fn rand(&mut self, n: u64) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng % n
    }

    /// Writes an event if the quota leaves room for it and for `reserve`
    /// closing events, which are then owed.
    fn open(&mut self, tag: TraceTag, pid: u64, payload: Payload<'_>, reserve: u64) -> bool {
        if self.count + self.pending + 1 + reserve > self.quota {
            return false;
        }
        self.pending += reserve;
        self.put(tag, pid, payload);
        true
    }

    /// Writes an event owed to an earlier [`Sim::open`].
    fn close(&mut self, tag: TraceTag, pid: u64, payload: Payload<'_>) {
        self.pending -= 1;
        self.put(tag, pid, payload);
    }

    fn put(&mut self, tag: TraceTag, pid: u64, payload: Payload<'_>) {
        let (sched, now) = (self.sched, self.now);
        fire(&self.world.tracer, tag, Tracee::pid(pid), || {
            TraceEvent::new(tag, Tracee::pid(pid), now, sched, payload)
        });
        // The modelled cost of the event itself, with some jitter.
        let cost = match tag {
            TraceTag::Spawned => 2000,
            TraceTag::Send | TraceTag::Receive => 300,
            _ => 100,
        };
        self.now += cost + self.rand(cost / 2);
        self.count += 1;
        self.counts[tag as usize] += 1;
    }

    /// The pid of this scheduler's `local`-th process.
    fn pid(&self, local: u64) -> u64 {
        local * self.world.schedulers as u64 + self.sched as u64
    }

    fn message(&mut self, from: u64, n: i64) -> Term {
        self.heap
            .tuple(&[self.req, Term::pid(from), Term::small_unchecked(n)])
    }

    /// Runs rounds in step with the other schedulers until every one has
    /// written its quota. A round is one process per scheduler: spawned
    /// (barrier: every scheduler's process is known), its slices (barrier:
    /// every send of the round is done), its last receives and its exit.
    /// So every message is received, whatever the OS does with the threads.
    fn run(mut self) -> Vec<u64> {
        let world = self.world;
        let mine = self.sched as usize - 1;
        let mut local = 1u64;
        let mut done = false;
        loop {
            if !done && self.count >= self.quota {
                done = true;
                world.done.fetch_add(1, Ordering::Relaxed);
            }
            // `done` only changes before this barrier, so all agree.
            world.step.wait();
            if world.done.load(Ordering::Relaxed) == world.schedulers as usize {
                break;
            }
            let pid = self.pid(local);
            let alive = !done && self.spawn(pid, local);
            if alive {
                world.running[mine].store(pid, Ordering::Relaxed);
            }
            world.step.wait();
            if alive {
                self.life(pid);
            } else {
                world.step.wait();
            }
            world.running[mine].store(0, Ordering::Relaxed);
            local += 1;
            if local % 64 == 0 {
                self.heap = Heap::new();
            }
        }
        self.counts
    }

    /// `spawned` and `link` for this scheduler's `local`-th process.
    fn spawn(&mut self, pid: u64, local: u64) -> bool {
        let parent = Term::pid(self.pid(local - 1));
        let spawned = Payload::Spawn {
            other: parent,
            mfa: self.main,
            args: &[],
        };
        if !self.open(TraceTag::Spawned, pid, spawned, 0) {
            return false;
        }
        self.open(TraceTag::Link, pid, Payload::Link { peer: parent }, 0);
        true
    }

    /// The time slices of `pid`, waiting once at the round's second barrier
    /// (in its last slice, before the last receives and the exit).
    fn life(&mut self, pid: u64) {
        let main = self.main;
        let slices = 1 + self.rand(4);
        let mut waited = false;
        for slice in 0..slices {
            let last = slice + 1 == slices;
            let running = Payload::Running { mfa: Some(main) };
            if !self.open(TraceTag::In, pid, running, if last { 2 } else { 1 }) {
                break;
            }
            self.slice(pid);
            if last {
                self.world.step.wait();
                waited = true;
                self.receive(pid);
                let normal = Term::atom(Atom::NORMAL);
                self.close(TraceTag::Exit, pid, Payload::Exit { reason: normal });
                self.close(TraceTag::OutExited, pid, Payload::Running { mfa: None });
            } else {
                self.close(TraceTag::Out, pid, Payload::Running { mfa: Some(main) });
            }
        }
        if !waited {
            self.world.step.wait();
        }
    }

    /// One time slice of `pid`: calls, sends, receives, maybe a collection.
    fn slice(&mut self, pid: u64) {
        self.receive(pid);
        for _ in 0..1 + self.rand(6) {
            self.calls(pid, 1);
            let mut target = self.rand(self.world.schedulers as u64) as usize;
            let to = match self.world.running[target].load(Ordering::Relaxed) {
                // Nothing runs there: send to self instead.
                0 => {
                    target = self.sched as usize - 1;
                    pid
                }
                to => to,
            };
            let n = self.count as i64;
            let message = self.message(pid, n);
            let send = Payload::Message {
                message,
                peer: Some(Term::pid(to)),
                match_spec_result: None,
            };
            let sent = self.now;
            if self.open(TraceTag::Send, pid, send, 0) {
                let mut mailbox = lock(&self.world.mailboxes[target]);
                mailbox.push_back(Msg {
                    from: pid,
                    to,
                    n,
                    sent,
                });
            }
            self.receive(pid);
        }
        if self.rand(3) == 0 {
            let sizes = GcInfo {
                heap_size: 233 + self.rand(1000),
                heap_block_size: 1598,
                old_heap_size: self.rand(500),
                ..GcInfo::default()
            };
            if self.open(TraceTag::GcMinorStart, pid, Payload::Gc(sizes), 1) {
                self.now += 2000 + self.rand(8000);
                let after = GcInfo {
                    heap_size: sizes.heap_size / 3,
                    ..sizes
                };
                self.close(TraceTag::GcMinorEnd, pid, Payload::Gc(after));
            }
        }
    }

    /// Delivers what was sent to `pid` (messages to processes that have
    /// exited are dropped, as the BEAM drops them).
    fn receive(&mut self, pid: u64) {
        let mine = self.sched as usize - 1;
        loop {
            let Some(msg) = lock(&self.world.mailboxes[mine]).pop_front() else {
                return;
            };
            if msg.to != pid {
                continue;
            }
            self.now = self.now.max(msg.sent + DELIVERY_NS);
            let message = self.message(msg.from, msg.n);
            let receive = Payload::Message {
                message,
                peer: Some(Term::pid(msg.from)),
                match_spec_result: None,
            };
            self.open(TraceTag::Receive, pid, receive, 0);
        }
    }

    fn calls(&mut self, pid: u64, depth: usize) {
        let i = self.rand(self.funs.len() as u64) as usize;
        let f = self.funs[i];
        let arg = Term::small_unchecked(depth as i64);
        let call = Payload::Call {
            mfa: f,
            args: CallArgs::Args(&[arg]),
            match_spec_result: None,
        };
        if !self.open(TraceTag::Call, pid, call, 1) {
            return;
        }
        let half = FUNCTION_NS[i] / 2;
        self.now += half + self.rand(half);
        if depth < MAX_CALL_DEPTH && self.rand(2) == 0 {
            for _ in 0..1 + self.rand(2) {
                self.calls(pid, depth + 1);
            }
        }
        self.now += half + self.rand(half);
        let value = Term::atom(Atom::OK);
        self.close(TraceTag::ReturnFrom, pid, Payload::Return { mfa: f, value });
    }
}

/// Locks a mailbox; a poisoned lock (a panicked generator thread) still
/// holds consistent data.
fn lock(m: &Mutex<VecDeque<Msg>>) -> std::sync::MutexGuard<'_, VecDeque<Msg>> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Callbacks, Cursor, Event, StringTable};

    struct Tally(Vec<Vec<u64>>, u64);
    impl Callbacks for Tally {
        fn event(&mut self, e: &Event<'_>, _: &StringTable) {
            self.0[e.ring][e.kind as usize] += 1;
        }
        fn lost(&mut self, _: usize, n: u64) {
            self.1 += n;
        }
    }

    #[test]
    fn writes_exactly_what_it_reports() {
        let path = std::env::temp_dir().join(format!("beamr-synth-{}.trace", std::process::id()));
        let w = write(&path, 5000).unwrap();
        assert_eq!(w.total(), 5000);
        assert_eq!(w.tag(TraceTag::Call), w.tag(TraceTag::ReturnFrom));
        assert_eq!(
            w.tag(TraceTag::In),
            w.tag(TraceTag::Out) + w.tag(TraceTag::OutExited)
        );
        assert_eq!(w.tag(TraceTag::Exit), w.tag(TraceTag::OutExited));
        assert!(w.tag(TraceTag::Receive) > 0 && w.tag(TraceTag::Receive) <= w.tag(TraceTag::Send));
        let mut t = Tally(vec![vec![0; TraceTag::ALL.len()]; 5], 0);
        Cursor::open(&path).unwrap().finish(&mut t);
        let _ = std::fs::remove_file(&path);
        assert_eq!((t.0, t.1), (w.counts, 0));
    }
}
