//! `erlang` time BIFs: the clocks (`monotonic_time`, `system_time`,
//! `time_offset`, `timestamp`), the calendar clocks (`localtime`,
//! `universaltime`, `date`, `time`) and the conversions between local time,
//! universal time and POSIX seconds.
//!
//! The clocks themselves, and the time units they are given in, are
//! [`crate::bif::common::clocks`]'s (`os` and trace timestamps read them
//! too).
//!
//! Local time is the C library's, as on the BEAM: `localtime_r` and
//! `mktime` read `TZ` and `/etc/localtime` from the runtime's own
//! environment, which `os:putenv/2` leaves alone (see `bif/os/bifs.rs`), so the
//! zone stays the one the runtime started in, as on the BEAM. The range
//! checks and the retry of a refused DST time are erts's `local_to_univ` /
//! `univ_to_local`.

use crate::bif::common::c_library;
use crate::bif::common::clocks::{
    in_unit_arg, monotonic_nanos, now_tuple, os_system_nanos, system_nanos, NATIVE, OFFSET,
};

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "monotonic_time", 0, monotonic_time0),
    ("erlang", "monotonic_time", 1, monotonic_time1),
    ("erlang", "system_time", 0, system_time0),
    ("erlang", "system_time", 1, system_time1),
    ("erlang", "time_offset", 0, time_offset0),
    ("erlang", "time_offset", 1, time_offset1),
    ("erlang", "timestamp", 0, timestamp),
    ("erts_internal", "time_unit", 0, native_time_unit),
    ("erts_internal", "perf_counter_unit", 0, native_time_unit),
    ("erlang", "localtime", 0, localtime),
    ("erlang", "universaltime", 0, universaltime),
    ("erlang", "date", 0, date),
    ("erlang", "time", 0, time),
    (
        "erlang",
        "localtime_to_universaltime",
        2,
        localtime_to_universaltime,
    ),
    (
        "erlang",
        "universaltime_to_localtime",
        1,
        universaltime_to_localtime,
    ),
    (
        "erlang",
        "universaltime_to_posixtime",
        1,
        universaltime_to_posixtime,
    ),
    (
        "erlang",
        "posixtime_to_universaltime",
        1,
        posixtime_to_universaltime,
    ),
];

/// Parts of a second in the `native` (and `perf_counter`) time unit:
/// nanoseconds, as [`monotonic_nanos`] counts (what erlang.erl's
/// convert_time_unit/3 asks `erts_internal` for).
fn native_time_unit(_rt: &Runtime, _: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(Term::small_unchecked(NATIVE))
}

fn monotonic_time0(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(p.heap.int(monotonic_nanos()))
}

fn monotonic_time1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    in_unit_arg(p, a[0], monotonic_nanos())
}

fn system_time0(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(p.heap.int(system_nanos()))
}

fn system_time1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    in_unit_arg(p, a[0], system_nanos())
}

fn time_offset0(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(p.heap.int(*OFFSET))
}

fn time_offset1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    in_unit_arg(p, a[0], *OFFSET)
}

/// `timestamp()`: Erlang system time as `{MegaSecs, Secs, MicroSecs}`.
fn timestamp(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(now_tuple(p, system_nanos()))
}

// ---- calendar time ----

/// A date and time of day: `{{Y, Mo, D}, {H, Mi, S}}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct DateTime {
    year: i64,
    month: i64,
    day: i64,
    hour: i64,
    minute: i64,
    second: i64,
}

/// Days in each month of a common year (index 1 is January).
const MDAYS: [i64; 13] = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

