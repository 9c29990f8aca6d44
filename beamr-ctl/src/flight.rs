//! The flight recorder (`beamr run --flight`, `BEAMR_FLIGHT=1`): the ring
//! buffer left on with a small, fixed set of events, process lifecycle
//! (`procs`), sends and receives, scheduling (`running`) and garbage
//! collection, recorded all the time, the oldest overwritten, as the JVM's
//! JFR and Go's `runtime/trace.FlightRecorder` do. A dump copies the rings
//! to a file every `beamr trace` command reads.
//!
//! 1. [`start`] creates the ring file (`PID.flight` in the private control
//!    directory, removed when the runtime ends) and a trace session of its
//!    own, held by no process, so that neither the program's tracing nor a
//!    client's touches it, and sets its flags on every process to come.
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
use std::sync::{Arc, OnceLock, Weak};
use std::time::Duration;

use beamr_core::atom::Atom;
use beamr_ringbuf::{Options, Recorder, RingTracer};
use beamr_sched::runtime::Runtime;
use beamr_sched::trace::{Session, SessionTracer, TraceChange};
use beamr_trace::{TraceFlags, Tracer};

use crate::{agent, socket_dir};

/// The environment variable that turns the recorder on as `--flight` does
/// (anything but empty, `0` or `false`).
pub const ENV: &str = "BEAMR_FLIGHT";

/// Words per ring (512 KiB).
pub const RING_WORDS: usize = 1 << 16;

/// The events recorded.
pub fn flags() -> TraceFlags {
    TraceFlags::PROCS
        | TraceFlags::SEND
        | TraceFlags::RECEIVE
        | TraceFlags::RUNNING
        | TraceFlags::GARBAGE_COLLECTION
}

/// True when [`ENV`] asks for the recorder.
pub fn asked_by_env() -> bool {
    std::env::var(ENV).is_ok_and(|v| !matches!(v.as_str(), "" | "0" | "false"))
}

/// A running flight recorder.
pub struct Flight {
    ring: Arc<RingTracer>,
    /// Kept so that the session lives as long as the recorder.
    _session: Arc<Session>,
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
    let tracer: Arc<dyn Tracer> = ring.clone();
    let name = Atom::new("beamr_flight").map_err(|e| e.to_string())?;
    let session = Session::create_unheld(
        name,
        Some(SessionTracer::Module(tracer.clone())),
        rt.new_ref_ids(),
    );
    rt.trace.change_new_processes(&TraceChange {
        session: session.clone(),
        set: true,
        flags: flags(),
        tracer,
    });
    let flight = Arc::new(Flight {
        ring,
        _session: session,
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
    Ok(flight)
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
