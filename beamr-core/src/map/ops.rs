//! The map operations the runtime and the External Term Format use:
//! building, lookup, insertion, update, removal, size and listing.
//!
//! Every function takes the map as a [`Term`] and builds what it returns on
//! the given [`Heap`]; the argument map is never modified (maps are
//! immutable values), and unchanged parts are shared.
//!
//! A map of up to [`FLAT_MAP_LIMIT`] keys is flat; one more key turns it
//! into a hash trie, and removing keys from a trie until
//! [`FLAT_MAP_LIMIT`] remain turns it back into a flat map, as OTP 25.

use crate::heap::Heap;
use crate::term::{FlatMapView, Term, FLAT_MAP_LIMIT};

use super::flat::{self, FlatPut};
use super::iter::{MapIter, Order};
use super::trie::{self, Inserted, KeyHash, Removed};

/// Why a map operation failed, with the offending term (Erlang's
/// `{badmap, Term}` and `{badkey, Key}`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MapError {
    /// The argument is not a map.
    #[error("badmap: {0:?} is not a map")]
    BadMap(Term),
    /// The key is not in the map (`maps:update/3`).
    #[error("badkey: {0:?} is not a key of the map")]
    BadKey(Term),
}

/// The empty map `#{}`.
pub fn new(heap: &mut Heap) -> Term {
    heap.flat_map(&[], &[])
}

/// A map of `pairs`; for a key given more than once the last pair wins, as
/// `maps:from_list/1`.
pub fn from_pairs(heap: &mut Heap, pairs: &[(Term, Term)]) -> Term {
    if pairs.len() <= FLAT_MAP_LIMIT {
        let mut entries = flat::sort_dedup(pairs);
        return flat::build(heap, &mut entries);
    }
    let mut entries = trie::dedup_by_hash(pairs);
    if entries.len() <= FLAT_MAP_LIMIT {
        flat::build(heap, &mut entries)
    } else {
        trie::build(heap, &entries)
    }
}

/// The value of `key` (matched exactly, `=:=`), or `None` when the key is
/// absent or `map` is not a map.
#[inline]
pub fn get(map: Term, key: Term) -> Option<Term> {
    if let Some(view) = map.flat_map_parts() {
        return flat::find(&view, key).map(|i| view.values[i]);
    }
    trie::get(map.hash_node_parts()?, key)
}

/// True if `key` is a key of `map` (`maps:is_key/2`).
#[inline]
pub fn contains(map: Term, key: Term) -> bool {
    get(map, key).is_some()
}

/// The number of keys of `map` (`map_size/1`), or `None` for a non-map.
#[inline]
pub fn size(map: Term) -> Option<usize> {
    map.map_size()
}

/// `map` with `key => value` (`maps:put/3`, `M#{K => V}`). The same map
/// comes back when the key already holds this very value. For an existing
/// key, a flat map keeps the old key term and a trie takes the new one, as
/// OTP 25 (they can differ only as `0.0` and `-0.0` do).
pub fn put(heap: &mut Heap, map: Term, key: Term, value: Term) -> Result<Term, MapError> {
    if let Some(view) = flat_view(map) {
        return Ok(match flat::put(heap, map, view, key, value) {
            FlatPut::Map(m) => m,
            FlatPut::Overflow(entries) => trie::build(heap, &entries),
        });
    }
    let root = map.hash_node_parts().ok_or(MapError::BadMap(map))?;
    Ok(
        match trie::insert(heap, root, 0, &mut KeyHash::new(key), value) {
            Inserted::Unchanged => map,
            Inserted::Node(m, _) => m,
        },
    )
}

