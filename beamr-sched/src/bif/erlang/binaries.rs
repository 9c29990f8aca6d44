//! `erlang` BIFs on binaries: sizes, slicing, iolists, conversions between
//! binaries and lists, atoms, integers and floats, and the external term
//! format (`term_to_binary`, `binary_to_term`).
//!
//! Iolists are walked by [`beamr_core::term::walk_iodata`], without
//! recursion, so a deep iolist cannot overflow the native stack.

use beamr_core::atom::Atom;
use beamr_core::etf;
use beamr_core::term::{walk_iodata, BinaryView, IoPiece, NotIodata, Term};
use num_bigint::BigInt;
use num_traits::{Num, Zero};

use crate::bif::common::etf::encode_defaults;
use crate::interp::ops::bs::bits;
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "byte_size", 1, byte_size),
    ("erlang", "bit_size", 1, bit_size),
    ("erlang", "is_bitstring", 1, is_bitstring),
    ("erlang", "binary_part", 2, binary_part2),
    ("erlang", "binary_part", 3, binary_part3),
    ("erlang", "split_binary", 2, split_binary),
    ("erlang", "list_to_binary", 1, list_to_binary),
    ("erlang", "iolist_to_binary", 1, iolist_to_binary),
    ("erlang", "iolist_size", 1, iolist_size),
    ("erlang", "list_to_bitstring", 1, list_to_bitstring),
    ("erlang", "binary_to_list", 1, binary_to_list1),
    ("erlang", "binary_to_list", 3, binary_to_list3),
    ("erlang", "bitstring_to_list", 1, bitstring_to_list),
    ("erlang", "term_to_binary", 1, term_to_binary1),
    ("erlang", "term_to_binary", 2, term_to_binary2),
    ("erlang", "external_size", 1, external_size1),
    ("erlang", "external_size", 2, external_size2),
    ("erlang", "binary_to_term", 1, binary_to_term1),
    ("erlang", "binary_to_term", 2, binary_to_term2),
    ("erlang", "atom_to_binary", 1, atom_to_binary1),
    ("erlang", "atom_to_binary", 2, atom_to_binary2),
    ("erlang", "binary_to_atom", 1, binary_to_atom1),
    ("erlang", "binary_to_atom", 2, binary_to_atom2),
    (
        "erlang",
        "binary_to_existing_atom",
        1,
        binary_to_existing_atom1,
    ),
    (
        "erlang",
        "binary_to_existing_atom",
        2,
        binary_to_existing_atom2,
    ),
    ("erlang", "integer_to_binary", 1, integer_to_binary1),
    ("erlang", "integer_to_binary", 2, integer_to_binary2),
    ("erlang", "binary_to_integer", 1, binary_to_integer1),
    ("erlang", "binary_to_integer", 2, binary_to_integer2),
    ("erlang", "float_to_binary", 1, float_to_binary1),
    ("erlang", "float_to_binary", 2, float_to_binary2),
    ("erlang", "binary_to_float", 1, binary_to_float),
    ("erlang", "iolist_to_iovec", 1, iolist_to_iovec),
];

// ----- helpers shared with the `binary` and `unicode` BIFs --------------------

/// The view of a bitstring argument; `badarg` otherwise.
#[inline]
pub(crate) fn bitstring_arg(t: &Term) -> Result<BinaryView<'_>, Exception> {
    t.as_binary().ok_or_else(Exception::badarg)
}

/// The bytes of a binary argument (whole bytes only); `badarg` otherwise.
/// Copies only when the binary does not start on a byte boundary.
pub(crate) fn binary_bytes(t: &Term) -> Result<std::borrow::Cow<'_, [u8]>, Exception> {
    let v = bitstring_arg(t)?;
    if !v.is_binary() {
        return Err(Exception::badarg());
    }
    Ok(match v.as_bytes() {
        Some(b) => std::borrow::Cow::Borrowed(b),
        None => std::borrow::Cow::Owned(v.to_vec()),
    })
}

