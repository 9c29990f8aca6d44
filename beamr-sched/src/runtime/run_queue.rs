//! [`RunQueues`]: where runnable processes wait for a scheduler.
//!
//! Each scheduler thread owns a `crossbeam_deque::Worker` (kept in a
//! thread-local); processes made runnable on that thread go there. Other
//! threads (timers, the main thread) push to the global injector. A
//! scheduler looking for work takes from its own queue, then the injector,
//! then steals from the others; with nothing found it sleeps on a
//! condition variable, which a push from outside the schedulers signals,
//! and a scheduler whose queue stays long (see [`super::wake_other`]).
//!
//! Fairness: a scheduler whose own queue never empties (CPU-bound
//! processes yielding to each other) would never look at the injector,
//! where a process woken by a timer, a port or another thread waits, so
//! a `receive ... after 10` would fire only when a scheduler fell idle
//! (hundreds of milliseconds late under load). So when the injector holds
//! work, every other look takes from it first: such a process waits at
//! most about one time slice of each process ahead of it in turn, and the
//! local queue still gets at least every other turn.

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crossbeam_deque::{Injector, Steal, Stealer, Worker};

use super::sleepers::Sleepers;
use super::wake_other::WakeOther;
use crate::process::ProcessHandle;

type Task = Arc<ProcessHandle>;

/// Reductions per time slice, as in the BEAM: how long a scheduler runs a
/// process before it queues it again (and what [`super::wake_other`]
/// measures waiting in).
pub const SLICE_REDUCTIONS: u32 = 4000;

thread_local! {
    static LOCAL: RefCell<Option<Worker<Task>>> = const { RefCell::new(None) };
    /// Whether this scheduler's last task came from the injector (see the
    /// module's fairness rule).
    static LAST_FROM_INJECTOR: Cell<bool> = const { Cell::new(false) };
    static WAKE_OTHER: RefCell<WakeOther> = const { RefCell::new(WakeOther::new()) };
    /// This scheduler's idle time counter (see [`RunQueues::idle_ns`]).
    static IDLE: RefCell<Option<Arc<AtomicU64>>> = const { RefCell::new(None) };
}

/// The run queues of one runtime.
pub struct RunQueues {
    injector: Injector<Task>,
    stealers: Mutex<Vec<Stealer<Task>>>,
    /// Per scheduler, in the order they registered: nanoseconds spent
    /// asleep for want of work.
    idle: Mutex<Vec<Arc<AtomicU64>>>,
    sleepers: Sleepers,
    shutdown: AtomicBool,
}

impl Default for RunQueues {
    fn default() -> RunQueues {
        RunQueues {
            injector: Injector::new(),
            stealers: Mutex::new(Vec::new()),
            idle: Mutex::new(Vec::new()),
            sleepers: Sleepers::default(),
            shutdown: AtomicBool::new(false),
        }
    }
}

impl RunQueues {
    /// Registers the calling thread as scheduler `id` with a local queue
    /// (the id is the thread's `trace::scheduler_id`).
    pub(crate) fn register_worker(&self, id: usize) {
        crate::trace::set_scheduler_id(id as u32);
        let worker = Worker::new_fifo();
        self.stealers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(worker.stealer());
        LOCAL.with(|l| *l.borrow_mut() = Some(worker));
        let idle = Arc::new(AtomicU64::new(0));
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(idle.clone());
        IDLE.with(|i| *i.borrow_mut() = Some(idle));
    }

    /// Per scheduler, in the order they registered, the nanoseconds it has
    /// slept for want of work since it started: what a scheduler
    /// utilisation over an interval is read from (`1 - idle / interval`).
    /// Counted only around the sleep, so a busy scheduler pays nothing.
    pub fn idle_ns(&self) -> Vec<u64> {
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .collect()
    }

