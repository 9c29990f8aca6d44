//! [`WakeOther`]: when a scheduler with work queued wakes a sleeping one.
//!
//! Waking a scheduler costs a futex system call on each side and moves the
//! woken process's data to another core: worth it for work that would
//! otherwise wait long, not for a process that the busy scheduler runs a
//! few microseconds later (the reader of a message just sent, a tracer
//! process taking its trace messages). So a scheduler does not wake
//! another when it queues a process. After each slice it adds to a
//! pressure figure the reductions that slice made queued work wait: the
//! slice's reductions times the processes queued behind the one it runs
//! next. The figure falls to zero whenever nothing waits behind the next
//! one, and a sleeper is woken when it passes [`LIMIT`]: ten full slices
//! of one process waiting, one slice of ten. This is the BEAM's "wake up
//! other" check in spirit: its schedulers, too, wake others only for work
//! that stays queued.

use super::SLICE_REDUCTIONS;

/// Pressure at which a sleeping scheduler is woken.
const LIMIT: u64 = 10 * SLICE_REDUCTIONS as u64;

/// One scheduler's pressure to wake another.
#[derive(Debug, Default)]
pub(super) struct WakeOther {
    pressure: u64,
}

impl WakeOther {
    /// No pressure.
    pub(super) const fn new() -> WakeOther {
        WakeOther { pressure: 0 }
    }

    /// After a slice of `reductions` that left `queued` processes in the
    /// scheduler's own queue (the slice's process among them if it
    /// yielded): true if a sleeper should be woken now.
    pub(super) fn after_slice(&mut self, queued: usize, reductions: u64) -> bool {
        let behind_next = queued.saturating_sub(1) as u64;
        if behind_next == 0 {
            self.pressure = 0;
            return false;
        }
        self.pressure += behind_next * reductions;
        if self.pressure >= LIMIT {
            self.pressure = 0;
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A full slice's reductions.
    const FULL: u64 = SLICE_REDUCTIONS as u64;

    /// Nine full slices with one process behind the next: no wake yet.
    fn nine_full_slices_of_one_waiting(w: &mut WakeOther) {
        assert!((0..9).all(|_| !w.after_slice(2, FULL)));
    }

    #[test]
    fn the_next_process_alone_is_no_pressure() {
        let mut w = WakeOther::new();
        // A message passed on and on: one process queued at a time.
        assert!((0..100_000).all(|_| !w.after_slice(1, FULL)));
        assert!(!w.after_slice(0, FULL));
    }

    #[test]
    fn one_process_waiting_wakes_after_ten_full_slices() {
        let mut w = WakeOther::new();
        nine_full_slices_of_one_waiting(&mut w);
        assert!(w.after_slice(2, FULL));
        // And the pressure starts again from nothing.
        assert!(!w.after_slice(2, FULL));
    }

    #[test]
    fn a_drained_queue_clears_the_pressure() {
        let mut w = WakeOther::new();
        nine_full_slices_of_one_waiting(&mut w);
        assert!(!w.after_slice(1, FULL));
        nine_full_slices_of_one_waiting(&mut w);
        assert!(w.after_slice(2, FULL));
    }

    #[test]
    fn a_long_queue_wakes_after_one_full_slice() {
        let mut w = WakeOther::new();
        assert!(w.after_slice(11, FULL));
    }

    #[test]
    fn short_slices_with_a_process_waiting_wake_now_and_then() {
        let mut w = WakeOther::new();
        let wakes = (0..100_000).filter(|_| w.after_slice(2, 10)).count();
        assert_eq!(wakes, 100_000 / 4000);
    }
}
