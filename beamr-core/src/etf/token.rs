//! [`next_token`]: reads one tag and its fixed fields. This is the one
//! place that knows the byte layout of every tag the decoder accepts; both
//! decoding passes ([`scan`](super::scan) and [`build`](super::build)) read
//! the input through it.
//!
//! A token is either a complete leaf (an integer, an atom, a binary, a pid,
//! ...) or the head of a compound term whose children follow it in the
//! input (a tuple's elements, a list's elements and tail, a map's keys and
//! values, a closure's free variables). Every count is checked against the
//! bytes left before it is returned, so no caller can be made to allocate
//! more than the input could back.

use super::error::EtfErrorKind;
use super::reader::Reader;
use super::tag;
use super::EtfError;

/// The longest atom, in characters.
const MAX_ATOM_CHARS: usize = 255;

/// An atom's name as it appears in the input.
#[derive(Copy, Clone, Debug)]
pub(crate) enum AtomText<'a> {
    /// UTF-8 text (already validated).
    Utf8(&'a str),
    /// Latin-1 bytes (`ATOM_EXT`, `SMALL_ATOM_EXT`), one character each.
    Latin1(&'a [u8]),
}

impl AtomText<'_> {
    /// True if the name is exactly `name` (an ASCII string).
    pub(crate) fn is_ascii_name(&self, name: &str) -> bool {
        match self {
            AtomText::Utf8(s) => *s == name,
            AtomText::Latin1(b) => *b == name.as_bytes(),
        }
    }
}

/// A pid as encoded: node, number, serial and creation.
#[derive(Copy, Clone, Debug)]
pub(crate) struct PidToken<'a> {
    pub node: AtomText<'a>,
    pub id: u32,
    pub serial: u32,
    pub creation: u32,
}

/// A port as encoded.
#[derive(Copy, Clone, Debug)]
pub(crate) struct PortToken<'a> {
    pub node: AtomText<'a>,
    pub id: u64,
    pub creation: u32,
}

/// A reference as encoded: node, creation and up to 5 id words.
#[derive(Copy, Clone, Debug)]
pub(crate) struct RefToken<'a> {
    pub node: AtomText<'a>,
    pub creation: u32,
    pub ids: [u32; 5],
    pub len: usize,
}

/// The fixed fields of a `NEW_FUN_EXT`; its free variables follow.
#[derive(Copy, Clone, Debug)]
pub(crate) struct FunToken<'a> {
    pub arity: u8,
    pub uniq: [u8; 16],
    pub index: u32,
    pub num_free: u32,
    pub module: AtomText<'a>,
    pub old_index: u32,
    pub old_uniq: u32,
    pub creator: PidToken<'a>,
}

