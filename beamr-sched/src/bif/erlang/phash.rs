//! `erlang:phash/2`: OTP's older portable term hash (`make_hash`), bit for
//! bit, as `dict` and `sets` use it to place their keys (so their layout,
//! and `dict:to_list/1`'s order, match `erl`'s).
//!
//! The hash multiplies by primes just above 2^28 (the "funny numbers")
//! and adds each part: integers byte by byte (least significant first, in
//! whole 32-bit words of the absolute value), binaries byte by byte, lists
//! of bytes as a string, atoms by the atom table's hash, maps through
//! `make_hash2` ([`super::phash2::phash2`]).

use beamr_core::term::Term;

use super::phash2::{atom_hash, phash2};
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[("erlang", "phash", 2, phash)];

const F1: u32 = 268_440_163;
const F2: u32 = 268_439_161;
const F3: u32 = 268_435_459;
const F4: u32 = 268_436_141;
const F5: u32 = 268_438_633;
const F6: u32 = 268_437_017;
const F8: u32 = 268_437_511;
const F9: u32 = 268_439_627;
const F10: u32 = 268_440_479;
const F11: u32 = 268_440_577;
const F12: u32 = 268_440_581;
const F13: u32 = 268_440_593;
const F14: u32 = 268_440_611;

/// `phash(Term, Range)`: `make_hash(Term) rem Range + 1`, Range in 1..2^32.
fn phash(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let range = a[1]
        .as_integer()
        .and_then(|i| u64::try_from(i.to_bigint()).ok())
        .filter(|&r| (1..=1u64 << 32).contains(&r))
        .ok_or_else(Exception::badarg)?;
    let h = u64::from(make_hash(a[0]).ok_or_else(|| native_record_unsupported(p))?);
    Ok(Term::small_unchecked((h % range + 1) as i64))
}

/// Work left while hashing.
enum Work {
    /// A term to hash.
    Term(Term),
    /// The rest of a list after an element that is not a byte.
    Tail(Term),
    /// The end of a list.
    ListEnd,
    /// The end of a tuple of this arity.
    TupleEnd(u32),
}

/// Hashes the bytes of a 32-bit word, least significant first.
fn word_step(hash: &mut u32, x: u32, prime: u32) {
    for shift in [0, 8, 16, 24] {
        *hash = hash.wrapping_mul(prime).wrapping_add((x >> shift) & 0xff);
    }
}

/// An integer's absolute value, as in `make_hash`: bytes in whole 32-bit words.
fn integer_step(hash: &mut u32, negative: bool, magnitude_le: &[u8]) {
    let mut len = magnitude_le.len();
    while len > 0 && magnitude_le[len - 1] == 0 {
        len -= 1;
    }
    let words = len.div_ceil(4).max(1);
    for i in 0..words * 4 {
        let b = magnitude_le.get(i).copied().unwrap_or(0);
        *hash = hash.wrapping_mul(F2).wrapping_add(u32::from(b));
    }
    *hash = hash.wrapping_mul(if negative { F4 } else { F3 });
}

/// `error:{beamr_unsupported, {erlang, phash, native_record}}`: OTP 29's
/// `make_hash` of a native record is not known to beamr (the deprecated
/// `phash/2`; `phash2` hashes records as OTP does).
fn native_record_unsupported(p: &mut Process) -> Exception {
    let what = p.heap.tuple(&[
        Term::atom(beamr_core::atom::Atom::ERLANG),
        Term::atom(beamr_core::atom::Atom::new("phash").expect("atom")),
        Term::atom(beamr_core::atom::Atom::new("native_record").expect("atom")),
    ]);
    let tag = Term::atom(beamr_core::atom::Atom::new("beamr_unsupported").expect("atom"));
    Exception::error(p.heap.tuple(&[tag, what]))
}

