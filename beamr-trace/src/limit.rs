//! [`LimitedTracer`]: a backend behind limits, as `recon_trace` offers
//! them: at most so many events in all, at most so many a second. Events
//! past a limit are dropped before they are built, and counted. The
//! limits are a [`Layer`] ([`Limiter`]), so that every other method of
//! the tracer, its one-call paths included, passes through.
//!
//! # Protocol
//!
//! 1. [`Tracer::enabled`] (and `fire_call`/`fire_return`) asks the inner
//!    tracer first; only an event it wants counts against the limits.
//! 2. The total limit takes a ticket (`admitted`, one atomic add): past the
//!    limit, the event is dropped.
//! 3. The rate limit counts events in the current one-second window
//!    (`window_start_ns`, `window_count`). The first event of a later
//!    second starts a new window (a compare-and-swap: one thread wins, the
//!    others count in the window it made). Past the rate, the event is
//!    dropped. A window boundary raced by several threads may let a few
//!    events more than the rate through; it never lets the count grow
//!    without bound.
//! 4. A dropped event adds one to `dropped` and answers
//!    [`Decision::Discard`]: nothing is built, the tracee goes on.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::clock::now_ns;
use crate::layer::{Layer, Layered};
use crate::tag::TraceTag;
use crate::tracee::Tracee;
use crate::tracer::Tracer;

/// Limits on the events a tracer takes.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// At most this many events in all (`None`: no limit).
    pub total: Option<u64>,
    /// At most this many events in any one-second window (`None`: no limit).
    pub per_second: Option<u64>,
}

impl Limits {
    /// True when neither limit is set.
    pub fn is_none(&self) -> bool {
        self.total.is_none() && self.per_second.is_none()
    }
}

const SECOND_NS: u64 = 1_000_000_000;

/// The layer that applies [`Limits`] and counts what it drops.
pub struct Limiter {
    limits: Limits,
    admitted: AtomicU64,
    window_start_ns: AtomicU64,
    window_count: AtomicU64,
    dropped: AtomicU64,
}

/// A tracer behind [`Limits`]; counts what it drops.
pub type LimitedTracer<T> = Layered<Limiter, T>;

/// `inner` behind `limits`.
pub fn limited<T: Tracer>(inner: T, limits: Limits) -> LimitedTracer<T> {
    Layered::new(Limiter::new(limits), inner)
}

impl Limiter {
    /// A limiter for `limits`, with nothing admitted yet.
    pub fn new(limits: Limits) -> Limiter {
        Limiter {
            limits,
            admitted: AtomicU64::new(0),
            window_start_ns: AtomicU64::new(now_ns()),
            window_count: AtomicU64::new(0),
            dropped: AtomicU64::new(0),
        }
    }

    /// How many events the limits dropped.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    /// How many events passed the limits.
    pub fn admitted(&self) -> u64 {
        let taken = self.admitted.load(Ordering::Relaxed);
        let total = self.limits.total.unwrap_or(u64::MAX);
        taken.min(total)
    }

    /// Steps 2 and 3 at `now`: true if one more event may pass.
    fn admit_at(&self, now: u64) -> bool {
        if let Some(rate) = self.limits.per_second {
            let start = self.window_start_ns.load(Ordering::Acquire);
            if now.saturating_sub(start) >= SECOND_NS
                && self
                    .window_start_ns
                    .compare_exchange(start, now, Ordering::AcqRel, Ordering::Acquire)
                    .is_ok()
            {
                self.window_count.store(0, Ordering::Release);
            }
            if self.window_count.fetch_add(1, Ordering::AcqRel) >= rate {
                return false;
            }
        }
        if let Some(total) = self.limits.total {
            if self.admitted.fetch_add(1, Ordering::AcqRel) >= total {
                return false;
            }
        }
        true
    }
}

impl Layer for Limiter {
    const GATES: bool = true;

    /// Steps 2 to 4 of the protocol.
    fn admit(&self, _tag: TraceTag, _tracee: Tracee) -> bool {
        let admitted = self.admit_at(now_ns());
        if !admitted {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
        admitted
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{CallArgs, Mfa, TraceEvent};
    use crate::recording::RecordingTracer;
    use crate::tracer::Decision;
    use crate::{fire, Payload};
    use beamr_core::atom::Atom;
    use beamr_core::term::Term;

    fn send(t: &impl Tracer) -> Decision {
        let me = Tracee::pid(1);
        fire(t, TraceTag::Send, me, || {
            let payload = Payload::Message {
                message: Term::NIL,
                peer: Some(Term::pid(2)),
                match_spec_result: None,
            };
            TraceEvent::new(TraceTag::Send, me, now_ns(), 0, payload)
        })
    }

    #[test]
    fn the_total_limit_drops_and_counts_the_rest() {
        let limits = Limits {
            total: Some(3),
            per_second: None,
        };
        let t = limited(RecordingTracer::new(), limits);
        let decisions: Vec<Decision> = (0..5).map(|_| send(&t)).collect();
        assert_eq!(decisions[..3], [Decision::Trace; 3]);
        assert_eq!(decisions[3..], [Decision::Discard; 2]);
        let l = t.layer();
        assert_eq!((t.inner().len(), l.dropped(), l.admitted()), (3, 2, 3));
    }

    #[test]
    fn the_rate_limit_allows_so_many_a_second() {
        let limits = Limits {
            total: None,
            per_second: Some(2),
        };
        let t = limited(RecordingTracer::new(), limits);
        for _ in 0..4 {
            send(&t);
        }
        assert_eq!((t.inner().len(), t.layer().dropped()), (2, 2));
        // A later second admits again.
        let later = now_ns() + 2 * SECOND_NS;
        let l = t.layer();
        assert!(l.admit_at(later) && l.admit_at(later) && !l.admit_at(later));
    }

    #[test]
    fn what_the_inner_tracer_refuses_is_not_counted() {
        let inner = RecordingTracer::with_filter(|_, _| Decision::Discard);
        let t = limited(
            inner,
            Limits {
                total: Some(1),
                per_second: None,
            },
        );
        assert_eq!(send(&t), Decision::Discard);
        assert_eq!((t.layer().dropped(), t.layer().admitted()), (0, 0));
        assert!(Limits::default().is_none());
    }

    #[test]
    fn calls_count_against_the_limits_on_the_one_call_path() {
        let t = limited(
            RecordingTracer::new(),
            Limits {
                total: Some(2),
                per_second: None,
            },
        );
        let mfa = Mfa {
            module: Atom::OK,
            function: Atom::OK,
            arity: 0,
        };
        let me = Tracee::pid(1);
        let decisions: Vec<Decision> = (0..3)
            .map(|_| t.fire_call(me, 0, &mfa, CallArgs::Args(&[]), None))
            .collect();
        assert_eq!(
            decisions,
            [Decision::Trace, Decision::Trace, Decision::Discard]
        );
        assert_eq!(t.fire_return(me, 0, &mfa, Term::NIL), Decision::Discard);
        assert_eq!((t.inner().len(), t.layer().dropped()), (2, 2));
    }
}