    /// Tasks waiting in each scheduler's own queue, in the order the
    /// schedulers registered.
    pub fn lengths(&self) -> Vec<u64> {
        self.stealers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|s| s.len() as u64)
            .collect()
    }

    /// Makes a process runnable.
    ///
    /// A scheduler thread queues it locally and wakes no one: a process
    /// woken by a message is usually run next by the sender's scheduler,
    /// as soon as the sender waits or yields, and waking a sleeper for it
    /// would bounce every message of a request/reply pair, and every trace
    /// message to a tracer process, between threads through futex
    /// syscalls, which costs far more than the work. A queue that stays
    /// long wakes a sleeper after the slices that find it so
    /// ([`after_slice`](Self::after_slice)); an idle scheduler also finds
    /// such a task when it next looks (it sleeps at most 50 ms). Other
    /// threads push to the injector and always wake a sleeper.
    pub fn push(&self, task: Task) {
        let leftover = LOCAL.with(|l| match l.borrow().as_ref() {
            Some(worker) => {
                worker.push(task);
                None
            }
            None => Some(task),
        });
        if let Some(task) = leftover {
            self.injector.push(task);
            self.sleepers.wake_one();
        }
    }

    /// After the calling scheduler ran a slice of `reductions` (and queued
    /// its process again if it yielded): wakes a sleeping scheduler once
    /// the work in its own queue has waited long enough ([`WakeOther`]).
    pub fn after_slice(&self, reductions: u64) {
        let queued = LOCAL.with(|l| l.borrow().as_ref().map_or(0, |w| w.len()));
        if WAKE_OTHER.with(|w| w.borrow_mut().after_slice(queued, reductions)) {
            self.sleepers.wake_one();
        }
    }

    fn find(&self) -> Option<Task> {
        let injector_first =
            !self.injector.is_empty() && !LAST_FROM_INJECTOR.with(|last| last.get());
        if !injector_first {
            if let Some(t) = LOCAL.with(|l| l.borrow().as_ref().and_then(|w| w.pop())) {
                LAST_FROM_INJECTOR.with(|last| last.set(false));
                return Some(t);
            }
        }
        if let Some(t) = self.steal_from_injector() {
            LAST_FROM_INJECTOR.with(|last| last.set(true));
            return Some(t);
        }
        LAST_FROM_INJECTOR.with(|last| last.set(false));
        if injector_first {
            // Emptied by another scheduler meanwhile.
            if let Some(t) = LOCAL.with(|l| l.borrow().as_ref().and_then(|w| w.pop())) {
                return Some(t);
            }
        }
        let stealers = self
            .stealers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        for s in &stealers {
            loop {
                match s.steal() {
                    Steal::Success(t) => return Some(t),
                    Steal::Retry => continue,
                    Steal::Empty => break,
                }
            }
        }
        None
    }

    /// A task from the injector (a batch of them moved to the local
    /// queue too, on a scheduler thread).
    fn steal_from_injector(&self) -> Option<Task> {
        loop {
            let stolen = LOCAL.with(|l| match l.borrow().as_ref() {
                Some(w) => self.injector.steal_batch_and_pop(w),
                None => self.injector.steal(),
            });
            match stolen {
                Steal::Success(t) => return Some(t),
                Steal::Retry => continue,
                Steal::Empty => return None,
            }
        }
    }

    /// The next runnable process, sleeping while there is none. `None` once
    /// the runtime shuts down.
    pub fn next(&self) -> Option<Task> {
        loop {
            if self.shutdown.load(Ordering::Acquire) {
                return None;
            }
            if let Some(t) = self.find() {
                return Some(t);
            }
            // Looks again once counted in (see `super::sleepers`): a push
            // that saw no sleeper is visible to this look.
            let found = self.sleepers.sleep(
                || self.find(),
                || self.shutdown.load(Ordering::Acquire),
                Duration::from_millis(50),
                |slept| {
                    let ns = u64::try_from(slept.as_nanos()).unwrap_or(u64::MAX);
                    IDLE.with(|i| {
                        if let Some(idle) = i.borrow().as_ref() {
                            idle.fetch_add(ns, Ordering::Relaxed);
                        }
                    });
                },
            );
            if found.is_some() {
                return found;
            }
        }
    }

    /// Stops every scheduler at its next look for work.
    pub fn shutdown(&self) {
        self.shutdown.store(true, Ordering::Release);
        self.sleepers.wake_all();
    }

    /// True once shut down.
    pub fn is_shut_down(&self) -> bool {
        self.shutdown.load(Ordering::Acquire)
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::process::Process;
    use beamr_core::term::Term;

    /// A runnable process that is never run: only its identity matters.
    fn task(n: i64) -> Task {
        Arc::new(ProcessHandle::new(Box::new(Process::new(
            Term::small(n).unwrap(),
        ))))
    }

    /// Pushes `task` from a thread that is not a scheduler, as a timer or
    /// a port does: into the injector.
    fn push_from_outside(queues: &Arc<RunQueues>, task: &Task) {
        let (q, t) = (queues.clone(), task.clone());
        std::thread::spawn(move || q.push(t)).join().unwrap();
    }

    /// The fairness rule, on one scheduler whose own queue never empties
    /// (eight CPU-bound processes, each queued again after its turn): a
    /// process woken from outside is run within two looks, and while
    /// outside wake-ups keep coming, the local queue still gets every
    /// other turn and each of its processes runs, in order.
    #[test]
    fn a_busy_scheduler_takes_outside_work_every_other_turn() {
        let queues = Arc::new(RunQueues::default());
        let q = queues.clone();
        std::thread::spawn(move || {
            q.register_worker(1);
            let own: Vec<Task> = (0..8).map(task).collect();
            for t in &own {
                q.push(t.clone());
            }
            let turn = |q: &RunQueues| {
                let t = q.find().expect("a queue is never empty here");
                if own.iter().any(|o| Arc::ptr_eq(o, &t)) {
                    q.push(t.clone());
                }
                t
            };
            for _ in 0..20 {
                turn(&q);
            }
            let woken = task(100);
            push_from_outside(&q, &woken);
            let looks = (1..=3).find(|_| Arc::ptr_eq(&turn(&q), &woken));
            assert!(
                matches!(looks, Some(1 | 2)),
                "the outside process waited {looks:?} looks"
            );
            // A stream of outside wake-ups: one new before every look. (Those
            // that pile up in the injector move to the local queue in
            // batches, and then take local turns too.)
            let mut local_turns = 0;
            let mut own_turns = Vec::new();
            for n in 0..40 {
                push_from_outside(&q, &task(200 + n));
                let t = turn(&q);
                if !LAST_FROM_INJECTOR.with(Cell::get) {
                    local_turns += 1;
                }
                if let Some(i) = own.iter().position(|o| Arc::ptr_eq(o, &t)) {
                    own_turns.push(i);
                }
            }
            assert!(
                local_turns >= 20,
                "the local queue got {local_turns} of 40 turns"
            );
            let in_order = own_turns.windows(2).all(|w| w[1] == (w[0] + 1) % own.len());
            assert!(in_order, "own processes out of turn: {own_turns:?}");
            assert!(
                own_turns.len() >= own.len(),
                "not every own process ran in 40 turns: {own_turns:?}"
            );
        })
        .join()
        .unwrap();
    }

    #[test]
    fn a_scheduler_with_no_work_counts_its_sleep_as_idle() {
        let queues = Arc::new(RunQueues::default());
        let q = queues.clone();
        let scheduler = std::thread::spawn(move || {
            q.register_worker(1);
            q.next().is_none()
        });
        // It sleeps 50 ms at a time until the shutdown.
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        while queues.idle_ns().first().copied().unwrap_or(0) == 0 {
            assert!(std::time::Instant::now() < deadline, "no idle time counted");
            std::thread::sleep(Duration::from_millis(10));
        }
        queues.shutdown();
        assert!(scheduler.join().unwrap());
        assert_eq!(queues.idle_ns().len(), 1);
    }
}