/// OTP's `make_hash(term)`; `None` for a term holding a native record.
pub(crate) fn make_hash(term: Term) -> Option<u32> {
    let mut hash: u32 = 0;
    let mut stack = vec![Work::Term(term)];
    while let Some(work) = stack.pop() {
        let t = match work {
            Work::Term(t) => t,
            Work::Tail(t) if !t.is_cons() => {
                stack.push(Work::ListEnd);
                t
            }
            Work::Tail(t) => t,
            Work::ListEnd => {
                hash = hash.wrapping_mul(F8);
                continue;
            }
            Work::TupleEnd(arity) => {
                hash = hash.wrapping_mul(F9).wrapping_add(arity);
                continue;
            }
        };
        if let Some(v) = t.as_small() {
            integer_step(&mut hash, v < 0, &v.unsigned_abs().to_le_bytes());
        } else if let Some(a) = t.as_atom() {
            hash = hash.wrapping_mul(F1).wrapping_add(atom_hash(a));
        } else if t.is_nil() {
            hash = hash.wrapping_mul(F3).wrapping_add(1);
        } else if t.is_cons() {
            let mut l = t;
            loop {
                let Some((head, tail)) = l.as_cons() else {
                    stack.push(Work::ListEnd);
                    stack.push(Work::Term(l));
                    break;
                };
                match head.as_small().filter(|b| (0..256).contains(b)) {
                    Some(b) => {
                        hash = hash.wrapping_mul(F2).wrapping_add(b as u32);
                        l = tail;
                    }
                    None => {
                        stack.push(Work::Tail(tail));
                        stack.push(Work::Term(head));
                        break;
                    }
                }
            }
        } else if let Some(elements) = t.as_tuple() {
            stack.push(Work::TupleEnd(elements.len() as u32));
            stack.extend(elements.iter().rev().map(|&e| Work::Term(e)));
        } else if let Some(f) = t.as_float() {
            let bits = if f == 0.0 { 0u64 } else { f.to_bits() };
            hash = hash
                .wrapping_mul(F6)
                .wrapping_add((bits as u32) ^ ((bits >> 32) as u32));
        } else if let Some(big) = t.as_big() {
            let big = big.to_bigint();
            let (sign, bytes) = big.to_bytes_le();
            integer_step(&mut hash, sign == num_bigint::Sign::Minus, &bytes);
        } else if t.is_map() {
            hash = hash
                .wrapping_mul(F13)
                .wrapping_add(F14)
                .wrapping_add(phash2(t));
        } else if let Some(bin) = t.as_binary() {
            let bytes = bin.to_vec();
            let whole = bin.byte_size();
            let bits = bin.trailing_bits();
            for &b in &bytes[..whole.min(bytes.len())] {
                hash = hash.wrapping_mul(F1).wrapping_add(u32::from(b));
            }
            if bits > 0 {
                let last = u32::from(bytes.get(whole).copied().unwrap_or(0)) >> (8 - bits);
                hash = hash
                    .wrapping_mul(F1)
                    .wrapping_add(last)
                    .wrapping_mul(F12)
                    .wrapping_add(bits as u32);
            }
            hash = hash.wrapping_mul(F4).wrapping_add(whole as u32);
        } else if let Some(c) = t.as_closure() {
            hash = hash.wrapping_mul(F10).wrapping_add(c.free.len() as u32);
            hash = hash
                .wrapping_mul(F1)
                .wrapping_add(atom_hash(c.entry.module));
            hash = hash.wrapping_mul(F2).wrapping_add(c.entry.old_index);
            hash = hash.wrapping_mul(F2).wrapping_add(c.entry.old_uniq);
            stack.extend(c.free.iter().rev().map(|&e| Work::Term(e)));
        } else if let Some(e) = t.as_export() {
            hash = hash.wrapping_mul(F11).wrapping_add(e.arity);
            hash = hash.wrapping_mul(F1).wrapping_add(atom_hash(e.module));
            hash = hash.wrapping_mul(F1).wrapping_add(atom_hash(e.function));
        } else if let Some(pid) = t.as_local_pid() {
            word_step(&mut hash, pid as u32, F5);
            hash = hash.wrapping_mul(F6);
        } else if let Some(pid) = t.as_external_pid() {
            word_step(&mut hash, pid.id, F5);
            hash = hash.wrapping_mul(F6);
        } else if let Some(port) = t.as_local_port() {
            if port >> 32 != 0 {
                word_step(&mut hash, (port >> 32) as u32, F11);
            }
            word_step(&mut hash, port as u32, F9);
            hash = hash.wrapping_mul(F10);
        } else if let Some(r) = t.as_ref() {
            word_step(&mut hash, r.ids().first().copied().unwrap_or(0), F9);
            hash = hash.wrapping_mul(F10);
        } else if t.is_record() {
            return None;
        }
    }
    Some(hash)
}
