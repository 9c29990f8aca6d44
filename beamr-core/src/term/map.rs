//! Maps: flat maps of up to [`FLAT_MAP_LIMIT`] keys, and the nodes of the hash
//! array mapped trie used above that, as in the BEAM.

use super::header::Subtag;
use super::word::Term;

/// The most keys a flat map holds; larger maps are hash tries.
pub const FLAT_MAP_LIMIT: usize = 32;

/// A read-only view of a flat map: keys in map-key order, values beside them.
#[derive(Copy, Clone, Debug)]
pub struct FlatMapView<'a> {
    /// The keys, sorted in map-key order.
    pub keys: &'a [Term],
    /// The values, `values[i]` belonging to `keys[i]`.
    pub values: &'a [Term],
}

/// A read-only view of one node of a hash trie.
#[derive(Copy, Clone, Debug)]
pub struct HashNodeView<'a> {
    /// Which of the 16 or 32 slots are occupied (one bit each).
    pub bitmap: u64,
    /// The number of keys in the whole map (only set on the root node).
    pub size: u64,
    /// The occupied slots, in bitmap order: a sub-node or a `[Key | Value]` leaf.
    pub children: &'a [Term],
}

impl Term {
    /// True for a map of either representation.
    #[inline]
    pub fn is_map(self) -> bool {
        matches!(self.subtag(), Some(Subtag::FlatMap | Subtag::HashMap))
    }

    /// A view of a flat map, borrowed from this term (see [`Term`]'s
    /// validity rule).
    pub fn as_flat_map(&self) -> Option<FlatMapView<'_>> {
        self.flat_map_parts()
    }

    /// [`Term::as_flat_map`] for this crate's own traversals, which hold the
    /// view only within one call that never collects garbage.
    pub(crate) fn flat_map_parts(self) -> Option<FlatMapView<'static>> {
        if !self.is_boxed_with(Subtag::FlatMap) {
            return None;
        }
        let keys = Term::from_word(self.boxed_words()[1]).tuple_elements()?;
        // The words after size and keys are the value terms.
        let values = self.boxed_terms(2);
        Some(FlatMapView { keys, values })
    }

    /// A view of a hash-trie node, borrowed from this term (see [`Term`]'s
    /// validity rule).
    pub fn as_hash_node(&self) -> Option<HashNodeView<'_>> {
        self.hash_node_parts()
    }

    /// [`Term::as_hash_node`] for this crate's own traversals.
    pub(crate) fn hash_node_parts(self) -> Option<HashNodeView<'static>> {
        if !self.is_boxed_with(Subtag::HashMap) {
            return None;
        }
        let words = self.boxed_words();
        Some(HashNodeView {
            bitmap: words[0],
            size: words[1],
            // The words after bitmap and size are the child terms.
            children: self.boxed_terms(2),
        })
    }

    /// The number of keys of a map.
    pub fn map_size(self) -> Option<usize> {
        if let Some(flat) = self.flat_map_parts() {
            return Some(flat.keys.len());
        }
        self.hash_node_parts().map(|n| n.size as usize)
    }
}
