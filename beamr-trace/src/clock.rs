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
//!
//! # Scaling
//!
//! A reading is `(raw - origin) * per_tick >> SHIFT`, where `raw` is
//! quanta's raw reading (counter ticks, or nanoseconds for the OS clock)
//! and `per_tick` is quanta's own scale taken once, as the nanoseconds of
//! `2^SHIFT` raw units. One multiply by a constant shift, where quanta's
//! `delta_as_nanos` matches on its clock kind and shifts by a variable
//! amount on every reading: about half the instructions. The result is
//! quanta's scale to within one part in `2^SHIFT / per_tick` (about
//! `10^-12` for a 3 GHz counter), exact for the OS clock (`per_tick` is
//! then `2^SHIFT`), and non-decreasing in `raw`, so still monotonic.

use std::sync::LazyLock;

/// Raw units whose nanoseconds [`Scale::per_tick`] holds: `2^SHIFT`.
const SHIFT: u32 = 40;

/// The clock, its reading at the origin, and its scale.
struct Scale {
    clock: quanta::Clock,
    /// quanta's raw reading at the origin.
    origin: u64,
    /// Nanoseconds of `2^SHIFT` raw units (see the module documentation).
    per_tick: u64,
}

static CLOCK: LazyLock<Scale> = LazyLock::new(|| {
    let clock = quanta::Clock::new();
    let per_tick = clock.delta_as_nanos(0, 1 << SHIFT);
    let origin = clock.raw();
    Scale {
        clock,
        origin,
        per_tick,
    }
});

/// Monotonic time in nanoseconds since this process's clock origin.
#[inline]
pub fn now_ns() -> u64 {
    let c = &*CLOCK;
    let ticks = c.clock.raw().saturating_sub(c.origin);
    ((u128::from(ticks) * u128::from(c.per_tick)) >> SHIFT) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings_never_go_back_and_follow_the_os_clock() {
        // The OS clock's interval encloses ours, so a pause between two
        // readings (a loaded machine) can only widen the OS's.
        let os0 = std::time::Instant::now();
        let t0 = now_ns();
        let mut last = t0;
        for _ in 0..10_000 {
            let t = now_ns();
            assert!(t >= last, "{t} after {last}");
            last = t;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
        let ours = now_ns() - t0;
        let os = os0.elapsed().as_nanos() as u64;
        // 20 ms or more, and not more than the OS clock saw, give or take
        // the two clocks' difference in rate (far below 1%), which grows
        // with the interval: a loaded machine can stretch it well past the
        // 20 ms slept.
        assert!(ours >= 19_000_000, "{ours} ns");
        assert!(
            ours <= os + os / 100 + 1_000_000,
            "{ours} ns against {os} ns"
        );
    }

    #[test]
    fn the_scale_is_quantas() {
        let c = &*CLOCK;
        for delta in [1u64 << 20, 1 << 32, 3 << 40, 1 << 50] {
            let quanta = c.clock.delta_as_nanos(0, delta);
            let ours = ((u128::from(delta) * u128::from(c.per_tick)) >> SHIFT) as u64;
            // Within one nanosecond per 2^SHIFT units, and two of rounding.
            assert!(
                quanta.abs_diff(ours) <= 2 + (delta >> SHIFT),
                "{delta} units: quanta {quanta} ns, ours {ours} ns"
            );
        }
    }
}
