//! Iterating a map's entries in the BEAM's orders.
//!
//! Two orders exist on OTP 25, and they differ only for hash tries:
//!
//! - [`Order::ToList`]: `maps:to_list/1`, `maps:keys/1`, `maps:values/1`
//!   and `term_to_binary/1`. A trie is walked depth first from its last
//!   slot to its first.
//! - [`Order::Next`]: `maps:iterator/1` with `maps:next/1`, `maps:fold/3`,
//!   `maps:map/2` and `io:format("~p")`. A trie is walked depth first from
//!   its first slot to its last: the reverse of `ToList`.
//!
//! A flat map yields its keys in ascending map-key order in both. From OTP
//! 29 on (28 not checked) `maps:to_list/1`, `maps:keys/1` and
//! `maps:values/1` follow `Next` ([`super::ops`]); `term_to_binary/1`
//! keeps `ToList`.

use crate::term::Term;

/// Which of the BEAM's two iteration orders to follow.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// The order of `maps:to_list/1`, `maps:keys/1` and `term_to_binary/1`.
    ToList,
    /// The order of `maps:next/1`, `maps:fold/3` and `~p`.
    Next,
}

/// An iterator over a map's `(key, value)` pairs.
#[derive(Clone, Debug)]
pub struct MapIter {
    state: State,
    remaining: usize,
}

#[derive(Clone, Debug)]
enum State {
    Flat {
        keys: &'static [Term],
        values: &'static [Term],
        pos: usize,
    },
    Trie {
        /// The children of each node on the path not yet visited.
        stack: Vec<&'static [Term]>,
        backwards: bool,
    },
}

impl MapIter {
    /// An iterator over `map` in `order`, or `None` if `map` is not a map.
    pub fn new(map: Term, order: Order) -> Option<MapIter> {
        if let Some(flat) = map.flat_map_parts() {
            return Some(MapIter {
                remaining: flat.keys.len(),
                state: State::Flat {
                    keys: flat.keys,
                    values: flat.values,
                    pos: 0,
                },
            });
        }
        let root = map.hash_node_parts()?;
        Some(MapIter {
            remaining: root.size as usize,
            state: State::Trie {
                stack: vec![root.children],
                backwards: order == Order::ToList,
            },
        })
    }
}

impl Iterator for MapIter {
    type Item = (Term, Term);

    #[inline]
    fn next(&mut self) -> Option<(Term, Term)> {
        let item = match &mut self.state {
            State::Flat { keys, values, pos } => {
                let i = *pos;
                let k = *keys.get(i)?;
                *pos += 1;
                (k, values[i])
            }
            State::Trie { stack, backwards } => loop {
                let top = stack.last_mut()?;
                let taken = if *backwards {
                    top.split_last().map(|(&c, rest)| (c, rest))
                } else {
                    top.split_first().map(|(&c, rest)| (c, rest))
                };
                let Some((child, rest)) = taken else {
                    stack.pop();
                    continue;
                };
                *top = rest;
                if let Some(kv) = child.as_cons() {
                    break kv;
                }
                if let Some(node) = child.hash_node_parts() {
                    stack.push(node.children);
                }
            },
        };
        self.remaining = self.remaining.saturating_sub(1);
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl ExactSizeIterator for MapIter {}
