//! List BIFs: the functions of `lists` that are BIFs in OTP 25
//! (`reverse/2`, `keyfind/3`, `keymember/3`, `keysearch/3`, `member/2`)
//! and `erlang:'--'/2` (`erlang:subtract/2`).
//!
//! Semantics are OTP's: `keyfind` and friends compare keys with `==`
//! (`1` finds `1.0`), `member` and `--` with `=:=`; a list that turns out
//! improper before the answer is known is `badarg`, one whose answer comes
//! first is not looked at further. `A -- B` removes, for each element of
//! `B`, the first element of `A` that matches it; both must be proper.

use std::cmp::Ordering;

use beamr_core::atom::Atom;
use beamr_core::order::{self, compare_exact, exact_eq};
use beamr_core::term::Term;

use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("lists", "reverse", 2, reverse),
    ("lists", "keyfind", 3, keyfind),
    ("lists", "keymember", 3, keymember),
    ("lists", "keysearch", 3, keysearch),
    ("lists", "member", 2, member),
    ("erlang", "--", 2, subtract),
    ("erlang", "subtract", 2, subtract),
];

/// `lists:reverse(List, Tail)`: the reversed copy is built in one block of
/// cells (one pass to count and check, one to fill).
fn reverse(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    use crate::bif::erlang::terms::{list_items, proper_len};
    let n = proper_len(a[0]).ok_or_else(Exception::badarg)?;
    Ok(p.heap.list_of_n(n, list_items(a[0]), a[1], true))
}

/// The first tuple of `list` whose element `n` (1-based) equals `key`
/// (`==`); `badarg` for a bad position or an improper list.
fn keyfind_in(key: Term, n: Term, list: Term) -> Result<Option<Term>, Exception> {
    let pos = n
        .as_small()
        .filter(|&n| n >= 1)
        .ok_or_else(Exception::badarg)? as usize;
    let mut l = list;
    if key.is_small() || key.is_atom() {
        // An immediate other than a number equal to a float compares by
        // word; a small compares by word to smalls and by value to floats.
        let numeric = key.is_small();
        while let Some((h, t)) = l.as_cons() {
            if let Some(tuple) = h.as_tuple() {
                if let Some(&e) = tuple.get(pos - 1) {
                    if e.raw() == key.raw() || (numeric && e.is_float() && order::eq(e, key)) {
                        return Ok(Some(h));
                    }
                }
            }
            l = t;
        }
    } else {
        while let Some((h, t)) = l.as_cons() {
            if let Some(tuple) = h.as_tuple() {
                if let Some(&e) = tuple.get(pos - 1) {
                    if order::eq(e, key) {
                        return Ok(Some(h));
                    }
                }
            }
            l = t;
        }
    }
    if l.is_nil() {
        Ok(None)
    } else {
        Err(Exception::badarg())
    }
}

fn keyfind(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(keyfind_in(a[0], a[1], a[2])?.unwrap_or(Term::FALSE))
}

fn keymember(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::bool(keyfind_in(a[0], a[1], a[2])?.is_some()))
}

fn keysearch(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(match keyfind_in(a[0], a[1], a[2])? {
        Some(t) => p.heap.tuple(&[Term::atom(Atom::VALUE), t]),
        None => Term::FALSE,
    })
}

/// `lists:member(Elem, List)`, matching with `=:=`.
fn member(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (x, mut l) = (a[0], a[1]);
    if x.is_immediate() {
        while let Some((h, t)) = l.as_cons() {
            if h.raw() == x.raw() {
                return Ok(Term::TRUE);
            }
            l = t;
        }
    } else {
        while let Some((h, t)) = l.as_cons() {
            if exact_eq(h, x) {
                return Ok(Term::TRUE);
            }
            l = t;
        }
    }
    if l.is_nil() {
        Ok(Term::FALSE)
    } else {
        Err(Exception::badarg())
    }
}

/// Up to this many elements in `B`, `A -- B` scans `B` for each element
/// of `A`; above, it looks them up in a sorted copy.
const LINEAR_LIMIT: usize = 16;

/// `A -- B`.
fn subtract(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (lhs, rhs) = (a[0], a[1]);
    if lhs.list_len().is_none() {
        return Err(Exception::badarg());
    }
    let mut remove = rhs.list_to_vec().ok_or_else(Exception::badarg)?;
    if remove.is_empty() || lhs.is_nil() {
        return Ok(lhs);
    }
    let mut kept: Vec<Term> = Vec::new();
    let mut l = lhs;
    if remove.len() <= LINEAR_LIMIT {
        while let Some((h, t)) = l.as_cons() {
            l = t;
            match remove.iter().position(|&r| exact_eq(r, h)) {
                Some(i) => {
                    remove.remove(i);
                    if remove.is_empty() {
                        break;
                    }
                }
                None => kept.push(h),
            }
        }
    } else {
        // Distinct terms of B, sorted, each with how many times it may
        // still be removed.
        remove.sort_by(|&x, &y| compare_exact(x, y));
        let mut keys: Vec<Term> = Vec::with_capacity(remove.len());
        let mut counts: Vec<usize> = Vec::with_capacity(remove.len());
        for r in remove {
            match keys.last() {
                Some(&k) if compare_exact(k, r) == Ordering::Equal => {
                    *counts.last_mut().expect("counts follow keys") += 1
                }
                _ => {
                    keys.push(r);
                    counts.push(1);
                }
            }
        }
        let mut left: usize = counts.iter().sum();
        while let Some((h, t)) = l.as_cons() {
            l = t;
            match keys.binary_search_by(|&k| compare_exact(k, h)) {
                Ok(i) if counts[i] > 0 => {
                    counts[i] -= 1;
                    left -= 1;
                    if left == 0 {
                        break;
                    }
                }
                _ => kept.push(h),
            }
        }
    }
    Ok(p.heap.list_with_tail(&kept, l))
}
