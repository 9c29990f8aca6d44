//! Comparing numbers: integers of either representation and floats,
//! exactly (no precision is lost comparing a bignum with a float).
//!
//! OTP compares an integer with a float by their mathematical values
//! (`utils.c`, `erts_cmp_compound`, the `SMALL_FLOAT` and `BIG_FLOAT`
//! cases: through a double only inside ±(2^53 - 2), by the bignum's size or
//! by converting the float to a bignum outside it), so `1 == 1.0` and
//! `2^53 + 1 > 2^53 + 0.0`. In map-key order every integer is below every
//! float.

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_traits::FromPrimitive;

use crate::term::{BigView, Term};

/// 2^63 as a float: the first float above every `i64`.
const TWO_POW_63: f64 = 9_223_372_036_854_775_808.0;

/// A number, read once from its term.
#[derive(Copy, Clone)]
pub(super) enum Num {
    /// A small integer.
    Small(i64),
    /// A bignum.
    Big(BigView<'static>),
    /// A float.
    Float(f64),
}

impl Num {
    /// The number `t` holds, if it is one.
    #[inline]
    pub(super) fn of(t: Term) -> Option<Num> {
        if let Some(v) = t.as_small() {
            Some(Num::Small(v))
        } else if let Some(f) = t.as_float() {
            Some(Num::Float(f))
        } else {
            t.big_parts().map(Num::Big)
        }
    }
}

/// Compares two numbers; in `exact` (map-key) order an integer is below
/// every float, and from OTP 27 on `-0.0` is below `0.0`.
pub(super) fn cmp_numbers(a: Num, b: Num, exact: bool) -> Ordering {
    match (a, b) {
        (Num::Small(x), Num::Small(y)) => x.cmp(&y),
        (Num::Float(x), Num::Float(y)) if exact && crate::release::signed_zeros_differ() => {
            x.total_cmp(&y)
        }
        (Num::Float(x), Num::Float(y)) => cmp_floats(x, y),
        (Num::Small(x), Num::Big(y)) => cmp_i64_big(x, y),
        (Num::Big(x), Num::Small(y)) => cmp_i64_big(y, x).reverse(),
        (Num::Big(x), Num::Big(y)) => cmp_bigs(x, y),
        (Num::Small(_) | Num::Big(_), Num::Float(_)) if exact => Ordering::Less,
        (Num::Float(_), Num::Small(_) | Num::Big(_)) if exact => Ordering::Greater,
        (Num::Small(x), Num::Float(y)) => cmp_i64_f64(x, y),
        (Num::Float(x), Num::Small(y)) => cmp_i64_f64(y, x).reverse(),
        (Num::Big(x), Num::Float(y)) => cmp_big_f64(x, y),
        (Num::Float(x), Num::Big(y)) => cmp_big_f64(y, x).reverse(),
    }
}

/// Floats by value (`0.0 == -0.0`, as OTP 25). Erlang has no NaN; one that
/// slipped in orders by its bits rather than breaking the order.
#[inline]
pub(super) fn cmp_floats(x: f64, y: f64) -> Ordering {
    x.partial_cmp(&y).unwrap_or_else(|| x.total_cmp(&y))
}

/// The value of a bignum if it fits an `i64` (a non-normalised bignum).
fn big_as_i64(b: BigView) -> Option<i64> {
    let digits = significant(b.digits);
    match digits {
        [] => Some(0),
        [d] if !b.negative && *d <= i64::MAX as u64 => Some(*d as i64),
        [d] if b.negative && *d <= 1u64 << 63 => Some((*d as i64).wrapping_neg()),
        _ => None,
    }
}

/// The digits without leading (most significant) zeros.
fn significant(digits: &[u64]) -> &[u64] {
    let n = digits.iter().rposition(|&d| d != 0).map_or(0, |i| i + 1);
    &digits[..n]
}

/// A small integer against a bignum.
fn cmp_i64_big(x: i64, y: BigView) -> Ordering {
    match big_as_i64(y) {
        Some(v) => x.cmp(&v),
        None if y.negative => Ordering::Greater,
        None => Ordering::Less,
    }
}

/// Two bignums: sign, then magnitude (most significant digit first).
fn cmp_bigs(x: BigView, y: BigView) -> Ordering {
    let (dx, dy) = (significant(x.digits), significant(y.digits));
    let (nx, ny) = (x.negative && !dx.is_empty(), y.negative && !dy.is_empty());
    match (nx, ny) {
        (false, true) => return Ordering::Greater,
        (true, false) => return Ordering::Less,
        _ => {}
    }
    let magnitude = dx
        .len()
        .cmp(&dy.len())
        .then_with(|| dx.iter().rev().cmp(dy.iter().rev()));
    if nx {
        magnitude.reverse()
    } else {
        magnitude
    }
}

/// An `i64` against a float, exactly.
pub(super) fn cmp_i64_f64(x: i64, y: f64) -> Ordering {
    if y.is_nan() {
        return Ordering::Less;
    }
    if y >= TWO_POW_63 {
        return Ordering::Less;
    }
    if y < -TWO_POW_63 {
        return Ordering::Greater;
    }
    // |y| < 2^63 (or y == -2^63): its integer part fits an i64 exactly,
    // and the fraction is exact too.
    let whole = y.trunc();
    match x.cmp(&(whole as i64)) {
        Ordering::Equal => cmp_floats(0.0, y - whole),
        other => other,
    }
}

/// A bignum against a float, exactly.
fn cmp_big_f64(x: BigView, y: f64) -> Ordering {
    if let Some(v) = big_as_i64(x) {
        return cmp_i64_f64(v, y);
    }
    if y.is_nan() {
        return Ordering::Less;
    }
    if y.is_infinite() {
        return if y > 0.0 {
            Ordering::Less
        } else {
            Ordering::Greater
        };
    }
    // |x| >= 2^63 > |y| unless |y| is that large too, in which case y is an
    // integer (every float of magnitude >= 2^53 is) and converts exactly.
    if y.abs() < TWO_POW_63 {
        return if x.negative {
            Ordering::Less
        } else {
            Ordering::Greater
        };
    }
    match BigInt::from_f64(y) {
        Some(fy) => x.to_bigint().cmp(&fy),
        None => Ordering::Less,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_and_floats_compare_exactly() {
        assert_eq!(cmp_i64_f64(1, 1.0), Ordering::Equal);
        assert_eq!(cmp_i64_f64(1, 1.5), Ordering::Less);
        assert_eq!(cmp_i64_f64(-1, -1.5), Ordering::Greater);
        let big = (1i64 << 53) + 1;
        assert_eq!(cmp_i64_f64(big, big as f64), Ordering::Greater);
        assert_eq!(cmp_i64_f64(i64::MAX, TWO_POW_63), Ordering::Less);
        assert_eq!(cmp_i64_f64(i64::MIN, -TWO_POW_63), Ordering::Equal);
    }
}