/// One tag and its fixed fields.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Token<'a> {
    /// An integer that fits in an `i64` (from any integer tag).
    Int(i64),
    /// A larger integer: its magnitude's bytes, least significant first.
    Big { negative: bool, magnitude: &'a [u8] },
    /// A finite float.
    Float(f64),
    /// An atom.
    Atom(AtomText<'a>),
    /// `[]`.
    Nil,
    /// A list of bytes (`STRING_EXT`).
    Str(&'a [u8]),
    /// A tuple; this many elements follow.
    Tuple(u32),
    /// A list; this many elements and then the tail follow.
    List(u32),
    /// A map; this many key-value pairs follow.
    Map(u32),
    /// A binary.
    Binary(&'a [u8]),
    /// A bitstring of `(bytes.len() - 1) * 8 + bits` bits (`bytes` non-empty).
    Bits { bytes: &'a [u8], bits: u8 },
    /// A pid.
    Pid(PidToken<'a>),
    /// A port.
    Port(PortToken<'a>),
    /// A reference.
    Ref(RefToken<'a>),
    /// A closure; `num_free` free variables follow.
    Fun(FunToken<'a>),
    /// A native record; `n` values follow. `fields` holds the `n` encoded
    /// field-name atoms, read again when the record is built.
    Record {
        n: u32,
        exported: bool,
        module: AtomText<'a>,
        name: AtomText<'a>,
        fields: &'a [u8],
    },
    /// An export fun.
    Export {
        module: AtomText<'a>,
        function: AtomText<'a>,
        arity: u8,
    },
}

impl Token<'_> {
    /// How many terms follow this token as its children.
    #[inline]
    pub(crate) fn children(&self) -> u64 {
        match *self {
            Token::Tuple(n) => n as u64,
            Token::List(n) => n as u64 + 1,
            Token::Map(n) => 2 * n as u64,
            Token::Fun(f) => f.num_free as u64,
            Token::Record { n, .. } => n as u64,
            _ => 0,
        }
    }
}

/// Reads the next token.
#[inline]
pub(crate) fn next_token<'a>(r: &mut Reader<'a>) -> Result<Token<'a>, EtfError> {
    let at = r.pos();
    let tag = r.u8()?;
    Ok(match tag {
        tag::SMALL_INTEGER => Token::Int(r.u8()? as i64),
        tag::INTEGER => Token::Int(r.u32()? as i32 as i64),
        tag::ATOM | tag::SMALL_ATOM | tag::ATOM_UTF8 | tag::SMALL_ATOM_UTF8 => {
            Token::Atom(atom_body(r, tag, at)?)
        }
        tag::SMALL_TUPLE => Token::Tuple(r.u8()? as u32),
        tag::LARGE_TUPLE => {
            let n = r.u32()?;
            r.check_count(n as u64, 1, 0, at)?;
            Token::Tuple(n)
        }
        tag::NIL => Token::Nil,
        tag::STRING => {
            let n = r.u16()? as usize;
            Token::Str(r.bytes(n)?)
        }
        tag::LIST => {
            let n = r.u32()?;
            r.check_count(n as u64, 1, 1, at)?;
            Token::List(n)
        }
        tag::MAP => {
            let n = r.u32()?;
            r.check_count(n as u64, 2, 0, at)?;
            Token::Map(n)
        }
        tag::BINARY => {
            let n = r.u32()? as usize;
            Token::Binary(r.bytes(n)?)
        }
        tag::BIT_BINARY => {
            let n = r.u32()?;
            let bits = r.u8()?;
            if n == 0 && bits == 0 {
                Token::Binary(&[])
            } else if n == 0 || !(1..=8).contains(&bits) {
                return Err(r.error_at(EtfErrorKind::BadBitCount { bytes: n, bits }, at));
            } else {
                Token::Bits {
                    bytes: r.bytes(n as usize)?,
                    bits,
                }
            }
        }
        tag::SMALL_BIG => {
            let n = r.u8()? as usize;
            big_body(r, n)?
        }
        tag::LARGE_BIG => {
            let n = r.u32()?;
            r.check_count(n as u64, 1, 1, at)?;
            big_body(r, n as usize)?
        }
        tag::NEW_FLOAT => {
            let f = f64::from_bits(r.u64()?);
            finite(r, f, at)?
        }
        tag::FLOAT => {
            let text = r.bytes(31)?;
            let end = text.iter().position(|&b| b == 0).unwrap_or(31);
            let text = std::str::from_utf8(&text[..end]).unwrap_or("");
            match text.trim().parse::<f64>() {
                Ok(f) => finite(r, f, at)?,
                Err(_) => return Err(r.error_at(EtfErrorKind::BadFloatText(text.to_owned()), at)),
            }
        }
        tag::PID | tag::NEW_PID => Token::Pid(pid_body(r, tag)?),
        tag::PORT | tag::NEW_PORT | tag::V4_PORT => {
            let node = atom(r)?;
            let id = if tag == tag::V4_PORT {
                r.u64()?
            } else {
                r.u32()? as u64
            };
            let creation = if tag == tag::PORT {
                r.u8()? as u32
            } else {
                r.u32()?
            };
            Token::Port(PortToken { node, id, creation })
        }
        tag::REFERENCE => {
            let node = atom(r)?;
            let mut ids = [0u32; 5];
            ids[0] = r.u32()?;
            let creation = r.u8()? as u32;
            Token::Ref(RefToken {
                node,
                creation,
                ids,
                len: 1,
            })
        }
        tag::NEW_REFERENCE | tag::NEWER_REFERENCE => {
            let len = r.u16()?;
            if len > 5 {
                return Err(r.error_at(EtfErrorKind::BadReferenceLength(len), at));
            }
            let node = atom(r)?;
            let creation = if tag == tag::NEW_REFERENCE {
                r.u8()? as u32
            } else {
                r.u32()?
            };
            let mut ids = [0u32; 5];
            for id in ids.iter_mut().take(len as usize) {
                *id = r.u32()?;
            }
            Token::Ref(RefToken {
                node,
                creation,
                ids,
                len: len as usize,
            })
        }
        tag::NEW_FUN => {
            let _size = r.u32()?;
            let arity = r.u8()?;
            let uniq = r.array::<16>()?;
            let index = r.u32()?;
            let num_free = r.u32()?;
            let module = atom(r)?;
            let old_index = fun_int(r, "fun old index")?;
            let old_uniq = fun_int(r, "fun old uniq")?;
            let creator = pid(r)?;
            r.check_count(num_free as u64, 1, 0, at)?;
            Token::Fun(FunToken {
                arity,
                uniq,
                index,
                num_free,
                module,
                old_index,
                old_uniq,
                creator,
            })
        }
        tag::EXPORT => {
            let module = atom(r)?;
            let function = atom(r)?;
            let at = r.pos();
            let arity = match r.u8()? {
                tag::SMALL_INTEGER => r.u8()? as i64,
                tag::INTEGER => r.u32()? as i32 as i64,
                found => {
                    return Err(r.error_at(
                        EtfErrorKind::UnexpectedTag {
                            expected: "an integer arity",
                            found,
                        },
                        at,
                    ))
                }
            };
            let arity = u8::try_from(arity)
                .map_err(|_| r.error_at(EtfErrorKind::OutOfRange("arity"), at))?;
            Token::Export {
                module,
                function,
                arity,
            }
        }
        tag::RECORD => {
            let n = r.u32()?;
            let exported = match r.u8()? {
                0 => false,
                1 => true,
                _ => return Err(r.error_at(EtfErrorKind::OutOfRange("record exported flag"), at)),
            };
            let module = atom(r)?;
            let name = atom(r)?;
            // Each field takes at least a two-byte atom and a one-byte value.
            r.check_count(n as u64, 3, 0, at)?;
            let start = r.pos();
            for _ in 0..n {
                atom(r)?;
            }
            let fields = r.slice_from(start);
            Token::Record {
                n,
                exported,
                module,
                name,
                fields,
            }
        }
        tag::FUN => return Err(r.error_at(EtfErrorKind::ObsoleteFun, at)),
        other => return Err(r.error_at(EtfErrorKind::UnknownTag(other), at)),
    })
}

#[inline]
fn finite<'a>(r: &Reader<'a>, f: f64, at: usize) -> Result<Token<'a>, EtfError> {
    if f.is_finite() {
        Ok(Token::Float(f))
    } else {
        Err(r.error_at(EtfErrorKind::NonFiniteFloat, at))
    }
}

/// The sign byte and `n` magnitude bytes of a bignum.
#[inline]
fn big_body<'a>(r: &mut Reader<'a>, n: usize) -> Result<Token<'a>, EtfError> {
    let negative = r.u8()? != 0;
    let magnitude = r.bytes(n)?;
    if n <= 8 {
        let mut le = [0u8; 8];
        le[..n].copy_from_slice(magnitude);
        let m = u64::from_le_bytes(le);
        if !negative && m <= i64::MAX as u64 {
            return Ok(Token::Int(m as i64));
        }
        if negative && m <= 1 << 63 {
            return Ok(Token::Int((m as i64).wrapping_neg()));
        }
    }
    Ok(Token::Big {
        negative,
        magnitude,
    })
}

/// An atom term (any atom tag), as a pid's node or a fun's module requires.
#[inline]
pub(crate) fn atom<'a>(r: &mut Reader<'a>) -> Result<AtomText<'a>, EtfError> {
    let at = r.pos();
    let tag = r.u8()?;
    match tag {
        tag::ATOM | tag::SMALL_ATOM | tag::ATOM_UTF8 | tag::SMALL_ATOM_UTF8 => {
            atom_body(r, tag, at)
        }
        found => Err(r.error_at(
            EtfErrorKind::UnexpectedTag {
                expected: "an atom",
                found,
            },
            at,
        )),
    }
}

