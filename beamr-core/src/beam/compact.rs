//! The compact term encoding of operands in the Code chunk (and of line
//! items and long atom lengths).
//!
//! The first byte carries a 3-bit tag and the start of the value:
//!
//! ```text
//! bit  7 6 5 4 3 2 1 0
//!      v v v v 0 t t t   value 0..15 in the top nibble
//!      v v v 0 1 t t t   value 0..2047: these 3 bits are bits 10..8, one byte follows
//!      n n n 1 1 t t t   n = 0..6: n + 2 value bytes follow, big-endian
//!      1 1 1 1 1 t t t   a `u`-tagged length L follows, then L + 9 value bytes
//!
//! tag  0 u (untagged)  1 i (integer)  2 a (atom)  3 x  4 y  5 f (label)
//!      6 h (char)      7 z (extended, the value picks the kind:
//!      0 float (8 raw bytes), 1 list, 2 float register, 3 allocation list,
//!      4 literal, 5 typed register)
//! ```
//!
//! Multi-byte values are two's complement for `i` and unsigned for every
//! other tag. The `a` value 0 is `[]`.

use num_bigint::BigInt;
use num_traits::ToPrimitive;

use super::error::{BeamError, BeamErrorKind};
use super::operand::{AllocKind, Integer, Operand, Register};
use super::reader::Reader;

/// The 3-bit operand tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag {
    /// Untagged number.
    U,
    /// Integer.
    I,
    /// Atom (0 is `[]`).
    A,
    /// X register.
    X,
    /// Y register.
    Y,
    /// Label.
    F,
    /// Character.
    H,
    /// Extended.
    Z,
}

impl Tag {
    fn from_bits(b: u8) -> Tag {
        match b & 7 {
            0 => Tag::U,
            1 => Tag::I,
            2 => Tag::A,
            3 => Tag::X,
            4 => Tag::Y,
            5 => Tag::F,
            6 => Tag::H,
            _ => Tag::Z,
        }
    }

    /// The tag's letter, as OTP's documentation writes it.
    pub fn letter(self) -> char {
        match self {
            Tag::U => 'u',
            Tag::I => 'i',
            Tag::A => 'a',
            Tag::X => 'x',
            Tag::Y => 'y',
            Tag::F => 'f',
            Tag::H => 'h',
            Tag::Z => 'z',
        }
    }
}

/// A tagged value before interpretation: a small number, or the big-endian
/// bytes of a long one.
#[derive(Debug, Clone, Copy)]
pub enum RawValue<'a> {
    /// A value from the one- or two-byte forms (0..2047).
    Small(u64),
    /// The value bytes of the long forms (2 or more bytes).
    Bytes(&'a [u8]),
}

/// Reads one tag and its raw value.
pub fn read_tagged<'a>(r: &mut Reader<'a>) -> Result<(Tag, RawValue<'a>), BeamError> {
    read_tagged_depth(r, 0)
}

fn read_tagged_depth<'a>(r: &mut Reader<'a>, depth: u8) -> Result<(Tag, RawValue<'a>), BeamError> {
    let at = r.offset();
    let b = r.u8()?;
    let tag = Tag::from_bits(b);
    if b & 0x08 == 0 {
        return Ok((tag, RawValue::Small(u64::from(b >> 4))));
    }
    if b & 0x10 == 0 {
        let low = r.u8()?;
        return Ok((
            tag,
            RawValue::Small((u64::from(b >> 5) << 8) | u64::from(low)),
        ));
    }
    let code = b >> 5;
    let len = if code < 7 {
        usize::from(code) + 2
    } else {
        // The length of a length: a nested `u`, itself never of this form
        // (that would take more than 2^64 bytes).
        if depth > 0 {
            return Err(r.error_at(at, BeamErrorKind::TooDeep));
        }
        let (ltag, lraw) = read_tagged_depth(r, depth + 1)?;
        if ltag != Tag::U {
            return Err(r.error_at(
                at,
                BeamErrorKind::BadTag {
                    expected: "u (a length)",
                    found: ltag.letter(),
                },
            ));
        }
        let extra = unsigned_value(r, at, lraw, "length")?;
        let available = r.remaining();
        if extra.saturating_add(9) > available as u64 {
            return Err(r.error(BeamErrorKind::Truncated {
                needed: extra.saturating_add(9).min(usize::MAX as u64) as usize,
                available,
            }));
        }
        extra as usize + 9
    };
    Ok((tag, RawValue::Bytes(r.bytes(len)?)))
}

/// Interprets a raw value as an unsigned number that must fit in a `u64`.
fn unsigned_value(
    r: &Reader<'_>,
    at: usize,
    raw: RawValue<'_>,
    what: &'static str,
) -> Result<u64, BeamError> {
    match raw {
        RawValue::Small(n) => Ok(n),
        RawValue::Bytes(bytes) => {
            let first = bytes.iter().position(|&b| b != 0).unwrap_or(bytes.len());
            let significant = &bytes[first..];
            if significant.len() > 8 {
                return Err(r.error_at(at, BeamErrorKind::ValueTooLarge(what)));
            }
            Ok(significant
                .iter()
                .fold(0u64, |acc, &b| (acc << 8) | u64::from(b)))
        }
    }
}

