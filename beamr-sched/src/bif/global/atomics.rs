//! `atomics` and the `counters` NIFs of `erts_internal`: arrays of 64-bit
//! integers updated atomically, held by reference (a resource, see
//! [`crate::bif::common::resource`]).
//!
//! Each element is an `AtomicU64` holding the value's 64 bits; a signed
//! array reads them as two's complement. Arithmetic wraps at overflow as
//! erts's does. `counters:new/2` without `write_concurrency` is an atomics
//! array (OTP's `counters.erl` decides); with it, a counters array of its
//! own kind, which erts stripes per scheduler and beamr keeps as one
//! atomic per counter. `info/1`'s `memory` follows erts's: 40 bytes and 8
//! per atomic; for counters, a 32-byte header and a cache-line-aligned
//! copy per scheduler and one more.
//!
//! Bad arguments (an unknown reference, an index out of `1..=Size`, a
//! value the array cannot hold) raise `badarg` from the BIF.

use std::sync::atomic::{AtomicU64, Ordering};

use beamr_core::atom::Atom;
use beamr_core::term::{Integer, Term};
use num_bigint::BigInt;

use crate::bif::common::atoms::atom;
use crate::bif::common::resource::Resources;
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erts_internal", "atomics_new", 2, atomics_new),
    ("atomics", "put", 3, put),
    ("atomics", "get", 2, get),
    ("atomics", "add", 3, add),
    ("atomics", "add_get", 3, add_get),
    ("atomics", "exchange", 3, exchange),
    ("atomics", "compare_exchange", 4, compare_exchange),
    ("atomics", "info", 1, info),
    ("erts_internal", "counters_new", 1, counters_new),
    ("erts_internal", "counters_get", 2, counters_get),
    ("erts_internal", "counters_add", 3, counters_add),
    ("erts_internal", "counters_put", 3, counters_put),
    ("erts_internal", "counters_info", 1, counters_info),
];

/// An array of atomics.
struct Array {
    cells: Box<[AtomicU64]>,
    /// Values are read as signed.
    signed: bool,
}

impl Array {
    fn new(size: usize, signed: bool) -> Array {
        Array {
            cells: (0..size).map(|_| AtomicU64::new(0)).collect(),
            signed,
        }
    }

    /// The cell at one-based index `ix`.
    fn cell(&self, ix: Term) -> Result<&AtomicU64, Exception> {
        let ix = ix.as_small().ok_or_else(Exception::badarg)?;
        usize::try_from(ix)
            .ok()
            .and_then(|i| i.checked_sub(1))
            .and_then(|i| self.cells.get(i))
            .ok_or_else(Exception::badarg)
    }

    /// `t` as the bits of a value this array holds: badarg outside its
    /// range.
    fn value(&self, t: Term) -> Result<u64, Exception> {
        let bits = match t.as_integer().ok_or_else(Exception::badarg)? {
            Integer::Small(v) if self.signed => Some(v as u64),
            Integer::Small(v) => u64::try_from(v).ok(),
            Integer::Big(v) if self.signed => i64::try_from(&v).ok().map(|v| v as u64),
            Integer::Big(v) => u64::try_from(&v).ok(),
        };
        bits.ok_or_else(Exception::badarg)
    }

    /// An increment: any 64-bit integer, signed or not (it wraps).
    fn increment(t: Term) -> Result<u64, Exception> {
        match t.as_integer().ok_or_else(Exception::badarg)? {
            Integer::Small(v) => Ok(v as u64),
            Integer::Big(v) => i64::try_from(&v)
                .map(|v| v as u64)
                .or_else(|_| u64::try_from(&v))
                .map_err(|_| Exception::badarg()),
        }
    }

    /// The value of `bits` as a term on `p`'s heap.
    fn term(&self, p: &mut Process, bits: u64) -> Term {
        if self.signed {
            p.heap.int(bits as i64)
        } else {
            match i64::try_from(bits) {
                Ok(v) => p.heap.int(v),
                Err(_) => p.heap.bigint(&BigInt::from(bits)),
            }
        }
    }
}

/// Third id word of an atomics array's reference.
const ATOMICS_TAG: u32 = 0x00A7_0000;
/// Third id word of a counters array's reference.
const COUNTERS_TAG: u32 = 0x00C0_0000;

static ATOMICS: Resources<Array> = Resources::new(ATOMICS_TAG);
static COUNTERS: Resources<Array> = Resources::new(COUNTERS_TAG);

/// A size argument: 1 or more.
fn size_arg(t: Term) -> Result<usize, Exception> {
    t.as_small()
        .and_then(|n| usize::try_from(n).ok())
        .filter(|n| (1..1 << 32).contains(n))
        .ok_or_else(Exception::badarg)
}

