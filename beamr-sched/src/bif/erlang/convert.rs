//! `erlang` conversions between atoms, integers, floats and strings:
//! `atom_to_list/1`, `list_to_atom/1`, `list_to_existing_atom/1`,
//! `integer_to_list/1,2`, `list_to_integer/1,2`, `float_to_list/1,2`,
//! `list_to_float/1`.
//!
//! # `float_to_list/2`
//!
//! Options are read left to right; the last of `{decimals, D}` (fixed
//! notation, `D` in 0..=253), `{scientific, D}` (`D` in 0..=249) and `short`
//! wins, and `compact` drops trailing zeros of fixed notation. Fixed
//! notation follows OTP 25's `sys_double_to_chars_fast`: below 2^53 and
//! with fewer than 19 decimals, the fraction is `round(frac * 10^D)`
//! (halves away from zero, on the double), not the exact decimal expansion;
//! otherwise the exact expansion (C's `%.*f`). Text of 256 bytes or more is
//! `badarg`, as OTP's buffer.

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use num_bigint::BigInt;
use num_traits::Num as _;

use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "atom_to_list", 1, atom_to_list),
    ("erlang", "list_to_atom", 1, list_to_atom),
    ("erlang", "list_to_existing_atom", 1, list_to_existing_atom),
    ("erlang", "integer_to_list", 1, integer_to_list1),
    ("erlang", "integer_to_list", 2, integer_to_list2),
    ("erlang", "list_to_integer", 1, list_to_integer1),
    ("erlang", "list_to_integer", 2, list_to_integer2),
    ("erlang", "float_to_list", 1, float_to_list1),
    ("erlang", "float_to_list", 2, float_to_list2),
    ("erlang", "list_to_float", 1, list_to_float),
];

/// The longest atom, in characters.
const MAX_ATOM_CHARS: usize = 255;
/// OTP's buffer for `float_to_list/2`: text this long or longer is `badarg`.
const FLOAT_BUF: usize = 256;

fn atom_to_list(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let atom = a[0].as_atom().ok_or_else(Exception::badarg)?;
    Ok(p.heap.string(atom.name()))
}

/// A proper list of Unicode code points as a string; `None` otherwise.
fn char_list(l: Term) -> Option<String> {
    let mut s = String::new();
    let mut l = l;
    while let Some((h, t)) = l.as_cons() {
        let c = h.as_small().and_then(|c| u32::try_from(c).ok())?;
        s.push(char::from_u32(c)?);
        l = t;
    }
    l.is_nil().then_some(s)
}

/// A proper list of Latin-1 characters as bytes (what the number parsers
/// accept); `None` otherwise.
fn byte_list(l: Term) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut l = l;
    while let Some((h, t)) = l.as_cons() {
        out.push(h.as_small().and_then(|c| u8::try_from(c).ok())?);
        l = t;
    }
    l.is_nil().then_some(out)
}

fn list_to_atom(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let s = char_list(a[0]).ok_or_else(Exception::badarg)?;
    if s.chars().count() > MAX_ATOM_CHARS {
        return Err(Exception::system_limit());
    }
    Atom::new_within_limit(&s)
        .map(Term::atom)
        .map_err(|_| Exception::system_limit())
}

fn list_to_existing_atom(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let s = char_list(a[0]).ok_or_else(Exception::badarg)?;
    Atom::existing(&s)
        .map(Term::atom)
        .ok_or_else(Exception::badarg)
}

/// A radix argument: an integer in 2..=36.
fn radix(t: Term) -> Result<u32, Exception> {
    t.as_small()
        .filter(|b| (2..=36).contains(b))
        .map(|b| b as u32)
        .ok_or_else(Exception::badarg)
}

/// `i` in `base`, upper-case letters, as a character list.
fn int_text(p: &mut Process, i: Term, base: u32) -> Result<Term, Exception> {
    if let Some(v) = i.as_small() {
        if base == 10 {
            return Ok(p.heap.string(&v.to_string()));
        }
        let text = BigInt::from(v).to_str_radix(base).to_ascii_uppercase();
        return Ok(p.heap.string(&text));
    }
    let big = i.as_big().ok_or_else(Exception::badarg)?.to_bigint();
    let text = big.to_str_radix(base).to_ascii_uppercase();
    Ok(p.heap.string(&text))
}

fn integer_to_list1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    int_text(p, a[0], 10)
}

fn integer_to_list2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[0].is_integer() {
        return Err(Exception::badarg());
    }
    let base = radix(a[1])?;
    int_text(p, a[0], base)
}

/// Parses `[+-]digits` in `base`; `None` for anything else.
fn parse_int(bytes: &[u8], base: u32) -> Option<BigInt> {
    let (neg, digits) = match bytes.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, bytes),
    };
    if digits.is_empty() || !digits.iter().all(|&c| (c as char).is_digit(base)) {
        return None;
    }
    if digits.len() <= 15 && base == 10 {
        let mut v: i64 = 0;
        for &c in digits {
            v = v * 10 + (c - b'0') as i64;
        }
        return Some(BigInt::from(if neg { -v } else { v }));
    }
    let text = std::str::from_utf8(digits).ok()?;
    let v = BigInt::from_str_radix(text, base).ok()?;
    Some(if neg { -v } else { v })
}

fn list_to_integer1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = byte_list(a[0]).ok_or_else(Exception::badarg)?;
    let v = parse_int(&bytes, 10).ok_or_else(Exception::badarg)?;
    Ok(p.heap.bigint(&v))
}

fn list_to_integer2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let base = radix(a[1])?;
    let bytes = byte_list(a[0]).ok_or_else(Exception::badarg)?;
    let v = parse_int(&bytes, base).ok_or_else(Exception::badarg)?;
    Ok(p.heap.bigint(&v))
}

