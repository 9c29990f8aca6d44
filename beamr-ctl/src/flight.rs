//! The flight recorder (`beamr run --flight`, `BEAMR_FLIGHT=1`): the ring
//! buffer left on, recording all the time, the oldest overwritten, as the
//! JVM's JFR and Go's `runtime/trace.FlightRecorder` do. A dump copies the
//! rings to a file every `beamr trace` command reads.
//!
//! 1. [`start`] creates the ring file (`PID.flight` in the private control
//!    directory, removed when the runtime ends) and installs its tracer as
//!    the runtime's flight recorder (`beamr_sched::trace::flight_hook`),
//!    which no trace session, the program's or a client's, touches. It
//!    records, as events, every process's `spawned` (parent and initial
//!    call), every `exit` with a reason other than `normal`, and every
//!    garbage collection; and, as one `counters.scheduler` event per
//!    scheduler every [`INTERVAL`] (written by a thread of its own, and
//!    by each dump for the interval so far), the messages that entered
//!    mailboxes, the time slices run, the exits with reason `normal`,
//!    reductions, idle time and the run queue's length. One event per
//!    message, slice or normal exit would cost more than the runtime's own
//!    work for it (`cargo xtask bench --flight`).
//! 2. A dump ([`Flight::dump`]) pauses the rings (events of that moment are
//!    dropped, never torn), copies the file, and resumes; the copy is
//!    renamed into place once whole. The copy says it
//!    was paused (`beamr trace stats`): it is a snapshot.
//! 3. The runtime dumps itself to [`Flight::auto_dump_path`] on `SIGUSR2`,
//!    on a halt with a non-zero status, when `beamr run`'s program
//!    crashes ([`dump_on_error`]), and when a supervisor gives up (reaches
//!    its maximum restart intensity): once the runtime has booted, a
//!    thread keeps an agent process (`beamr_ctl_agent:flight_watch/0`)
//!    waiting, whose logger handler sees the supervisor report written
//!    just before a supervisor gives up; the process then ends, naming the
//!    supervisor, the thread dumps and starts another. A supervisor that
//!    gives up in the moment between two watches is not seen.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Duration;

use beamr_core::term::Term;
use beamr_ringbuf::counters::{self, SchedulerCounters};
use beamr_ringbuf::{Category, Options, Recorder, RingTracer};
use beamr_sched::runtime::Runtime;
use beamr_sched::trace::flight_hook::{self, FlightSink};
use beamr_trace::{Mfa, TraceEvent, Tracee};

use crate::{agent, socket_dir};

/// The environment variable that turns the recorder on as `--flight` does
/// (anything but empty, `0` or `false`).
pub const ENV: &str = "BEAMR_FLIGHT";

/// Words per ring (512 KiB).
pub const RING_WORDS: usize = 1 << 16;

/// How often each scheduler's counters are written.
pub const INTERVAL: Duration = Duration::from_millis(100);

/// True when [`ENV`] asks for the recorder.
pub fn asked_by_env() -> bool {
    std::env::var(ENV).is_ok_and(|v| !matches!(v.as_str(), "" | "0" | "false"))
}

/// A running flight recorder.
pub struct Flight {
    ring: Arc<RingTracer>,
    /// The runtime whose counters are written.
    rt: Weak<Runtime>,
    /// The totals the last counters were written at (`None` before the
    /// first look).
    counted: Mutex<Option<Totals>>,
}

static FLIGHT: OnceLock<Arc<Flight>> = OnceLock::new();

/// The runtime's flight recorder, if it has one.
pub fn global() -> Option<&'static Arc<Flight>> {
    FLIGHT.get()
}

impl Flight {
    /// Copies the rings to `to` (through a file beside it, renamed once
    /// whole, so that `to` is never seen half written); the bytes written.
    pub fn dump(&self, to: &Path) -> Result<u64, String> {
        let mut partial = to.as_os_str().to_owned();
        partial.push(".partial");
        let partial = PathBuf::from(partial);
        // The counters of the interval so far go in too.
        self.write_counters();
        let recorder = self.ring.recorder();
        recorder.pause();
        let copied = std::fs::copy(recorder.path(), &partial);
        recorder.resume();
        let bytes = copied.map_err(|e| format!("cannot write {}: {e}", partial.display()))?;
        std::fs::rename(&partial, to).map_err(|e| {
            let _ = std::fs::remove_file(&partial);
            format!("cannot write {}: {e}", to.display())
        })?;
        Ok(bytes)
    }

    /// Where the runtime dumps by itself: `beamr-flight-PID.ring` in the
    /// current directory.
    pub fn auto_dump_path() -> PathBuf {
        PathBuf::from(format!("beamr-flight-{}.ring", std::process::id()))
    }

