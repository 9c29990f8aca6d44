//! `erlang:phash2/1,2`: OTP 25's portable term hash (`make_hash2`), bit
//! for bit, so that hash values agree with `erl`'s.
//!
//! ```text
//! MIX2(x, y, K)  a = K + x, b = K + y, Jenkins' 96-bit mix(a, b, hash)   (32-bit wrapping)
//! small          fits 28 bits signed: MIX2(|v|, 0, HCONST) first if v < 0, then MIX2(v, 0, HCONST);
//!                otherwise MIX2(low32(|v|), high32(|v|), HCONST_10 if v < 0 else HCONST_11)
//! atom           hash = hashpjw(name) when hash is 0, else MIX2(hashpjw(name), 0, HCONST_3)
//! []             hash = 3468870702 when hash is 0, else MIX2(NIL, 0, HCONST_2)
//! list           byte-sized heads packed big-endian four to a word: MIX2(w, 0, HCONST_4)
//!                (and a partial word at the end of a run); another head is hashed as a
//!                term, then the tail; the final tail (`[]` or not) is hashed too
//! tuple          MIX2(arity, 0, HCONST_9), then the elements in order
//! map            MIX2(size, 0, HCONST_16); each pair hashed from 0 (key, then value),
//!                the pair hashes xor-ed, MIX2(xor, 0, HCONST_19)
//! bignum         MIX2(low32(d), high32(d), HCONST_10 if negative else HCONST_11) per digit
//! float          MIX2(high32(bits), low32(bits), HCONST_12), -0.0 as 0.0
//! binary         lookup2 block hash of the bytes with initval HCONST_13 + hash,
//!                then MIX2(trailing_bits, last_bits, HCONST_15) for a bitstring
//! local fun      MIX2(num_free, hashpjw(module), HCONST), MIX2(index, old_uniq, HCONST), env
//! export         MIX2(arity, hashpjw(module), HCONST), MIX2(hashpjw(function), 0, HCONST_14)
//! pid/port/ref   MIX2(number, 0, HCONST_5) / MIX2(low, high, HCONST_6) / MIX2(id0, 0, HCONST_7)
//! record         MIX2(field_count, D, HCONST_23), then the values in the order of their
//!                field names' atom indexes (how OTP 29 stores them);
//!                D = make_hash2({Module, Name, IsExported, Field1, ...}), fields in
//!                declaration order (found against `erl`'s phash2 of records)
//! ```
//!
//! Pids, ports and references are beamr's own numbers, so their hashes
//! match OTP's only where the numbers do; a record's hash matches where its
//! field names were created in the same order as on the BEAM.

use beamr_core::atom::Atom;
use beamr_core::hash::jenkins::{
    self, block_hash, HCONST, HCONST_10, HCONST_11, HCONST_12, HCONST_13, HCONST_14, HCONST_15,
    HCONST_16, HCONST_19, HCONST_2, HCONST_23, HCONST_3, HCONST_4, HCONST_5, HCONST_6, HCONST_7,
    HCONST_9,
};
use beamr_core::term::{RecordDef, Term};

/// The hash of `[]` met first.
const NIL_FIRST: u32 = 3_468_870_702;
/// What OTP mixes for `[]` when it is not first (its `NIL_DEF`; found
/// against `erl`'s `phash2("abc")`).
const NIL_WORD: u32 = 2;

/// OTP's `MIX2` on a running hash.
#[inline(always)]
fn mix2(hash: &mut u32, x: u32, y: u32, k: u32) {
    *hash = jenkins::mix2(*hash, x, y, k);
}

/// The atom table's hash of an atom's name (hashpjw over its UTF-8 bytes,
/// with two-byte sequences of Latin-1 characters read as one character).
pub(crate) fn atom_hash(atom: Atom) -> u32 {
    let bytes = atom.name().as_bytes();
    let mut h: u32 = 0;
    let mut i = 0;
    while i < bytes.len() {
        let mut v = bytes[i] as u32;
        i += 1;
        if i < bytes.len() && (v & 0xfe) == 0xc2 && (bytes[i] & 0xc0) == 0x80 {
            v = ((v << 6) | (bytes[i] as u32 & 0x3f)) & 0xff;
            i += 1;
        }
        h = (h << 4).wrapping_add(v);
        let g = h & 0xf000_0000;
        if g != 0 {
            h ^= g >> 24;
            h ^= g;
        }
    }
    h
}