/// A non-negative small integer argument.
pub(crate) fn usize_arg(t: Term) -> Result<usize, Exception> {
    t.as_small()
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(Exception::badarg)
}

/// Bits being collected: whole bytes, then possibly a partial last byte.
#[derive(Default)]
pub(super) struct BitBuf {
    /// The bytes (a partial last byte's bits in its high end).
    pub bytes: Vec<u8>,
    /// The size in bits.
    pub bits: usize,
}

impl BitBuf {
    /// Appends one byte.
    #[inline]
    pub fn push_byte(&mut self, b: u8) {
        if self.bits % 8 == 0 {
            self.bytes.push(b);
        } else {
            self.bytes.push(0);
            bits::write_u64(&mut self.bytes, self.bits, b as u64, 8);
        }
        self.bits += 8;
    }

    /// Appends the bits of a bitstring.
    pub fn push_view(&mut self, v: &BinaryView) {
        if self.bits % 8 == 0 {
            if let Some(b) = v.as_bytes() {
                self.bytes.extend_from_slice(b);
                self.bits += v.bit_size;
                return;
            }
        }
        let end = self.bits + v.bit_size;
        self.bytes.resize(end.div_ceil(8), 0);
        bits::copy_bits(
            &mut self.bytes,
            self.bits,
            v.storage,
            v.bit_offset,
            v.bit_size,
        );
        self.bits = end;
    }

    /// The collected bits as a binary or bitstring term.
    pub fn into_term(self, p: &mut Process) -> Term {
        p.heap.bitstring(&self.bytes, self.bits)
    }
}

/// Walks an iolist (bytes, binaries, nested lists; a binary may end a
/// list), appending to `out`. With `bits_ok`, bitstrings are accepted too
/// (`list_to_bitstring`). `Err` for anything else.
pub(super) fn walk_iolist(t: Term, out: &mut BitBuf, bits_ok: bool) -> Result<(), NotIodata> {
    walk_iodata(t, |piece| {
        match piece {
            IoPiece::Byte(b) => out.push_byte(b),
            IoPiece::Bits(v) if bits_ok || v.is_binary() => out.push_view(&v),
            IoPiece::Bits(_) => return Err(NotIodata),
        }
        Ok(())
    })
}

/// The bytes of an iolist or binary (`iolist_to_binary`'s input):
/// [`beamr_core::term::iodata_bytes`], `badarg` when it is not iodata.
pub(crate) fn iodata_bytes(t: Term) -> Result<Vec<u8>, Exception> {
    beamr_core::term::iodata_bytes(t).ok_or_else(Exception::badarg)
}

/// A sub-binary of `t` (a binary or bitstring) of `len` bytes from byte
/// `start`; a copy when they fit in a heap binary, as erts copies them: a
/// small slice does not keep a large binary alive, and
/// `binary:referenced_byte_size` tells.
pub(crate) fn sub_bytes(p: &mut Process, t: Term, start: usize, len: usize) -> Term {
    let Some(v) = t.as_binary() else {
        return p.heap.sub_binary(t, start * 8, len * 8);
    };
    if start == 0 && v.bit_size == len * 8 {
        return t;
    }
    if len <= beamr_core::term::HEAP_BIN_LIMIT {
        let bytes = beamr_core::term::BinaryView {
            storage: v.storage,
            bit_offset: v.bit_offset + start * 8,
            bit_size: len * 8,
        }
        .to_vec();
        return p.heap.binary(&bytes);
    }
    p.heap.sub_binary(t, start * 8, len * 8)
}

// ----- sizes and slices ---------------------------------------------------------

fn byte_size(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::small_unchecked(size_in_bits(a[0])?.div_ceil(8) as i64))
}

fn bit_size(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::small_unchecked(size_in_bits(a[0])? as i64))
}

/// The size in bits of a bitstring, or of what a match context has left
/// to match: erlc 26+ passes a context to `bit_size`/`byte_size` in place
/// of the tail it would otherwise have made (`<<_:8, T/bits>>`, then
/// `bit_size(T)`), as the BEAM allows.
fn size_in_bits(t: Term) -> Result<usize, Exception> {
    if let Some(m) = t.as_match_context() {
        return Ok(m.end - m.position);
    }
    Ok(bitstring_arg(&t)?.bit_size)
}