/// Interprets a raw value as a two's complement integer.
fn integer_value(raw: RawValue<'_>) -> Integer {
    match raw {
        RawValue::Small(n) => Integer::Small(n as i64),
        RawValue::Bytes(bytes) => {
            if bytes.len() <= 8 {
                let negative = bytes[0] & 0x80 != 0;
                let init = if negative { -1i64 } else { 0 };
                Integer::Small(bytes.iter().fold(init, |acc, &b| (acc << 8) | i64::from(b)))
            } else {
                let big = BigInt::from_signed_bytes_be(bytes);
                match big.to_i64() {
                    Some(n) => Integer::Small(n),
                    None => Integer::Big(big),
                }
            }
        }
    }
}

/// Reads a `u`-tagged number that must fit in a `u64`.
pub fn read_unsigned(r: &mut Reader<'_>, what: &'static str) -> Result<u64, BeamError> {
    let at = r.offset();
    let (tag, raw) = read_tagged(r)?;
    if tag != Tag::U {
        return Err(r.error_at(
            at,
            BeamErrorKind::BadTag {
                expected: what,
                found: tag.letter(),
            },
        ));
    }
    unsigned_value(r, at, raw, what)
}

/// The sizes of the tables that operands index, so that decoding can reject
/// an index past the end.
#[derive(Debug, Clone, Copy, Default)]
pub struct OperandLimits {
    /// Number of atoms (valid atom operands are 1..=atoms).
    pub atoms: usize,
    /// Number of literals.
    pub literals: usize,
    /// Number of types, when the module has a `Type` chunk.
    pub types: Option<usize>,
}

/// Lists inside lists deeper than this are rejected (compilers emit none).
const MAX_DEPTH: u8 = 8;

/// Decodes one full operand.
pub fn read_operand(r: &mut Reader<'_>, limits: &OperandLimits) -> Result<Operand, BeamError> {
    read_operand_depth(r, limits, 0)
}

fn to_u32(r: &Reader<'_>, at: usize, n: u64, what: &'static str) -> Result<u32, BeamError> {
    u32::try_from(n).map_err(|_| r.error_at(at, BeamErrorKind::ValueTooLarge(what)))
}

fn read_operand_depth(
    r: &mut Reader<'_>,
    limits: &OperandLimits,
    depth: u8,
) -> Result<Operand, BeamError> {
    let at = r.offset();
    let (tag, raw) = read_tagged(r)?;
    let op = match tag {
        // A number past a u64 (erlc 27 writes one as a `bs_match`
        // `ensure_exactly` size for `<<_:(1 bsl 64)>>`) is an integer, as
        // erl's loader makes it a bignum literal; what takes the operand
        // decides whether a number that large means anything there.
        Tag::U => match unsigned_value(r, at, raw, "u") {
            Ok(n) => Operand::Unsigned(n),
            Err(_) => match raw {
                RawValue::Bytes(bytes) => Operand::Integer(Integer::Big(BigInt::from_bytes_be(
                    num_bigint::Sign::Plus,
                    bytes,
                ))),
                RawValue::Small(n) => Operand::Unsigned(n),
            },
        },
        Tag::I => Operand::Integer(integer_value(raw)),
        Tag::A => {
            let n = unsigned_value(r, at, raw, "atom")?;
            if n == 0 {
                Operand::Nil
            } else if n > limits.atoms as u64 {
                return Err(r.error_at(
                    at,
                    BeamErrorKind::BadIndex {
                        what: "atom",
                        index: n,
                        len: limits.atoms,
                    },
                ));
            } else {
                Operand::Atom(n as u32)
            }
        }
        Tag::X => Operand::X(to_u32(r, at, unsigned_value(r, at, raw, "x")?, "x")?),
        Tag::Y => Operand::Y(to_u32(r, at, unsigned_value(r, at, raw, "y")?, "y")?),
        Tag::F => Operand::Label(to_u32(r, at, unsigned_value(r, at, raw, "f")?, "f")?),
        Tag::H => Operand::Char(to_u32(r, at, unsigned_value(r, at, raw, "h")?, "h")?),
        Tag::Z => read_extended(r, limits, depth, at, unsigned_value(r, at, raw, "z")?)?,
    };
    Ok(op)
}

