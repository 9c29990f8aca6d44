//! [`Sleepers`]: how a scheduler with nothing to run sleeps, and how a
//! thread that makes work runnable wakes it, without a lost wake-up.
//!
//! # Protocol
//!
//! A scheduler about to sleep counts itself in, then looks for work once
//! more under the lock, and waits only if it finds none. A thread that
//! made work visible (pushed it to a queue) then reads the count, and
//! notifies under the lock when it is not zero. Both sides put a `SeqCst`
//! fence between their write and their read (the scheduler between its
//! count and its look, the waker between its push and its read of the
//! count). Without the fences the two writes may each stay unseen by the
//! other thread's read (store buffering: the waker reads no sleeper while
//! the sleeper finds no work) and the wake-up is lost; `cargo xtask loom`
//! finds that interleaving in the model without them. With them, either
//! the waker sees the sleeper (and its notify, under the lock, comes after
//! the sleeper's look or wakes its wait) or the sleeper's look sees the
//! work. The wait also times out (see [`Sleepers::sleep`]), so a wake-up
//! lost to a bug would cost latency, not liveness.
//!
//! A shutdown is a flag set before a `notify_all` under the same lock, and
//! read under it before waiting.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crate::sync::{fence, AtomicUsize, Condvar, Mutex};

/// The sleeping schedulers of one runtime.
pub struct Sleepers {
    count: AtomicUsize,
    lock: Mutex<()>,
    wake: Condvar,
}

impl Default for Sleepers {
    fn default() -> Sleepers {
        Sleepers {
            count: AtomicUsize::new(0),
            lock: Mutex::new(()),
            wake: Condvar::new(),
        }
    }
}

impl Sleepers {
    /// Wakes one sleeping scheduler, if any sleeps. Call it after making
    /// the work visible.
    pub fn wake_one(&self) {
        fence(Ordering::SeqCst);
        if self.count.load(Ordering::Relaxed) > 0 {
            let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
            self.wake.notify_one();
        }
    }

    /// Wakes every sleeping scheduler. Call it after setting what
    /// `stopped` (of [`sleep`](Self::sleep)) reads.
    pub fn wake_all(&self) {
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.wake.notify_all();
    }

    /// Sleeps until woken or `timeout` passes, unless `find` (called
    /// under the lock, after this scheduler counted itself in) finds work,
    /// which it returns, or `stopped` holds. `slept` is told how long a
    /// wait that happened took.
    pub fn sleep<T>(
        &self,
        find: impl FnOnce() -> Option<T>,
        stopped: impl FnOnce() -> bool,
        timeout: Duration,
        slept: impl FnOnce(Duration),
    ) -> Option<T> {
        self.count.fetch_add(1, Ordering::Relaxed);
        fence(Ordering::SeqCst);
        let guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        let found = find();
        if found.is_none() && !stopped() {
            let started = Instant::now();
            let _ = self
                .wake
                .wait_timeout(guard, timeout)
                .unwrap_or_else(|e| e.into_inner());
            slept(started.elapsed());
        }
        self.count.fetch_sub(1, Ordering::Relaxed);
        found
    }
}
