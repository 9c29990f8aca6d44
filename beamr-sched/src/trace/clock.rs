//! The probes' clock and scheduler identity.

use std::cell::Cell;

pub use beamr_trace::clock::now_ns;

thread_local! {
    static SCHEDULER_ID: Cell<u32> = const { Cell::new(0) };
}

/// The scheduler this thread is, numbered from 1 as in the BEAM; 0 on a
/// thread that is not a scheduler.
#[inline]
pub fn scheduler_id() -> u32 {
    SCHEDULER_ID.with(Cell::get)
}

/// Marks this thread as scheduler `id` (called once by each scheduler thread).
pub fn set_scheduler_id(id: u32) {
    SCHEDULER_ID.with(|c| c.set(id));
}
