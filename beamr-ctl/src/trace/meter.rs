//! [`Meter`]: the layer around a client's tracer that applies its limits
//! and counts what it records, so that the server can end the session once
//! the limit is reached and tell the client how many events there were.

use std::sync::atomic::{AtomicU64, Ordering};

use beamr_trace::{Layer, Limiter, Limits, TraceTag, Tracee};

/// Limits, and a count of the events past them.
pub struct Meter {
    limiter: Limiter,
    recorded: AtomicU64,
}

impl Meter {
    /// A meter for `limits`, nothing recorded yet.
    pub fn new(limits: Limits) -> Meter {
        Meter {
            limiter: Limiter::new(limits),
            recorded: AtomicU64::new(0),
        }
    }

    /// Events that passed the limits.
    pub fn recorded(&self) -> u64 {
        self.recorded.load(Ordering::Relaxed)
    }

    /// Events the limits dropped.
    pub fn dropped(&self) -> u64 {
        self.limiter.dropped()
    }
}

impl Layer for Meter {
    const GATES: bool = true;

    fn admit(&self, tag: TraceTag, tracee: Tracee) -> bool {
        if !self.limiter.admit(tag, tracee) {
            return false;
        }
        self.recorded.fetch_add(1, Ordering::Relaxed);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_what_passes_and_what_the_limit_drops() {
        let meter = Meter::new(Limits {
            total: Some(2),
            per_second: None,
        });
        let passed: Vec<bool> = (0..5)
            .map(|_| meter.admit(TraceTag::Send, Tracee::pid(1)))
            .collect();
        assert_eq!(passed, [true, true, false, false, false]);
        assert_eq!((meter.recorded(), meter.dropped()), (2, 3));
    }
}
