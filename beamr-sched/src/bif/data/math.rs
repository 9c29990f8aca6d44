//! The `math` module's BIFs (`math:sqrt/1`, `math:sin/1`, ... `math:fmod/2`):
//! `f64` functions of integers or floats.
//!
//! As in the BEAM: a non-number argument is `badarg`; an integer too large
//! for a float, or a result that is not finite (NaN, infinity), is
//! `badarith`. `math:pi/0` and `math:tau/0` are plain Erlang in `math.beam`.

use beamr_core::term::Term;
use num_traits::ToPrimitive;

use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("math", "sqrt", 1, sqrt),
    ("math", "exp", 1, exp),
    ("math", "log", 1, log),
    ("math", "log2", 1, log2),
    ("math", "log10", 1, log10),
    ("math", "sin", 1, sin),
    ("math", "cos", 1, cos),
    ("math", "tan", 1, tan),
    ("math", "asin", 1, asin),
    ("math", "acos", 1, acos),
    ("math", "atan", 1, atan),
    ("math", "sinh", 1, sinh),
    ("math", "cosh", 1, cosh),
    ("math", "tanh", 1, tanh),
    ("math", "asinh", 1, asinh),
    ("math", "acosh", 1, acosh),
    ("math", "atanh", 1, atanh),
    ("math", "erf", 1, erf),
    ("math", "erfc", 1, erfc),
    ("math", "floor", 1, floor),
    ("math", "ceil", 1, ceil),
    ("math", "pow", 2, pow),
    ("math", "atan2", 2, atan2),
    ("math", "fmod", 2, fmod),
];

/// The argument as a float: `badarg` if not a number, `badarith` if an
/// integer too large for one.
fn arg(t: Term) -> Result<f64, Exception> {
    if let Some(f) = t.as_float() {
        return Ok(f);
    }
    if let Some(i) = t.as_small() {
        return Ok(i as f64);
    }
    match t.as_big() {
        Some(b) => b
            .to_bigint()
            .to_f64()
            .filter(|f| f.is_finite())
            .ok_or_else(Exception::badarith),
        None => Err(Exception::badarg()),
    }
}

fn result(p: &mut Process, f: f64) -> Result<Term, Exception> {
    if f.is_finite() {
        Ok(p.heap.float(f))
    } else {
        Err(Exception::badarith())
    }
}

fn unary(p: &mut Process, a: &[Term], f: fn(f64) -> f64) -> Result<Term, Exception> {
    let x = arg(a[0])?;
    result(p, f(x))
}

fn binary(p: &mut Process, a: &[Term], f: fn(f64, f64) -> f64) -> Result<Term, Exception> {
    let (x, y) = (arg(a[0])?, arg(a[1])?);
    result(p, f(x, y))
}

macro_rules! unary_bifs {
    ($($name:ident => $f:expr,)*) => {
        $(
            fn $name(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
                unary(p, a, $f)
            }
        )*
    };
}

unary_bifs! {
    sqrt => f64::sqrt,
    exp => f64::exp,
    log => f64::ln,
    log2 => f64::log2,
    log10 => f64::log10,
    sin => f64::sin,
    cos => f64::cos,
    tan => f64::tan,
    asin => f64::asin,
    acos => f64::acos,
    atan => f64::atan,
    sinh => f64::sinh,
    cosh => f64::cosh,
    tanh => f64::tanh,
    asinh => f64::asinh,
    acosh => f64::acosh,
    atanh => f64::atanh,
    erf => erf_f64,
    erfc => erfc_f64,
    floor => f64::floor,
    ceil => f64::ceil,
}

fn pow(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    binary(p, a, f64::powf)
}

fn atan2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    binary(p, a, f64::atan2)
}

/// C's `fmod`: the remainder with the sign of the dividend (Rust's `%`).
fn fmod(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    binary(p, a, |x, y| x % y)
}

// The C library's error functions, so results agree with the BEAM's to the
// last bit.
use crate::bif::common::c_library::{erf as erf_f64, erfc as erfc_f64};
