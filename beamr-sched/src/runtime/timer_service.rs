//! [`TimerService`]: one thread that fires timers at their deadlines.
//!
//! Timers sit in a binary heap ordered by deadline; cancelling marks a timer
//! dead rather than searching the heap. (A hierarchical timer wheel, as the
//! BEAM uses, is the planned replacement when timer-heavy workloads measure
//! the heap's log-n cost.)

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use beamr_core::hash::word::WordMap;
use beamr_core::term::Term;

use crate::process::Payload;

/// What a timer does when it fires.
pub enum TimerAction {
    /// Ends a `receive ... after` wait of `pid`.
    ReceiveTimeout {
        /// The waiting process.
        pid: Term,
        /// The timer generation it was started with.
        generation: u64,
    },
    /// Sends a message (`send_after`, `start_timer`) to a pid or registered name.
    Send {
        /// Pid or atom.
        to: Term,
        /// The message.
        message: Payload,
    },
}

// SAFETY: a payload's heap is owned and only moved between threads whole.
unsafe impl Send for TimerAction {}

struct Entry {
    deadline: Instant,
    id: u64,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        (self.deadline, self.id) == (other.deadline, other.id)
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.deadline, self.id).cmp(&(other.deadline, other.id))
    }
}

#[derive(Default)]
struct State {
    heap: BinaryHeap<Reverse<Entry>>,
    actions: WordMap<u64, (Instant, TimerAction)>,
    next_id: u64,
    shutdown: bool,
}

/// Timers of one runtime.
#[derive(Default)]
pub struct TimerService {
    state: Mutex<State>,
    wake: Condvar,
}

impl TimerService {
    /// Starts a timer whose action `make` builds from the timer's id;
    /// returns the id (for [`TimerService::cancel`]).
    pub fn start(&self, after: Duration, make: impl FnOnce(u64) -> TimerAction) -> u64 {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.next_id += 1;
        let id = s.next_id;
        let action = make(id);
        let deadline = Instant::now() + after;
        // The timer thread sleeps until the earliest deadline in the heap
        // (or for good while there is none): only a timer due before that
        // needs it woken. A `gen_server:call` starts a 5-second timer per
        // call, each later than the last: waking the thread for each cost
        // a futex call on both sides and a context switch per call.
        let earliest = s
            .heap
            .peek()
            .is_none_or(|Reverse(first)| deadline < first.deadline);
        s.heap.push(Reverse(Entry { deadline, id }));
        s.actions.insert(id, (deadline, action));
        if earliest {
            self.wake.notify_one();
        }
        id
    }

    /// Cancels a timer; returns the time that was left, or `None` if it had
    /// fired or never existed.
    pub fn cancel(&self, id: u64) -> Option<Duration> {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.actions
            .remove(&id)
            .map(|(deadline, _)| deadline.saturating_duration_since(Instant::now()))
    }

    /// Time left on a timer.
    pub fn remaining(&self, id: u64) -> Option<Duration> {
        let s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.actions
            .get(&id)
            .map(|(deadline, _)| deadline.saturating_duration_since(Instant::now()))
    }

    /// Runs the timer loop on the calling thread until [`TimerService::shutdown`],
    /// handing each due action to `fire`.
    pub fn run(&self, mut fire: impl FnMut(TimerAction)) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if s.shutdown {
                return;
            }
            let now = Instant::now();
            match s.heap.peek() {
                Some(Reverse(e)) if e.deadline <= now => {
                    let id = e.id;
                    s.heap.pop();
                    if let Some((_, action)) = s.actions.remove(&id) {
                        drop(s);
                        fire(action);
                        s = self.state.lock().unwrap_or_else(|e| e.into_inner());
                    }
                }
                Some(Reverse(e)) => {
                    let wait = e.deadline - now;
                    s = self
                        .wake
                        .wait_timeout(s, wait)
                        .unwrap_or_else(|e| e.into_inner())
                        .0;
                }
                None => s = self.wake.wait(s).unwrap_or_else(|e| e.into_inner()),
            }
        }
    }

    /// Stops the timer loop.
    pub fn shutdown(&self) {
        self.state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .shutdown = true;
        self.wake.notify_all();
    }
}
