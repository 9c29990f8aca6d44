//! Map BIFs: those of `maps` that are BIFs in OTP 25 (`get/2`, `find/2`,
//! `put/3`, `update/3`, `remove/2`, `take/2`, `merge/2`, `from_list/1`,
//! `from_keys/2`, `keys/1`, `values/1`, `is_key/2`), a few of its Erlang
//! functions made native for speed (`get/3`, `to_list/1`, `size/1`,
//! `new/0`, `iterator/1`, `next/1`), `erlang:map_size/1`, `map_get/2`,
//! `is_map_key/2`, and `erts_internal:map_next/3`, the iteration primitive
//! that `maps:fold/3`, `maps:map/2` and friends run on (with
//! `erts_internal:cmp_term/2`, which OTP 26's ordered iterators sort by).
//!
//! Errors are OTP's: `{badmap, Term}` for a non-map, `{badkey, Key}` for a
//! missing key where one is required, `badarg` for a malformed list.
//!
//! # Iterators (OTP 25)
//!
//! `maps:iterator(M)` is `[0 | M]`. `erts_internal:map_next(Path, M,
//! iterator)` answers the next associations as nested tuples
//! `{K1, V1, {K2, V2, ... Tail}}`, where `Tail` is `none` at the end, or
//! `[NextPath | M]` when the batch stopped early. A flat map always comes
//! whole. A trie comes in batches (32 associations on the first call),
//! walked depth first from each node's first slot; `Path` names the next
//! unexplored slot, four bits per level, the root's slot lowest. With a
//! list as third argument the batch comes as `[{K, V} | Acc]`, most
//! recent first, prefixed by `NextPath, M` when there is more.

use std::sync::LazyLock;

use beamr_core::atom::Atom;
use beamr_core::map::{self, MapError, Order};
use beamr_core::term::Term;
use num_bigint::{BigInt, Sign};

use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "map_size", 1, map_size),
    ("erlang", "map_get", 2, map_get),
    ("erlang", "is_map_key", 2, is_map_key),
    ("maps", "get", 2, get2),
    ("maps", "get", 3, get3),
    ("maps", "find", 2, find),
    ("maps", "put", 3, put),
    ("maps", "update", 3, update),
    ("maps", "remove", 2, remove),
    ("maps", "take", 2, take),
    ("maps", "merge", 2, merge),
    ("maps", "from_list", 1, from_list),
    ("maps", "from_keys", 2, from_keys),
    ("maps", "to_list", 1, to_list),
    ("maps", "keys", 1, keys),
    ("maps", "values", 1, values),
    ("maps", "is_key", 2, is_key),
    ("maps", "size", 1, size),
    ("maps", "new", 0, new),
    ("maps", "iterator", 1, iterator),
    ("maps", "next", 1, next),
    ("erts_internal", "map_next", 3, map_next),
    ("erts_internal", "cmp_term", 2, cmp_term),
];

static NONE: LazyLock<Term> = LazyLock::new(|| Term::atom(Atom::new("none").expect("atom")));
static ITERATOR: LazyLock<Term> =
    LazyLock::new(|| Term::atom(Atom::new("iterator").expect("atom")));

/// `error:{badmap, Term}`.
#[cold]
fn badmap(p: &mut Process, t: Term) -> Exception {
    Exception::error(p.heap.tuple(&[Term::atom(Atom::BADMAP), t]))
}

/// `error:{badkey, Key}`.
#[cold]
fn badkey(p: &mut Process, k: Term) -> Exception {
    Exception::error(p.heap.tuple(&[Term::atom(Atom::BADKEY), k]))
}

fn map_error(p: &mut Process, e: MapError) -> Exception {
    match e {
        MapError::BadMap(t) => badmap(p, t),
        MapError::BadKey(k) => badkey(p, k),
    }
}

/// `m` itself if it is a map, else `{badmap, m}`.
#[inline]
fn need_map(p: &mut Process, m: Term) -> Result<Term, Exception> {
    if m.is_map() {
        Ok(m)
    } else {
        Err(badmap(p, m))
    }
}

fn map_size(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    match map::size(a[0]) {
        Some(n) => Ok(p.heap.int(n as i64)),
        None => Err(badmap(p, a[0])),
    }
}