fn array(table: &Resources<Array>, t: Term) -> Result<std::sync::Arc<Array>, Exception> {
    table.get(t).ok_or_else(Exception::badarg)
}

/// `erts_internal:atomics_new(Arity, EncodedOpts)`: bit 0 of the options
/// is `{signed, true}`.
fn atomics_new(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let size = size_arg(a[0])?;
    let opts = a[1].as_small().ok_or_else(Exception::badarg)?;
    Ok(ATOMICS.insert(p, Array::new(size, opts & 1 != 0)))
}

fn put(_rt: &Runtime, _p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    put_in(&ATOMICS, a)
}

fn get(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    get_in(&ATOMICS, p, a)
}

/// `put(Ref, Ix, Value)` on an array of `table`.
fn put_in(table: &Resources<Array>, a: &[Term]) -> Result<Term, Exception> {
    let arr = array(table, a[0])?;
    let cell = arr.cell(a[1])?;
    cell.store(arr.value(a[2])?, Ordering::SeqCst);
    Ok(Term::atom(Atom::OK))
}

/// `get(Ref, Ix)` on an array of `table`.
fn get_in(table: &Resources<Array>, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let arr = array(table, a[0])?;
    let bits = arr.cell(a[1])?.load(Ordering::SeqCst);
    Ok(arr.term(p, bits))
}

fn add(_rt: &Runtime, _p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let arr = array(&ATOMICS, a[0])?;
    let cell = arr.cell(a[1])?;
    cell.fetch_add(Array::increment(a[2])?, Ordering::SeqCst);
    Ok(Term::atom(Atom::OK))
}

fn add_get(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let arr = array(&ATOMICS, a[0])?;
    let cell = arr.cell(a[1])?;
    let incr = Array::increment(a[2])?;
    let bits = cell.fetch_add(incr, Ordering::SeqCst).wrapping_add(incr);
    Ok(arr.term(p, bits))
}

fn exchange(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let arr = array(&ATOMICS, a[0])?;
    let cell = arr.cell(a[1])?;
    let old = cell.swap(arr.value(a[2])?, Ordering::SeqCst);
    Ok(arr.term(p, old))
}

/// `compare_exchange(Ref, Ix, Expected, Desired)`: `ok`, or the value
/// found when it was not `Expected`.
fn compare_exchange(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let arr = array(&ATOMICS, a[0])?;
    let cell = arr.cell(a[1])?;
    let (expected, desired) = (arr.value(a[2])?, arr.value(a[3])?);
    Ok(
        match cell.compare_exchange(expected, desired, Ordering::SeqCst, Ordering::SeqCst) {
            Ok(_) => Term::atom(Atom::OK),
            Err(found) => arr.term(p, found),
        },
    )
}

/// `info(Ref)`: `#{size, max, min, memory}`.
fn info(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let arr = array(&ATOMICS, a[0])?;
    let n = arr.cells.len();
    let (min, max) = if arr.signed {
        (p.heap.int(i64::MIN), p.heap.int(i64::MAX))
    } else {
        (
            Term::small_unchecked(0),
            p.heap.bigint(&BigInt::from(u64::MAX)),
        )
    };
    let memory = p.heap.int(40 + 8 * n as i64);
    let size = p.heap.int(n as i64);
    Ok(p.heap.flat_map(
        &[atom("max"), atom("memory"), atom("min"), atom("size")],
        &[max, memory, min, size],
    ))
}

fn counters_new(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let size = size_arg(a[0])?;
    Ok(COUNTERS.insert(p, Array::new(size, true)))
}

fn counters_get(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    get_in(&COUNTERS, p, a)
}

/// `counters_add(Ref, Ix, Incr)`: Incr a signed 64-bit integer.
fn counters_add(_rt: &Runtime, _p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let arr = array(&COUNTERS, a[0])?;
    let cell = arr.cell(a[1])?;
    cell.fetch_add(arr.value(a[2])?, Ordering::SeqCst);
    Ok(Term::atom(Atom::OK))
}

fn counters_put(_rt: &Runtime, _p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    put_in(&COUNTERS, a)
}

/// `counters_info(Ref)`: `#{size, memory}`.
fn counters_info(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let arr = array(&COUNTERS, a[0])?;
    let n = arr.cells.len() as i64;
    // erts keeps a cache-line-aligned copy of the array per scheduler and
    // one more, after a 32-byte header.
    let per_copy = (n * 8 + 63) / 64 * 64;
    let memory = p
        .heap
        .int(32 + (crate::bif::erlang::system::cores() + 1) * per_copy);
    let size = p.heap.int(n);
    Ok(beamr_core::map::from_pairs(
        &mut p.heap,
        &[(atom("memory"), memory), (atom("size"), size)],
    ))
}
