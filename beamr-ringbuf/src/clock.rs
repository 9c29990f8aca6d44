//! A monotonic nanosecond clock for events that do not come with their own
//! timestamp.
//!
//! Nanoseconds since a fixed instant taken once per process; readings from
//! every thread of one process are comparable. It reads the OS monotonic
//! clock (through the vDSO on Linux, not a system call).

use std::sync::LazyLock;
use std::time::Instant;

static ORIGIN: LazyLock<Instant> = LazyLock::new(Instant::now);

/// Monotonic time in nanoseconds since this process's clock origin.
#[inline]
pub fn now_ns() -> u64 {
    ORIGIN.elapsed().as_nanos() as u64
}