fn is_bitstring(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::bool(a[0].is_bitstring()))
}

/// `{Start, Len}` (Len may be negative) checked against `size` bytes:
/// the first byte and the length.
pub(crate) fn part_range(size: usize, start: Term, len: Term) -> Result<(usize, usize), Exception> {
    let (Some(s), Some(l)) = (start.as_small(), len.as_small()) else {
        return Err(Exception::badarg());
    };
    let (from, to) = if l >= 0 {
        (s, s.checked_add(l))
    } else {
        (s + l, Some(s))
    };
    match to {
        Some(to) if from >= 0 && to <= size as i64 && from <= to => {
            Ok((from as usize, (to - from) as usize))
        }
        _ => Err(Exception::badarg()),
    }
}

/// Whether the BIFs that slice binaries (`binary_part`, `binary:part`,
/// `binary:copy`, `binary_to_list/3`) reject every bitstring that is not a
/// binary, as OTP 27's do (erlang/otp#7628); OTP 25's slice the whole bytes
/// of one.
pub(crate) fn bitstrings_rejected() -> bool {
    crate::code::otp_release() >= 27
}

/// `binary_part`'s subject: a binary, or before OTP 27 a bitstring, whose
/// whole bytes can be sliced.
pub(super) fn part_subject(t: Term) -> Result<usize, Exception> {
    let v = bitstring_arg(&t)?;
    if !v.is_binary() && bitstrings_rejected() {
        return Err(Exception::badarg());
    }
    Ok(v.byte_size())
}

/// `erlang:binary_part/2`, also `binary:part/2`.
pub(crate) fn binary_part2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let size = part_subject(a[0])?;
    let pos = a[1]
        .as_tuple()
        .filter(|t| t.len() == 2)
        .ok_or_else(Exception::badarg)?;
    let (from, len) = part_range(size, pos[0], pos[1])?;
    Ok(sub_bytes(p, a[0], from, len))
}

/// `erlang:binary_part/3`, also `binary:part/3`.
pub(crate) fn binary_part3(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let size = part_subject(a[0])?;
    let (from, len) = part_range(size, a[1], a[2])?;
    Ok(sub_bytes(p, a[0], from, len))
}

fn split_binary(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let v = bitstring_arg(&a[0])?;
    let pos = usize_arg(a[1])?;
    if pos > v.byte_size() {
        return Err(Exception::badarg());
    }
    let left = p.heap.sub_binary(a[0], 0, pos * 8);
    let right = p.heap.sub_binary(a[0], pos * 8, v.bit_size - pos * 8);
    Ok(p.heap.tuple(&[left, right]))
}

// ----- iolists ------------------------------------------------------------------

fn list_to_binary(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[0].is_list() {
        return Err(Exception::badarg());
    }
    let bytes = iodata_bytes(a[0])?;
    Ok(p.heap.binary(&bytes))
}

fn iolist_to_binary(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if let Some(v) = a[0].as_binary() {
        return if v.is_binary() {
            Ok(a[0])
        } else {
            Err(Exception::badarg())
        };
    }
    list_to_binary(rt, p, a)
}

/// `iolist_to_iovec(IoListOrBinary)`: the bytes as a list of binaries (one
/// binary here; none for no bytes).
fn iolist_to_iovec(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = iodata_bytes(a[0])?;
    if bytes.is_empty() {
        return Ok(Term::NIL);
    }
    let bin = p.heap.binary(&bytes);
    Ok(p.heap.list(&[bin]))
}

fn iolist_size(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    // Count without copying.
    let mut n: usize = 0;
    walk_iodata(a[0], |piece| {
        match piece {
            IoPiece::Byte(_) => n += 1,
            IoPiece::Bits(v) if v.is_binary() => n += v.byte_size(),
            IoPiece::Bits(_) => return Err(NotIodata),
        }
        Ok(())
    })
    .map_err(|NotIodata| Exception::badarg())?;
    Ok(Term::small_unchecked(n as i64))
}