fn map_get(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let m = need_map(p, a[1])?;
    map::get(m, a[0]).ok_or_else(|| badkey(p, a[0]))
}

fn is_map_key(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let m = need_map(p, a[1])?;
    Ok(Term::bool(map::contains(m, a[0])))
}

fn get2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    map_get(rt, p, a)
}

fn get3(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let m = need_map(p, a[1])?;
    Ok(map::get(m, a[0]).unwrap_or(a[2]))
}

fn find(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let m = need_map(p, a[1])?;
    Ok(match map::get(m, a[0]) {
        Some(v) => p.heap.tuple(&[Term::atom(Atom::OK), v]),
        None => Term::atom(Atom::ERROR),
    })
}

fn put(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let m = need_map(p, a[2])?;
    map::put(&mut p.heap, m, a[0], a[1]).map_err(|e| map_error(p, e))
}

fn update(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let m = need_map(p, a[2])?;
    map::update(&mut p.heap, m, a[0], a[1]).map_err(|e| map_error(p, e))
}

fn remove(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let m = need_map(p, a[1])?;
    map::remove(&mut p.heap, m, a[0]).map_err(|e| map_error(p, e))
}

fn take(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let m = need_map(p, a[1])?;
    let Some(v) = map::get(m, a[0]) else {
        return Ok(Term::atom(Atom::ERROR));
    };
    let rest = map::remove(&mut p.heap, m, a[0]).map_err(|e| map_error(p, e))?;
    Ok(p.heap.tuple(&[v, rest]))
}

/// `maps:merge/2`: the keys of both, the second map's values winning.
fn merge(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (m1, m2) = (need_map(p, a[0])?, need_map(p, a[1])?);
    let (n1, n2) = (map::size(m1).unwrap_or(0), map::size(m2).unwrap_or(0));
    if n1 == 0 {
        return Ok(m2);
    }
    if n2 == 0 {
        return Ok(m1);
    }
    // A small map into a large one, one key at a time; otherwise one build.
    if n2 * 8 <= n1 {
        let mut acc = m1;
        for (k, v) in map::iter(m2).into_iter().flatten() {
            acc = map::put(&mut p.heap, acc, k, v).map_err(|e| map_error(p, e))?;
        }
        return Ok(acc);
    }
    if n1 * 8 <= n2 {
        let mut acc = m2;
        for (k, v) in map::iter(m1).into_iter().flatten() {
            if !map::contains(acc, k) {
                acc = map::put(&mut p.heap, acc, k, v).map_err(|e| map_error(p, e))?;
            }
        }
        return Ok(acc);
    }
    let mut entries: Vec<(Term, Term)> = Vec::with_capacity(n1 + n2);
    entries.extend(map::iter(m1).into_iter().flatten());
    entries.extend(map::iter(m2).into_iter().flatten());
    Ok(map::from_pairs(&mut p.heap, &entries))
}

fn from_list(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let mut pairs = Vec::new();
    let mut l = a[0];
    while let Some((h, t)) = l.as_cons() {
        match h.as_tuple() {
            Some(&[k, v]) => pairs.push((k, v)),
            _ => return Err(Exception::badarg()),
        }
        l = t;
    }
    if !l.is_nil() {
        return Err(Exception::badarg());
    }
    Ok(map::from_pairs(&mut p.heap, &pairs))
}

fn from_keys(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let keys = a[0].list_to_vec().ok_or_else(Exception::badarg)?;
    let pairs: Vec<(Term, Term)> = keys.iter().map(|&k| (k, a[1])).collect();
    Ok(map::from_pairs(&mut p.heap, &pairs))
}

/// `maps:to_list/1`: of a map, or (OTP 26 and later) of an iterator,
/// in its order.
fn to_list(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[0].is_map() && crate::code::otp_release() >= 26 {
        return iterator_to_list(p, a[0]).map_err(|()| badmap(p, a[0]));
    }
    let m = need_map(p, a[0])?;
    map::to_list(&mut p.heap, m).map_err(|e| map_error(p, e))
}

/// The associations an iterator has left, as `[{K, V}]` in its order.
fn iterator_to_list(p: &mut Process, iterator: Term) -> Result<Term, ()> {
    let mut pairs = Vec::new();
    let mut step = next_of(p, iterator)?;
    while let Some(&[k, v, rest]) = step.as_tuple() {
        pairs.push(p.heap.tuple(&[k, v]));
        step = next_of(p, rest)?;
    }
    if step != *NONE {
        return Err(());
    }
    Ok(p.heap.list(&pairs))
}

