//! The BEAM's internal term hash (`make_internal_hash` of OTP 25) and the
//! per-depth map hash that places keys in a hash trie.
//!
//! Maps above [`FLAT_MAP_LIMIT`](crate::term::FLAT_MAP_LIMIT) keys are hash
//! tries, and the order of their keys (what `maps:to_list/1`, `~p` and
//! `term_to_binary` show) is the order of these hash values, so the hash
//! reproduces OTP 25's bit for bit:
//!
//! ```text
//! hash  = salt ^ 3432918353                 (INTERNAL_HASH_SALT)
//! mix2(x, y, K): a = K + x, b = K + y, Bob Jenkins' mix(a, b, hash)   (32-bit wrapping)
//! immediate   mix2(low32(w), high32(w), HCONST)     w = the BEAM's tagged word
//! tuple       mix2(arity, 0, HCONST_9), then the elements in order
//! list        runs of byte-sized smalls packed 4 to a word (mix2(sh, 0, HCONST_4),
//!             a partial run mix2(sh, count, HCONST_22)); a non-byte head:
//!             rotate-mix HCONST_17, the head, then (if the tail is not a list)
//!             rotate-mix HCONST_18 and the tail
//! binary      Jenkins' lookup2 block hash of the bytes with initval HCONST_13 + hash,
//!             then mix2(trailing_bits, last_byte >> (8 - trailing_bits), HCONST_15)
//! bignum      mix2(low32(d), high32(d), HCONST_10 or HCONST_11) per 64-bit digit
//! float       mix2(low32(bits), high32(bits), HCONST_12), -0.0 hashed as 0.0
//! map         mix2(size, 0, HCONST_16), then keys and values: a flat map's in
//!             key order, a trie's leaves in reverse slot order
//! local fun   mix2(num_free, module, HCONST_20), mix2(index, old_uniq, HCONST_21), env
//! local ref   mix2(id0, 0, HCONST_7), mix2(id1, id2, HCONST_8)
//! ```
//!
//! The map hash at trie depth `d` (4 bits a level, 8 levels a 32-bit hash)
//! is `make_internal_hash(key, salt(d / 8))` with `salt(0) = 0` and
//! `salt(n) = mix2(n, 1, HCONST_22)` mixed into 0, as OTP 25's
//! `make_map_hash`.
//!
//! Where OTP hashes something that depends on its own VM instance, the
//! value cannot be reproduced, and beamr hashes its own equivalent: atoms by
//! their index in beamr's atom table (OTP: in its own table), export funs by
//! module, function and arity (OTP: the export entry's address), and pids,
//! ports and references of other nodes by node name and creation (OTP: the
//! node entry's address). Maps keyed by these therefore iterate in an order
//! of their own; maps keyed by integers, floats, binaries, and tuples and
//! lists of those, iterate exactly as OTP 25's.

use crate::hash::jenkins::{
    block_hash, mix2, HCONST, HCONST_10, HCONST_11, HCONST_12, HCONST_13, HCONST_14, HCONST_15,
    HCONST_16, HCONST_17, HCONST_18, HCONST_20, HCONST_21, HCONST_22, HCONST_4, HCONST_5, HCONST_6,
    HCONST_7, HCONST_8, HCONST_9,
};
use crate::term::{Kind, Subtag, Term};

/// OTP's `INTERNAL_HASH_SALT`, a 32-bit prime that keeps the internal hash
/// apart from `erlang:phash2`.
const INTERNAL_HASH_SALT: u32 = 3_432_918_353;

/// The BEAM's `[]` word: the immediate-2 tag `0b11_1011` alone (beamr's own
/// `[]` word differs). Checked against the order of list keys in `erl`.
const BEAM_NIL_WORD: u64 = 0x3b;

/// The running hash state.
struct Hasher {
    hash: u32,
}

impl Hasher {
    /// OTP's `UINT32_HASH_2(x, y, k)`.
    #[inline(always)]
    fn mix2(&mut self, x: u32, y: u32, k: u32) {
        self.hash = mix2(self.hash, x, y, k);
    }