/// `map` with the value of the existing `key` replaced (`maps:update/3`,
/// `M#{K := V}`); [`MapError::BadKey`] if `key` is absent.
pub fn update(heap: &mut Heap, map: Term, key: Term, value: Term) -> Result<Term, MapError> {
    if let Some(view) = flat_view(map) {
        let i = flat::find(&view, key).ok_or(MapError::BadKey(key))?;
        return Ok(flat::set_value(heap, map, view, i, value));
    }
    let root = map.hash_node_parts().ok_or(MapError::BadMap(map))?;
    if trie::get(root, key).is_none() {
        return Err(MapError::BadKey(key));
    }
    Ok(
        match trie::insert(heap, root, 0, &mut KeyHash::new(key), value) {
            Inserted::Unchanged => map,
            Inserted::Node(m, _) => m,
        },
    )
}

/// `map` without `key` (`maps:remove/2`); the same map if `key` is absent.
pub fn remove(heap: &mut Heap, map: Term, key: Term) -> Result<Term, MapError> {
    if let Some(view) = flat_view(map) {
        return Ok(match flat::find(&view, key) {
            Some(i) => flat::remove_at(heap, view, i),
            None => map,
        });
    }
    let root = map.hash_node_parts().ok_or(MapError::BadMap(map))?;
    match trie::remove(heap, root, 0, &mut KeyHash::new(key)) {
        Removed::NotFound => Ok(map),
        Removed::Node(m) | Removed::Leaf(m) => {
            if root.size as usize - 1 <= FLAT_MAP_LIMIT {
                let mut entries: Vec<(Term, Term)> = MapIter::new(m, Order::ToList)
                    .into_iter()
                    .flatten()
                    .collect();
                Ok(flat::build(heap, &mut entries))
            } else {
                Ok(m)
            }
        }
    }
}

/// The entries of `map` in `maps:to_list/1` order (see [`Order`]), or
/// `None` for a non-map.
#[inline]
pub fn iter(map: Term) -> Option<MapIter> {
    MapIter::new(map, Order::ToList)
}

/// The entries of `map` in the given order, or `None` for a non-map.
#[inline]
pub fn iter_in(map: Term, order: Order) -> Option<MapIter> {
    MapIter::new(map, order)
}

/// The order of `maps:to_list/1`, `maps:keys/1` and `maps:values/1`:
/// [`Order::ToList`], or from OTP 29 on the iterator's.
fn list_order() -> Order {
    if crate::release::to_list_as_iterator() {
        Order::Next
    } else {
        Order::ToList
    }
}

/// `maps:keys/1`: the keys as an Erlang list, in `maps:to_list/1` order.
pub fn keys(heap: &mut Heap, map: Term) -> Result<Term, MapError> {
    list_of(heap, map, |(k, _)| k)
}

/// `maps:values/1`: the values as an Erlang list, in `maps:to_list/1` order.
pub fn values(heap: &mut Heap, map: Term) -> Result<Term, MapError> {
    list_of(heap, map, |(_, v)| v)
}

/// `maps:to_list/1`: a list of `{Key, Value}` tuples.
pub fn to_list(heap: &mut Heap, map: Term) -> Result<Term, MapError> {
    let entries: Vec<(Term, Term)> = iter_in(map, list_order())
        .ok_or(MapError::BadMap(map))?
        .collect();
    let tuples: Vec<Term> = entries.iter().map(|&(k, v)| heap.tuple(&[k, v])).collect();
    Ok(heap.list(&tuples))
}

fn list_of(
    heap: &mut Heap,
    map: Term,
    pick: impl Fn((Term, Term)) -> Term,
) -> Result<Term, MapError> {
    let items: Vec<Term> = iter_in(map, list_order())
        .ok_or(MapError::BadMap(map))?
        .map(pick)
        .collect();
    Ok(heap.list(&items))
}

/// A flat map's view, if `map` is a well-formed flat map (at most
/// [`FLAT_MAP_LIMIT`] keys). A larger flat map, which only a hand-built
/// term can be, is treated through the trie path after conversion.
fn flat_view(map: Term) -> Option<FlatMapView<'static>> {
    map.flat_map_parts()
        .filter(|v| v.keys.len() <= FLAT_MAP_LIMIT && v.keys.len() == v.values.len())
}