fn list_to_bitstring(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[0].is_list() {
        return Err(Exception::badarg());
    }
    let mut out = BitBuf::default();
    walk_iolist(a[0], &mut out, true).map_err(|NotIodata| Exception::badarg())?;
    Ok(out.into_term(p))
}

fn binary_to_list1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = binary_bytes(&a[0])?;
    Ok(p.heap.byte_list(&bytes, Term::NIL))
}

/// `binary_to_list(Binary, Start, Stop)`: before OTP 27 a bitstring's
/// whole bytes may be listed too.
fn binary_to_list3(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let v = bitstring_arg(&a[0])?;
    if !v.is_binary() && bitstrings_rejected() {
        return Err(Exception::badarg());
    }
    let mut bytes = v.to_vec();
    bytes.truncate(v.byte_size());
    let (start, stop) = (usize_arg(a[1])?, usize_arg(a[2])?);
    if start < 1 || start > stop || stop > bytes.len() {
        return Err(Exception::badarg());
    }
    Ok(p.heap.byte_list(&bytes[start - 1..stop], Term::NIL))
}

fn bitstring_to_list(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let v = bitstring_arg(&a[0])?;
    let whole = v.byte_size();
    let tail = if v.trailing_bits() > 0 {
        let rest = p.heap.sub_binary(a[0], whole * 8, v.trailing_bits());
        p.heap.cons(rest, Term::NIL)
    } else {
        Term::NIL
    };
    let bytes = v.to_vec();
    Ok(p.heap.byte_list(&bytes[..whole], tail))
}

// ----- external term format ------------------------------------------------------

fn term_to_binary1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = etf::encode_with(a[0], &encode_defaults()).map_err(|_| Exception::badarg())?;
    Ok(p.heap.binary(&bytes))
}

fn term_to_binary2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let options = encode_options(a[1])?;
    let bytes = etf::encode_with(a[0], &options).map_err(|_| Exception::badarg())?;
    Ok(p.heap.binary(&bytes))
}

/// `term_to_binary/2`'s options over the release's defaults.
fn encode_options(list: Term) -> Result<etf::EncodeOptions, Exception> {
    let mut options = encode_defaults();
    for opt in list_items(list)? {
        if opt.as_atom().map(Atom::name) == Some("compressed") {
            options.compression = etf::DEFAULT_COMPRESSION;
        } else if let Some(t) = opt.as_tuple().filter(|t| t.len() == 2) {
            match t[0].as_atom().map(Atom::name) {
                Some("compressed") => {
                    options.compression =
                        t[1].as_small()
                            .filter(|l| (0..=9).contains(l))
                            .ok_or_else(Exception::badarg)? as u32
                }
                Some("minor_version") => {
                    options.minor_version =
                        t[1].as_small()
                            .filter(|v| (0..=2).contains(v))
                            .ok_or_else(Exception::badarg)? as u8;
                }
                _ => return Err(Exception::badarg()),
            }
        } else if opt.as_atom().map(Atom::name) == Some("deterministic") {
        } else if opt.as_atom().map(Atom::name) == Some("local") && crate::code::otp_release() >= 26
        {
            // OTP 26's `local`: an encoding only this runtime instance
            // need decode (erts's LOCAL_EXT). beamr has one node and
            // writes its ordinary encoding, which decodes here as the
            // option promises (prim_inet:send/3 sends its monitor so).
        } else {
            return Err(Exception::badarg());
        }
    }
    Ok(options)
}

/// `external_size(Term)`: the bytes `term_to_binary(Term)` takes
/// (erts gives an upper bound; beamr encodes and counts, so exactly).
fn external_size1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = etf::encode_with(a[0], &encode_defaults()).map_err(|_| Exception::badarg())?;
    Ok(p.heap.int(bytes.len() as i64))
}

