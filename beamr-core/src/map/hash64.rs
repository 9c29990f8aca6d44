//! OTP 26's internal term hash (`erts_internal_hash`, `erl_term_hashing.c`),
//! which places keys in the hash tries of OTP 26 and later.
//!
//! An immediate is hashed alone by MurmurHash3's 64-bit finaliser:
//!
//! ```text
//! fmix64(w) = w ^= w >> 33; w *= 0xFF51AFD7ED558CCD; w ^= w >> 33;
//!             w *= 0xC4CEB9FE1A85EC53; w ^= w >> 33
//! hash(immediate) = fmix64(w)                    w = the BEAM's tagged word
//! ```
//!
//! Anything else runs MurmurHash3's two 64-bit lanes, alpha and beta (both
//! starting at the salt), over a stream of type tags and words, counting
//! every mix as a tick:
//!
//! ```text
//! A(x): x *= C1; x = rotl(x, 31); x *= C2; alpha ^= x; alpha = rotl(alpha, 27)
//!       alpha += beta; alpha = alpha * 5 + 0x52DCE729
//! B(x): x *= C2; x = rotl(x, 33); x *= C1; beta ^= x; beta = rotl(beta, 31)
//!       beta += alpha; beta = beta * 5 + 0x38495AB5
//! immediate   A(1) B(w)
//! element     an immediate element as above, else A(2) and the element deferred
//! list        runs of byte-sized heads, 4 to a word: A(5 | n << 8 | word << 32);
//!             an immediate head A(1 | 3 << 32) B(w), A(4) before a non-list
//!             tail; another head A(3), then the head, B(4) before a
//!             non-list tail, then the tail
//! tuple       A(6) B(arity), the elements but the last as `element`, the last
//! flat map    A(7) B(size), values and keys as `element` (v1 k1 .. vn), then kn
//! trie        root A(8) (16 slots) or A(9), then B(size); inner node A(10);
//!             a leaf's value and key as `element`, a sub-node deferred
//! binary      A(11) B(bits), 16-byte blocks A(le64) B(le64), Murmur's tail,
//!             A(last bits) for a partial byte
//! bignum      A(14 or 15 | digits << 32), digit pairs A(d) B(d'), a last B(d)
//! float       A(20) B(bits)
//! local fun   A(12 | free << 32) B(index | old_uniq << 32) A(1) B(module), free vars
//! end         alpha ^= ticks; beta ^= ticks; alpha += beta; beta += alpha;
//!             alpha = fmix64(alpha); beta = fmix64(beta); alpha += beta;
//!             beta += alpha; hash = alpha ^ beta
//! ```
//!
//! Deferred terms are hashed last in, first out. What depends on OTP's own
//! VM instance (atom indices, export entry and node addresses, pids, ports,
//! references) cannot be reproduced: beamr hashes its own equivalents, as
//! [`super::hash`] does for OTP 25's hash.

use crate::term::{Kind, Subtag, Term};

use super::hash::beam_immediate_word;

const C1: u64 = 0x87C3_7B91_1142_53D5;
const C2: u64 = 0x4CF5_AD43_2745_937F;

/// The type tags mixed into the stream (OTP's `IHASH_TYPE_*`).
mod tag {
    pub const IMMEDIATE: u64 = 1;
    pub const ARRAY_ELEMENT: u64 = 2;
    pub const CAR: u64 = 3;
    pub const CDR: u64 = 4;
    pub const STRING: u64 = 5;
    pub const TUPLE: u64 = 6;
    pub const FLATMAP: u64 = 7;
    pub const HASHMAP_HEAD_ARRAY: u64 = 8;
    pub const HASHMAP_HEAD_BITMAP: u64 = 9;
    pub const HASHMAP_NODE: u64 = 10;
    pub const BINARY: u64 = 11;
    pub const LOCAL_FUN: u64 = 12;
    pub const EXTERNAL_FUN: u64 = 13;
    pub const NEG_BIGNUM: u64 = 14;
    pub const POS_BIGNUM: u64 = 15;
    pub const LOCAL_REF: u64 = 16;
    pub const EXTERNAL_REF: u64 = 17;
    pub const EXTERNAL_PID: u64 = 18;
    pub const EXTERNAL_PORT: u64 = 19;
    pub const FLOAT: u64 = 20;

