//! Output given to ports' writer threads and not yet written: what the
//! runtime waits for before it exits, so that `port_command` followed by
//! the end of the program loses nothing, as on the BEAM (whose fd and
//! spawn drivers write at once, or flush their queues before halting).

use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// How long the runtime's exit waits for writer threads: long enough for
/// any write that can complete, bounded for one that never will.
pub const EXIT_WAIT: Duration = Duration::from_secs(5);

/// The runtime's count: every port's writer thread reports to it.
static ALL: Pending = Pending::new();

/// Bytes queued to writer threads and not yet written or dropped, with
/// a way to wait for none.
struct Pending {
    bytes: Mutex<usize>,
    /// Signalled whenever `bytes` falls to zero.
    drained: Condvar,
}

impl Pending {
    const fn new() -> Pending {
        Pending {
            bytes: Mutex::new(0),
            drained: Condvar::new(),
        }
    }

    fn queued(&self, bytes: usize) {
        *self.bytes.lock().unwrap_or_else(|e| e.into_inner()) += bytes;
    }

    fn done(&self, bytes: usize) {
        let mut pending = self.bytes.lock().unwrap_or_else(|e| e.into_inner());
        *pending = pending.saturating_sub(bytes);
        if *pending == 0 {
            self.drained.notify_all();
        }
    }

    fn flush(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut pending = self.bytes.lock().unwrap_or_else(|e| e.into_inner());
        while *pending > 0 {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            pending = self
                .drained
                .wait_timeout(pending, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        true
    }
}

/// Records `bytes` handed to a writer thread's channel.
pub fn queued(bytes: usize) {
    ALL.queued(bytes);
}

/// Records `bytes` a writer thread wrote, or dropped (its write failed, or
/// its channel refused them).
pub fn done(bytes: usize) {
    ALL.done(bytes);
}

/// Waits until every queued byte is written or dropped, or `timeout` has
/// passed (a writer blocked on a pipe nobody reads must not hang the
/// exit); true when nothing is left.
pub fn flush(timeout: Duration) -> bool {
    ALL.flush(timeout)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn flush_waits_for_a_writer_and_gives_up_on_a_stuck_one() {
        let pending = Arc::new(Pending::new());
        pending.queued(5);
        let writer = {
            let pending = pending.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(50));
                pending.done(5);
            })
        };
        assert!(pending.flush(Duration::from_secs(10)));
        writer.join().unwrap();
        pending.queued(1);
        assert!(!pending.flush(Duration::from_millis(20)));
        pending.done(1);
        assert!(pending.flush(Duration::ZERO));
    }
}
