//! The key-value pairs of a map in its internal iteration order, the order
//! `maps:iterator/1`, `maps:to_list/1` and `~w` use.
//!
//! A flat map iterates in key order. A hash map iterates its trie depth
//! first, children in bitmap order.
//!
//! TODO: switch to `crate::map::iter` once the map module provides it, so
//! that the order is defined in exactly one place.

use crate::term::Term;

/// An iterator over a map's pairs; yields nothing for a non-map.
pub(crate) struct MapPairs {
    /// Keys and values of a flat map, and the next index.
    flat: Option<(&'static [Term], &'static [Term], usize)>,
    /// Hash trie nodes being walked: children and the next index.
    stack: Vec<(&'static [Term], usize)>,
}

impl MapPairs {
    /// The pairs of `map`.
    pub(crate) fn new(map: Term) -> MapPairs {
        if let Some(flat) = map.as_flat_map() {
            return MapPairs {
                flat: Some((flat.keys, flat.values, 0)),
                stack: Vec::new(),
            };
        }
        let mut stack = Vec::new();
        if let Some(node) = map.as_hash_node() {
            stack.push((node.children, 0));
        }
        MapPairs { flat: None, stack }
    }
}

impl Iterator for MapPairs {
    type Item = (Term, Term);

    fn next(&mut self) -> Option<(Term, Term)> {
        if let Some((keys, values, i)) = &mut self.flat {
            let pair = (*keys.get(*i)?, *values.get(*i)?);
            *i += 1;
            return Some(pair);
        }
        loop {
            let (children, i) = self.stack.last_mut()?;
            let Some(&child) = children.get(*i) else {
                self.stack.pop();
                continue;
            };
            *i += 1;
            if let Some(pair) = child.as_cons() {
                return Some(pair);
            }
            if let Some(node) = child.as_hash_node() {
                self.stack.push((node.children, 0));
            }
        }
    }
}
