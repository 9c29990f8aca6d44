//! `erlang:halt/0,1,2`: ending the OS process with a status.

use crate::bif::os::bifs::string_arg;

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "halt", 0, halt0),
    ("erlang", "halt", 1, halt1),
    ("erlang", "halt", 2, halt2),
];

fn halt0(rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    halt1(rt, p, &[Term::small_unchecked(0)])
}

/// `halt(Status)`: ends the OS process at once, as the BEAM does. An integer
/// is the exit status; a string is the "slogan": said on standard error,
/// written to a crash dump ([`super::crash_dump`]), status 1. `abort`
/// aborts (SIGABRT, a core dump where the system keeps one).
fn halt1(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    use std::io::Write;
    let status = if let Some(code) = a[0].as_small() {
        // A status is a non-negative integer (the OS keeps its low byte).
        i32::try_from(code)
            .ok()
            .filter(|&c| c >= 0)
            .ok_or_else(Exception::badarg)?
    } else if let Some(slogan) = string_arg(a[0]) {
        super::crash_dump::write(&slogan);
        1
    } else if a[0].as_atom().is_some_and(|x| x.name() == "abort") {
        std::process::abort();
    } else {
        return Err(Exception::badarg());
    };
    let _ = std::io::stdout().flush();
    crate::runtime::pending_output::flush(crate::runtime::pending_output::EXIT_WAIT);
    crate::runtime::at_halt::run(status);
    std::process::exit(status)
}

/// `halt(Status, Options)`: options are `{flush, boolean()}` and, from OTP
/// 26 on, `{flush_timeout, infinity | non_neg_integer()}`; anything else
/// (an improper list included) raises badarg with cause `badopt`. beamr
/// always writes what it buffered before it exits.
fn halt2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let badopt = || Exception::badarg_cause(Term::atom(Atom::new("badopt").expect("atom")));
    let mut rest = a[1];
    while let Some((option, tail)) = rest.as_cons() {
        if !valid_option(option) {
            return Err(badopt());
        }
        rest = tail;
    }
    if !rest.is_nil() {
        return Err(badopt());
    }
    halt1(rt, p, &a[..1])
}

/// One option of `halt/2` (see [`halt2`]).
fn valid_option(option: Term) -> bool {
    let Some(&[key, value]) = option.as_tuple() else {
        return false;
    };
    match key.as_atom().map(Atom::name) {
        Some("flush") => value == Term::TRUE || value == Term::FALSE,
        Some("flush_timeout") if crate::code::otp_release() >= 26 => {
            value.as_atom().is_some_and(|v| v.name() == "infinity")
                || value.as_small().is_some_and(|n| n >= 0)
        }
        _ => false,
    }
}
