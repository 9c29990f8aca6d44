//! Hash array mapped tries: the maps above [`FLAT_MAP_LIMIT`] keys, shaped
//! as OTP's (`erl_map.c`).
//!
//! ```text
//! node  [hdr(HashMap, 2 + n), bitmap, size, child_1 .. child_n]
//!        bitmap  bits 0..15: which of the 16 slots are occupied; children in slot order
//!        size    the whole map's key count in the root node, 0 in inner nodes
//!        child   a leaf: a cons cell [Key | Value]; or an inner node
//! ```
//!
//! A key's slot at depth `d` is bits `4 * (d % L) ..+ 4` of its map hash for
//! round `d / L` ([`super::hash::map_hash`]): L = 8 levels per 32-bit hash
//! (OTP 25), 16 per 64-bit hash (OTP 26 on), then a freshly salted hash (as
//! OTP 25 does; OTP 26 has collision nodes there, for keys whose 64-bit
//! hashes agree).
//!
//! The shape is a function of the key set alone: a leaf sits at the
//! shallowest depth where no other key shares its slot path, and an inner
//! node exists for each slot path that two or more keys share. Insertion
//! builds exactly that (a chain of single-child nodes down to where two
//! colliding keys part), and removal restores it (a node left with a single
//! leaf is replaced by the leaf, up the path). So equal maps have equal
//! shapes, which `=:=` relies on, and a leaf's position in a depth-first
//! walk depends only on its hashes: the iteration order is OTP's.
//!
//! Insert and remove copy the path from the root to the changed slot; the
//! rest of the trie is shared.

use crate::heap::Heap;
use crate::order::exact_eq;
use crate::term::{HashNodeView, Term};

use super::hash::{levels_per_round, map_hash};

/// Slots per node.
const SLOTS: usize = 16;
/// The most hash rounds a trie may use: two distinct keys agreeing on 32
/// independently salted hashes do not occur (the hash covers every bit
/// that tells keys apart).
const MAX_ROUNDS: u32 = 32;

/// A key with its hash for the round of the level being looked at.
#[derive(Copy, Clone)]
pub(super) struct KeyHash {
    key: Term,
    round: u32,
    /// log2 of the levels a round covers (3 or 4), read once.
    round_shift: u32,
    hash: u64,
}

impl KeyHash {
    /// The key with its first-round hash.
    #[inline]
    pub(super) fn new(key: Term) -> KeyHash {
        KeyHash {
            key,
            round: 0,
            round_shift: levels_per_round().trailing_zeros(),
            hash: map_hash(key, 0),
        }
    }

    /// The key's slot at trie level `level`.
    #[inline]
    pub(super) fn slot(&mut self, level: u32) -> usize {
        let round = level >> self.round_shift;
        if round != self.round {
            self.round = round;
            self.hash = map_hash(self.key, round);
        }
        let within = level & ((1 << self.round_shift) - 1);
        ((self.hash >> (4 * within)) & 0xf) as usize
    }

    /// The first-round hash with its nibbles reversed: sorting by it (then
    /// by later rounds) is the trie's depth-first slot order.
    #[inline]
    fn order_key(&self) -> u64 {
        reverse_nibbles(self.hash)
    }
}

/// Reverses the nibbles of a round's hash (the slot of its first level
/// becomes the most significant): the eight of a 32-bit hash or the
/// sixteen of a 64-bit one.
#[inline]
fn reverse_nibbles(h: u64) -> u64 {
    let h = h.swap_bytes();
    let r = ((h & 0x0f0f_0f0f_0f0f_0f0f) << 4) | ((h >> 4) & 0x0f0f_0f0f_0f0f_0f0f);
    if levels_per_round() == 8 {
        r >> 32
    } else {
        r
    }
}

/// The index among the children of the child in `slot`, if it is occupied.
#[inline]
fn child_index(bitmap: u64, slot: usize) -> Option<usize> {
    let bit = 1u64 << slot;
    if bitmap & bit == 0 {
        None
    } else {
        Some((bitmap & (bit - 1)).count_ones() as usize)
    }
}

/// Looks `key` up in the trie rooted at `root`.
pub(super) fn get(root: HashNodeView, key: Term) -> Option<Term> {
    let mut kh = KeyHash::new(key);
    let mut node = root;
    let mut level = 0;
    loop {
        let child = node.children[child_index(node.bitmap, kh.slot(level))?];
        if let Some((k, v)) = child.as_cons() {
            return (k.raw() == key.raw() || exact_eq(k, key)).then_some(v);
        }
        node = child.hash_node_parts()?;
        level += 1;
    }
}

