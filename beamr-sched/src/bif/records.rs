//! `records` (OTP 29): the BIFs on native records.
//!
//! beamr has no native-record term yet, so no argument is one: each BIF
//! fails as OTP 29's does on a value that is not a native record
//! (`badarg` for `get/2`, `get_module/1`, `get_name/1`; `{badrecord, V}`
//! for `get_field_names/1` and `is_exported/1`), and the two that would
//! make one, `create/4` and `update/4`, raise
//! `{beamr_unsupported, native_records}`.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::interp::ops::record::native_records_unsupported;
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("records", "get", 2, badarg),
    ("records", "get_module", 1, badarg),
    ("records", "get_name", 1, badarg),
    ("records", "get_field_names", 1, badrecord),
    ("records", "is_exported", 1, badrecord),
    ("records", "create", 4, unsupported),
    ("records", "update", 4, unsupported),
    ("erlang", "is_record", 1, is_record1),
];

/// `records:get/2`, `get_module/1`, `get_name/1` on a value that is not a
/// native record.
fn badarg(_rt: &Runtime, _: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Err(Exception::badarg())
}

/// `records:get_field_names/1`, `is_exported/1` on a value that is not a
/// native record: `{badrecord, Value}`.
fn badrecord(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let reason = p.heap.tuple(&[Term::atom(Atom::BADRECORD), a[0]]);
    Err(Exception::error(reason))
}

/// `records:create/4`, `records:update/4`: native records are not
/// implemented.
fn unsupported(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Err(native_records_unsupported(p))
}

/// `erlang:is_record/1` (OTP 29): whether the term is a native record;
/// never, in beamr.
fn is_record1(_rt: &Runtime, _: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(Term::bool(false))
}