/// `maps:next/1` of any iterator: `{K, V, Rest}` or `none`.
fn next_of(p: &mut Process, it: Term) -> Result<Term, ()> {
    if let Some(&[_, _, _]) = it.as_tuple() {
        return Ok(it);
    }
    if it == *NONE {
        return Ok(it);
    }
    match it.as_cons() {
        Some((path, m)) if path.is_integer() && m.is_map() => {
            next_batch(p, path, m, Mode::Iterator)
        }
        Some((keys, m)) if m.is_map() && is_ordered_path(keys) => ordered_batch(p, keys, m),
        _ => Err(()),
    }
}

fn keys(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let m = need_map(p, a[0])?;
    map::keys(&mut p.heap, m).map_err(|e| map_error(p, e))
}

fn values(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let m = need_map(p, a[0])?;
    map::values(&mut p.heap, m).map_err(|e| map_error(p, e))
}

fn is_key(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    is_map_key(rt, p, a)
}

fn size(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    map_size(rt, p, a)
}

fn new(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(map::new(&mut p.heap))
}

fn iterator(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let m = need_map(p, a[0])?;
    Ok(p.heap.cons(Term::small_unchecked(0), m))
}

/// `maps:next/1` as `maps.erl` defines it (with OTP 26's ordered
/// iterators).
fn next(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    next_of(p, a[0]).map_err(|()| Exception::badarg())
}

/// `erts_internal:cmp_term(A, B)` (OTP 26's ordered map iterators sort
/// their keys with it): -1, 0 or 1 as `A` is below, equal to (`=:=`) or
/// above `B` in map-key order.
fn cmp_term(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let order = beamr_core::order::compare_exact(a[0], a[1]);
    Ok(Term::small_unchecked(order as i64))
}

/// How `map_next` returns associations.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Mode {
    /// Nested `{K, V, Rest}` tuples.
    Iterator,
    /// `[{K, V} | Acc]`, most recent first.
    List(Term),
}

/// `erts_internal:map_next(Path, Map, iterator | Acc)`.
fn map_next(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[1].is_map() {
        return Err(Exception::badarg());
    }
    let mode = if a[2] == *ITERATOR {
        Mode::Iterator
    } else if a[2].is_list() {
        Mode::List(a[2])
    } else {
        return Err(Exception::badarg());
    };
    if mode == Mode::Iterator && is_ordered_path(a[0]) {
        return ordered_batch(p, a[0], a[1]).map_err(|()| Exception::badarg());
    }
    next_batch(p, a[0], a[1], mode).map_err(|()| Exception::badarg())
}

/// Whether `path` is the path of an ordered iterator (`maps:iterator(M,
/// Order)`, OTP 26 and later): the keys still to come, in order.
fn is_ordered_path(path: Term) -> bool {
    path.is_list() && crate::code::otp_release() >= 26
}

/// The next associations of an ordered iterator over `m`, `keys` the keys
/// still to come: nested `{K, V, Rest}` tuples, `Rest` ending in `none`,
/// or in `[Keys | M]` after [`BATCH`] associations. A key `m` lacks, or an
/// improper list, is an error.
fn ordered_batch(p: &mut Process, keys: Term, m: Term) -> Result<Term, ()> {
    let mut batch = Vec::new();
    let mut rest = keys;
    while batch.len() < BATCH {
        let Some((key, tail)) = rest.as_cons() else {
            break;
        };
        batch.push((key, map::get(m, key).ok_or(())?));
        rest = tail;
    }
    let mut next = if rest.is_nil() {
        *NONE
    } else if rest.is_list() {
        p.heap.cons(rest, m)
    } else {
        return Err(());
    };
    for &(key, value) in batch.iter().rev() {
        next = p.heap.tuple(&[key, value, next]);
    }
    Ok(next)
}

/// Associations handed out per call after the first, standing in for the
/// BEAM's "a quarter of the reductions left".
const BATCH: usize = 1000;
/// Associations handed out by the first call on a trie (the BEAM's
/// `MAP_SMALL_MAP_LIMIT`).
const FIRST_BATCH: usize = 32;
/// Path bits per trie level.
const PATH_BITS: u32 = 4;