/// The length and text after an atom tag.
#[inline]
fn atom_body<'a>(r: &mut Reader<'a>, tag: u8, at: usize) -> Result<AtomText<'a>, EtfError> {
    let len = match tag {
        tag::SMALL_ATOM | tag::SMALL_ATOM_UTF8 => r.u8()? as usize,
        _ => r.u16()? as usize,
    };
    let bytes = r.bytes(len)?;
    if tag == tag::ATOM || tag == tag::SMALL_ATOM {
        if len > MAX_ATOM_CHARS {
            return Err(r.error_at(EtfErrorKind::AtomTooLong(len), at));
        }
        return Ok(AtomText::Latin1(bytes));
    }
    let text = std::str::from_utf8(bytes).map_err(|_| r.error_at(EtfErrorKind::InvalidUtf8, at))?;
    if len > MAX_ATOM_CHARS {
        let chars = text.chars().count();
        if chars > MAX_ATOM_CHARS {
            return Err(r.error_at(EtfErrorKind::AtomTooLong(chars), at));
        }
    }
    Ok(AtomText::Utf8(text))
}

/// A pid term (`PID_EXT` or `NEW_PID_EXT`), as a fun's creator requires.
fn pid<'a>(r: &mut Reader<'a>) -> Result<PidToken<'a>, EtfError> {
    let at = r.pos();
    match r.u8()? {
        tag @ (tag::PID | tag::NEW_PID) => pid_body(r, tag),
        found => Err(r.error_at(
            EtfErrorKind::UnexpectedTag {
                expected: "a pid",
                found,
            },
            at,
        )),
    }
}

