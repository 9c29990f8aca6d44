//! `erlang` arithmetic: `+ - * / div rem`, bit operations, `abs`, comparisons
//! and boolean operators, on small integers, bignums and floats.

use std::cmp::Ordering;

use beamr_core::heap::Heap;
use beamr_core::order;
use beamr_core::term::Term;
use num_bigint::BigInt;
use num_integer::Integer as _;
use num_traits::{Signed, ToPrimitive, Zero};

use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "+", 2, add),
    ("erlang", "-", 2, sub),
    ("erlang", "*", 2, mul),
    ("erlang", "/", 2, fdiv),
    ("erlang", "div", 2, idiv),
    ("erlang", "rem", 2, irem),
    ("erlang", "band", 2, band),
    ("erlang", "bor", 2, bor),
    ("erlang", "bxor", 2, bxor),
    ("erlang", "bsl", 2, bsl),
    ("erlang", "bsr", 2, bsr),
    ("erlang", "bnot", 1, bnot),
    ("erlang", "-", 1, neg),
    ("erlang", "+", 1, plus),
    ("erlang", "abs", 1, abs),
    ("erlang", "float", 1, float),
    ("erlang", "trunc", 1, trunc),
    ("erlang", "round", 1, round),
    ("erlang", "floor", 1, floor),
    ("erlang", "ceil", 1, ceil),
    ("erlang", "==", 2, eq),
    ("erlang", "/=", 2, ne),
    ("erlang", "=:=", 2, exact_eq),
    ("erlang", "=/=", 2, exact_ne),
    ("erlang", "<", 2, lt),
    ("erlang", ">", 2, gt),
    ("erlang", "=<", 2, le),
    ("erlang", ">=", 2, ge),
    ("erlang", "and", 2, and),
    ("erlang", "or", 2, or),
    ("erlang", "xor", 2, xor),
    ("erlang", "not", 1, not),
    ("erlang", "max", 2, max),
    ("erlang", "min", 2, min),
];

/// A number read from a term.
enum Num {
    Int(BigInt),
    Float(f64),
}

fn num(t: Term) -> Result<Num, Exception> {
    if let Some(v) = t.as_small() {
        return Ok(Num::Int(BigInt::from(v)));
    }
    if let Some(f) = t.as_float() {
        return Ok(Num::Float(f));
    }
    match t.as_big() {
        Some(b) => Ok(Num::Int(b.to_bigint())),
        None => Err(Exception::badarith()),
    }
}

fn to_f64(n: &Num) -> Result<f64, Exception> {
    match n {
        Num::Float(f) => Ok(*f),
        Num::Int(i) => i
            .to_f64()
            .filter(|f| f.is_finite())
            .ok_or_else(Exception::badarith),
    }
}

fn float_result(heap: &mut Heap, f: f64) -> Result<Term, Exception> {
    if f.is_finite() {
        Ok(heap.float(f))
    } else {
        Err(Exception::badarith())
    }
}

/// Applies an arithmetic operation with a fast path for two smalls.
fn arith(
    p: &mut Process,
    a: Term,
    b: Term,
    small: fn(i64, i64) -> Option<i64>,
    int: fn(&BigInt, &BigInt) -> BigInt,
    flt: fn(f64, f64) -> f64,
) -> Result<Term, Exception> {
    if let (Some(x), Some(y)) = (a.as_small(), b.as_small()) {
        if let Some(r) = small(x, y) {
            return Ok(p.heap.int(r));
        }
    }
    match (num(a)?, num(b)?) {
        (Num::Int(x), Num::Int(y)) => Ok(p.heap.bigint(&int(&x, &y))),
        (x, y) => {
            let r = flt(to_f64(&x)?, to_f64(&y)?);
            float_result(&mut p.heap, r)
        }
    }
}

fn add(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    arith(p, a[0], a[1], i64::checked_add, |x, y| x + y, |x, y| x + y)
}

fn sub(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    arith(p, a[0], a[1], i64::checked_sub, |x, y| x - y, |x, y| x - y)
}

