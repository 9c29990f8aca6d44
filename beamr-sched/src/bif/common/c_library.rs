//! The C library functions BIFs call, each behind a safe function: where
//! the BEAM's answer is the C library's (time zones, `access(2)`, `erf`),
//! calling the same function is the way to agree to the last bit. This is
//! the one BIF file with `unsafe` (see UNSAFE.md).

use std::ffi::CStr;

/// An all-zero `struct tm`, to fill in.
pub(crate) fn zeroed_tm() -> libc::tm {
    // SAFETY: `tm` is plain old data; all zeros (a null `tm_zone`) is a
    // valid value of every field.
    unsafe { std::mem::zeroed() }
}

/// `localtime_r(3)` of `clock`: the local broken-down time, or `None` when
/// the C library cannot represent it.
pub(crate) fn localtime(clock: libc::time_t) -> Option<libc::tm> {
    let mut tm = zeroed_tm();
    // SAFETY: both pointers are to live locals of the right types;
    // localtime_r writes only into `tm` (the time-zone state it reads is the
    // C library's, guarded by its own lock).
    let r = unsafe { libc::localtime_r(&clock, &mut tm) };
    (!r.is_null()).then_some(tm)
}

/// `mktime(3)`: normalises `tm` in place and returns its time, `-1` when it
/// cannot be represented (or is the second before the epoch).
pub(crate) fn mktime(tm: &mut libc::tm) -> libc::time_t {
    // SAFETY: `tm` is a live, initialised `struct tm`; mktime reads and
    // writes only it (and the C library's time-zone state).
    unsafe { libc::mktime(tm) }
}

/// `access(2)`: whether this process may access `path` in `mode`
/// (`libc::R_OK`, `libc::W_OK`, ...).
pub(crate) fn access(path: &CStr, mode: libc::c_int) -> bool {
    // SAFETY: `path` is NUL-terminated and outlives the call.
    unsafe { libc::access(path.as_ptr(), mode) == 0 }
}

/// `utime(2)`: sets `path`'s access and modification times (seconds since
/// the epoch).
pub(crate) fn utime(path: &CStr, atime: i64, mtime: i64) -> std::io::Result<()> {
    let times = libc::utimbuf {
        actime: atime as libc::time_t,
        modtime: mtime as libc::time_t,
    };
    // SAFETY: `path` is NUL-terminated and `times` a live local.
    if unsafe { libc::utime(path.as_ptr(), &times) } == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

// The C library's error functions: the ones the BEAM calls (Rust's `f64`
// has no `erf`).
extern "C" {
    #[link_name = "erf"]
    fn c_erf(x: f64) -> f64;
    #[link_name = "erfc"]
    fn c_erfc(x: f64) -> f64;
}

/// The error function, `erf(3)`.
pub(crate) fn erf(x: f64) -> f64 {
    // SAFETY: `erf` is a pure C function of one double (C99, in libm, which
    // std links on every Unix); it touches no memory of ours.
    unsafe { c_erf(x) }
}

/// The complementary error function, `erfc(3)`.
pub(crate) fn erfc(x: f64) -> f64 {
    // SAFETY: as for `erf` above.
    unsafe { c_erfc(x) }
}