/// `list_to_float/1`: `[+-]D+.D+` with an optional `[eE][+-]D+`, finite.
fn list_to_float(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = byte_list(a[0]).ok_or_else(Exception::badarg)?;
    if !float_syntax(&bytes) {
        return Err(Exception::badarg());
    }
    let text = std::str::from_utf8(&bytes).map_err(|_| Exception::badarg())?;
    let f: f64 = text.parse().map_err(|_| Exception::badarg())?;
    if !f.is_finite() {
        return Err(Exception::badarg());
    }
    Ok(p.heap.float(f))
}

/// True for Erlang's float syntax.
fn float_syntax(b: &[u8]) -> bool {
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i > start
    };
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    if !digits(&mut i) || i >= b.len() || b[i] != b'.' {
        return false;
    }
    i += 1;
    if !digits(&mut i) {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if !digits(&mut i) {
            return false;
        }
    }
    i == b.len()
}

/// A float format chosen by `float_to_list/2`'s options.
#[derive(Copy, Clone)]
enum FloatFormat {
    /// `%.*e`.
    Scientific(usize),
    /// Fixed notation with this many decimals; trailing zeros dropped when `compact`.
    Fixed(usize, bool),
    /// The shortest text that reads back (`~w`).
    Short,
}

fn float_arg(t: Term) -> Result<f64, Exception> {
    t.as_float().ok_or_else(Exception::badarg)
}

fn float_to_list1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let f = float_arg(a[0])?;
    let text = format_float(f, FloatFormat::Scientific(20)).ok_or_else(Exception::badarg)?;
    Ok(p.heap.string(&text))
}

fn float_to_list2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let f = float_arg(a[0])?;
    let format = float_options(a[1])?;
    let text = format_float(f, format).ok_or_else(Exception::badarg)?;
    Ok(p.heap.string(&text))
}

/// Reads `float_to_list/2`'s option list.
fn float_options(opts: Term) -> Result<FloatFormat, Exception> {
    let (compact, decimals, scientific, short) = (
        Atom::new("compact").map_err(|_| Exception::badarg())?,
        Atom::new("decimals").map_err(|_| Exception::badarg())?,
        Atom::new("scientific").map_err(|_| Exception::badarg())?,
        Atom::new("short").map_err(|_| Exception::badarg())?,
    );
    let mut format = FloatFormat::Scientific(20);
    let mut is_compact = false;
    let mut l = opts;
    while let Some((h, t)) = l.as_cons() {
        if let Some(atom) = h.as_atom() {
            if atom == compact {
                is_compact = true;
            } else if atom == short {
                format = FloatFormat::Short;
            } else {
                return Err(Exception::badarg());
            }
        } else if let Some(&[tag, n]) = h.as_tuple() {
            let n = n
                .as_small()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(Exception::badarg)?;
            match tag.as_atom() {
                Some(t) if t == decimals && n <= 253 => format = FloatFormat::Fixed(n, false),
                Some(t) if t == scientific && n <= 249 => format = FloatFormat::Scientific(n),
                _ => return Err(Exception::badarg()),
            }
        } else {
            return Err(Exception::badarg());
        }
        l = t;
    }
    if !l.is_nil() {
        return Err(Exception::badarg());
    }
    if let FloatFormat::Fixed(n, _) = format {
        format = FloatFormat::Fixed(n, is_compact);
    }
    Ok(format)
}

/// `f` in `format`; `None` when OTP's buffer would overflow.
fn format_float(f: f64, format: FloatFormat) -> Option<String> {
    let text = match format {
        FloatFormat::Short => {
            let mut s = String::new();
            beamr_core::format::write_float(&mut s, f).ok()?;
            s
        }
        FloatFormat::Scientific(d) => c_scientific(f, d),
        FloatFormat::Fixed(d, compact) => {
            let mut s = fixed(f, d);
            if compact && d > 0 {
                let trimmed = s.trim_end_matches('0');
                let keep = if trimmed.ends_with('.') {
                    trimmed.len() + 1
                } else {
                    trimmed.len()
                };
                s.truncate(keep);
            }
            s
        }
    };
    (text.len() < FLOAT_BUF).then_some(text)
}

/// C's `%.*e`: a mantissa with `d` decimals and an exponent of at least two
/// digits with its sign.
fn c_scientific(f: f64, d: usize) -> String {
    let rust = format!("{f:.d$e}");
    let (mantissa, exp) = rust.split_once('e').unwrap_or((&rust, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exp.unsigned_abs())
}

/// Fixed notation with `d` decimals, as OTP 25's `sys_double_to_chars_fast`.
pub(crate) fn fixed(f: f64, d: usize) -> String {
    const MAX_FAST: f64 = (1u64 << 53) as f64;
    const POW10: [f64; 19] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18,
    ];
    let neg = f.is_sign_negative();
    let af = f.abs();
    if af > MAX_FAST || d >= POW10.len() {
        return format!("{f:.d$}");
    }
    let mut out = String::with_capacity(24 + d);
    if neg {
        out.push('-');
    }
    if d == 0 {
        // lround: halves away from zero.
        out.push_str(&(af.round() as u64).to_string());
        return out;
    }
    let int_f = af.floor();
    let frac_f = ((af - int_f) * POW10[d]).round();
    let (mut int_part, mut frac_part) = (int_f as u64, frac_f as u64);
    if frac_f >= POW10[d] {
        int_part += 1;
        frac_part = 0;
    }
    out.push_str(&int_part.to_string());
    out.push('.');
    out.push_str(&format!("{frac_part:0d$}"));
    out
}