    /// A tag from FLATMAP on, as the release numbers it: OTP 29 inserts a
    /// type after TUPLE (its native records).
    #[inline]
    pub fn late(t: u64) -> u64 {
        if crate::release::otp_release() >= 29 {
            t + 1
        } else {
            t
        }
    }
}

/// MurmurHash3's 64-bit finaliser.
#[inline]
pub(super) fn fmix64(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^= h >> 33;
    h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    h ^ (h >> 33)
}

/// OTP 26's `erts_internal_salted_hash(term, salt)` (salt 0: the map hash).
pub fn internal_hash64(term: Term, salt: u64) -> u64 {
    if term.is_immediate() {
        return fmix64(beam_immediate_word(term).wrapping_add(salt));
    }
    let mut h = Lanes {
        alpha: salt,
        beta: salt,
        ticks: 0,
    };
    h.run(term);
    h.finish()
}

/// Work left on the hashing stack.
#[derive(Copy, Clone)]
enum Pending {
    /// A term to hash.
    Term(Term),
    /// An inner trie node.
    Node(Term),
    /// `B(CDR)` before a list's non-list tail.
    Cdr,
}

/// The two lanes and the tick count.
struct Lanes {
    alpha: u64,
    beta: u64,
    ticks: u64,
}

impl Lanes {
    #[inline]
    fn a(&mut self, x: u64) {
        let x = x.wrapping_mul(C1).rotate_left(31).wrapping_mul(C2);
        self.alpha = (self.alpha ^ x).rotate_left(27).wrapping_add(self.beta);
        self.alpha = self.alpha.wrapping_mul(5).wrapping_add(0x52DC_E729);
        self.ticks += 1;
    }

    #[inline]
    fn b(&mut self, x: u64) {
        let x = x.wrapping_mul(C2).rotate_left(33).wrapping_mul(C1);
        self.beta = (self.beta ^ x).rotate_left(31).wrapping_add(self.alpha);
        self.beta = self.beta.wrapping_mul(5).wrapping_add(0x3849_5AB5);
        self.ticks += 1;
    }

    #[inline]
    fn a2(&mut self, lo: u64, hi: u64) {
        self.a((lo & 0xffff_ffff) | (hi << 32));
    }

    #[inline]
    fn immediate(&mut self, t: Term) {
        self.a(tag::IMMEDIATE);
        self.b(beam_immediate_word(t));
    }

    /// An element of an array: an immediate now, anything else later.
    #[inline]
    fn element(&mut self, t: Term, stack: &mut Vec<Pending>) {
        if t.is_immediate() {
            self.immediate(t);
        } else {
            self.a(tag::ARRAY_ELEMENT);
            stack.push(Pending::Term(t));
        }
    }

    fn finish(mut self) -> u64 {
        self.alpha ^= self.ticks;
        self.beta ^= self.ticks;
        self.alpha = self.alpha.wrapping_add(self.beta);
        self.beta = self.beta.wrapping_add(self.alpha);
        self.alpha = fmix64(self.alpha);
        self.beta = fmix64(self.beta);
        self.alpha = self.alpha.wrapping_add(self.beta);
        self.beta = self.beta.wrapping_add(self.alpha);
        self.alpha ^ self.beta
    }

    fn run(&mut self, term: Term) {
        let mut stack: Vec<Pending> = Vec::new();
        let mut next = Some(term);
        loop {
            let t = match next.take() {
                Some(t) => t,
                None => match stack.pop() {
                    None => return,
                    Some(Pending::Term(t)) => t,
                    Some(Pending::Node(n)) => {
                        self.a(tag::late(tag::HASHMAP_NODE));
                        self.node_children(n, &mut stack);
                        continue;
                    }
                    Some(Pending::Cdr) => {
                        self.b(tag::CDR);
                        continue;
                    }
                },
            };
            next = if t.is_immediate() {
                self.immediate(t);
                None
            } else if t.is_cons() {
                self.list(t, &mut stack)
            } else {
                self.boxed(t, &mut stack)
            };
        }
    }