/// Work left while hashing.
enum Work {
    /// A term to hash.
    Term(Term),
    /// The end of one map pair: fold its hash into the xor.
    Pair,
    /// The end of a map: restore the outer state and mix in the xor.
    MapEnd { hash: u32, xor: u32 },
}

/// OTP 25's `make_hash2(term)`.
pub(crate) fn phash2(term: Term) -> u32 {
    let mut hash: u32 = 0;
    let mut xor: u32 = 0;
    let mut stack: Vec<Work> = Vec::new();
    let mut next = Some(term);
    loop {
        if let Some(t) = next.take() {
            hash_one(t, &mut hash, &mut xor, &mut stack, &mut next);
            continue;
        }
        match stack.pop() {
            None => return hash,
            Some(Work::Term(t)) => next = Some(t),
            Some(Work::Pair) => {
                xor ^= hash;
                hash = 0;
            }
            Some(Work::MapEnd {
                hash: outer,
                xor: outer_xor,
            }) => {
                hash = outer;
                mix2(&mut hash, xor, 0, HCONST_19);
                xor = outer_xor;
            }
        }
    }
}

/// Hashes the top level of `t` into `hash`, pushing its parts as work (and
/// setting `next` to the part to hash first).
fn hash_one(
    t: Term,
    hash: &mut u32,
    xor: &mut u32,
    stack: &mut Vec<Work>,
    next: &mut Option<Term>,
) {
    if let Some(v) = t.as_small() {
        if (-(1 << 27)..(1 << 27)).contains(&v) {
            let y = v as i32;
            if y < 0 {
                mix2(hash, y.wrapping_neg() as u32, 0, HCONST);
            }
            mix2(hash, y as u32, 0, HCONST);
        } else {
            let (m, k) = if v < 0 {
                (v.unsigned_abs(), HCONST_10)
            } else {
                (v as u64, HCONST_11)
            };
            mix2(hash, m as u32, (m >> 32) as u32, k);
        }
        return;
    }
    if let Some(a) = t.as_atom() {
        let h = atom_hash(a);
        if *hash == 0 {
            *hash = h;
        } else {
            mix2(hash, h, 0, HCONST_3);
        }
        return;
    }
    if t.is_nil() {
        if *hash == 0 {
            *hash = NIL_FIRST;
        } else {
            mix2(hash, NIL_WORD, 0, HCONST_2);
        }
        return;
    }
    if t.is_cons() {
        let (mut word, mut count) = (0u32, 0u32);
        let mut l = t;
        while let Some((h, tail)) = l.as_cons() {
            match h.as_small().filter(|b| (0..256).contains(b)) {
                Some(b) => {
                    word = (word << 8).wrapping_add(b as u32);
                    if count == 3 {
                        mix2(hash, word, 0, HCONST_4);
                        word = 0;
                        count = 0;
                    } else {
                        count += 1;
                    }
                    l = tail;
                }
                None => {
                    if count > 0 {
                        mix2(hash, word, 0, HCONST_4);
                    }
                    stack.push(Work::Term(tail));
                    *next = Some(h);
                    return;
                }
            }
        }
        if count > 0 {
            mix2(hash, word, 0, HCONST_4);
        }
        *next = Some(l);
        return;
    }
    if let Some(elements) = t.as_tuple() {
        mix2(hash, elements.len() as u32, 0, HCONST_9);
        if let Some((&first, rest)) = elements.split_first() {
            stack.extend(rest.iter().rev().map(|&e| Work::Term(e)));
            *next = Some(first);
        }
        return;
    }
    if let Some(f) = t.as_float() {
        let bits = if f == 0.0 { 0u64 } else { f.to_bits() };
        mix2(hash, (bits >> 32) as u32, bits as u32, HCONST_12);
        return;
    }
    if let Some(big) = t.as_big() {
        let big = big.to_bigint();
        let (sign, digits) = big.to_u64_digits();
        let k = if sign == num_bigint::Sign::Minus {
            HCONST_10
        } else {
            HCONST_11
        };
        for d in digits {
            mix2(hash, d as u32, (d >> 32) as u32, k);
        }
        return;
    }
    if t.is_map() {
        let size = t.map_size().unwrap_or(0);
        mix2(hash, size as u32, 0, HCONST_16);
        if size == 0 {
            return;
        }
        stack.push(Work::MapEnd {
            hash: *hash,
            xor: *xor,
        });
        *hash = 0;
        *xor = 0;
        for (k, v) in beamr_core::map::iter(t).into_iter().flatten() {
            stack.push(Work::Pair);
            stack.push(Work::Term(v));
            stack.push(Work::Term(k));
        }
        return;
    }
    if let Some(bin) = t.as_binary() {
        let bytes = bin.to_vec();
        let bits = bin.trailing_bits();
        let whole = bin.byte_size();
        let con = HCONST_13.wrapping_add(*hash);
        if whole == 0 && bits == 0 {
            *hash = con;
            return;
        }
        *hash = block_hash(&bytes[..whole.min(bytes.len())], con);
        if bits > 0 {
            let last = bytes.get(whole).copied().unwrap_or(0) as u32;
            mix2(hash, bits as u32, last >> (8 - bits), HCONST_15);
        }
        return;
    }
    if let Some(r) = t.as_record() {
        mix2(
            hash,
            r.values.len() as u32,
            definition_hash(r.def),
            HCONST_23,
        );
        let mut order: Vec<usize> = (0..r.values.len()).collect();
        order.sort_by_key(|&i| r.def.fields[i].index());
        if let Some((&first, rest)) = order.split_first() {
            stack.extend(rest.iter().rev().map(|&i| Work::Term(r.values[i])));
            *next = Some(r.values[first]);
        }
        return;
    }
    if let Some(c) = t.as_closure() {
        mix2(hash, c.free.len() as u32, atom_hash(c.entry.module), HCONST);
        mix2(hash, c.entry.old_index, c.entry.old_uniq, HCONST);
        if let Some((&first, rest)) = c.free.split_first() {
            stack.extend(rest.iter().rev().map(|&e| Work::Term(e)));
            *next = Some(first);
        }
        return;
    }
    if let Some(e) = t.as_export() {
        mix2(hash, e.arity, atom_hash(e.module), HCONST);
        mix2(hash, atom_hash(e.function), 0, HCONST_14);
        return;
    }
    if let Some(pid) = t.as_local_pid() {
        mix2(hash, pid as u32, 0, HCONST_5);
        return;
    }
    if let Some(port) = t.as_local_port() {
        mix2(hash, port as u32, (port >> 32) as u32, HCONST_6);
        return;
    }
    if let Some(pid) = t.as_external_pid() {
        mix2(hash, pid.id, 0, HCONST_5);
        return;
    }
    if let Some(r) = t.as_ref() {
        mix2(hash, r.ids().first().copied().unwrap_or(0), 0, HCONST_7);
    }
}

/// `make_hash2` of a native record's definition as the tuple
/// `{Module, Name, IsExported, Field1, ...}` (fields in declaration order),
/// computed without building the tuple.
fn definition_hash(def: &RecordDef) -> u32 {
    let mut hash = 0;
    mix2(&mut hash, 3 + def.fields.len() as u32, 0, HCONST_9);
    let atoms = [def.module, def.name, Atom::from_bool(def.exported)];
    for a in atoms.into_iter().chain(def.fields.iter().copied()) {
        let h = atom_hash(a);
        if hash == 0 {
            hash = h;
        } else {
            mix2(&mut hash, h, 0, HCONST_3);
        }
    }
    hash
}
