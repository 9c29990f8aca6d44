//! The `unicode` module's conversions: `characters_to_binary/1,2,3` and
//! `characters_to_list/1,2`.
//!
//! Character data is a binary or a possibly deep list of code points and
//! binaries (a binary may also end a list), read in an input encoding. It
//! is walked without recursion. On bad data the result is
//! `{error, Converted, Rest}`; when a binary ends in the middle of a
//! character and nothing follows, `{incomplete, Converted, Rest}`. `Rest`
//! starts at the offending element: the rest of its innermost list (or of
//! its binary), wrapped in each enclosing list's pending tail, as OTP
//! builds it. Anything that is not character data raises `badarg`.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::interp::ops::bs::bits;
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("unicode", "characters_to_binary", 1, characters_to_binary1),
    ("unicode", "characters_to_binary", 2, characters_to_binary2),
    ("unicode", "characters_to_binary", 3, characters_to_binary3),
    ("unicode", "characters_to_list", 1, characters_to_list1),
    ("unicode", "characters_to_list", 2, characters_to_list2),
];

/// An encoding.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Enc {
    Latin1,
    Utf8,
    /// Little-endian when true.
    Utf16(bool),
    /// Little-endian when true.
    Utf32(bool),
}

fn encoding(t: Term) -> Result<Enc, Exception> {
    let endian = |e: Term| match e.as_atom().map(Atom::name) {
        Some("big") => Ok(false),
        Some("little") => Ok(true),
        _ => Err(Exception::badarg()),
    };
    if let Some(tu) = t.as_tuple().filter(|tu| tu.len() == 2) {
        return match tu[0].as_atom().map(Atom::name) {
            Some("utf16") => Ok(Enc::Utf16(endian(tu[1])?)),
            Some("utf32") => Ok(Enc::Utf32(endian(tu[1])?)),
            _ => Err(Exception::badarg()),
        };
    }
    match t.as_atom().map(Atom::name) {
        Some("latin1") => Ok(Enc::Latin1),
        Some("unicode" | "utf8") => Ok(Enc::Utf8),
        Some("utf16") => Ok(Enc::Utf16(false)),
        Some("utf32") => Ok(Enc::Utf32(false)),
        _ => Err(Exception::badarg()),
    }
}

/// Why decoding a binary stopped early, at which byte.
enum Stop {
    Invalid(usize),
    Incomplete(usize),
}

/// Decodes `bytes` in `enc`, passing each character to `emit` (which may
/// refuse it: then decoding stops there as invalid).
fn decode_bytes(bytes: &[u8], enc: Enc, emit: &mut impl FnMut(u32) -> bool) -> Result<(), Stop> {
    let mut i = 0;
    while i < bytes.len() {
        let left = bytes.len() - i;
        let read = match enc {
            Enc::Latin1 => Some((bytes[i] as u32, 8)),
            Enc::Utf8 => bits::read_utf8(bytes, i * 8, left * 8),
            Enc::Utf16(little) => bits::read_utf16(bytes, i * 8, left * 8, little),
            Enc::Utf32(little) => bits::read_utf32(bytes, i * 8, left * 8, little),
        };
        match read {
            Some((c, n)) => {
                if !emit(c) {
                    return Err(Stop::Invalid(i));
                }
                i += n / 8;
            }
            None if truncated(&bytes[i..], enc) => return Err(Stop::Incomplete(i)),
            None => return Err(Stop::Invalid(i)),
        }
    }
    Ok(())
}

/// True when `rest` is a valid but unfinished start of a character.
fn truncated(rest: &[u8], enc: Enc) -> bool {
    match enc {
        Enc::Latin1 => false,
        Enc::Utf8 => {
            let need = match rest[0] {
                0xC2..=0xDF => 2,
                0xE0..=0xEF => 3,
                0xF0..=0xF4 => 4,
                _ => return false,
            };
            rest.len() < need && rest[1..].iter().all(|&b| b & 0xC0 == 0x80)
        }
        Enc::Utf16(little) => {
            if rest.len() < 2 {
                return true;
            }
            let u = u16::from_be_bytes([rest[0], rest[1]]);
            let u = if little { u.swap_bytes() } else { u };
            rest.len() < 4 && (0xD800..=0xDBFF).contains(&u)
        }
        Enc::Utf32(_) => rest.len() < 4,
    }
}

/// How a walk ended.
enum Walk {
    Done,
    Error(Term),
    Incomplete(Term),
}

/// Wraps the rest of the innermost list in each pending tail, innermost first.
fn wrap_rest(p: &mut Process, mut rest: Term, tails: &[Term]) -> Term {
    for &t in tails.iter().rev() {
        rest = p.heap.cons(rest, t);
    }
    rest
}