    /// OTP's `UINT32_HASH_2` of the two halves of a 64-bit word.
    #[inline(always)]
    fn word(&mut self, w: u64, k: u32) {
        self.mix2(w as u32, (w >> 32) as u32, k);
    }

    /// OTP's `CONST_HASH`: a light mix of a type constant.
    #[inline(always)]
    fn constant(&mut self, k: u32) {
        self.hash = (self.hash ^ k).rotate_left(17);
    }
}

/// Work left on the hashing stack.
#[derive(Copy, Clone)]
enum Pending {
    /// A term still to hash.
    Term(Term),
    /// The marker before a list's non-list tail (OTP's `HASH_CDR`).
    Cdr,
    /// An inner trie node: its children are hashed, not its size (OTP's
    /// `HAMT_SUBTAG_NODE_BITMAP`).
    Node(Term),
}

/// The BEAM's tagged word for an immediate, as its hash sees it.
#[inline]
pub(super) fn beam_immediate_word(term: Term) -> u64 {
    if term.is_nil() {
        BEAM_NIL_WORD
    } else {
        // Small integers, atoms, local pids and ports carry the BEAM's own
        // tags in beamr's word (term/tag.rs); only the payloads of atoms,
        // pids and ports are beamr's.
        term.raw()
    }
}

/// OTP 25's `make_internal_hash(term, salt)`.
pub fn internal_hash(term: Term, salt: u32) -> u32 {
    let mut h = Hasher {
        hash: salt ^ INTERNAL_HASH_SALT,
    };
    if term.is_immediate() {
        h.word(beam_immediate_word(term), HCONST);
        return h.hash;
    }
    let mut stack: Vec<Pending> = Vec::new();
    let mut next = Some(term);
    loop {
        let Some(t) = next.take() else {
            match stack.pop() {
                None => return h.hash,
                Some(Pending::Cdr) => h.constant(HCONST_18),
                Some(Pending::Term(t)) => next = Some(t),
                Some(Pending::Node(n)) => {
                    if let Some(node) = n.hash_node_parts() {
                        push_node_children(node.children, &mut stack);
                    }
                }
            }
            continue;
        };
        if t.is_immediate() {
            h.word(beam_immediate_word(t), HCONST);
        } else if t.is_cons() {
            next = hash_list(&mut h, t, &mut stack);
        } else {
            next = hash_boxed(&mut h, t, &mut stack);
        }
    }
}

/// Hashes a list from its first cell: the leading run of byte-sized
/// integers, then the first other head (left as the next term, its tail
/// pushed), or the non-list tail ending the run (left as the next term).
fn hash_list(h: &mut Hasher, list: Term, stack: &mut Vec<Pending>) -> Option<Term> {
    let (mut sh, mut count) = (0u32, 0u32);
    let mut cell = list;
    while let Some((head, tail)) = cell.as_cons() {
        match head.as_small() {
            Some(byte @ 0..=255) => {
                sh = (sh << 8).wrapping_add(byte as u32);
                if count == 3 {
                    h.mix2(sh, 0, HCONST_4);
                    sh = 0;
                    count = 0;
                } else {
                    count += 1;
                }
                cell = tail;
            }
            _ => break,
        }
    }
    if count > 0 {
        h.mix2(sh, count, HCONST_22);
    }
    match cell.as_cons() {
        Some((head, tail)) => {
            h.constant(HCONST_17);
            stack.push(Pending::Term(tail));
            if !tail.is_cons() {
                stack.push(Pending::Cdr);
            }
            Some(head)
        }
        // The run ended at the list's (proper or improper) tail.
        None => Some(cell),
    }
}

