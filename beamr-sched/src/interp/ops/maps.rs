//! Execution of [`MapInstr`](crate::loader::maps::MapInstr) instructions.
//!
//! Flat maps (up to 32 keys, the common case) take fast paths that build
//! at most one new map per instruction, as the BEAM does:
//!
//! - an update of keys that are all present copies the values and shares
//!   the keys tuple (`M#{k := V}`, and `M#{k => V}` on an existing key);
//! - an insertion merges the map's sorted keys with the instruction's
//!   pairs (sorted at load time when the keys are constants) into one new
//!   flat map.
//!
//! Hash tries, and flat maps that grow past 32 keys, go through
//! `beamr_core::map` one key at a time.

use crate::interp::unwind::tagged_error;
use std::cmp::Ordering;

use beamr_core::atom::Atom;
use beamr_core::map;
use beamr_core::order::compare_map_keys;
use beamr_core::term::{FlatMapView, Term, FLAT_MAP_LIMIT};

use super::{fail_or, get, put, Flow};
use crate::loader::maps::{MapInstr, PutMap};
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// Executes one instruction.
pub fn exec(_rt: &Runtime, p: &mut Process, op: &MapInstr) -> Flow {
    match op {
        MapInstr::PutAssoc(put_op) => {
            collect_if_due(p, put_op);
            let src = get(p, put_op.src);
            if !src.is_map() {
                return fail_or(put_op.fail, || badmap(p, src));
            }
            let m = put_assoc(p, src, put_op);
            put(p, put_op.dst, m);
            Flow::Next
        }
        MapInstr::PutExact(put_op) => {
            collect_if_due(p, put_op);
            let src = get(p, put_op.src);
            if !src.is_map() {
                return fail_or(put_op.fail, || badmap(p, src));
            }
            match put_exact(p, src, put_op) {
                Ok(m) => {
                    put(p, put_op.dst, m);
                    Flow::Next
                }
                Err(key) => fail_or(put_op.fail, || tagged_error(p, Atom::BADKEY, key)),
            }
        }
        MapInstr::GetElements { fail, src, pairs } => {
            let m = get(p, *src);
            // The BEAM writes each destination as it finds its key; the
            // compiler never reads them on the fail path.
            for &(key, dst) in pairs.iter() {
                match map::get(m, get(p, key)) {
                    Some(v) => put(p, dst, v),
                    None => return Flow::Jump(*fail),
                }
            }
            Flow::Next
        }
        MapInstr::HasFields { fail, src, keys } => {
            let m = get(p, *src);
            if !m.is_map() || !keys.iter().all(|&k| map::contains(m, get(p, k))) {
                return Flow::Jump(*fail);
            }
            Flow::Next
        }
    }
}

/// Collects garbage first when earlier allocations overflowed the young
/// generation, as the BEAM's map updates do: a loop that only updates a
/// map (`build(N, M) -> build(N - 1, M#{N => V})`) has no other point where
/// the old versions of the map could be reclaimed.
#[inline(always)]
fn collect_if_due(p: &mut Process, op: &PutMap) {
    if p.heap.needs_gc() {
        p.collect(0, op.live as usize);
    }
}

/// `error:{badmap, Term}`.
#[cold]
fn badmap(p: &mut Process, term: Term) -> Exception {
    tagged_error(p, Atom::BADMAP, term)
}

/// A flat map's view, when it is one the fast paths can handle.
#[inline]
fn flat(m: &Term) -> Option<FlatMapView<'_>> {
    m.as_flat_map()
        .filter(|v| v.keys.len() <= FLAT_MAP_LIMIT && v.keys.len() == v.values.len())
}

/// Reads the instruction's pairs into `buf`, sorted in map-key order with
/// the last value of a repeated key; returns how many there are.
fn read_pairs(p: &Process, op: &PutMap, buf: &mut [(Term, Term); FLAT_MAP_LIMIT]) -> usize {
    let mut n = 0;
    for &(k, v) in op.pairs.iter() {
        buf[n] = (get(p, k), get(p, v));
        n += 1;
    }
    if !op.sorted {
        // Insertion sort (stable, so the later of two equal keys stays
        // after), then drop all but the last of each run of equal keys.
        for i in 1..n {
            let mut j = i;
            while j > 0 && compare_map_keys(buf[j - 1].0, buf[j].0) == Ordering::Greater {
                buf.swap(j - 1, j);
                j -= 1;
            }
        }
        let mut out = 0;
        for i in 0..n {
            if out > 0 && compare_map_keys(buf[out - 1].0, buf[i].0) == Ordering::Equal {
                buf[out - 1].1 = buf[i].1;
            } else {
                buf[out] = buf[i];
                out += 1;
            }
        }
        n = out;
    }
    n
}