/// Walks character data, passing each character to `emit`.
fn walk(
    p: &mut Process,
    data: Term,
    enc: Enc,
    emit: &mut impl FnMut(u32) -> bool,
) -> Result<Walk, Exception> {
    let max = if enc == Enc::Latin1 { 255 } else { 0x10FFFF };
    let mut tails: Vec<Term> = Vec::new();
    let mut cur = data;
    loop {
        if let Some((h, tl)) = cur.as_cons() {
            if let Some(c) = h.as_small() {
                let ok = (0..=max).contains(&c)
                    && (enc == Enc::Latin1 || bits::is_scalar(c))
                    && emit(c as u32);
                if !ok {
                    return Ok(Walk::Error(wrap_rest(p, cur, &tails)));
                }
            } else if h.is_list() {
                tails.push(tl);
                cur = h;
                continue;
            } else if let Some(v) = h.as_binary() {
                if !v.is_binary() {
                    return Err(Exception::badarg());
                }
                let bytes = v.to_vec();
                if let Err(stop) = decode_bytes(&bytes, enc, emit) {
                    let at = match stop {
                        Stop::Invalid(at) | Stop::Incomplete(at) => at,
                    };
                    let bin_rest = p.heap.sub_binary(h, at * 8, (bytes.len() - at) * 8);
                    let rest = p.heap.cons(bin_rest, tl);
                    let rest = wrap_rest(p, rest, &tails);
                    return Ok(Walk::Error(rest));
                }
            } else {
                return Err(Exception::badarg());
            }
            cur = tl;
        } else if cur.is_nil() {
            match tails.pop() {
                Some(t) => cur = t,
                None => return Ok(Walk::Done),
            }
        } else if let Some(v) = cur.as_binary() {
            if !v.is_binary() {
                return Err(Exception::badarg());
            }
            let bytes = v.to_vec();
            if let Err(stop) = decode_bytes(&bytes, enc, emit) {
                let (at, incomplete) = match stop {
                    Stop::Invalid(at) => (at, false),
                    Stop::Incomplete(at) => (at, tails.iter().all(|t| t.is_nil())),
                };
                let bin_rest = p.heap.sub_binary(cur, at * 8, (bytes.len() - at) * 8);
                let rest = wrap_rest(p, bin_rest, &tails);
                return Ok(if incomplete {
                    Walk::Incomplete(rest)
                } else {
                    Walk::Error(rest)
                });
            }
            match tails.pop() {
                Some(t) => cur = t,
                None => return Ok(Walk::Done),
            }
        } else {
            return Err(Exception::badarg());
        }
    }
}

/// Appends `c` to `out` in `enc`; false when `enc` cannot represent it.
fn encode(out: &mut Vec<u8>, c: u32, enc: Enc) -> bool {
    match enc {
        Enc::Latin1 => {
            if c > 255 {
                return false;
            }
            out.push(c as u8);
        }
        Enc::Utf8 => {
            let mut buf = [0u8; 4];
            match char::from_u32(c) {
                Some(ch) => out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes()),
                None => return false,
            }
        }
        Enc::Utf16(little) => {
            let mut units = [0u16; 2];
            let Some(ch) = char::from_u32(c) else {
                return false;
            };
            for u in ch.encode_utf16(&mut units) {
                let b = if little {
                    u.to_le_bytes()
                } else {
                    u.to_be_bytes()
                };
                out.extend_from_slice(&b);
            }
        }
        Enc::Utf32(little) => {
            let b = if little {
                c.to_le_bytes()
            } else {
                c.to_be_bytes()
            };
            out.extend_from_slice(&b);
        }
    }
    true
}

fn tagged(p: &mut Process, tag: &str, converted: Term, rest: Term) -> Result<Term, Exception> {
    let tag = Atom::new(tag).map_err(|_| Exception::badarg())?;
    Ok(p.heap.tuple(&[Term::atom(tag), converted, rest]))
}

fn to_binary(p: &mut Process, data: Term, from: Enc, to: Enc) -> Result<Term, Exception> {
    if from == to && from == Enc::Utf8 {
        if let Some(v) = data.as_binary() {
            if let Some(bytes) = v.as_bytes() {
                if std::str::from_utf8(bytes).is_ok() {
                    return Ok(data);
                }
            }
        }
    }
    let mut out = Vec::new();
    let result = walk(p, data, from, &mut |c| encode(&mut out, c, to))?;
    let converted = p.heap.binary(&out);
    match result {
        Walk::Done => Ok(converted),
        Walk::Error(rest) => tagged(p, "error", converted, rest),
        Walk::Incomplete(rest) => tagged(p, "incomplete", converted, rest),
    }
}

fn characters_to_binary1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    to_binary(p, a[0], Enc::Utf8, Enc::Utf8)
}

fn characters_to_binary2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let from = encoding(a[1])?;
    to_binary(p, a[0], from, Enc::Utf8)
}

fn characters_to_binary3(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (from, to) = (encoding(a[1])?, encoding(a[2])?);
    to_binary(p, a[0], from, to)
}

fn to_list(p: &mut Process, data: Term, from: Enc) -> Result<Term, Exception> {
    let mut chars: Vec<u32> = Vec::new();
    let result = walk(p, data, from, &mut |c| {
        chars.push(c);
        true
    })?;
    let converted = chars.iter().rev().fold(Term::NIL, |acc, &c| {
        p.heap.cons(Term::small_unchecked(c as i64), acc)
    });
    match result {
        Walk::Done => Ok(converted),
        Walk::Error(rest) => tagged(p, "error", converted, rest),
        Walk::Incomplete(rest) => tagged(p, "incomplete", converted, rest),
    }
}

fn characters_to_list1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    to_list(p, a[0], Enc::Utf8)
}

fn characters_to_list2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let from = encoding(a[1])?;
    to_list(p, a[0], from)
}