/// The result of an insertion below a node.
pub(super) enum Inserted {
    /// The key was there with this very value: nothing changed.
    Unchanged,
    /// The new node, and whether the map gained a key.
    Node(Term, bool),
}

/// Puts `key => value` into the trie node `node` at `level`; `size` is the
/// size word of the root (used when `level` is 0).
pub(super) fn insert(
    heap: &mut Heap,
    node: HashNodeView,
    level: u32,
    kh: &mut KeyHash,
    value: Term,
) -> Inserted {
    let key = kh.key;
    let slot = kh.slot(level);
    let size_of = |grew: bool| {
        if level == 0 {
            node.size + grew as u64
        } else {
            0
        }
    };
    let Some(i) = child_index(node.bitmap, slot) else {
        let leaf = heap.cons(key, value);
        let bitmap = node.bitmap | (1 << slot);
        let i = (bitmap & ((1u64 << slot) - 1)).count_ones() as usize;
        return Inserted::Node(
            heap.hash_node_with(bitmap, size_of(true), node.children, i, leaf, true),
            true,
        );
    };
    let child = node.children[i];
    let (new_child, grew) = if let Some((k, v)) = child.as_cons() {
        if k.raw() == key.raw() || exact_eq(k, key) {
            if k.raw() == key.raw() && v.raw() == value.raw() {
                return Inserted::Unchanged;
            }
            // The new key term replaces the old one (they differ only as
            // 0.0 and -0.0 do), as OTP's trie insertion does.
            (heap.cons(key, value), false)
        } else {
            let leaf = heap.cons(key, value);
            let mut other = KeyHash::new(k);
            (
                pair_subtree(heap, level + 1, (&mut other, child), (kh, leaf)),
                true,
            )
        }
    } else {
        let Some(sub) = child.hash_node_parts() else {
            return Inserted::Unchanged;
        };
        match insert(heap, sub, level + 1, kh, value) {
            Inserted::Unchanged => return Inserted::Unchanged,
            Inserted::Node(n, grew) => (n, grew),
        }
    };
    Inserted::Node(
        heap.hash_node_with(
            node.bitmap,
            size_of(grew),
            node.children,
            i,
            new_child,
            false,
        ),
        grew,
    )
}

/// The subtree holding two leaves whose slot paths agree down to `level`:
/// a chain of single-child nodes down to the level where they part.
fn pair_subtree(
    heap: &mut Heap,
    level: u32,
    a: (&mut KeyHash, Term),
    b: (&mut KeyHash, Term),
) -> Term {
    let (ka, la) = a;
    let (kb, lb) = b;
    let mut level = level;
    let mut chain: Vec<usize> = Vec::new();
    let (sa, sb) = loop {
        assert!(
            level < MAX_ROUNDS * levels_per_round(),
            "map keys collide on every hash round"
        );
        let (sa, sb) = (ka.slot(level), kb.slot(level));
        if sa != sb {
            break (sa, sb);
        }
        chain.push(sa);
        level += 1;
    };
    let children = if sa < sb { [la, lb] } else { [lb, la] };
    let mut node = heap.hash_node((1 << sa) | (1 << sb), 0, &children);
    for &slot in chain.iter().rev() {
        node = heap.hash_node(1 << slot, 0, &[node]);
    }
    node
}

/// The result of a removal below a node.
pub(super) enum Removed {
    /// The key was not there.
    NotFound,
    /// The node that replaces the old one.
    Node(Term),
    /// The subtree shrank to one leaf, which takes the subtree's place.
    Leaf(Term),
}

