//! `ets` BIFs added by OTP 26 and 27 on top of lookup and traversal:
//! `lookup_element/4` (a default for a missing key) and
//! `first_lookup`/`last_lookup`/`next_lookup`/`prev_lookup` (a step of the
//! traversal with the objects under the key it reaches).

use beamr_core::term::Term;

use super::access::end_of_table;
use super::objects::{elements_or, first, last, lookup, next, prev};
use crate::loader::{BifFn, BifRow};
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("ets", "lookup_element", 4, lookup_element4),
    ("ets", "first_lookup", 1, first_lookup),
    ("ets", "last_lookup", 1, last_lookup),
    ("ets", "next_lookup", 2, next_lookup),
    ("ets", "prev_lookup", 2, prev_lookup),
];

/// `lookup_element(Tab, Key, Pos, Default)`: as `lookup_element/3`, but
/// `Default` when no object has the key.
fn lookup_element4(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    elements_or(rt, p, &a[..3], Some(a[3]))
}

/// `{Key, Objects}` for the key the traversal step `step` (`first/1`,
/// `last/1`, `next/2`, `prev/2`) reaches, or `'$end_of_table'`.
fn step_lookup(rt: &Runtime, p: &mut Process, a: &[Term], step: BifFn) -> Result<Term, Exception> {
    let key = step(rt, p, a)?;
    if key == end_of_table() {
        return Ok(key);
    }
    let objects = lookup(rt, p, &[a[0], key])?;
    Ok(p.heap.tuple(&[key, objects]))
}

fn first_lookup(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    step_lookup(rt, p, a, first)
}

fn last_lookup(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    step_lookup(rt, p, a, last)
}

fn next_lookup(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    step_lookup(rt, p, a, next)
}

fn prev_lookup(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    step_lookup(rt, p, a, prev)
}