/// Hashes one boxed object; returns the next term to hash, if the object
/// has one to continue with directly.
fn hash_boxed(h: &mut Hasher, t: Term, stack: &mut Vec<Pending>) -> Option<Term> {
    match t.kind() {
        Kind::Tuple => {
            let elems = t.tuple_elements().unwrap_or(&[]);
            h.mix2(elems.len() as u32, 0, HCONST_9);
            push_rev(stack, elems.get(1..).unwrap_or(&[]));
            elems.first().copied()
        }
        Kind::Map => {
            hash_map(h, t, stack);
            None
        }
        // beamr's own: records equal as map keys (same shape, values
        // exactly equal) hash alike, whichever definition they point to.
        Kind::Record => {
            let r = t.record_parts()?;
            h.mix2(
                Term::atom(r.def.module).raw() as u32,
                Term::atom(r.def.name).raw() as u32,
                HCONST_9,
            );
            h.mix2(r.values.len() as u32, r.def.exported as u32, HCONST_9);
            push_rev(stack, r.values.get(1..).unwrap_or(&[]));
            r.values.first().copied()
        }
        Kind::Float => {
            let f = t.as_float().unwrap_or(0.0);
            let bits = if f == 0.0 { 0 } else { f.to_bits() };
            h.word(bits, HCONST_12);
            None
        }
        Kind::BigInt => {
            if let Some(big) = t.big_parts() {
                let k = if big.negative { HCONST_10 } else { HCONST_11 };
                for &d in big.digits {
                    h.word(d, k);
                }
            }
            None
        }
        Kind::Binary => {
            if let Some(view) = t.binary_parts() {
                let initval = HCONST_13.wrapping_add(h.hash);
                if let Some(bytes) = view.as_bytes() {
                    // Byte-aligned: hash in place.
                    h.hash = if bytes.is_empty() {
                        initval
                    } else {
                        block_hash(bytes, initval)
                    };
                } else if view.bit_size == 0 {
                    h.hash = initval;
                } else {
                    let bytes = view.to_vec();
                    let whole = view.byte_size();
                    h.hash = block_hash(&bytes[..whole], initval);
                    let bits = view.trailing_bits() as u32;
                    if bits > 0 {
                        h.mix2(bits, (bytes[whole] >> (8 - bits)) as u32, HCONST_15);
                    }
                }
            }
            None
        }
        Kind::Fun => {
            if let Some(c) = t.closure_parts() {
                let module = Term::atom(c.entry.module).raw();
                h.mix2(c.free.len() as u32, module as u32, HCONST_20);
                h.mix2(c.entry.index, c.entry.old_uniq, HCONST_21);
                push_rev(stack, c.free.get(1..).unwrap_or(&[]));
                return c.free.first().copied();
            }
            if let Some(e) = t.as_export() {
                // OTP hashes the export entry's address; beamr its identity.
                h.mix2(Term::atom(e.module).raw() as u32, e.arity, HCONST_14);
                h.mix2(Term::atom(e.function).raw() as u32, 0, HCONST_14);
            }
            None
        }
        Kind::Ref => {
            if let Some(r) = t.as_ref() {
                let ids = r.ids();
                let id = |i: usize| ids.get(i).copied().unwrap_or(0);
                if t.is_boxed_with(Subtag::ExternalRef) {
                    h.mix2(Term::atom(r.node).raw() as u32, r.creation, HCONST_7);
                }
                h.mix2(id(0), 0, HCONST_7);
                h.mix2(id(1), id(2), HCONST_8);
                if ids.len() > 3 {
                    h.mix2(id(3), id(4), HCONST_8);
                }
            }
            None
        }
        Kind::Pid => {
            if let Some(p) = t.as_external_pid() {
                h.mix2(Term::atom(p.node).raw() as u32, p.creation, HCONST_5);
                h.mix2(p.id, p.serial, HCONST_5);
            }
            None
        }
        Kind::Port => {
            if let Some(p) = t.as_external_port() {
                h.mix2(Term::atom(p.node).raw() as u32, p.creation, HCONST_6);
                h.word(p.id, HCONST_6);
            }
            None
        }
        // Not a value a map can hold (match contexts, corrupt words): hash
        // the word itself so hashing never fails.
        _ => {
            h.word(t.raw(), HCONST);
            None
        }
    }
}