/// Removes `key` from the trie node `node` at `level`.
pub(super) fn remove(heap: &mut Heap, node: HashNodeView, level: u32, kh: &mut KeyHash) -> Removed {
    let key = kh.key;
    let slot = kh.slot(level);
    let Some(i) = child_index(node.bitmap, slot) else {
        return Removed::NotFound;
    };
    let child = node.children[i];
    let replacement = if let Some((k, _)) = child.as_cons() {
        if !(k.raw() == key.raw() || exact_eq(k, key)) {
            return Removed::NotFound;
        }
        None
    } else {
        let Some(sub) = child.hash_node_parts() else {
            return Removed::NotFound;
        };
        match remove(heap, sub, level + 1, kh) {
            Removed::NotFound => return Removed::NotFound,
            Removed::Node(n) | Removed::Leaf(n) => Some(n),
        }
    };
    let size = if level == 0 { node.size - 1 } else { 0 };
    match replacement {
        Some(new_child) => {
            if level > 0 && node.children.len() == 1 && new_child.is_cons() {
                return Removed::Leaf(new_child);
            }
            Removed::Node(heap.hash_node_with(
                node.bitmap,
                size,
                node.children,
                i,
                new_child,
                false,
            ))
        }
        None => {
            let rest = node.children.len() - 1;
            if level > 0 && rest == 1 {
                let other = node.children[1 - i];
                if other.is_cons() {
                    return Removed::Leaf(other);
                }
            }
            let mut buf = [Term::NIL; SLOTS];
            buf[..i].copy_from_slice(&node.children[..i]);
            buf[i..rest].copy_from_slice(&node.children[i + 1..]);
            let bitmap = node.bitmap & !(1u64 << slot);
            Removed::Node(heap.hash_node(bitmap, size, &buf[..rest]))
        }
    }
}

/// One entry while building a trie in bulk.
#[derive(Copy, Clone)]
struct Item {
    kh: KeyHash,
    value: Term,
}

/// Builds a trie from entries with distinct keys (more than one), in any
/// order.
pub(super) fn build(heap: &mut Heap, entries: &[(Term, Term)]) -> Term {
    let mut items: Vec<Item> = entries
        .iter()
        .map(|&(key, value)| Item {
            kh: KeyHash::new(key),
            value,
        })
        .collect();
    items.sort_by_key(|item| item.kh.order_key());
    let size = items.len() as u64;
    build_node(heap, 0, &mut items, size)
}

/// Hashes every pair's key and removes duplicates: the last occurrence of
/// a key wins, key term and value (as `maps:from_list/1`).
pub(super) fn dedup_by_hash(pairs: &[(Term, Term)]) -> Vec<(Term, Term)> {
    let mut items: Vec<(u64, usize)> = pairs
        .iter()
        .enumerate()
        .map(|(i, &(k, _))| (KeyHash::new(k).order_key(), i))
        .collect();
    items.sort_unstable();
    let mut keep: Vec<(usize, Term)> = Vec::with_capacity(items.len());
    let mut run_start = 0;
    for (pos, &(h, i)) in items.iter().enumerate() {
        if pos > 0 && items[pos - 1].0 != h {
            run_start = keep.len();
        }
        let (k, v) = pairs[i];
        match keep[run_start..]
            .iter_mut()
            .find(|(j, _)| exact_eq(pairs[*j].0, k))
        {
            Some(slot) => *slot = (i, v),
            None => keep.push((i, v)),
        }
    }
    keep.into_iter().map(|(i, v)| (pairs[i].0, v)).collect()
}

/// Builds the node for `items` (all sharing their slot path above
/// `level`, sorted in slot order for the current round).
fn build_node(heap: &mut Heap, level: u32, items: &mut [Item], size: u64) -> Term {
    assert!(
        level < MAX_ROUNDS * levels_per_round(),
        "map keys collide on every hash round"
    );
    if level > 0 && level % levels_per_round() == 0 {
        // A new hash round: re-sort by the freshly salted hashes.
        for item in items.iter_mut() {
            item.kh.slot(level);
        }
        items.sort_by_key(|item| item.kh.order_key_at(level));
    }
    let mut children = [Term::NIL; SLOTS];
    let mut bitmap = 0u64;
    let mut n = 0;
    let mut start = 0;
    while start < items.len() {
        let slot = items[start].kh.slot(level);
        let mut end = start + 1;
        while end < items.len() && items[end].kh.slot(level) == slot {
            end += 1;
        }
        let group = &mut items[start..end];
        children[n] = if group.len() == 1 {
            heap.cons(group[0].kh.key, group[0].value)
        } else {
            build_node(heap, level + 1, group, 0)
        };
        bitmap |= 1 << slot;
        n += 1;
        start = end;
    }
    heap.hash_node(bitmap, if level == 0 { size } else { 0 }, &children[..n])
}

impl KeyHash {
    /// The current round's hash with its nibbles reversed, for sorting at
    /// a round boundary (the round of `level` must be current).
    #[inline]
    fn order_key_at(&self, level: u32) -> u64 {
        debug_assert_eq!(self.round, level / levels_per_round());
        reverse_nibbles(self.hash)
    }
}