    /// Dumps to [`Flight::auto_dump_path`], saying so (or why not) on
    /// standard error, with `why` (`SIGUSR2`, `halt`).
    pub fn auto_dump(&self, why: &str) {
        let path = Flight::auto_dump_path();
        match self.dump(&path) {
            Ok(_) => eprintln!("beamr: {why}: flight recorder dumped to {}", path.display()),
            Err(e) => eprintln!("beamr: {why}: flight recorder not dumped: {e}"),
        }
    }
}

/// Starts recording every process `rt` spawns from now on, with `schedulers`
/// scheduler rings; call it before the runtime boots. Once only.
pub fn start(rt: &Arc<Runtime>, schedulers: usize) -> Result<Arc<Flight>, String> {
    if FLIGHT.get().is_some() {
        return Err("the flight recorder is running already".into());
    }
    let dir = socket_dir::dir();
    socket_dir::ensure_private(&dir)
        .map_err(|e| format!("flight recorder: {}: {e}", dir.display()))?;
    let path = dir.join(format!("{}.flight", std::process::id()));
    let options = Options::new(schedulers + 1)
        .path(&path)
        .ring_words(RING_WORDS)
        .preserve(false);
    let recorder = Recorder::create(options)
        .map_err(|e| format!("flight recorder: {}: {e}", path.display()))?;
    let ring = Arc::new(RingTracer::new(recorder));
    if !flight_hook::install(Arc::new(Rings(ring.clone()))) {
        return Err("the flight recorder is running already".into());
    }
    let flight = Arc::new(Flight {
        ring,
        rt: Arc::downgrade(rt),
        counted: Mutex::new(None),
    });
    if FLIGHT.set(flight.clone()).is_err() {
        return Err("the flight recorder is running already".into());
    }
    // A halt skips destructors: the file goes, and an error halt dumps
    // first.
    beamr_sched::runtime::at_halt::register(move |status| {
        if let Some(flight) = global() {
            if status != 0 {
                flight.auto_dump("halt");
            }
        }
        let _ = std::fs::remove_file(&path);
    });
    dump_on_sigusr2();
    dump_when_a_supervisor_gives_up(Arc::downgrade(rt));
    write_counters_every_interval(Arc::downgrade(&flight));
    Ok(flight)
}

/// The recorder's rings as the runtime's flight sink: lifecycle events
/// written as their words, collections as events.
struct Rings(Arc<RingTracer>);

impl FlightSink for Rings {
    fn spawned(&self, tracee: Tracee, scheduler_id: u32, parent: Term, mfa: &Mfa) {
        let _ = self.0.record_spawned(tracee, scheduler_id, parent, mfa);
    }

    fn exited(&self, tracee: Tracee, scheduler_id: u32, reason: Term) {
        let _ = self.0.record_exit(tracee, scheduler_id, reason);
    }

    fn event(&self, event: &TraceEvent<'_>) {
        self.0.record(event);
    }
}

impl Flight {
    /// Writes each scheduler's counters since the last were written (or,
    /// the first time, only takes the totals); false once the runtime is
    /// gone.
    fn write_counters(&self) -> bool {
        let Some(now) = Totals::read(&self.rt) else {
            return false;
        };
        let mut counted = self.counted.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(earlier) = counted.as_ref() {
            for counts in now.since(earlier) {
                self.ring
                    .record_other(Category::Counters, counters::SCHEDULER, &counts.encode());
            }
        }
        *counted = Some(now);
        true
    }
}

/// A thread that writes each scheduler's counters every [`INTERVAL`]
/// while the recorder and its runtime live (see the module's step 1).
fn write_counters_every_interval(flight: Weak<Flight>) {
    let spawned = std::thread::Builder::new()
        .name("beamr-flight-counters".into())
        .spawn(move || loop {
            match flight.upgrade() {
                Some(flight) if flight.write_counters() => {}
                _ => return,
            }
            std::thread::sleep(INTERVAL);
        });
    if spawned.is_err() {
        eprintln!("beamr: flight recorder: no thread to write counters; only dumps write them");
    }
}

/// The running totals the counters are differences of.
struct Totals {
    at: std::time::Instant,
    /// Scheduler 1 first.
    schedulers: Vec<beamr_sched::runtime::SchedulerSnapshot>,
    /// Slot 0 (threads that are not schedulers), then scheduler 1, ...
    hooked: Vec<flight_hook::Counted>,
}

