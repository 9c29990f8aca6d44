//! The exceptions of the C NIFs: `{Tag, #{c_file_name, c_file_line_num,
//! c_function_arg_num}, Msg}`, which `crypto.erl` turns into
//! `error({Tag, {File, Line}, Msg})`. The line is that of the release's C
//! file, so each error names its line in OTP 25, 27 and 29 (26 is taken as
//! 25, 28 as 29).

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::bif::common::atoms::atom;
use crate::process::{Exception, Process};

/// A C source line in OTP 25, 27 and 29's crypto.
#[derive(Clone, Copy)]
pub(in crate::bif::crypto) struct Line(pub i64, pub i64, pub i64);

impl Line {
    /// The line in the running release.
    fn now(self) -> i64 {
        match crate::code::otp_release() {
            ..=26 => self.0,
            27 => self.1,
            _ => self.2,
        }
    }
}

/// A `badarg` of C argument `arg` at `line` of `file`.
pub(in crate::bif::crypto) fn badarg(
    p: &mut Process,
    file: &str,
    line: Line,
    arg: i64,
    msg: &str,
) -> Exception {
    nif_exception(p, Atom::BADARG, file, line.now(), arg, msg)
}

/// An `error` (a failing library call) at `line` of `file`, naming no
/// argument.
pub(in crate::bif::crypto) fn error(
    p: &mut Process,
    file: &str,
    line: Line,
    msg: &str,
) -> Exception {
    nif_exception(p, Atom::ERROR, file, line.now(), -1, msg)
}

/// A NIF's exception of class `tag` (`badarg`, or `error` for a failing
/// library call); `arg` -1 names no argument.
pub(in crate::bif::crypto) fn nif_exception(
    p: &mut Process,
    tag: Atom,
    file: &str,
    line: i64,
    arg: i64,
    msg: &str,
) -> Exception {
    let keys = [
        atom("c_file_line_num"),
        atom("c_file_name"),
        atom("c_function_arg_num"),
    ];
    let values = [
        Term::small_unchecked(line),
        p.heap.string(file),
        Term::small_unchecked(arg),
    ];
    let pairs: Vec<(Term, Term)> = keys.into_iter().zip(values).collect();
    let info = beamr_core::map::from_pairs(&mut p.heap, &pairs);
    let msg = p.heap.string(msg);
    Exception::error(p.heap.tuple(&[Term::atom(tag), info, msg]))
}