/// `M#{K => V, ...}` on a map.
fn put_assoc(p: &mut Process, m: Term, op: &PutMap) -> Term {
    if op.pairs.len() <= FLAT_MAP_LIMIT {
        if let Some(view) = flat(&m) {
            let mut buf = [(Term::NIL, Term::NIL); FLAT_MAP_LIMIT];
            let n = read_pairs(p, op, &mut buf);
            if let Some(r) = flat_assoc(p, m, view, &buf[..n]) {
                return r;
            }
            // More than 32 keys: the result is a trie.
            let mut entries: Vec<(Term, Term)> = view
                .keys
                .iter()
                .copied()
                .zip(view.values.iter().copied())
                .collect();
            entries.extend_from_slice(&buf[..n]);
            return map::from_pairs(&mut p.heap, &entries);
        }
    }
    let mut acc = m;
    for &(k, v) in op.pairs.iter() {
        let (k, v) = (get(p, k), get(p, v));
        acc = map::put(&mut p.heap, acc, k, v).unwrap_or(acc);
    }
    acc
}

/// Puts sorted, distinct `pairs` into the flat map `m`; `None` when the
/// result would have more than 32 keys.
fn flat_assoc(p: &mut Process, m: Term, view: FlatMapView, pairs: &[(Term, Term)]) -> Option<Term> {
    // Every key present: replace values, sharing the keys tuple.
    let mut found = [0usize; FLAT_MAP_LIMIT];
    if pairs
        .iter()
        .enumerate()
        .all(|(i, &(k, _))| match index_of(&view, k) {
            Some(at) => {
                found[i] = at;
                true
            }
            None => false,
        })
    {
        return Some(replace_values(p, m, view, pairs, &found[..pairs.len()]));
    }
    // Merge the two sorted key sequences.
    let mut keys = [Term::NIL; FLAT_MAP_LIMIT];
    let mut values = [Term::NIL; FLAT_MAP_LIMIT];
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < view.keys.len() || j < pairs.len() {
        if n == FLAT_MAP_LIMIT {
            return None;
        }
        let order = match (view.keys.get(i), pairs.get(j)) {
            (Some(&a), Some(&(b, _))) => compare_map_keys(a, b),
            (Some(_), None) => Ordering::Less,
            _ => Ordering::Greater,
        };
        match order {
            Ordering::Less => {
                (keys[n], values[n]) = (view.keys[i], view.values[i]);
                i += 1;
            }
            Ordering::Greater => {
                (keys[n], values[n]) = pairs[j];
                j += 1;
            }
            Ordering::Equal => {
                (keys[n], values[n]) = (view.keys[i], pairs[j].1);
                i += 1;
                j += 1;
            }
        }
        n += 1;
    }
    Some(p.heap.flat_map(&keys[..n], &values[..n]))
}

/// The index of `key` in a flat map (word compare for immediates).
#[inline]
fn index_of(view: &FlatMapView, key: Term) -> Option<usize> {
    if key.is_immediate() {
        view.keys.iter().position(|k| k.raw() == key.raw())
    } else {
        view.keys
            .iter()
            .position(|&k| !k.is_immediate() && beamr_core::order::exact_eq(k, key))
    }
}

/// The flat map `m` with `pairs[i].1` at value index `at[i]`: one new map
/// sharing the keys tuple, or `m` itself when no value changes.
fn replace_values(
    p: &mut Process,
    m: Term,
    view: FlatMapView,
    pairs: &[(Term, Term)],
    at: &[usize],
) -> Term {
    let Some(first) = (0..pairs.len()).find(|&i| view.values[at[i]].raw() != pairs[i].1.raw())
    else {
        return m;
    };
    let copy = match map::update(&mut p.heap, m, view.keys[at[first]], pairs[first].1) {
        Ok(c) if c.raw() != m.raw() => c,
        _ => return m,
    };
    let Some(new_view) = copy.as_flat_map() else {
        return copy;
    };
    let values = new_view.values.as_ptr() as *mut Term;
    for i in first + 1..pairs.len() {
        if at[i] < new_view.values.len() {
            // SAFETY: `copy` was allocated by `map::update` just above and
            // no other term refers to it yet; its value words are the
            // `values.len()` words at `values`, and `at[i]` is in range.
            unsafe { values.add(at[i]).write(pairs[i].1) };
        }
    }
    copy
}

/// `M#{K := V, ...}`; `Err(Key)` for the first key that is missing.
fn put_exact(p: &mut Process, m: Term, op: &PutMap) -> Result<Term, Term> {
    if op.pairs.len() <= FLAT_MAP_LIMIT {
        if let Some(view) = flat(&m) {
            let mut buf = [(Term::NIL, Term::NIL); FLAT_MAP_LIMIT];
            let mut found = [0usize; FLAT_MAP_LIMIT];
            let mut n = 0;
            for &(k, v) in op.pairs.iter() {
                let (k, v) = (get(p, k), get(p, v));
                found[n] = index_of(&view, k).ok_or(k)?;
                buf[n] = (k, v);
                n += 1;
            }
            return Ok(replace_values(p, m, view, &buf[..n], &found[..n]));
        }
    }
    // Check every key before building anything.
    for &(k, _) in op.pairs.iter() {
        let k = get(p, k);
        if !map::contains(m, k) {
            return Err(k);
        }
    }
    let mut acc = m;
    for &(k, v) in op.pairs.iter() {
        let (k, v) = (get(p, k), get(p, v));
        acc = map::update(&mut p.heap, acc, k, v).map_err(|_| k)?;
    }
    Ok(acc)
}