/// The fields after a pid tag.
fn pid_body<'a>(r: &mut Reader<'a>, tag: u8) -> Result<PidToken<'a>, EtfError> {
    let node = atom(r)?;
    let id = r.u32()?;
    let serial = r.u32()?;
    let creation = if tag == tag::PID {
        r.u8()? as u32
    } else {
        r.u32()?
    };
    Ok(PidToken {
        node,
        id,
        serial,
        creation,
    })
}

/// A fun's old index or old uniq: an integer term holding a 32-bit value
/// (OTP writes them as signed 32-bit integers), kept as its 32 bits. Only
/// integer tags are read here, so a fun cannot nest inside its own header.
fn fun_int(r: &mut Reader<'_>, what: &'static str) -> Result<u32, EtfError> {
    let at = r.pos();
    let value = match r.u8()? {
        tag::SMALL_INTEGER => r.u8()? as i64,
        tag::INTEGER => r.u32()? as i32 as i64,
        tag::SMALL_BIG => {
            let n = r.u8()? as usize;
            match big_body(r, n)? {
                Token::Int(v) => v,
                _ => return Err(r.error_at(EtfErrorKind::OutOfRange(what), at)),
            }
        }
        found => {
            return Err(r.error_at(
                EtfErrorKind::UnexpectedTag {
                    expected: "an integer",
                    found,
                },
                at,
            ))
        }
    };
    if value < i32::MIN as i64 || value > u32::MAX as i64 {
        return Err(r.error_at(EtfErrorKind::OutOfRange(what), at));
    }
    Ok(value as u32)
}
