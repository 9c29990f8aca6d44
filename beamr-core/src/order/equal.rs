//! Exact equality (`=:=`): the same term, whatever its representation.
//!
//! Faster than asking [`compare_exact`](super::compare_exact) for `Equal`:
//! it stops at the first difference in size or shape, compares binaries as
//! byte slices and walks two hash tries node by node. Walking tries side by
//! side is sound because a trie's shape is a function of its key set (see
//! [`crate::map`]): equal maps have equal shapes. Iterative, like the
//! comparison.
//!
//! `=:=`: integers never equal floats, funs are equal when they come from
//! the same fun entry with equal free variables; `0.0 =:= -0.0` up to OTP
//! 26, not from OTP 27 on ([`crate::release::signed_zeros_differ`]).

use std::cmp::Ordering;

use super::compare::compare_exact;
use crate::term::{Kind, Term};

/// Erlang's `=:=`.
#[inline]
pub fn exact_eq(a: Term, b: Term) -> bool {
    if a.raw() == b.raw() {
        return true;
    }
    // Two floats: compared here, where the caller inlines it, rather than
    // behind the walk's call.
    if let (Some(x), Some(y)) = (a.as_float(), b.as_float()) {
        return exact_float_eq(x, y);
    }
    walk_eq(a, b)
}

/// `=:=` of two terms with different words, by walking them.
#[inline(never)]
fn walk_eq(a: Term, b: Term) -> bool {
    let mut stack: Vec<Pending> = Vec::new();
    let (mut x, mut y) = (a, b);
    loop {
        if x.raw() != y.raw() && !eq_step(x, y, &mut stack) {
            return false;
        }
        (x, y) = loop {
            match stack.pop() {
                None => return true,
                Some(Pending::Pair(x, y)) => break (x, y),
                Some(Pending::Elems(xs, ys)) => {
                    if let (Some((&x0, xr)), Some((&y0, yr))) = (xs.split_first(), ys.split_first())
                    {
                        if !xr.is_empty() {
                            stack.push(Pending::Elems(xr, yr));
                        }
                        break (x0, y0);
                    }
                }
            }
        };
    }
}

/// Work left to compare.
enum Pending {
    /// Two terms.
    Pair(Term, Term),
    /// Two equally long term arrays.
    Elems(&'static [Term], &'static [Term]),
}

/// Compares the outer layer of two terms whose words differ; pushes what
/// remains to compare.
fn eq_step(a: Term, b: Term, stack: &mut Vec<Pending>) -> bool {
    match (a.kind(), b.kind()) {
        (Kind::Cons, Kind::Cons) => match (a.as_cons(), b.as_cons()) {
            (Some((ha, ta)), Some((hb, tb))) => {
                stack.push(Pending::Pair(ta, tb));
                stack.push(Pending::Pair(ha, hb));
                true
            }
            _ => false,
        },
        (Kind::Tuple, Kind::Tuple) => {
            let (xs, ys) = (
                a.tuple_elements().unwrap_or(&[]),
                b.tuple_elements().unwrap_or(&[]),
            );
            push_if_same_len(xs, ys, stack)
        }
        (Kind::Float, Kind::Float) => match (a.as_float(), b.as_float()) {
            (Some(x), Some(y)) => exact_float_eq(x, y),
            _ => false,
        },
        (Kind::Binary, Kind::Binary) => match (a.binary_parts(), b.binary_parts()) {
            (Some(x), Some(y)) => {
                x.bit_size == y.bit_size
                    && match (x.as_bytes(), y.as_bytes()) {
                        (Some(p), Some(q)) => p == q,
                        _ => x.to_vec() == y.to_vec(),
                    }
            }
            _ => false,
        },
        (Kind::Map, Kind::Map) => eq_maps(a, b, stack),
        (Kind::Record, Kind::Record) => match (a.record_parts(), b.record_parts()) {
            (Some(x), Some(y)) => {
                x.def.same_shape(y.def) && push_if_same_len(x.values, y.values, stack)
            }
            _ => false,
        },
        (Kind::Fun, Kind::Fun) => match (a.closure_parts(), b.closure_parts()) {
            (Some(x), Some(y)) => {
                std::ptr::eq(x.entry, y.entry) && push_if_same_len(x.free, y.free, stack)
            }
            (None, None) => match (a.as_export(), b.as_export()) {
                (Some(x), Some(y)) => std::ptr::eq(x, y),
                _ => false,
            },
            _ => false,
        },
        // Two smalls with different words differ; a bignum may still equal
        // a small if it was not normalised: the order decides.
        (Kind::SmallInt, Kind::SmallInt) => false,
        // Two references of one node with as many id words: equal when
        // the words are (a selective receive matches its reply's monitor
        // reference so, once per `gen_server:call`); else the order, which
        // pads the shorter one.
        (Kind::Ref, Kind::Ref) => match (a.as_ref(), b.as_ref()) {
            (Some(x), Some(y))
                if x.len == y.len && x.node == y.node && x.creation == y.creation =>
            {
                x.ids() == y.ids()
            }
            _ => compare_exact(a, b) == Ordering::Equal,
        },
        (Kind::SmallInt | Kind::BigInt, Kind::SmallInt | Kind::BigInt)
        | (Kind::Pid, Kind::Pid)
        | (Kind::Port, Kind::Port) => compare_exact(a, b) == Ordering::Equal,
        // Atoms and `[]` with different words, or different kinds.
        _ => false,
    }
}

/// Two floats under `=:=`: by value, and from OTP 27 on by sign too (a
/// float is never NaN, so that is bit equality).
#[inline]
fn exact_float_eq(x: f64, y: f64) -> bool {
    if crate::release::signed_zeros_differ() {
        x.to_bits() == y.to_bits()
    } else {
        x == y
    }
}

fn push_if_same_len(xs: &'static [Term], ys: &'static [Term], stack: &mut Vec<Pending>) -> bool {
    if xs.len() != ys.len() {
        return false;
    }
    if !xs.is_empty() {
        stack.push(Pending::Elems(xs, ys));
    }
    true
}

/// Maps: flat maps by keys and values; tries node by node (bitmaps, sizes,
/// children), since equal key sets give equal shapes.
fn eq_maps(a: Term, b: Term, stack: &mut Vec<Pending>) -> bool {
    if let (Some(x), Some(y)) = (a.flat_map_parts(), b.flat_map_parts()) {
        return push_if_same_len(x.keys, y.keys, stack)
            && push_if_same_len(x.values, y.values, stack);
    }
    if let (Some(x), Some(y)) = (a.hash_node_parts(), b.hash_node_parts()) {
        return x.bitmap == y.bitmap
            && x.size == y.size
            && push_if_same_len(x.children, y.children, stack);
    }
    // A flat map and a trie of the same size (only if built by hand):
    // fall back on the order.
    a.map_size() == b.map_size() && compare_exact(a, b) == Ordering::Equal
}
