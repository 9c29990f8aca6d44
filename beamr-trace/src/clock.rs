//! The trace clock: monotonic nanoseconds since a fixed instant taken once
//! per OS process. The runtime stamps every event with it, and backends
//! that stamp their own records (the ring buffer's file header) read the
//! same clock, so all timestamps of one process are comparable;
//! `erlang:monotonic_time/0` reads it too.
//!
//! It reads the CPU's time-stamp counter through `quanta`, scaled to
//! nanoseconds of the OS monotonic clock (calibrated once, about 0.6 ms,
//! at the first reading), and falls back to the OS clock where the counter
//! is not invariant. A reading costs a counter read and a multiply, where
//! `Instant::now` is a vDSO call of about 45 ns: with every call of a
//! function traced, the clock was a third of an event's cost.

use std::sync::LazyLock;

/// The clock and its reading at the origin.
static CLOCK: LazyLock<(quanta::Clock, u64)> = LazyLock::new(|| {
    let clock = quanta::Clock::new();
    let origin = clock.raw();
    (clock, origin)
});

/// Monotonic time in nanoseconds since this process's clock origin.
#[inline]
pub fn now_ns() -> u64 {
    let (clock, origin) = &*CLOCK;
    clock.delta_as_nanos(*origin, clock.raw())
}