/// Pushes `terms` so that they pop first to last.
fn push_rev(stack: &mut Vec<Pending>, terms: &[Term]) {
    stack.extend(terms.iter().rev().map(|&t| Pending::Term(t)));
}

/// Hashes a map: its size, then keys and values in the order OTP pops them.
fn hash_map(h: &mut Hasher, map: Term, stack: &mut Vec<Pending>) {
    if let Some(flat) = map.flat_map_parts() {
        h.mix2(flat.keys.len() as u32, 0, HCONST_16);
        for (&k, &v) in flat.keys.iter().zip(flat.values).rev() {
            stack.push(Pending::Term(v));
            stack.push(Pending::Term(k));
        }
    } else if let Some(node) = map.hash_node_parts() {
        h.mix2(node.size as u32, 0, HCONST_16);
        if node.size > 0 {
            push_node_children(node.children, stack);
        }
    }
}

/// Pushes a trie node's children in slot order, so the last slot pops
/// first; a sub-node's own children are pushed when it pops.
fn push_node_children(children: &[Term], stack: &mut Vec<Pending>) {
    for &child in children {
        if let Some((k, v)) = child.as_cons() {
            stack.push(Pending::Term(v));
            stack.push(Pending::Term(k));
        } else {
            stack.push(Pending::Node(child));
        }
    }
}

/// The hash that places `key` in a trie, for hash round `salt_round` (a
/// round covers [`levels_per_round`] 4-bit levels; the caller shifts it to
/// the level's nibble): OTP 25's 32-bit `make_map_hash(key, round)`, or
/// from OTP 26 on the 64-bit internal hash ([`super::hash64`]; OTP puts keys
/// that agree on all 64 bits in a collision node, beamr salts a new round).
#[inline]
pub fn map_hash(key: Term, salt_round: u32) -> u64 {
    if crate::release::maps_v26() {
        super::hash64::internal_hash64(key, salt_round as u64)
    } else {
        internal_hash(key, round_salt(salt_round)) as u64
    }
}

/// Trie levels per hash round: 8 for OTP 25's 32-bit hash, 16 from OTP 26
/// on.
#[inline]
pub fn levels_per_round() -> u32 {
    if crate::release::maps_v26() {
        16
    } else {
        8
    }
}

/// The salt of hash round `n` (each round covers 8 trie levels).
#[inline]
fn round_salt(n: u32) -> u32 {
    if n == 0 {
        0
    } else {
        let mut h = Hasher { hash: 0 };
        h.mix2(n, 1, HCONST_22);
        h.hash
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_integers_hash_as_otp_words() {
        // 1 is the BEAM word 0x1f; computed by hand from OTP's macros.
        let mut h = Hasher {
            hash: INTERNAL_HASH_SALT,
        };
        h.word(0x1f, HCONST);
        assert_eq!(internal_hash(Term::small_unchecked(1), 0), h.hash);
    }

    #[test]
    fn one_tuple_hashes_as_otp() {
        // {1}: mix2(1, 0, HCONST_9), then the word 0x1f; the value was
        // computed from OTP's macros by a model checked against erl's order.
        let mut heap = crate::heap::Heap::new();
        let t = heap.tuple(&[Term::small_unchecked(1)]);
        assert_eq!(internal_hash(t, 0), 0xb7c3_2f0e);
    }

    #[test]
    fn round_salts_differ() {
        assert_eq!(round_salt(0), 0);
        assert_ne!(round_salt(1), round_salt(2));
        let k = Term::small_unchecked(7);
        assert_ne!(
            internal_hash(k, round_salt(0)),
            internal_hash(k, round_salt(1))
        );
    }

    #[test]
    fn block_hash_covers_every_tail_length() {
        let data: Vec<u8> = (0u8..40).collect();
        let hashes: Vec<u32> = (0..=data.len())
            .map(|n| block_hash(&data[..n], 1))
            .collect();
        let mut dedup = hashes.clone();
        dedup.sort_unstable();
        dedup.dedup();
        assert_eq!(dedup.len(), hashes.len());
    }
}