fn read_extended(
    r: &mut Reader<'_>,
    limits: &OperandLimits,
    depth: u8,
    at: usize,
    kind: u64,
) -> Result<Operand, BeamError> {
    match kind {
        0 => Ok(Operand::Float(f64::from_be_bytes(r.array()?))),
        1 => {
            if depth >= MAX_DEPTH {
                return Err(r.error_at(at, BeamErrorKind::TooDeep));
            }
            let len_at = r.offset();
            let n = read_unsigned(r, "u (a list length)")?;
            // Every element takes at least one byte.
            let n = r.check_count(len_at, "list elements", n, 1)?;
            let mut items = Vec::with_capacity(n);
            for _ in 0..n {
                items.push(read_operand_depth(r, limits, depth + 1)?);
            }
            Ok(Operand::List(items))
        }
        2 => {
            let n = read_unsigned(r, "u (a float register)")?;
            Ok(Operand::FloatReg(to_u32(r, at, n, "float register")?))
        }
        3 => {
            let len_at = r.offset();
            let n = read_unsigned(r, "u (an allocation list length)")?;
            // Every entry takes at least two bytes.
            let n = r.check_count(len_at, "allocation list entries", n, 2)?;
            let mut items = Vec::with_capacity(n);
            for _ in 0..n {
                let kind_at = r.offset();
                let kind = match read_unsigned(r, "u (an allocation kind)")? {
                    0 => AllocKind::Words,
                    1 => AllocKind::Floats,
                    2 => AllocKind::Funs,
                    other => {
                        return Err(r.error_at(
                            kind_at,
                            BeamErrorKind::BadValue {
                                what: "allocation kind",
                                value: other.min(i64::MAX as u64) as i64,
                            },
                        ))
                    }
                };
                items.push((kind, read_unsigned(r, "u (an allocation count)")?));
            }
            Ok(Operand::AllocList(items))
        }
        4 => {
            let index_at = r.offset();
            let n = read_unsigned(r, "u (a literal index)")?;
            if n >= limits.literals as u64 {
                return Err(r.error_at(
                    index_at,
                    BeamErrorKind::BadIndex {
                        what: "literal",
                        index: n,
                        len: limits.literals,
                    },
                ));
            }
            Ok(Operand::Literal(n as u32))
        }
        5 => {
            let reg_at = r.offset();
            let reg = match read_operand_depth(r, limits, MAX_DEPTH)? {
                Operand::X(n) => Register::X(n),
                Operand::Y(n) => Register::Y(n),
                _ => {
                    return Err(r.error_at(
                        reg_at,
                        BeamErrorKind::BadTag {
                            expected: "x or y (a typed register)",
                            found: 'z',
                        },
                    ))
                }
            };
            let index_at = r.offset();
            let n = read_unsigned(r, "u (a type index)")?;
            if let Some(types) = limits.types {
                if n >= types as u64 {
                    return Err(r.error_at(
                        index_at,
                        BeamErrorKind::BadIndex {
                            what: "type",
                            index: n,
                            len: types,
                        },
                    ));
                }
            }
            Ok(Operand::TypedReg {
                reg,
                type_index: to_u32(r, index_at, n, "type index")?,
            })
        }
        other => Err(r.error_at(at, BeamErrorKind::BadExtended(other))),
    }
}

/// Interprets a raw value as a non-negative line number or name index.
pub fn raw_to_u32(
    r: &Reader<'_>,
    at: usize,
    raw: RawValue<'_>,
    what: &'static str,
) -> Result<u32, BeamError> {
    let n = unsigned_value(r, at, raw, what)?;
    to_u32(r, at, n, what)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(bytes: &[u8]) -> Result<Operand, BeamError> {
        let limits = OperandLimits {
            atoms: 10,
            literals: 2,
            types: None,
        };
        read_operand(&mut Reader::new(bytes, 0, None), &limits)
    }

    #[test]
    fn small_forms() {
        assert_eq!(decode(&[0x30]).unwrap(), Operand::Unsigned(3));
        // 2^64 as a `u`: nine value bytes (0xf8 = (9 - 9) bytes-length form,
        // its length a nested u 0).
        let mut big = vec![0xf8, 0x00, 0x01];
        big.extend([0; 8]);
        assert_eq!(
            decode(&big).unwrap(),
            Operand::Integer(Integer::Big(BigInt::from(1u8) << 64))
        );
        assert_eq!(decode(&[0x13]).unwrap(), Operand::X(1));
        assert_eq!(decode(&[0x02]).unwrap(), Operand::Nil);
        assert_eq!(decode(&[0x12]).unwrap(), Operand::Atom(1));
        // 2047 in the two-byte form.
        assert_eq!(
            decode(&[0xe9, 0xff]).unwrap(),
            Operand::Integer(Integer::Small(2047))
        );
    }

    #[test]
    fn long_integers() {
        // -1 as two bytes.
        assert_eq!(
            decode(&[0x19, 0xff, 0xff]).unwrap(),
            Operand::Integer(Integer::Small(-1))
        );
        // 2^64 as nine bytes: length prefix 7 with nested u 0.
        let mut v = vec![0xf9, 0x00, 0x01];
        v.extend([0u8; 8]);
        let expected: BigInt = BigInt::from(1u8) << 64;
        assert_eq!(
            decode(&v).unwrap(),
            Operand::Integer(Integer::Big(expected))
        );
    }

    #[test]
    fn bad_inputs() {
        assert!(decode(&[]).is_err());
        assert!(decode(&[0x19, 0xff]).is_err());
        assert!(decode(&[0xf9, 0xf8]).is_err());
        assert!(decode(&[0xb2]).is_err()); // atom 11 of 10
        assert!(decode(&[0x67]).is_err()); // z 6
        assert!(decode(&[0x47, 0x20]).is_err()); // literal 2 of 2
        assert!(decode(&[0x17, 0x80, 0xff]).is_err()); // list of 2047 in 0 bytes
    }
}
