//! [`Clock`]: the runtime's monotonic nanoseconds as wall-clock times.
//!
//! Trace events carry the runtime's monotonic clock, which has no epoch.
//! The clock is anchored once: a reading of the runtime's clock is paired
//! with `SystemTime::now()`, and every event's time is the anchor's wall
//! time plus (or minus) the monotonic difference. The runtime anchors it at
//! start with [`OtelTracer::anchor_clock`](crate::OtelTracer::anchor_clock);
//! without that, the first event seen is the anchor.

use std::sync::OnceLock;
use std::time::{Duration, SystemTime};

/// Monotonic nanoseconds to wall-clock time.
#[derive(Debug, Default)]
pub(crate) struct Clock {
    anchor: OnceLock<(u64, SystemTime)>,
}

impl Clock {
    /// Pairs the runtime's reading `now_ns` with the wall clock now, unless
    /// already anchored.
    pub(crate) fn anchor(&self, now_ns: u64) {
        let _ = self.anchor.set((now_ns, SystemTime::now()));
    }

    /// The wall-clock time of monotonic reading `ns`.
    pub(crate) fn system_time(&self, ns: u64) -> SystemTime {
        let &(base_ns, base) = self.anchor.get_or_init(|| (ns, SystemTime::now()));
        if ns >= base_ns {
            base + Duration::from_nanos(ns - base_ns)
        } else {
            base - Duration::from_nanos(base_ns - ns)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differences_are_kept() {
        let c = Clock::default();
        c.anchor(1_000);
        let a = c.system_time(1_000);
        assert_eq!(
            c.system_time(3_000).duration_since(a).unwrap(),
            Duration::from_nanos(2_000)
        );
        assert_eq!(
            a.duration_since(c.system_time(500)).unwrap(),
            Duration::from_nanos(500)
        );
        c.anchor(9_999_999);
        assert_eq!(c.system_time(1_000), a, "the first anchor stays");
    }
}
