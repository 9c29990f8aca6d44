//! The term order: `compare` (Erlang's `<`, `==`) and `compare_exact`
//! (map-key order).
//!
//! Types order as `number < atom < reference < fun < port < pid < tuple <
//! map < [] < list < bitstring`. Within a type, as OTP 25's
//! `erts_cmp_compound` (utils.c):
//!
//! 1. Numbers by value, integers against floats exactly ([`super::number`]);
//!    in map-key order (`compare_exact`) every integer is below every float
//!    (and from OTP 27 on `-0.0` below `0.0`).
//! 2. Atoms by the bytes of their UTF-8 names, then length.
//! 3. References by node (name, then creation), then id words from the most
//!    significant down (missing high words count as zero).
//! 4. Funs: a local fun is below an export fun; local funs by module name,
//!    index, old uniq, number of free variables, then the free variables;
//!    export funs by module, function, arity.
//! 5. Ports by node, then number. Pids by serial, then number, then node.
//! 6. Tuples by size, then elements.
//! 7. Native records (OTP 29, between tuples and maps) by module, name,
//!    exportedness (`false` first), field count, field names in declaration
//!    order, then values in that order.
//! 8. Maps by size, then keys in map-key order compared exactly, then
//!    values in that key order.
//! 9. Lists element by element, then the tails (an improper tail compares
//!    as the term it is).
//! 10. Bitstrings by their common bits, then bit size.
//!
//! The walk is iterative: pending sub-comparisons live on an explicit
//! stack, so a million-element list compares in constant native stack.
//!
//! Local pids, ports and references belong to this node, `nonode@nohost`
//! with creation 0. A local pid's 60-bit number orders as the pair
//! `(serial, number)` packed as `serial << 32 | number`.

use std::cmp::Ordering;

use super::equal::exact_eq;
use super::number::{cmp_floats, cmp_numbers, Num};
use crate::atom::Atom;
use crate::term::{BinaryView, Kind, Term};

/// Compares two terms in Erlang's term order, where `1 == 1.0`: the order
/// of `<`, `>` and `lists:sort/1`.
#[inline]
pub fn compare(a: Term, b: Term) -> Ordering {
    // Two floats (a sort by float keys compares little else), here where
    // the caller inlines it rather than behind the walk's call.
    if let (Some(x), Some(y)) = (a.as_float(), b.as_float()) {
        return cmp_floats(x, y);
    }
    cmp_terms(a, b, Mode::Order)
}

/// Compares two terms in map-key order: Erlang's term order, except that
/// every integer is below every float (`1 < 1.0`). A total order whose
/// equality is `=:=`; flat maps keep their keys sorted by it.
#[inline]
pub fn compare_exact(a: Term, b: Term) -> Ordering {
    cmp_terms(a, b, Mode::Exact)
}

/// The order of a flat map's keys (and of the keys a `put_map` lists).
///
/// OTP 25: map-key order ([`compare_exact`]). OTP 26 and later
/// (`erts_cmp_flatmap_keys`): two atoms by atom index, that is by erl's
/// creation order, which beamr follows through
/// [`Atom::map_key_rank`](crate::atom::Atom::map_key_rank) (erl's boot
/// atoms in erl's order, then creation order); any other pair by map-key
/// order. `maps:keys/1`, `~p` and `term_to_binary/1` show this order.
#[inline]
pub fn compare_map_keys(a: Term, b: Term) -> Ordering {
    if crate::release::atom_keys_by_index() {
        if let (Some(x), Some(y)) = (a.as_atom(), b.as_atom()) {
            return x.map_key_rank().cmp(&y.map_key_rank());
        }
    }
    compare_exact(a, b)
}

/// Erlang's `==`: equal in term order (`1 == 1.0` is true), except that
/// two native records of one canonical definition compare their values
/// exactly, as OTP 29's `==` does (`#r{a = 1} == #r{a = 1.0}` is false;
/// inside a map value the term order applies again).
#[inline]
pub fn eq(a: Term, b: Term) -> bool {
    a.raw() == b.raw() || cmp_terms(a, b, Mode::Eq) == Ordering::Equal
}

/// How numbers (and records) compare in one sub-comparison.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Mode {
    /// The term order: `1 == 1.0`.
    Order,
    /// Map-key order: every integer below every float.
    Exact,
    /// `==`: the term order, but records of one canonical definition
    /// compare their values exactly.
    Eq,
}

