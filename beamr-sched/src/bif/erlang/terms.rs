//! `erlang` BIFs on terms: tuples, lists, type tests, conversions,
//! exceptions, and the process's own identity.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::loader::BifRow;
use crate::process::{Class, Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "element", 2, element),
    ("erlang", "setelement", 3, setelement),
    ("erlang", "tuple_size", 1, tuple_size),
    ("erlang", "size", 1, size),
    ("erlang", "make_tuple", 2, make_tuple),
    ("erlang", "tuple_to_list", 1, tuple_to_list),
    ("erlang", "list_to_tuple", 1, list_to_tuple),
    ("erlang", "length", 1, length),
    ("erlang", "hd", 1, hd),
    ("erlang", "tl", 1, tl),
    ("erlang", "++", 2, append),
    ("erlang", "append", 2, append),
    ("erlang", "is_atom", 1, is_atom),
    ("erlang", "is_integer", 1, is_integer),
    ("erlang", "is_integer", 3, is_integer3),
    ("erlang", "is_float", 1, is_float),
    ("erlang", "is_number", 1, is_number),
    ("erlang", "is_list", 1, is_list),
    ("erlang", "is_tuple", 1, is_tuple),
    ("erlang", "is_pid", 1, is_pid),
    ("erlang", "is_reference", 1, is_reference),
    ("erlang", "is_port", 1, is_port),
    ("erlang", "nif_error", 1, error1),
    ("erlang", "nif_error", 2, error2),
    ("erlang", "is_binary", 1, is_binary),
    ("erlang", "is_map", 1, is_map),
    ("erlang", "is_function", 1, is_function),
    ("erlang", "is_boolean", 1, is_boolean),
    ("erlang", "error", 1, error1),
    ("erlang", "error", 2, error2),
    ("erlang", "exit", 1, exit1),
    ("erlang", "throw", 1, throw),
    ("erlang", "raise", 3, raise),
    ("erlang", "self", 0, self_),
];

fn element(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (Some(i), Some(t)) = (a[0].as_small(), a[1].as_tuple()) else {
        return Err(Exception::badarg());
    };
    usize::try_from(i)
        .ok()
        .and_then(|i| i.checked_sub(1))
        .and_then(|i| t.get(i).copied())
        .ok_or_else(Exception::badarg)
}

fn setelement(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (Some(i), Some(t)) = (a[0].as_small(), a[1].as_tuple()) else {
        return Err(Exception::badarg());
    };
    let i = usize::try_from(i)
        .ok()
        .and_then(|i| i.checked_sub(1))
        .filter(|&i| i < t.len())
        .ok_or_else(Exception::badarg)?;
    let mut elements = t.to_vec();
    elements[i] = a[2];
    Ok(p.heap.tuple(&elements))
}

fn tuple_size(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    a[0].as_tuple()
        .map(|t| Term::small_unchecked(t.len() as i64))
        .ok_or_else(Exception::badarg)
}

/// `size/1`: a tuple's arity or a binary's byte size.
fn size(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if let Some(t) = a[0].as_tuple() {
        return Ok(Term::small_unchecked(t.len() as i64));
    }
    match a[0].as_binary() {
        Some(b) if b.is_binary() => Ok(Term::small_unchecked(b.byte_size() as i64)),
        _ => Err(Exception::badarg()),
    }
}

fn make_tuple(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let n = a[0]
        .as_small()
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(Exception::badarg)?;
    if n > (1 << 24) {
        return Err(Exception::system_limit());
    }
    Ok(p.heap.tuple(&vec![a[1]; n]))
}

fn tuple_to_list(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let t = a[0].as_tuple().ok_or_else(Exception::badarg)?;
    Ok(p.heap.list(t))
}

fn list_to_tuple(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let items = a[0].list_to_vec().ok_or_else(Exception::badarg)?;
    Ok(p.heap.tuple(&items))
}

fn length(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    a[0].list_len()
        .map(|n| Term::small_unchecked(n as i64))
        .ok_or_else(Exception::badarg)
}

fn hd(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    a[0].as_cons().map(|(h, _)| h).ok_or_else(Exception::badarg)
}

fn tl(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    a[0].as_cons().map(|(_, t)| t).ok_or_else(Exception::badarg)
}