    /// A list from its first cell; returns the term to go on with.
    fn list(&mut self, list: Term, stack: &mut Vec<Pending>) -> Option<Term> {
        let (mut value, mut bytes) = (0u64, 0u64);
        let mut cell = list;
        while let Some((head, tail)) = cell.as_cons() {
            match head.as_small() {
                Some(byte @ 0..=255) => {
                    value = (value << 8) | byte as u64;
                    bytes += 1;
                    if bytes == 4 {
                        self.a2(tag::STRING | (bytes << 8), value);
                        value = 0;
                        bytes = 0;
                    }
                    cell = tail;
                }
                _ => break,
            }
        }
        if bytes > 0 {
            self.a2(tag::STRING | (bytes << 8), value);
        }
        match cell.as_cons() {
            Some((head, tail)) if head.is_immediate() => {
                self.a2(tag::IMMEDIATE, tag::CAR);
                self.b(beam_immediate_word(head));
                if !tail.is_cons() {
                    self.a(tag::CDR);
                }
                Some(tail)
            }
            Some((head, tail)) => {
                stack.push(Pending::Term(tail));
                if !tail.is_cons() {
                    stack.push(Pending::Cdr);
                }
                self.a(tag::CAR);
                Some(head)
            }
            // The run ended at the list's (proper or improper) tail.
            None => Some(cell),
        }
    }

    /// One boxed object; returns the term to go on with, if any.
    fn boxed(&mut self, t: Term, stack: &mut Vec<Pending>) -> Option<Term> {
        match t.kind() {
            Kind::Tuple => {
                let elems = t.as_tuple().unwrap_or(&[]);
                self.a(tag::TUPLE);
                self.b(elems.len() as u64);
                let (&last, rest) = elems.split_last()?;
                for &e in rest {
                    self.element(e, stack);
                }
                Some(last)
            }
            Kind::Map => {
                if let Some(flat) = t.flat_map_parts() {
                    self.a(tag::late(tag::FLATMAP));
                    self.b(flat.keys.len() as u64);
                    let n = flat.keys.len();
                    if n == 0 {
                        return None;
                    }
                    for i in 0..n - 1 {
                        self.element(flat.values[i], stack);
                        self.element(flat.keys[i], stack);
                    }
                    self.element(flat.values[n - 1], stack);
                    return Some(flat.keys[n - 1]);
                }
                let node = t.hash_node_parts()?;
                let head = if node.bitmap == 0xffff {
                    tag::late(tag::HASHMAP_HEAD_ARRAY)
                } else {
                    tag::late(tag::HASHMAP_HEAD_BITMAP)
                };
                self.a(head);
                self.b(node.size);
                if node.size > 0 {
                    self.node_children(t, stack);
                }
                None
            }
            // beamr's own: records (OTP 29) by definition and values.
            Kind::Record => {
                let r = t.record_parts()?;
                self.a(tag::TUPLE);
                self.b(Term::atom(r.def.module).raw() ^ Term::atom(r.def.name).raw());
                let (&last, rest) = r.values.split_last()?;
                for &e in rest {
                    self.element(e, stack);
                }
                Some(last)
            }
            Kind::Float => {
                let f = t.as_float().unwrap_or(0.0);
                // Up to OTP 26 0.0 and -0.0 are one key: one hash.
                let f = if f == 0.0 && !crate::release::signed_zeros_differ() {
                    0.0
                } else {
                    f
                };
                self.a(tag::late(tag::FLOAT));
                self.b(f.to_bits());
                None
            }
            Kind::BigInt => {
                let big = t.big_parts()?;
                let kind = if big.negative {
                    tag::late(tag::NEG_BIGNUM)
                } else {
                    tag::late(tag::POS_BIGNUM)
                };
                self.a2(kind, big.digits.len() as u64);
                let mut pairs = big.digits.chunks_exact(2);
                for pair in &mut pairs {
                    self.a(pair[0]);
                    self.b(pair[1]);
                }
                if let [last] = pairs.remainder() {
                    self.b(*last);
                }
                None
            }
            Kind::Binary => {
                let view = t.binary_parts()?;
                self.a(tag::late(tag::BINARY));
                self.b(view.bit_size as u64);
                if view.bit_size > 0 {
                    let copy;
                    let bytes = match view.as_bytes() {
                        Some(b) => b,
                        None => {
                            copy = view.to_vec();
                            &copy[..]
                        }
                    };
                    self.bytes(&bytes[..view.byte_size()]);
                    let bits = view.trailing_bits();
                    if bits > 0 {
                        self.a((bytes[view.byte_size()] >> (8 - bits)) as u64);
                    }
                }
                None
            }
            Kind::Fun => {
                if let Some(c) = t.closure_parts() {
                    self.a2(tag::late(tag::LOCAL_FUN), c.free.len() as u64);
                    self.b((c.entry.index as u64) | ((c.entry.old_uniq as u64) << 32));
                    self.a(tag::IMMEDIATE);
                    self.b(Term::atom(c.entry.module).raw());
                    let (&last, rest) = c.free.split_last()?;
                    for &e in rest {
                        self.element(e, stack);
                    }
                    return Some(last);
                }
                // OTP hashes the export entry's address; beamr its identity.
                let e = t.as_export()?;
                self.a(tag::late(tag::EXTERNAL_FUN));
                self.b(Term::atom(e.module).raw() ^ ((e.arity as u64) << 58));
                self.b(Term::atom(e.function).raw());
                None
            }
            Kind::Ref => {
                let r = t.as_ref()?;
                let ids = r.ids();
                if t.is_boxed_with(Subtag::ExternalRef) {
                    self.a2(tag::late(tag::EXTERNAL_REF), ids.len() as u64);
                    self.b(Term::atom(r.node).raw() ^ ((r.creation as u64) << 32));
                } else {
                    self.a(tag::late(tag::LOCAL_REF));
                }
                for pair in ids.chunks(2) {
                    let hi = pair.get(1).copied().unwrap_or(0) as u64;
                    self.b(pair[0] as u64 | (hi << 32));
                }
                None
            }
            Kind::Pid => {
                let p = t.as_external_pid()?;
                self.a(tag::late(tag::EXTERNAL_PID));
                self.b(Term::atom(p.node).raw() ^ ((p.creation as u64) << 32));
                self.a2(p.id as u64, p.serial as u64);
                None
            }
            Kind::Port => {
                let p = t.as_external_port()?;
                self.a(tag::late(tag::EXTERNAL_PORT));
                self.b(Term::atom(p.node).raw() ^ ((p.creation as u64) << 32));
                self.a(p.id);
                None
            }
            // Not a value a map can hold: hash the word so hashing never fails.
            _ => {
                self.a(tag::IMMEDIATE);
                self.b(t.raw());
                None
            }
        }
    }