fn is_leap_year(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

impl DateTime {
    /// The term's parts, if it is `{{Y, Mo, D}, {H, Mi, S}}` of small
    /// integers (any values: the range is checked by [`DateTime::valid`]).
    fn from_term(t: Term) -> Option<DateTime> {
        let &[date, time] = t.as_tuple()? else {
            return None;
        };
        let (&[y, mo, d], &[h, mi, s]) = (date.as_tuple()?, time.as_tuple()?) else {
            return None;
        };
        Some(DateTime {
            year: y.as_small()?,
            month: mo.as_small()?,
            day: d.as_small()?,
            hour: h.as_small()?,
            minute: mi.as_small()?,
            second: s.as_small()?,
        })
    }

    /// The datetime argument `t`, valid from year `min_year` on, or badarg.
    fn arg(t: Term, min_year: i64) -> Result<DateTime, Exception> {
        DateTime::from_term(t)
            .filter(|dt| dt.valid(min_year))
            .ok_or_else(Exception::badarg)
    }

    fn to_term(self, p: &mut Process) -> Term {
        let (date, time) = (self.date_term(p), self.time_term(p));
        p.heap.tuple(&[date, time])
    }

    /// `{Y, Mo, D}`.
    fn date_term(self, p: &mut Process) -> Term {
        let small = Term::small_unchecked;
        p.heap
            .tuple(&[small(self.year), small(self.month), small(self.day)])
    }

    /// `{H, Mi, S}`.
    fn time_term(self, p: &mut Process) -> Term {
        let small = Term::small_unchecked;
        p.heap
            .tuple(&[small(self.hour), small(self.minute), small(self.second)])
    }

    /// A real date and time from year `min_year` on (erts's range check).
    fn valid(&self, min_year: i64) -> bool {
        let in_range = |lo: i64, x: i64, hi: i64| lo <= x && x <= hi;
        in_range(min_year, self.year, i64::from(i32::MAX) - 1)
            && in_range(1, self.month, 12)
            && in_range(
                1,
                self.day,
                MDAYS[self.month as usize] + i64::from(self.month == 2 && is_leap_year(self.year)),
            )
            && in_range(0, self.hour, 23)
            && in_range(0, self.minute, 59)
            && in_range(0, self.second, 59)
    }

    /// Seconds since 1970-01-01 00:00:00 of this date and time read as UTC.
    fn to_posix(self) -> i64 {
        days_from_civil(self.year, self.month, self.day) * 86_400
            + self.hour * 3600
            + self.minute * 60
            + self.second
    }

    /// The UTC date and time `secs` seconds after the epoch.
    fn from_posix(secs: i64) -> DateTime {
        let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
        let (year, month, day) = civil_from_days(days);
        DateTime {
            year,
            month,
            day,
            hour: rem / 3600,
            minute: rem % 3600 / 60,
            second: rem % 60,
        }
    }

    fn from_tm(tm: &libc::tm) -> DateTime {
        DateTime {
            year: i64::from(tm.tm_year) + 1900,
            month: i64::from(tm.tm_mon) + 1,
            day: i64::from(tm.tm_mday),
            hour: i64::from(tm.tm_hour),
            minute: i64::from(tm.tm_min),
            second: i64::from(tm.tm_sec),
        }
    }
}

/// Days from 1970-01-01 to the proleptic Gregorian date (Howard Hinnant's
/// `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The proleptic Gregorian date `days` after 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// The local date and time at `secs` seconds after the epoch, by the C
/// library's `localtime_r`.
fn local_from_posix(secs: i64) -> Option<DateTime> {
    let clock = libc::time_t::try_from(secs).ok()?;
    c_library::localtime(clock).map(|tm| DateTime::from_tm(&tm))
}

/// True when the local zone's rule keeps summer time (the C library's
/// `daylight`): its DST flag is set on the first of January or of July
/// (wherever the summer lies) of a year far enough ahead that only the
/// zone's current rule applies, whatever its history.
fn zone_has_summer_time() -> bool {
    [1, 7].iter().any(|&month| {
        let instant = DateTime {
            year: 2100,
            month,
            day: 1,
            hour: 12,
            minute: 0,
            second: 0,
        };
        libc::time_t::try_from(instant.to_posix())
            .ok()
            .and_then(c_library::localtime)
            .is_some_and(|tm| tm.tm_isdst > 0)
    })
}

/// `mktime` of the local date and time `dt` with DST flag `isdst` (1, 0 or
/// -1 to let the library decide), as erts's `erl_mktime`: a -1 result is
/// checked by asking for the second before (-2 means -1 was right).
fn mktime(dt: DateTime, isdst: i32) -> Option<i64> {
    let call = |second_shift: i64| {
        let mut tm = c_library::zeroed_tm();
        tm.tm_year = (dt.year - 1900) as i32;
        tm.tm_mon = (dt.month - 1) as i32;
        tm.tm_mday = dt.day as i32;
        tm.tm_hour = dt.hour as i32;
        tm.tm_min = dt.minute as i32;
        tm.tm_sec = (dt.second + second_shift) as i32;
        tm.tm_isdst = isdst;
        c_library::mktime(&mut tm)
    };
    match call(0) {
        -1 => (call(-1) == -2).then_some(-1),
        clock => Some(clock),
    }
}

/// The local date and time now as C's `ctime` writes it (`Tue Nov 24
/// 19:00:33 2026`), as a crash dump's second line has it.
pub(crate) fn ctime_now() -> String {
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let t = local_now();
    let days = days_from_civil(t.year, t.month, t.day);
    format!(
        "{} {} {:2} {:02}:{:02}:{:02} {}",
        DAYS[days.rem_euclid(7) as usize],
        MONTHS[(t.month - 1).clamp(0, 11) as usize],
        t.day,
        t.hour,
        t.minute,
        t.second,
        t.year
    )
}

/// The local date and time now (universal time if the C library cannot
/// tell).
fn local_now() -> DateTime {
    let now = os_system_nanos().div_euclid(NATIVE);
    local_from_posix(now).unwrap_or_else(|| DateTime::from_posix(now))
}

fn localtime(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(local_now().to_term(p))
}

fn universaltime(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(DateTime::from_posix(os_system_nanos().div_euclid(NATIVE)).to_term(p))
}

fn date(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(local_now().date_term(p))
}

fn time(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(local_now().time_term(p))
}

/// The earliest year erts converts between local and universal time.
const BASE_YEAR: i64 = 1902;

/// `localtime_to_universaltime(Localtime, IsDst)`.
fn localtime_to_universaltime(
    _rt: &Runtime,
    p: &mut Process,
    a: &[Term],
) -> Result<Term, Exception> {
    let isdst = match a[1].as_atom().map(Atom::name) {
        Some("true") => 1,
        Some("false") => 0,
        Some("undefined") => -1,
        _ => return Err(Exception::badarg()),
    };
    let dt = DateTime::arg(a[0], BASE_YEAR)?;
    let isdst = if isdst == 1 && crate::code::otp_release() >= 29 && !zone_has_summer_time() {
        // OTP 29 (on its C library, glibc 2.43) takes a DST flag in a zone
        // whose rule has no summer time as standard time; earlier
        // releases' mktime shifts the time by an hour.
        0
    } else {
        isdst
    };
    // A zone without DST may refuse a DST time: erts then converts it as
    // standard time.
    let clock = match mktime(dt, isdst) {
        Some(clock) => clock,
        None if isdst != 0 => mktime(dt, 0).ok_or_else(Exception::badarg)?,
        None => return Err(Exception::badarg()),
    };
    Ok(DateTime::from_posix(clock).to_term(p))
}

/// `universaltime_to_localtime(Universaltime)`.
fn universaltime_to_localtime(
    _rt: &Runtime,
    p: &mut Process,
    a: &[Term],
) -> Result<Term, Exception> {
    let dt = DateTime::arg(a[0], BASE_YEAR)?;
    let local = local_from_posix(dt.to_posix()).ok_or_else(Exception::badarg)?;
    Ok(local.to_term(p))
}

/// `universaltime_to_posixtime(Universaltime)`: from year 1600 on.
fn universaltime_to_posixtime(
    _rt: &Runtime,
    p: &mut Process,
    a: &[Term],
) -> Result<Term, Exception> {
    let dt = DateTime::arg(a[0], 1600)?;
    Ok(p.heap.int(dt.to_posix()))
}

/// `posixtime_to_universaltime(Seconds)`: any integer that fits a word.
fn posixtime_to_universaltime(
    _rt: &Runtime,
    p: &mut Process,
    a: &[Term],
) -> Result<Term, Exception> {
    let secs = a[0]
        .as_integer()
        .and_then(|i| i64::try_from(i.to_bigint()).ok())
        .ok_or_else(Exception::badarg)?;
    Ok(DateTime::from_posix(secs).to_term(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_round_trips() {
        for days in [-719_468 - 400 * 146_097, -1, 0, 1, 19_737, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days, "{y}-{m}-{d}");
        }
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(days_from_civil(2024, 2, 29), 19_782);
    }

    #[test]
    fn posix_of_a_fixed_datetime() {
        let dt = DateTime {
            year: 2024,
            month: 1,
            day: 15,
            hour: 12,
            minute: 0,
            second: 0,
        };
        assert_eq!(dt.to_posix(), 1_705_320_000);
        assert_eq!(DateTime::from_posix(1_705_320_000), dt);
    }
}