/// `A ++ B`: `A` must be a proper list; `B` is shared, and so is `A`
/// when `B` is `[]`. The copy of `A` is built front to back in one block of
/// cells (one pass to count and check, one to fill), with no buffer.
fn append(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (front, back) = (a[0], a[1]);
    if front.is_nil() {
        return Ok(back);
    }
    let n = proper_len(front).ok_or_else(Exception::badarg)?;
    if back.is_nil() {
        return Ok(front);
    }
    Ok(p.heap.list_of_n(n, list_items(front), back, false))
}

/// The elements of a list, head first (stops at the first non-cons tail).
pub(crate) fn list_items(list: Term) -> impl Iterator<Item = Term> {
    let mut l = list;
    std::iter::from_fn(move || {
        let (head, rest) = l.as_cons()?;
        l = rest;
        Some(head)
    })
}

/// The length of `list` if it is a proper list.
pub(crate) fn proper_len(mut list: Term) -> Option<usize> {
    let mut n = 0;
    while let Some((_, rest)) = list.as_cons() {
        n += 1;
        list = rest;
    }
    list.is_nil().then_some(n)
}

fn test(pred: fn(Term) -> bool, t: Term) -> Result<Term, Exception> {
    Ok(Term::bool(pred(t)))
}

fn is_atom(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    test(Term::is_atom, a[0])
}

fn is_integer(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    test(Term::is_integer, a[0])
}

/// `is_integer(Term, LB, UB)` (OTP 29): `Term` is an integer in `LB..=UB`;
/// `badarg` when a bound is not an integer.
fn is_integer3(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    use beamr_core::order::compare;
    use std::cmp::Ordering::{Greater, Less};
    if !a[1].is_integer() || !a[2].is_integer() {
        return Err(Exception::badarg());
    }
    Ok(Term::bool(
        a[0].is_integer() && compare(a[0], a[1]) != Less && compare(a[0], a[2]) != Greater,
    ))
}

fn is_float(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    test(Term::is_float, a[0])
}

fn is_number(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    test(Term::is_number, a[0])
}

fn is_list(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    test(Term::is_list, a[0])
}

fn is_tuple(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    test(Term::is_tuple, a[0])
}

fn is_pid(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    test(Term::is_pid, a[0])
}

fn is_reference(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    test(Term::is_reference, a[0])
}

fn is_port(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    test(Term::is_port, a[0])
}

fn is_binary(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    test(|t| t.as_binary().is_some_and(|b| b.is_binary()), a[0])
}

fn is_map(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    test(Term::is_map, a[0])
}

fn is_function(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    test(Term::is_fun, a[0])
}

fn is_boolean(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    test(|t| t == Term::TRUE || t == Term::FALSE, a[0])
}

fn error1(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Err(Exception::error(a[0]))
}

fn error2(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let mut e = Exception::error(a[0]);
    e.args = a[1];
    Err(e)
}

fn exit1(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Err(Exception::exit(a[0]))
}

fn throw(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Err(Exception::throw(a[0]))
}

/// `raise(Class, Reason, Stacktrace)`. As in the BEAM, a bad class or
/// stack trace makes it return `badarg` instead of raising; old-style
/// `{M, F, A}` and `{Fun, Args}` frames get an empty location, and the
/// trace is cut to the backtrace depth.
fn raise(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let badarg = Ok(Term::atom(Atom::BADARG));
    let Some(class) = a[0].as_atom().and_then(Class::from_atom) else {
        return badarg;
    };
    let Some(frames) = a[2].list_to_vec() else {
        return badarg;
    };
    let mut normalised = Vec::with_capacity(frames.len());
    for frame in frames {
        let location = match frame.as_tuple() {
            Some(&[f, args]) if f.is_fun() => {
                normalised.push(p.heap.tuple(&[f, args, Term::NIL]));
                continue;
            }
            Some(&[f, _, location]) if f.is_fun() => location,
            Some(&[m, f, arity]) if m.is_atom() && f.is_atom() => {
                normalised.push(p.heap.tuple(&[m, f, arity, Term::NIL]));
                continue;
            }
            Some(&[m, f, _, location]) if m.is_atom() && f.is_atom() => location,
            _ => return badarg,
        };
        if !(location.is_list() || location.is_nil()) {
            return badarg;
        }
        normalised.push(frame);
    }
    normalised.truncate(crate::interp::stacktrace::MAX_DEPTH);
    let trace = p.heap.list(&normalised);
    Err(Exception {
        class,
        reason: a[1],
        args: Term::NON_VALUE,
        trace,
        mfa: None,
        error_info: Term::NON_VALUE,
    })
}

fn self_(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(p.pid)
}
