//! The trace clock: monotonic nanoseconds since a fixed instant taken once
//! per OS process. The runtime stamps every event with it, and backends
//! that stamp their own records (the ring buffer's file header) read the
//! same clock, so all timestamps of one process are comparable. It reads the
//! OS monotonic clock (through the vDSO on Linux, not a system call).

use std::sync::LazyLock;
use std::time::Instant;

static ORIGIN: LazyLock<Instant> = LazyLock::new(Instant::now);

/// Monotonic time in nanoseconds since this process's clock origin.
#[inline]
pub fn now_ns() -> u64 {
    ORIGIN.elapsed().as_nanos() as u64
}