    /// A trie node's children in slot order: a leaf's value and key as
    /// elements, a sub-node deferred.
    fn node_children(&mut self, node: Term, stack: &mut Vec<Pending>) {
        let Some(view) = node.hash_node_parts() else {
            return;
        };
        for &child in view.children {
            match child.as_cons() {
                Some((k, v)) => {
                    self.element(v, stack);
                    self.element(k, stack);
                }
                None => stack.push(Pending::Node(child)),
            }
        }
    }

    /// A binary's whole bytes: 16-byte blocks, then Murmur's tail.
    fn bytes(&mut self, bytes: &[u8]) {
        let mut blocks = bytes.chunks_exact(16);
        for block in &mut blocks {
            self.a(le64(&block[..8]));
            self.b(le64(&block[8..]));
        }
        let tail = blocks.remainder();
        if tail.len() > 8 {
            let x = le64(&tail[8..])
                .wrapping_mul(C2)
                .rotate_left(33)
                .wrapping_mul(C1);
            self.beta ^= x;
        }
        if !tail.is_empty() {
            let x = le64(&tail[..tail.len().min(8)])
                .wrapping_mul(C1)
                .rotate_left(31)
                .wrapping_mul(C2);
            self.alpha ^= x;
        }
    }
}

/// Up to 8 bytes as a little-endian word.
fn le64(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .enumerate()
        .fold(0, |w, (i, &b)| w | ((b as u64) << (8 * i)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_integers_hash_by_their_word() {
        // 1 is the BEAM word 0x1f.
        assert_eq!(internal_hash64(Term::small_unchecked(1), 0), fmix64(0x1f));
    }

    #[test]
    fn le64_reads_little_endian() {
        assert_eq!(le64(&[1, 2]), 0x0201);
        assert_eq!(le64(&[0; 8]), 0);
    }

    #[test]
    fn tuples_of_different_order_hash_apart() {
        let mut heap = crate::heap::Heap::new();
        let one = Term::small_unchecked(1);
        let two = Term::small_unchecked(2);
        let a = heap.tuple(&[one, two]);
        let b = heap.tuple(&[two, one]);
        assert_ne!(internal_hash64(a, 0), internal_hash64(b, 0));
    }
}