/// The path as 64-bit digits, least significant first, as the BEAM reads
/// it: a small's word shifted right past its tag, a positive bignum's
/// digits. `None` for anything else.
fn path_digits(path: Term) -> Option<Vec<u64>> {
    if let Some(v) = path.as_small() {
        // A negative small reads as its 60-bit two's complement word.
        return Some(vec![(v as u64) & ((1 << 60) - 1)]);
    }
    let big = path.as_big()?.to_bigint();
    if big.sign() == Sign::Minus {
        return None;
    }
    Some(big.to_u64_digits().1)
}

fn next_batch(p: &mut Process, path: Term, m: Term, mode: Mode) -> Result<Term, ()> {
    let digits = path_digits(path).ok_or(())?;
    let Some(root) = m.as_hash_node() else {
        // A flat map comes whole; the path only has to be in range.
        let n = map::size(m).ok_or(())?;
        if path.as_small().is_none() || digits[0] > n as u64 {
            return Err(());
        }
        let mut pairs: Vec<(Term, Term)> = map::iter_in(m, Order::Next).ok_or(())?.collect();
        if let Mode::List(_) = mode {
            // The list comes in key order, not reversed as a trie's batch.
            pairs.reverse();
        }
        return Ok(build(p, &pairs, mode, None, m));
    };
    let size = root.size as usize;
    let mut elems = BATCH.min(size).max(1);
    if path.as_small() == Some(0) {
        elems = elems.min(FIRST_BATCH);
    }
    let nibble = |level: usize| -> usize {
        let bit = level * PATH_BITS as usize;
        digits
            .get(bit / 64)
            .map_or(0, |d| ((d >> (bit % 64)) & 0xf) as usize)
    };
    // Descend along the path to its leaf: each frame is a node's children
    // and the index of its next unexplored slot.
    let mut stack: Vec<(&[Term], usize)> = Vec::new();
    let mut pairs: Vec<(Term, Term)> = Vec::with_capacity(elems);
    let mut children = root.children;
    loop {
        let i = nibble(stack.len());
        let child = children.get(i).ok_or(())?;
        stack.push((children, i + 1));
        if let Some(kv) = child.as_cons() {
            pairs.push(kv);
            break;
        }
        children = child.as_hash_node().ok_or(())?.children;
    }
    // Walk on, depth first, until the batch is full.
    loop {
        while stack.last().is_some_and(|&(c, next)| next >= c.len()) {
            stack.pop();
        }
        if pairs.len() == elems {
            break;
        }
        let Some(top) = stack.last_mut() else { break };
        let (slots, next) = *top;
        let child = &slots[next];
        top.1 += 1;
        if let Some(kv) = child.as_cons() {
            pairs.push(kv);
        } else if let Some(node) = child.as_hash_node() {
            stack.push((node.children, 0));
        }
    }
    // The path to the next unexplored slot: the top frame's next slot, and
    // for each frame below it the slot it descended through.
    let next_path = if stack.is_empty() {
        None
    } else {
        let last = stack.len() - 1;
        let mut value = BigInt::from(0);
        for (depth, &(_, next)) in stack.iter().enumerate().rev() {
            let slot = if depth == last { next } else { next - 1 };
            value = (value << PATH_BITS) | BigInt::from(slot);
        }
        Some(p.heap.bigint(&value))
    };
    Ok(build(p, &pairs, mode, next_path, m))
}

/// The answer of `map_next` for `pairs` in walk order.
fn build(p: &mut Process, pairs: &[(Term, Term)], mode: Mode, next: Option<Term>, m: Term) -> Term {
    match mode {
        Mode::Iterator => {
            let mut acc = match next {
                Some(path) => p.heap.cons(path, m),
                None => *NONE,
            };
            for &(k, v) in pairs.iter().rev() {
                acc = p.heap.tuple(&[k, v, acc]);
            }
            acc
        }
        Mode::List(tail) => {
            let mut acc = tail;
            for &(k, v) in pairs {
                let t = p.heap.tuple(&[k, v]);
                acc = p.heap.cons(t, acc);
            }
            if let Some(path) = next {
                acc = p.heap.cons(m, acc);
                acc = p.heap.cons(path, acc);
            }
            acc
        }
    }
}