fn mul(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    // A bignum times a small integer (`N * fact(N - 1)`): on the heap
    // words, without a `BigInt` in or out.
    let (x, y) = (a[0], a[1]);
    let pair = match (x.as_small(), y.as_small()) {
        (Some(s), None) => y.as_big().map(|b| (b, s)),
        (None, Some(s)) => x.as_big().map(|b| (b, s)),
        _ => None,
    };
    if let Some(r) = pair.and_then(|(b, s)| p.heap.big_times_small(b, s)) {
        return Ok(r);
    }
    arith(p, a[0], a[1], i64::checked_mul, |x, y| x * y, |x, y| x * y)
}

fn fdiv(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (x, y) = (to_f64(&num(a[0])?)?, to_f64(&num(a[1])?)?);
    if y == 0.0 {
        return Err(Exception::badarith());
    }
    float_result(&mut p.heap, x / y)
}

fn ints(a: &[Term]) -> Result<(BigInt, BigInt), Exception> {
    match (num(a[0])?, num(a[1])?) {
        (Num::Int(x), Num::Int(y)) => Ok((x, y)),
        _ => Err(Exception::badarith()),
    }
}

fn idiv(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if let (Some(x), Some(y)) = (a[0].as_small(), a[1].as_small()) {
        if y == 0 {
            return Err(Exception::badarith());
        }
        return Ok(p.heap.int(x / y));
    }
    let (x, y) = ints(a)?;
    if y.is_zero() {
        return Err(Exception::badarith());
    }
    Ok(p.heap.bigint(&(x / y)))
}

fn irem(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if let (Some(x), Some(y)) = (a[0].as_small(), a[1].as_small()) {
        if y == 0 {
            return Err(Exception::badarith());
        }
        return Ok(p.heap.int(x % y));
    }
    let (x, y) = ints(a)?;
    if y.is_zero() {
        return Err(Exception::badarith());
    }
    Ok(p.heap.bigint(&(x % y)))
}

fn bitop(
    p: &mut Process,
    a: &[Term],
    small: fn(i64, i64) -> i64,
    big: fn(&BigInt, &BigInt) -> BigInt,
) -> Result<Term, Exception> {
    if let (Some(x), Some(y)) = (a[0].as_small(), a[1].as_small()) {
        return Ok(p.heap.int(small(x, y)));
    }
    let (x, y) = ints(a)?;
    Ok(p.heap.bigint(&big(&x, &y)))
}

fn band(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    bitop(p, a, |x, y| x & y, |x, y| x & y)
}

fn bor(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    bitop(p, a, |x, y| x | y, |x, y| x | y)
}

fn bxor(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    bitop(p, a, |x, y| x ^ y, |x, y| x ^ y)
}

/// Shifts left by `shift` bits (right when negative); `system_limit` for
/// results too large to represent.
fn shift(p: &mut Process, x: BigInt, shift: BigInt) -> Result<Term, Exception> {
    let Some(s) = shift.to_i64() else {
        return if shift.is_negative() || x.is_zero() {
            Ok(p.heap.int(if x.is_negative() { -1 } else { 0 }))
        } else {
            Err(Exception::system_limit())
        };
    };
    if s >= 0 {
        if s > (1 << 26) && !x.is_zero() {
            return Err(Exception::system_limit());
        }
        Ok(p.heap.bigint(&(x << s as usize)))
    } else {
        let s = s.unsigned_abs().min(1 << 32) as usize;
        // Arithmetic shift right rounds toward negative infinity.
        Ok(p.heap.bigint(&x.div_floor(&(BigInt::from(1) << s))))
    }
}

/// Shifts a small integer left by `by` bits (right when negative) when the
/// result fits in an `i64`; `None` sends the caller to the bignum path.
fn small_shift(x: i64, by: i64) -> Option<i64> {
    if by >= 0 {
        // A left shift is exact when shifting back gives the value again.
        let r = x.checked_shl(u32::try_from(by).ok()?)?;
        (r >> by == x).then_some(r)
    } else {
        // Arithmetic right shift; 63 bits or more leave only the sign.
        Some(x >> by.unsigned_abs().min(63))
    }
}

fn bsl(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if let (Some(x), Some(y)) = (a[0].as_small(), a[1].as_small()) {
        if let Some(r) = small_shift(x, y) {
            return Ok(p.heap.int(r));
        }
    }
    let (x, y) = ints(a)?;
    shift(p, x, y)
}

