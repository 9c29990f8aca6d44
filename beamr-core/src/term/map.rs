//! Maps: flat maps of up to [`FLAT_MAP_LIMIT`] keys, and the nodes of the hash
//! array mapped trie used above that, as in the BEAM.

use super::header::Subtag;
use super::word::Term;

/// The most keys a flat map holds; larger maps are hash tries.
pub const FLAT_MAP_LIMIT: usize = 32;

/// A read-only view of a flat map: keys in map-key order, values beside them.
#[derive(Copy, Clone, Debug)]
pub struct FlatMapView {
    /// The keys, sorted in map-key order.
    pub keys: &'static [Term],
    /// The values, `values[i]` belonging to `keys[i]`.
    pub values: &'static [Term],
}

/// A read-only view of one node of a hash trie.
#[derive(Copy, Clone, Debug)]
pub struct HashNodeView {
    /// Which of the 16 or 32 slots are occupied (one bit each).
    pub bitmap: u64,
    /// The number of keys in the whole map (only set on the root node).
    pub size: u64,
    /// The occupied slots, in bitmap order: a sub-node or a `[Key | Value]` leaf.
    pub children: &'static [Term],
}

impl Term {
    /// True for a map of either representation.
    #[inline]
    pub fn is_map(self) -> bool {
        matches!(self.subtag(), Some(Subtag::FlatMap | Subtag::HashMap))
    }

    /// A view of a flat map.
    pub fn as_flat_map(self) -> Option<FlatMapView> {
        if !self.is_boxed_with(Subtag::FlatMap) {
            return None;
        }
        let words = self.boxed_words();
        let keys = Term::from_word(words[1]).as_tuple()?;
        // SAFETY: the words after size and keys are the value terms.
        let values = unsafe {
            std::slice::from_raw_parts(words.as_ptr().add(2) as *const Term, words.len() - 2)
        };
        Some(FlatMapView { keys, values })
    }

    /// A view of a hash-trie node.
    pub fn as_hash_node(self) -> Option<HashNodeView> {
        if !self.is_boxed_with(Subtag::HashMap) {
            return None;
        }
        let words = self.boxed_words();
        // SAFETY: the words after bitmap and size are the child terms.
        let children = unsafe {
            std::slice::from_raw_parts(words.as_ptr().add(2) as *const Term, words.len() - 2)
        };
        Some(HashNodeView {
            bitmap: words[0],
            size: words[1],
            children,
        })
    }

    /// The number of keys of a map.
    pub fn map_size(self) -> Option<usize> {
        if let Some(flat) = self.as_flat_map() {
            return Some(flat.keys.len());
        }
        self.as_hash_node().map(|n| n.size as usize)
    }
}