/// The classes of the term order, in order.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Class {
    Number,
    Atom,
    Ref,
    Fun,
    Port,
    Pid,
    Tuple,
    Record,
    Map,
    Nil,
    Cons,
    Bitstring,
    /// Not an Erlang value (a match context, a catch label, no value):
    /// ordered after everything, by word, so that comparing never fails.
    Internal,
}

#[inline]
fn class(t: Term) -> Class {
    match t.kind() {
        Kind::SmallInt | Kind::BigInt | Kind::Float => Class::Number,
        Kind::Atom => Class::Atom,
        Kind::Ref => Class::Ref,
        Kind::Fun => Class::Fun,
        Kind::Port => Class::Port,
        Kind::Pid => Class::Pid,
        Kind::Tuple => Class::Tuple,
        Kind::Record => Class::Record,
        Kind::Map => Class::Map,
        Kind::Nil => Class::Nil,
        Kind::Cons => Class::Cons,
        Kind::Binary => Class::Bitstring,
        Kind::MatchContext | Kind::Catch | Kind::NonValue | Kind::Invalid => Class::Internal,
    }
}

/// A sub-comparison still to do.
enum Frame {
    /// Compare two terms.
    Pair(Term, Term, Mode),
    /// Compare two equally long term arrays element by element.
    Elems(&'static [Term], &'static [Term], Mode),
}

