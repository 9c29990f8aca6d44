//! `erlang:halt/0,1,2`: ending the OS process with a status.

use super::os::string_arg;

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
/// is the exit status; a string is printed as the "slogan" and the status is 1.
fn halt1(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    use std::io::Write;
    let status = if let Some(code) = a[0].as_small() {
        i32::try_from(code).map_err(|_| Exception::badarg())?
    } else if let Some(slogan) = string_arg(a[0]) {
        eprintln!("{slogan}");
        1
    } else if a[0].as_atom().is_some_and(|x| x.name() == "abort") {
        std::process::abort();
    } else {
        return Err(Exception::badarg());
    };
    let _ = std::io::stdout().flush();
    std::process::exit(status)
}

fn halt2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[1].is_list() {
        return Err(Exception::badarg());
    }
    halt1(rt, p, &a[..1])
}