/// `external_size(Term, Options)`: the uncompressed size. Before OTP 26
/// only `{minor_version, V}` is an option; from 26 on, `term_to_binary/2`'s.
fn external_size2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let mut options = if crate::code::otp_release() >= 26 {
        encode_options(a[1])?
    } else {
        let mut options = encode_defaults();
        for opt in list_items(a[1])? {
            let t = opt
                .as_tuple()
                .filter(|t| t.len() == 2 && t[0].as_atom().map(Atom::name) == Some("minor_version"))
                .ok_or_else(Exception::badarg)?;
            options.minor_version = t[1]
                .as_small()
                .filter(|v| (0..=2).contains(v))
                .ok_or_else(Exception::badarg)? as u8;
        }
        options
    };
    options.compression = 0;
    let bytes = etf::encode_with(a[0], &options).map_err(|_| Exception::badarg())?;
    Ok(p.heap.int(bytes.len() as i64))
}

/// The items of a proper list argument.
pub(crate) fn list_items(t: Term) -> Result<Vec<Term>, Exception> {
    t.list_to_vec().ok_or_else(Exception::badarg)
}

fn decode(p: &mut Process, bin: Term, safe: bool) -> Result<(Term, usize), Exception> {
    let bytes = binary_bytes(&bin)?;
    let options = etf::DecodeOptions {
        safe,
        ..etf::DecodeOptions::default()
    };
    etf::decode_with(&bytes, &mut p.heap, &options).map_err(|_| Exception::badarg())
}

fn binary_to_term1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    decode(p, a[0], false).map(|(t, _)| t)
}

fn binary_to_term2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (mut safe, mut used) = (false, false);
    for opt in list_items(a[1])? {
        match opt.as_atom().map(Atom::name) {
            Some("safe") => safe = true,
            Some("used") => used = true,
            _ => return Err(Exception::badarg()),
        }
    }
    let (t, n) = decode(p, a[0], safe)?;
    if used {
        let n = p.heap.int(n as i64);
        Ok(p.heap.tuple(&[t, n]))
    } else {
        Ok(t)
    }
}

// ----- atoms ----------------------------------------------------------------------

/// An encoding argument: true for latin1, false for unicode/utf8.
fn latin1_encoding(t: Term) -> Result<bool, Exception> {
    match t.as_atom().map(Atom::name) {
        Some("latin1") => Ok(true),
        Some("unicode" | "utf8") => Ok(false),
        _ => Err(Exception::badarg()),
    }
}

fn atom_to_binary(p: &mut Process, atom: Term, latin1: bool) -> Result<Term, Exception> {
    let name = atom.as_atom().ok_or_else(Exception::badarg)?.name();
    if !latin1 {
        return Ok(p.heap.binary(name.as_bytes()));
    }
    let bytes = name
        .chars()
        .map(|c| u8::try_from(c as u32).map_err(|_| Exception::badarg()))
        .collect::<Result<Vec<u8>, _>>()?;
    Ok(p.heap.binary(&bytes))
}

fn atom_to_binary1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    atom_to_binary(p, a[0], false)
}

fn atom_to_binary2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let latin1 = latin1_encoding(a[1])?;
    atom_to_binary(p, a[0], latin1)
}

/// The text of an atom given as a binary in an encoding.
fn atom_text(bin: Term, latin1: bool) -> Result<String, Exception> {
    let bytes = binary_bytes(&bin)?;
    let text = if latin1 {
        bytes.iter().map(|&b| b as char).collect()
    } else {
        String::from_utf8(bytes.into_owned()).map_err(|_| Exception::badarg())?
    };
    if text.chars().count() > 255 {
        return Err(Exception::system_limit());
    }
    Ok(text)
}

fn binary_to_atom(bin: Term, latin1: bool, existing: bool) -> Result<Term, Exception> {
    let text = atom_text(bin, latin1)?;
    let atom = if existing {
        Atom::existing(&text).ok_or_else(Exception::badarg)?
    } else {
        Atom::new_within_limit(&text).map_err(|_| Exception::system_limit())?
    };
    Ok(Term::atom(atom))
}

fn binary_to_atom1(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    binary_to_atom(a[0], false, false)
}

