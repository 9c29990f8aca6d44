//! The runtime's clocks, as the time BIFs (`erlang`'s and `os`'s) and
//! trace timestamps read them, with the terms they are given in, and the
//! unique integers that order strict monotonic timestamps.
//!
//! The clocks follow the BEAM in its default "no time warp" mode:
//!
//! ```text
//! monotonic_time()  the trace clock (beamr_trace::clock: nanoseconds since
//!                   the first clock read in the OS process), never going
//!                   back; trace timestamps are on the same clock
//! time_offset()     OS system time minus monotonic time, read once at that
//!                   first read and final from then on
//! system_time()     monotonic_time() + time_offset()
//! ```
//!
//! The native time unit is the nanosecond (`erts_internal:time_unit/0`).

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::LazyLock;
use std::time::{SystemTime, UNIX_EPOCH};

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use beamr_trace::clock::now_ns;

use crate::process::{Exception, Process};

/// Nanoseconds in a second: the native time unit.
pub(crate) const NATIVE: i64 = 1_000_000_000;

/// The time offset (OS system time minus monotonic time, nanoseconds),
/// fixed at its first read.
pub(crate) static OFFSET: LazyLock<i64> = LazyLock::new(|| os_system_nanos() - monotonic_nanos());

/// Monotonic time in nanoseconds: the trace clock's reading.
pub(crate) fn monotonic_nanos() -> i64 {
    now_ns() as i64
}

/// Erlang system time in nanoseconds since the epoch.
pub(crate) fn system_nanos() -> i64 {
    system_nanos_at(monotonic_nanos())
}

/// Erlang system time, in nanoseconds since the epoch, of the moment the
/// monotonic clock read `monotonic`.
pub(crate) fn system_nanos_at(monotonic: i64) -> i64 {
    monotonic + *OFFSET
}

/// The OS's system time in nanoseconds since the epoch (negative before it).
pub(crate) fn os_system_nanos() -> i64 {
    match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(d) => d.as_nanos() as i64,
        Err(e) => -(e.duration().as_nanos() as i64),
    }
}

/// Parts of a second in time unit `t` (`native`, `perf_counter`, `second`,
/// ..., the deprecated plural names, or a positive integer).
fn time_unit(t: Term) -> Option<i64> {
    match t.as_atom().map(Atom::name) {
        Some("second" | "seconds") => Some(1),
        Some("millisecond" | "milli_seconds") => Some(1_000),
        Some("microsecond" | "micro_seconds") => Some(1_000_000),
        Some("nanosecond" | "nano_seconds" | "native" | "perf_counter") => Some(NATIVE),
        Some(_) => None,
        None => t.as_small().filter(|&n| n > 0),
    }
}

/// `nanos` in the unit of `per_second` parts of a second, rounded down.
fn in_unit(p: &mut Process, nanos: i64, per_second: i64) -> Term {
    let t = (i128::from(nanos) * i128::from(per_second)).div_euclid(i128::from(NATIVE));
    match i64::try_from(t) {
        Ok(t) => p.heap.int(t),
        Err(_) => p.heap.bigint(&num_bigint::BigInt::from(t)),
    }
}

/// A clock's `nanos` in time unit argument `unit` (the `/1` clock BIFs);
/// badarg for a unit that is not one.
pub(crate) fn in_unit_arg(p: &mut Process, unit: Term, nanos: i64) -> Result<Term, Exception> {
    let per_second = time_unit(unit).ok_or_else(Exception::badarg)?;
    Ok(in_unit(p, nanos, per_second))
}

/// `{MegaSecs, Secs, MicroSecs}` of `nanos` since the epoch.
pub(crate) fn now_tuple(p: &mut Process, nanos: i64) -> Term {
    let micros = nanos.div_euclid(1_000);
    let small = Term::small_unchecked;
    p.heap.tuple(&[
        small(micros / 1_000_000_000_000),
        small(micros / 1_000_000 % 1_000_000),
        small(micros % 1_000_000),
    ])
}

static UNIQUE: AtomicI64 = AtomicI64::new(1);

/// The next of the runtime's unique integers (positive and strictly
/// increasing): `unique_integer/0,1` and strict monotonic trace timestamps.
pub(crate) fn next_unique() -> i64 {
    UNIQUE.fetch_add(1, Ordering::Relaxed)
}