fn bsr(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if let (Some(x), Some(y)) = (a[0].as_small(), a[1].as_small()) {
        if let Some(r) = y.checked_neg().and_then(|by| small_shift(x, by)) {
            return Ok(p.heap.int(r));
        }
    }
    let (x, y) = ints(a)?;
    shift(p, x, -y)
}

fn bnot(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if let Some(x) = a[0].as_small() {
        return Ok(p.heap.int(!x));
    }
    match num(a[0])? {
        Num::Int(x) => Ok(p.heap.bigint(&!x)),
        Num::Float(_) => Err(Exception::badarith()),
    }
}

fn neg(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    match num(a[0])? {
        Num::Int(x) => Ok(p.heap.bigint(&-x)),
        Num::Float(f) => Ok(p.heap.float(-f)),
    }
}

fn plus(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    num(a[0]).map(|_| a[0])
}

fn badarg_num(t: Term) -> Result<Num, Exception> {
    num(t).map_err(|_| Exception::badarg())
}

fn abs(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    match badarg_num(a[0])? {
        Num::Int(x) => Ok(p.heap.bigint(&x.abs())),
        Num::Float(f) => Ok(p.heap.float(float_abs(f))),
    }
}

/// `abs/1` of a float: OTP 27's clears the sign (`abs(-0.0)` is `0.0`);
/// earlier releases negate only what is below zero, so `-0.0` stays.
fn float_abs(f: f64) -> f64 {
    if beamr_core::release::signed_zeros_differ() || f < 0.0 {
        f.abs()
    } else {
        f
    }
}

fn float(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let f = to_f64(&badarg_num(a[0])?).map_err(|_| Exception::badarg())?;
    Ok(p.heap.float(f))
}

fn rounding(p: &mut Process, t: Term, f: fn(f64) -> f64) -> Result<Term, Exception> {
    match badarg_num(t)? {
        Num::Int(_) => Ok(t),
        Num::Float(x) => {
            let r = f(x);
            Ok(p.heap.bigint(&float_to_bigint(r)))
        }
    }
}

/// The integer value of an integral float.
fn float_to_bigint(f: f64) -> BigInt {
    if f.abs() < 9.0e15 {
        return BigInt::from(f as i64);
    }
    num_traits::FromPrimitive::from_f64(f).unwrap_or_default()
}

fn trunc(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    rounding(p, a[0], f64::trunc)
}

fn round(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    rounding(p, a[0], f64::round)
}

fn floor(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    rounding(p, a[0], f64::floor)
}

fn ceil(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    rounding(p, a[0], f64::ceil)
}

fn eq(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::bool(order::eq(a[0], a[1])))
}

fn ne(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::bool(!order::eq(a[0], a[1])))
}

fn exact_eq(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::bool(order::exact_eq(a[0], a[1])))
}

fn exact_ne(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::bool(!order::exact_eq(a[0], a[1])))
}

fn cmp(a: &[Term]) -> Ordering {
    order::compare(a[0], a[1])
}

fn lt(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::bool(cmp(a).is_lt()))
}

fn gt(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::bool(cmp(a).is_gt()))
}

fn le(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::bool(cmp(a).is_le()))
}

fn ge(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::bool(cmp(a).is_ge()))
}

/// `t` as a boolean; badarg for anything but `true` and `false`.
pub(super) fn boolean(t: Term) -> Result<bool, Exception> {
    if t == Term::TRUE {
        Ok(true)
    } else if t == Term::FALSE {
        Ok(false)
    } else {
        Err(Exception::badarg())
    }
}

fn and(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::bool(boolean(a[0])? & boolean(a[1])?))
}

fn or(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::bool(boolean(a[0])? | boolean(a[1])?))
}

fn xor(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::bool(boolean(a[0])? ^ boolean(a[1])?))
}

fn not(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::bool(!boolean(a[0])?))
}

fn max(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(if cmp(a).is_lt() { a[1] } else { a[0] })
}

fn min(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(if cmp(a).is_gt() { a[1] } else { a[0] })
}