fn binary_to_atom2(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    binary_to_atom(a[0], latin1_encoding(a[1])?, false)
}

fn binary_to_existing_atom1(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    binary_to_atom(a[0], false, true)
}

fn binary_to_existing_atom2(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    binary_to_atom(a[0], latin1_encoding(a[1])?, true)
}

// ----- integers and floats --------------------------------------------------------

fn base_arg(t: Term) -> Result<u32, Exception> {
    match t.as_small() {
        Some(b) if (2..=36).contains(&b) => Ok(b as u32),
        _ => Err(Exception::badarg()),
    }
}

fn integer_to_binary(p: &mut Process, t: Term, base: u32) -> Result<Term, Exception> {
    let text = if let Some(i) = t.as_small() {
        if base == 10 {
            i.to_string()
        } else {
            BigInt::from(i).to_str_radix(base)
        }
    } else {
        t.as_big()
            .ok_or_else(Exception::badarg)?
            .to_bigint()
            .to_str_radix(base)
    };
    Ok(p.heap.binary(text.to_ascii_uppercase().as_bytes()))
}

fn integer_to_binary1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    integer_to_binary(p, a[0], 10)
}

fn integer_to_binary2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let base = base_arg(a[1])?;
    integer_to_binary(p, a[0], base)
}

/// Parses `[+-]digits` in `base`, as `binary_to_integer`.
fn parse_integer(bytes: &[u8], base: u32) -> Option<BigInt> {
    let (neg, digits) = match bytes.first()? {
        b'-' => (true, &bytes[1..]),
        b'+' => (false, &bytes[1..]),
        _ => (false, bytes),
    };
    if digits.is_empty() || !digits.iter().all(|&c| (c as char).is_digit(base)) {
        return None;
    }
    let text = std::str::from_utf8(digits).ok()?;
    let v = BigInt::from_str_radix(text, base).ok()?;
    Some(if neg { -v } else { v })
}

fn binary_to_integer(p: &mut Process, bin: Term, base: u32) -> Result<Term, Exception> {
    let bytes = binary_bytes(&bin)?;
    if bytes.len() <= 18 && base == 10 {
        if let Ok(s) = std::str::from_utf8(&bytes) {
            if !s.starts_with('+') || s.len() > 1 {
                if let Ok(v) = s.parse::<i64>() {
                    return Ok(p.heap.int(v));
                }
            }
        }
    }
    let v = parse_integer(&bytes, base).ok_or_else(Exception::badarg)?;
    if v.is_zero() {
        return Ok(Term::small_unchecked(0));
    }
    Ok(p.heap.bigint(&v))
}

fn binary_to_integer1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    binary_to_integer(p, a[0], 10)
}

fn binary_to_integer2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let base = base_arg(a[1])?;
    binary_to_integer(p, a[0], base)
}

/// Calls the `erlang:F/A` BIF that works on character lists (floats are
/// formatted and parsed in one place, `convert`).
fn via_list_bif(rt: &Runtime, p: &mut Process, f: &str, args: &[Term]) -> Result<Term, Exception> {
    let name = Atom::new(f).map_err(|_| Exception::badarg())?;
    let bif = crate::code::resolve::natives()
        .get(Atom::ERLANG, name, args.len() as u8)
        .ok_or_else(Exception::badarg)?;
    bif(rt, p, args)
}

/// A character list (of bytes) as a binary.
fn chars_to_binary(p: &mut Process, list: Term) -> Result<Term, Exception> {
    let bytes = iodata_bytes(list)?;
    Ok(p.heap.binary(&bytes))
}

fn float_to_binary1(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let list = via_list_bif(rt, p, "float_to_list", a)?;
    chars_to_binary(p, list)
}

fn float_to_binary2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let list = via_list_bif(rt, p, "float_to_list", a)?;
    chars_to_binary(p, list)
}

fn binary_to_float(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = binary_bytes(&a[0])?;
    let list = p.heap.byte_list(&bytes, Term::NIL);
    via_list_bif(rt, p, "list_to_float", &[list])
}