/// The comparison, iteratively.
#[inline(never)]
fn cmp_terms(a: Term, b: Term, exact: Mode) -> Ordering {
    if a.raw() == b.raw() {
        return Ordering::Equal;
    }
    if let (Some(x), Some(y)) = (a.as_small(), b.as_small()) {
        return x.cmp(&y);
    }
    // Two floats (a sort by float keys compares little else).
    if let (Some(x), Some(y)) = (a.as_float(), b.as_float()) {
        return cmp_numbers(Num::Float(x), Num::Float(y), exact == Mode::Exact);
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut current = (a, b, exact);
    loop {
        let (x, y, e) = current;
        let o = if x.raw() == y.raw() {
            Ordering::Equal
        } else {
            step(x, y, e, &mut stack)
        };
        if o != Ordering::Equal {
            return o;
        }
        current = loop {
            match stack.pop() {
                None => return Ordering::Equal,
                Some(Frame::Pair(x, y, e)) => break (x, y, e),
                Some(Frame::Elems(xs, ys, e)) => {
                    if let (Some((&x0, xr)), Some((&y0, yr))) = (xs.split_first(), ys.split_first())
                    {
                        if !xr.is_empty() {
                            stack.push(Frame::Elems(xr, yr, e));
                        }
                        break (x0, y0, e);
                    }
                }
            }
        };
    }
}

/// Compares the outermost layer of `a` and `b`; pushes what remains to
/// compare when that layer is equal and returns `Equal`.
fn step(a: Term, b: Term, exact: Mode, stack: &mut Vec<Frame>) -> Ordering {
    let (ca, cb) = (class(a), class(b));
    if ca != cb {
        return ca.cmp(&cb);
    }
    match ca {
        Class::Number => match (Num::of(a), Num::of(b)) {
            (Some(x), Some(y)) => cmp_numbers(x, y, exact == Mode::Exact),
            _ => a.raw().cmp(&b.raw()),
        },
        Class::Atom => cmp_atoms(a, b),
        Class::Nil => Ordering::Equal,
        Class::Cons => {
            // Both are cons cells (checked by class).
            let ((ha, ta), (hb, tb)) = (cons(a), cons(b));
            stack.push(Frame::Pair(ta, tb, exact));
            stack.push(Frame::Pair(ha, hb, exact));
            Ordering::Equal
        }
        Class::Tuple => {
            let (xs, ys) = (
                a.tuple_elements().unwrap_or(&[]),
                b.tuple_elements().unwrap_or(&[]),
            );
            let o = xs.len().cmp(&ys.len());
            if o == Ordering::Equal && !xs.is_empty() {
                stack.push(Frame::Elems(xs, ys, exact));
            }
            o
        }
        Class::Record => cmp_records(a, b, exact, stack),
        Class::Map => cmp_maps(a, b, exact, stack),
        Class::Bitstring => match (a.binary_parts(), b.binary_parts()) {
            (Some(x), Some(y)) => cmp_bits(x, y),
            _ => a.raw().cmp(&b.raw()),
        },
        Class::Fun => cmp_funs(a, b, exact, stack),
        Class::Ref => cmp_refs(a, b),
        Class::Pid => cmp_pids(a, b),
        Class::Port => cmp_ports(a, b),
        Class::Internal => a.raw().cmp(&b.raw()),
    }
}

#[inline]
fn cons(t: Term) -> (Term, Term) {
    t.as_cons().unwrap_or((Term::NIL, Term::NIL))
}

/// Atoms by name: UTF-8 bytes, then length (OTP's `erts_cmp_atoms`).
#[inline]
pub(super) fn cmp_atoms(a: Term, b: Term) -> Ordering {
    match (a.as_atom(), b.as_atom()) {
        (Some(x), Some(y)) => cmp_atom_names(x, y),
        _ => a.raw().cmp(&b.raw()),
    }
}

#[inline]
fn cmp_atom_names(x: Atom, y: Atom) -> Ordering {
    if x == y {
        Ordering::Equal
    } else {
        x.name().as_bytes().cmp(y.name().as_bytes())
    }
}

/// Maps: size, then keys exactly in key order, then values in key order.
/// `==` compares map values in the term order.
fn cmp_maps(a: Term, b: Term, exact: Mode, stack: &mut Vec<Frame>) -> Ordering {
    let exact = if exact == Mode::Eq {
        Mode::Order
    } else {
        exact
    };
    let (na, nb) = (a.map_size().unwrap_or(0), b.map_size().unwrap_or(0));
    if na != nb {
        return na.cmp(&nb);
    }
    if na == 0 {
        return Ordering::Equal;
    }
    // Flat maps keep their keys in [`compare_map_keys`]'s order: term order
    // on OTP 25, and on any release when both hold the same keys (their
    // values then pair up in place).
    if let (Some(fa), Some(fb)) = (a.flat_map_parts(), b.flat_map_parts()) {
        let same_keys = || fa.keys.iter().zip(fb.keys).all(|(&x, &y)| exact_eq(x, y));
        if !crate::release::atom_keys_by_index() || same_keys() {
            stack.push(Frame::Elems(fa.values, fb.values, exact));
            stack.push(Frame::Elems(fa.keys, fb.keys, Mode::Exact));
            return Ordering::Equal;
        }
    }
    // Hash tries keep their keys in hash order (and flat maps on OTP 26+
    // may hold atoms by index): sort them first.
    let (ea, eb) = (sorted_entries(a), sorted_entries(b));
    for (&(_, va), &(_, vb)) in ea.iter().zip(&eb).rev() {
        stack.push(Frame::Pair(va, vb, exact));
    }
    for (&(ka, _), &(kb, _)) in ea.iter().zip(&eb).rev() {
        stack.push(Frame::Pair(ka, kb, Mode::Exact));
    }
    Ordering::Equal
}

/// Native records: module, name, exportedness, field count, field names in
/// declaration order, then the values in that order. Under `==`, two records
/// of one canonical definition compare their values exactly.
fn cmp_records(a: Term, b: Term, mode: Mode, stack: &mut Vec<Frame>) -> Ordering {
    let (Some(x), Some(y)) = (a.record_parts(), b.record_parts()) else {
        return a.raw().cmp(&b.raw());
    };
    let (dx, dy) = (x.def, y.def);
    let mode = if mode == Mode::Eq && std::ptr::eq(dx, dy) && dx.canonical {
        Mode::Exact
    } else {
        mode
    };
    if !std::ptr::eq(dx, dy) {
        let o = cmp_atom_names(dx.module, dy.module)
            .then_with(|| cmp_atom_names(dx.name, dy.name))
            .then(dx.exported.cmp(&dy.exported))
            .then(dx.fields.len().cmp(&dy.fields.len()));
        if o != Ordering::Equal {
            return o;
        }
        for (&fx, &fy) in dx.fields.iter().zip(dy.fields.iter()) {
            let o = cmp_atom_names(fx, fy);
            if o != Ordering::Equal {
                return o;
            }
        }
    }
    if !x.values.is_empty() {
        stack.push(Frame::Elems(x.values, y.values, mode));
    }
    Ordering::Equal
}

/// A map's entries sorted by key in map-key order.
fn sorted_entries(map: Term) -> Vec<(Term, Term)> {
    let mut entries: Vec<(Term, Term)> = crate::map::iter(map).into_iter().flatten().collect();
    entries.sort_by(|x, y| compare_exact(x.0, y.0));
    entries
}

/// Bitstrings: the common prefix of bits, then the bit sizes.
fn cmp_bits(a: BinaryView, b: BinaryView) -> Ordering {
    if let (Some(x), Some(y)) = (a.as_bytes(), b.as_bytes()) {
        return x.cmp(y);
    }
    let common = a.bit_size.min(b.bit_size);
    let (x, y) = (a.to_vec(), b.to_vec());
    let whole = common / 8;
    let o = x[..whole].cmp(&y[..whole]);
    if o != Ordering::Equal {
        return o;
    }
    let rest = common % 8;
    if rest > 0 {
        let mask = !(0xffu8 >> rest);
        let o = (x[whole] & mask).cmp(&(y[whole] & mask));
        if o != Ordering::Equal {
            return o;
        }
    }
    a.bit_size.cmp(&b.bit_size)
}

/// Funs: local below export; local by module, index, old uniq, free
/// variable count, free variables; export by module, function, arity.
fn cmp_funs(a: Term, b: Term, exact: Mode, stack: &mut Vec<Frame>) -> Ordering {
    match (a.closure_parts(), b.closure_parts()) {
        (Some(x), Some(y)) => {
            let (ex, ey) = (x.entry, y.entry);
            let o = cmp_atom_names(ex.module, ey.module)
                .then(ex.index.cmp(&ey.index))
                .then(ex.old_uniq.cmp(&ey.old_uniq))
                .then(x.free.len().cmp(&y.free.len()));
            if o == Ordering::Equal && !x.free.is_empty() {
                stack.push(Frame::Elems(x.free, y.free, exact));
            }
            o
        }
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => match (a.as_export(), b.as_export()) {
            (Some(x), Some(y)) => cmp_atom_names(x.module, y.module)
                .then_with(|| cmp_atom_names(x.function, y.function))
                .then(x.arity.cmp(&y.arity)),
            _ => a.raw().cmp(&b.raw()),
        },
    }
}

/// A node's identity: name and creation (this node: `nonode@nohost`, 0).
type Node = (Atom, u32);

/// OTP's `CMP_NODES`: by name, then creation.
#[inline]
fn cmp_nodes(x: Node, y: Node) -> Ordering {
    cmp_atom_names(x.0, y.0).then(x.1.cmp(&y.1))
}

/// References: node, then id words from the most significant; a longer
/// reference's extra high words must be zero to tie.
fn cmp_refs(a: Term, b: Term) -> Ordering {
    let (Some(x), Some(y)) = (a.as_ref(), b.as_ref()) else {
        return a.raw().cmp(&b.raw());
    };
    let o = cmp_nodes((x.node, x.creation), (y.node, y.creation));
    if o != Ordering::Equal {
        return o;
    }
    let (xs, ys) = (x.ids(), y.ids());
    let n = xs.len().max(ys.len());
    for i in (0..n).rev() {
        let (u, v) = (
            xs.get(i).copied().unwrap_or(0),
            ys.get(i).copied().unwrap_or(0),
        );
        if u != v {
            return u.cmp(&v);
        }
    }
    Ordering::Equal
}

/// A pid's `(serial, number)` and node.
fn pid_parts(t: Term) -> Option<((u64, u64), Node)> {
    if let Some(id) = t.as_local_pid() {
        return Some(((id >> 32, id & 0xffff_ffff), crate::etf::local::this_node()));
    }
    t.as_external_pid()
        .map(|p| ((p.serial as u64, p.id as u64), (p.node, p.creation)))
}

/// Pids: serial and number first, then node.
fn cmp_pids(a: Term, b: Term) -> Ordering {
    match (pid_parts(a), pid_parts(b)) {
        (Some((dx, nx)), Some((dy, ny))) => dx.cmp(&dy).then_with(|| cmp_nodes(nx, ny)),
        _ => a.raw().cmp(&b.raw()),
    }
}

/// A port's number and node.
fn port_parts(t: Term) -> Option<(u64, Node)> {
    if let Some(id) = t.as_local_port() {
        return Some((id, crate::etf::local::this_node()));
    }
    t.as_external_port().map(|p| (p.id, (p.node, p.creation)))
}

/// Ports: node first, then number.
fn cmp_ports(a: Term, b: Term) -> Ordering {
    match (port_parts(a), port_parts(b)) {
        (Some((ix, nx)), Some((iy, ny))) => cmp_nodes(nx, ny).then(ix.cmp(&iy)),
        _ => a.raw().cmp(&b.raw()),
    }
}