impl Totals {
    /// The totals now; `None` once the runtime is gone.
    fn read(rt: &Weak<Runtime>) -> Option<Totals> {
        let rt = rt.upgrade()?;
        let schedulers = rt.scheduler_snapshots();
        let slots = (schedulers.len() + 1).min(flight_hook::SLOTS);
        Some(Totals {
            at: std::time::Instant::now(),
            schedulers,
            hooked: (0..slots).map(flight_hook::counts).collect(),
        })
    }

    /// Each slot's counts from `earlier` to these: every scheduler's, after
    /// those of slot 0 (threads that are not schedulers) when it has any.
    fn since(&self, earlier: &Totals) -> Vec<SchedulerCounters> {
        let interval_ns = self.at.duration_since(earlier.at).as_nanos() as u64;
        let hooked = |slot: usize| {
            let at = |totals: &Totals| totals.hooked.get(slot).copied().unwrap_or_default();
            at(self).since(&at(earlier))
        };
        let counters = |scheduler: usize, counted: flight_hook::Counted| SchedulerCounters {
            scheduler: scheduler as u64,
            interval_ns,
            slices: counted.slices,
            messages: counted.messages,
            normal_exits: counted.normal_exits,
            ..SchedulerCounters::default()
        };
        // Slot 0 counts only for threads that are not schedulers (or a
        // scheduler past the last slot): shown when it counted anything.
        let outside = Some(hooked(0))
            .filter(|c| !c.is_empty())
            .map(|c| counters(0, c));
        let schedulers = self.schedulers.iter().enumerate().map(|(i, now)| {
            let before = earlier.schedulers.get(i).cloned().unwrap_or_default();
            SchedulerCounters {
                reductions: now.reductions.saturating_sub(before.reductions),
                idle_ns: now.idle_ns.saturating_sub(before.idle_ns),
                run_queue: now.run_queue,
                ..counters(i + 1, hooked(i + 1))
            }
        });
        outside.into_iter().chain(schedulers).collect()
    }
}

/// A thread that dumps each time a supervisor gives up (see the module's
/// step 3). It holds the runtime only while it looks at it, and ends
/// when the runtime is gone or a watch ends without naming a supervisor
/// (killed at shutdown, or no logger to watch with).
fn dump_when_a_supervisor_gives_up(rt: Weak<Runtime>) {
    let spawned = std::thread::Builder::new()
        .name("beamr-flight-supervisors".into())
        .spawn(move || {
            while let Some(watch) = start_watch(&rt) {
                let reply = loop {
                    let Some(rt) = rt.upgrade() else { return };
                    if let Some(reply) = agent::wait(&rt, watch, Duration::from_secs(1)) {
                        break reply;
                    }
                };
                match reply {
                    Ok(name) => {
                        let name = agent::text_of(name.term()).unwrap_or_default();
                        if let Some(flight) = global() {
                            flight.auto_dump(&format!("supervisor {name} gave up"));
                        }
                    }
                    Err(e) if e.starts_with("no logger handler") => {
                        eprintln!(
                            "beamr: flight recorder: no dump when a supervisor gives up: {e}"
                        );
                        return;
                    }
                    Err(_) => return,
                }
            }
        });
    if spawned.is_err() {
        eprintln!(
            "beamr: flight recorder: no thread to watch supervisors; no dump when one gives up"
        );
    }
}

/// Starts a watch once the runtime has booted; its pid, or `None` when the
/// runtime is gone or no watch can start.
fn start_watch(rt: &Weak<Runtime>) -> Option<beamr_core::term::Term> {
    loop {
        let rt = rt.upgrade()?;
        if agent::runtime_ready(&rt) {
            return agent::start(&rt, "flight_watch", |_| Vec::new()).ok();
        }
        drop(rt);
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A thread that dumps on every `SIGUSR2`.
fn dump_on_sigusr2() {
    let Ok(mut signals) = signal_hook::iterator::Signals::new([signal_hook::consts::SIGUSR2])
    else {
        eprintln!("beamr: flight recorder: SIGUSR2 cannot be caught; no dump on it");
        return;
    };
    let spawned = std::thread::Builder::new()
        .name("beamr-flight-sigusr2".into())
        .spawn(move || {
            for _ in signals.forever() {
                if let Some(flight) = global() {
                    flight.auto_dump("SIGUSR2");
                }
            }
        });
    if spawned.is_err() {
        eprintln!("beamr: flight recorder: no thread for SIGUSR2; no dump on it");
    }
}

/// The program crashed (`beamr run`'s main process ended abnormally):
/// dumps, if there is a recorder.
pub fn dump_on_error() {
    if let Some(flight) = global() {
        flight.auto_dump("crash");
    }
}
