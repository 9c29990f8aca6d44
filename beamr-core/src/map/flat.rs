//! Flat maps: up to [`FLAT_MAP_LIMIT`] keys sorted in map-key order, with
//! the values beside them (`[hdr, size, keys_tuple, v1 .. vn]`).
//!
//! Lookups scan the keys (a word compare per key for immediate keys, as the
//! BEAM's `erts_maps_get`); insertion finds its place by binary search in
//! map-key order and copies the keys tuple; a value update shares it.

use std::cmp::Ordering;

use crate::heap::Heap;
use crate::order::{compare_map_keys, exact_eq};
use crate::term::{FlatMapView, Term, FLAT_MAP_LIMIT};

/// The index of `key` among a flat map's keys.
#[inline]
pub(super) fn find(view: &FlatMapView, key: Term) -> Option<usize> {
    if key.is_immediate() {
        view.keys.iter().position(|k| k.raw() == key.raw())
    } else {
        view.keys
            .iter()
            .position(|&k| !k.is_immediate() && exact_eq(k, key))
    }
}

/// Where `key` is or would go, by binary search in map-key order.
fn locate(view: &FlatMapView, key: Term) -> Result<usize, usize> {
    if let Some(i) = find(view, key) {
        return Ok(i);
    }
    match view
        .keys
        .binary_search_by(|&k| compare_map_keys(k, key).then(Ordering::Less))
    {
        Ok(i) | Err(i) => Err(i),
    }
}

/// The result of putting a key into a flat map.
pub(super) enum FlatPut {
    /// The new map (or the same one when nothing changed).
    Map(Term),
    /// The map is full: the caller builds a trie of these entries.
    Overflow(Vec<(Term, Term)>),
}

/// Puts `key => value`; an existing key keeps its term and gets the value
/// (as OTP's flat maps; the key terms can differ only as 0.0 and -0.0 do).
pub(super) fn put(
    heap: &mut Heap,
    map: Term,
    view: FlatMapView,
    key: Term,
    value: Term,
) -> FlatPut {
    match locate(&view, key) {
        Ok(i) => FlatPut::Map(set_value(heap, map, view, i, value)),
        Err(pos) if view.keys.len() < FLAT_MAP_LIMIT => {
            let n = view.keys.len();
            let mut keys = [Term::NIL; FLAT_MAP_LIMIT];
            let mut values = [Term::NIL; FLAT_MAP_LIMIT];
            keys[..pos].copy_from_slice(&view.keys[..pos]);
            values[..pos].copy_from_slice(&view.values[..pos]);
            keys[pos] = key;
            values[pos] = value;
            keys[pos + 1..=n].copy_from_slice(&view.keys[pos..]);
            values[pos + 1..=n].copy_from_slice(&view.values[pos..]);
            FlatPut::Map(heap.flat_map(&keys[..=n], &values[..=n]))
        }
        Err(_) => {
            let mut entries = entries(&view);
            entries.push((key, value));
            FlatPut::Overflow(entries)
        }
    }
}

/// The map with value `i` replaced (the same map if the value is the same
/// word); the keys tuple is shared.
pub(super) fn set_value(
    heap: &mut Heap,
    map: Term,
    view: FlatMapView,
    i: usize,
    value: Term,
) -> Term {
    if view.values[i].raw() == value.raw() {
        return map;
    }
    let mut values = [Term::NIL; FLAT_MAP_LIMIT];
    let n = view.values.len().min(FLAT_MAP_LIMIT);
    values[..n].copy_from_slice(&view.values[..n]);
    values[i] = value;
    heap.flat_map_with_keys(keys_tuple(map), &values[..n])
}

/// The map without key `i`.
pub(super) fn remove_at(heap: &mut Heap, view: FlatMapView, i: usize) -> Term {
    let n = view.keys.len();
    let mut keys = [Term::NIL; FLAT_MAP_LIMIT];
    let mut values = [Term::NIL; FLAT_MAP_LIMIT];
    keys[..i].copy_from_slice(&view.keys[..i]);
    values[..i].copy_from_slice(&view.values[..i]);
    keys[i..n - 1].copy_from_slice(&view.keys[i + 1..]);
    values[i..n - 1].copy_from_slice(&view.values[i + 1..]);
    heap.flat_map(&keys[..n - 1], &values[..n - 1])
}

/// A flat map's keys tuple term (its second word).
fn keys_tuple(map: Term) -> Term {
    Term::from_word(map.boxed_words()[1])
}

/// The entries of a flat map, in key order.
pub(super) fn entries(view: &FlatMapView) -> Vec<(Term, Term)> {
    view.keys
        .iter()
        .copied()
        .zip(view.values.iter().copied())
        .collect()
}

/// Builds a flat map from at most [`FLAT_MAP_LIMIT`] entries with distinct
/// keys, in any order.
pub(super) fn build(heap: &mut Heap, entries: &mut [(Term, Term)]) -> Term {
    debug_assert!(entries.len() <= FLAT_MAP_LIMIT);
    entries.sort_by(|a, b| compare_map_keys(a.0, b.0));
    let n = entries.len();
    let mut keys = [Term::NIL; FLAT_MAP_LIMIT];
    let mut values = [Term::NIL; FLAT_MAP_LIMIT];
    for (i, &(k, v)) in entries.iter().enumerate() {
        keys[i] = k;
        values[i] = v;
    }
    heap.flat_map(&keys[..n], &values[..n])
}

/// Sorts `pairs` by key in map-key order and removes duplicate keys: the
/// last occurrence of a key wins, key term and value (`maps:from_list/1`).
pub(super) fn sort_dedup(pairs: &[(Term, Term)]) -> Vec<(Term, Term)> {
    let mut sorted: Vec<(Term, Term)> = pairs.to_vec();
    // Stable: equal keys stay in input order.
    sorted.sort_by(|a, b| compare_map_keys(a.0, b.0));
    let mut out: Vec<(Term, Term)> = Vec::with_capacity(sorted.len());
    for (k, v) in sorted {
        match out.last_mut() {
            Some(last) if compare_map_keys(last.0, k) == Ordering::Equal => *last = (k, v),
            _ => out.push((k, v)),
        }
    }
    out
}
