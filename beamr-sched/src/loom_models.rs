//! Models of the scheduling protocols for loom, which runs each model
//! through every interleaving of its threads (within `LOOM_MAX_PREEMPTIONS`)
//! and the reorderings the memory model allows, on the real types built
//! from loom's atomics and locks ([`crate::sync`]). `cargo xtask loom`
//! runs them; they exist only in that build (`cfg(loom)`).
//!
//! What each model holds, in every execution:
//! - the state word and the inbox: a signal sent to a live process is taken
//!   in by it, a process is never queued twice nor run by two schedulers at
//!   once, and a signal sent to an exiting process is either seen by it or
//!   refused to the sender;
//! - the schedulers' sleep: work pushed while a scheduler goes to sleep
//!   wakes it (loom's waits never time out, so a lost wake-up is a
//!   deadlock loom reports), and a shutdown wakes every sleeper.

use std::sync::atomic::Ordering;
use std::time::Duration;

use loom::sync::atomic::{AtomicBool, AtomicUsize};
use loom::sync::{Arc, Mutex};
use loom::thread;

use crate::process::inbox::Inbox;
use crate::process::run_state::StateWord;
use crate::runtime::sleepers::Sleepers;

/// One process as the schedulers see it, with a run queue of its own and
/// a record of what it took in.
struct Model {
    state: StateWord,
    inbox: Inbox<u32>,
    /// How many times the process is in the run queue now.
    queued: Mutex<usize>,
    /// Schedulers running it now.
    running: AtomicUsize,
    seen: Mutex<Vec<u32>>,
}

impl Model {
    fn new() -> Model {
        Model {
            state: StateWord::new_queued(),
            inbox: Inbox::default(),
            queued: Mutex::new(1),
            running: AtomicUsize::new(0),
            seen: Mutex::new(Vec::new()),
        }
    }

    /// A sender: pushes the signal and enqueues the process when told to.
    fn send(&self, signal: u32) {
        if self.inbox.push(&self.state, signal) == Some(true) {
            let mut queued = self.queued.lock().unwrap();
            *queued += 1;
            assert_eq!(*queued, 1, "a process was queued twice");
        }
    }

    /// A scheduler: dequeues the process, if queued, and runs it as the
    /// worker does (take the signals in, wait unless one came meanwhile,
    /// or yield once when `yields`). False when it was not queued.
    fn schedule(&self, yields: bool) -> bool {
        {
            let mut queued = self.queued.lock().unwrap();
            if *queued == 0 {
                return false;
            }
            *queued -= 1;
        }
        assert!(self.state.start(), "a live process could not start");
        assert_eq!(
            self.running.fetch_add(1, Ordering::SeqCst),
            0,
            "a process ran on two schedulers at once"
        );
        let signals = self.inbox.take();
        self.seen.lock().unwrap().extend(signals);
        if yields {
            self.running.fetch_sub(1, Ordering::SeqCst);
            self.state.requeue();
            *self.queued.lock().unwrap() += 1;
            return true;
        }
        loop {
            if self.state.try_wait() {
                break;
            }
            let signals = self.inbox.take();
            self.seen.lock().unwrap().extend(signals);
        }
        self.running.fetch_sub(1, Ordering::SeqCst);
        true
    }
}

#[test]
fn a_signal_to_a_live_process_is_taken_in_and_it_never_runs_twice() {
    loom::model(|| {
        let model = Arc::new(Model::new());
        let senders: Vec<_> = [1, 2]
            .into_iter()
            .map(|signal| {
                let model = model.clone();
                thread::spawn(move || model.send(signal))
            })
            .collect();
        let scheduler = {
            let model = model.clone();
            thread::spawn(move || {
                let mut yields = true;
                while model.schedule(yields) {
                    yields = false;
                }
            })
        };
        // A second scheduler, running whatever is queued once the others
        // are done.
        for sender in senders {
            sender.join().unwrap();
        }
        scheduler.join().unwrap();
        while model.schedule(false) {}
        let mut seen = model.seen.lock().unwrap().clone();
        seen.sort_unstable();
        assert_eq!(seen, [1, 2], "a signal was lost");
        assert!(
            model.state.is_waiting(),
            "state word {}",
            model.state.bits()
        );
    });
}

#[test]
fn a_signal_to_an_exiting_process_is_seen_by_it_or_refused() {
    loom::model(|| {
        let model = Arc::new(Model::new());
        assert!(model.state.start());
        let sender = {
            let model = model.clone();
            thread::spawn(move || model.inbox.push(&model.state, 7))
        };
        let mut seen = model.inbox.take();
        seen.extend(model.inbox.close(&model.state));
        let sent = sender.join().unwrap();
        assert_ne!(sent, Some(true), "a running process was queued");
        assert_eq!(
            sent.is_some(),
            seen == [7],
            "sent {sent:?}, seen by the exiting process: {seen:?}"
        );
        assert!(model.state.is_exited(), "state word {}", model.state.bits());
        assert!(!model.state.start());
    });
}

/// Work in a queue as crossbeam's injector shows it to a scheduler
/// looking for work: a release push, and a plain acquire look before the
/// take.
struct Work(AtomicUsize);

impl Work {
    fn push(&self) {
        self.0.fetch_add(1, Ordering::Release);
    }

    fn take(&self) -> Option<()> {
        (self.0.load(Ordering::Acquire) > 0).then(|| {
            self.0.fetch_sub(1, Ordering::Relaxed);
        })
    }
}

#[test]
fn work_pushed_while_a_scheduler_goes_to_sleep_wakes_it() {
    loom::model(|| {
        let sleepers = Arc::new(Sleepers::default());
        let work = Arc::new(Work(AtomicUsize::new(0)));
        let pusher = {
            let (sleepers, work) = (sleepers.clone(), work.clone());
            thread::spawn(move || {
                work.push();
                sleepers.wake_one();
            })
        };
        // The scheduler: look, then sleep (loom's wait never times out).
        loop {
            if work.take().is_some() {
                break;
            }
            let found = sleepers.sleep(|| work.take(), || false, Duration::from_secs(1), |_| {});
            if found.is_some() {
                break;
            }
        }
        pusher.join().unwrap();
    });
}

#[test]
fn a_shutdown_wakes_every_sleeping_scheduler() {
    loom::model(|| {
        let sleepers = Arc::new(Sleepers::default());
        let stopped = Arc::new(AtomicBool::new(false));
        let schedulers: Vec<_> = (0..2)
            .map(|_| {
                let (sleepers, stopped) = (sleepers.clone(), stopped.clone());
                thread::spawn(move || {
                    while !stopped.load(Ordering::Acquire) {
                        sleepers.sleep(
                            || None::<()>,
                            || stopped.load(Ordering::Acquire),
                            Duration::from_secs(1),
                            |_| {},
                        );
                    }
                })
            })
            .collect();
        stopped.store(true, Ordering::Release);
        sleepers.wake_all();
        for scheduler in schedulers {
            scheduler.join().unwrap();
        }
    });
}
