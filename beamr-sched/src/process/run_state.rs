//! The scheduling state of a process: one atomic word, so that a process is
//! never run by two threads at once and a wake-up is never lost.
//!
//! # Protocol
//!
//! 1. A waker (a sender, a timer) calls [`StateWord::notify`]: if the process
//!    is running or queued, it sets `NOTIFIED`; if it is waiting, it moves it
//!    to `QUEUED` and the waker enqueues it (exactly one waker wins the CAS).
//! 2. A scheduler that dequeues a process calls [`StateWord::start`]
//!    (`QUEUED` to `RUNNING`, clearing `NOTIFIED`: the process will look at
//!    its inbox anyway).
//! 3. A running process that wants to wait calls [`StateWord::try_wait`]: it
//!    goes to waiting only if `NOTIFIED` is clear; otherwise it clears the
//!    bit and runs on, looking at the signals that arrived meanwhile.
//! 4. A process that used up its slice calls [`StateWord::requeue`].
//!
//! All transitions are `AcqRel` compare-exchanges: a waker's push into the
//! inbox happens-before its notify, which happens-before the scheduler's
//! `start`, so the process sees the signal.
//!
//! Every write is a read-modify-write (the unconditional ones are swaps),
//! never a plain store: loom, which checks this protocol
//! (`loom_models.rs`), lets a plain store fall between the read and
//! the write of another thread's compare-exchange (tokio-rs/loom#254), so
//! with plain stores its model reports executions no processor can
//! produce. A swap costs the same here: these writes happen once a slice.

use std::sync::atomic::Ordering;

use crate::sync::AtomicU32;

/// Running on a scheduler.
pub const RUNNING: u32 = 1;
/// In a run queue.
pub const QUEUED: u32 = 2;
/// A signal arrived while running or queued.
pub const NOTIFIED: u32 = 4;
/// Dead: never scheduled again.
pub const EXITED: u32 = 8;

/// The state word of one process.
#[derive(Debug)]
pub struct StateWord(AtomicU32);

impl StateWord {
    /// A new process's state: queued (it is about to be enqueued).
    pub fn new_queued() -> StateWord {
        StateWord(AtomicU32::new(QUEUED))
    }

    /// Signals a wake-up. Returns true if the caller must enqueue the process.
    #[must_use]
    pub fn notify(&self) -> bool {
        let mut s = self.0.load(Ordering::Acquire);
        loop {
            if s & EXITED != 0 {
                return false;
            }
            let (new, enqueue) = if s & (RUNNING | QUEUED) != 0 {
                (s | NOTIFIED, false)
            } else {
                (QUEUED, true)
            };
            if new == s {
                return false;
            }
            match self
                .0
                .compare_exchange_weak(s, new, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => return enqueue,
                Err(actual) => s = actual,
            }
        }
    }

    /// Takes a dequeued process for running. False if it is dead.
    #[must_use]
    pub fn start(&self) -> bool {
        self.0
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |s| {
                (s & EXITED == 0).then_some(RUNNING)
            })
            .is_ok()
    }

    /// Tries to park a running process. False if a signal arrived meanwhile
    /// (the bit is cleared and the process should look again).
    #[must_use]
    pub fn try_wait(&self) -> bool {
        match self
            .0
            .compare_exchange(RUNNING, 0, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => true,
            Err(_) => {
                self.0.swap(RUNNING, Ordering::AcqRel);
                false
            }
        }
    }

    /// Puts a running process back in the queue (the caller enqueues it).
    pub fn requeue(&self) {
        self.0.swap(QUEUED, Ordering::AcqRel);
    }

    /// Marks the process dead.
    pub fn exit(&self) {
        self.0.swap(EXITED, Ordering::AcqRel);
    }

    /// The word's bits (for the models' messages).
    #[cfg(loom)]
    pub(crate) fn bits(&self) -> u32 {
        self.0.load(Ordering::Acquire)
    }

    /// True once the process is dead.
    pub fn is_exited(&self) -> bool {
        self.0.load(Ordering::Acquire) & EXITED != 0
    }

    /// True while the process is waiting (neither running nor queued).
    pub fn is_waiting(&self) -> bool {
        self.0.load(Ordering::Acquire) & (RUNNING | QUEUED | EXITED) == 0
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn exactly_one_waker_enqueues_a_waiting_process() {
        let s = StateWord::new_queued();
        assert!(s.start());
        assert!(s.try_wait());
        assert!(s.notify(), "first waker enqueues");
        assert!(!s.notify(), "second waker finds it queued");
        assert!(s.start());
        assert!(!s.notify(), "running: just flagged");
        assert!(!s.try_wait(), "a signal arrived: keep running");
        assert!(s.try_wait());
        s.exit();
        assert!(!s.notify() && !s.start());
    }

    #[test]
    fn concurrent_wakers_never_double_enqueue() {
        use std::sync::Arc;
        for _ in 0..200 {
            let s = Arc::new(StateWord::new_queued());
            assert!(s.start());
            assert!(s.try_wait());
            let enqueued: usize = (0..4)
                .map(|_| {
                    let s = s.clone();
                    std::thread::spawn(move || s.notify() as usize)
                })
                .collect::<Vec<_>>()
                .into_iter()
                .map(|h| h.join().unwrap())
                .sum();
            assert_eq!(enqueued, 1);
        }
    }
}
