//! The tag bytes of the External Term Format, as OTP 25 defines them
//! (`erts/emulator/beam/external.h`).
//!
//! Every encoded term starts with one of these bytes; [`VERSION`] precedes
//! the outermost term. The layout that follows each tag is drawn in the
//! module documentation of [`etf`](super).

/// The version byte in front of every top-level encoded term.
pub const VERSION: u8 = 131;
/// A zlib-compressed term: uncompressed size (u32), then a zlib stream.
pub const COMPRESSED: u8 = 80;

/// Old-style float: 31 bytes of `"%.20e"` text, NUL-padded.
pub const FLOAT: u8 = 99;
/// Port with a one-byte creation.
pub const PORT: u8 = 102;
/// Port with a four-byte creation (what OTP 25 writes).
pub const NEW_PORT: u8 = 89;
/// Port with a 64-bit number and a four-byte creation.
pub const V4_PORT: u8 = 120;
/// Pid with a one-byte creation.
pub const PID: u8 = 103;
/// Pid with a four-byte creation (what OTP 25 writes).
pub const NEW_PID: u8 = 88;
/// Tuple of up to 255 elements.
pub const SMALL_TUPLE: u8 = 104;
/// Tuple with a four-byte arity.
pub const LARGE_TUPLE: u8 = 105;
/// `[]`.
pub const NIL: u8 = 106;
/// A list of bytes, up to 65535 of them.
pub const STRING: u8 = 107;
/// A list: element count, elements, tail.
pub const LIST: u8 = 108;
/// A binary.
pub const BINARY: u8 = 109;
/// A bitstring: byte count, bits used in the last byte, bytes.
pub const BIT_BINARY: u8 = 77;
/// An unsigned 8-bit integer.
pub const SMALL_INTEGER: u8 = 97;
/// A signed 32-bit integer.
pub const INTEGER: u8 = 98;
/// An integer of up to 255 magnitude bytes.
pub const SMALL_BIG: u8 = 110;
/// An integer with a four-byte magnitude length.
pub const LARGE_BIG: u8 = 111;
/// An IEEE 754 double, big-endian.
pub const NEW_FLOAT: u8 = 70;
/// A reference with one id word and a one-byte creation (obsolete).
pub const REFERENCE: u8 = 101;
/// A reference with up to 5 id words and a one-byte creation.
pub const NEW_REFERENCE: u8 = 114;
/// A reference with up to 5 id words and a four-byte creation (what OTP 25 writes).
pub const NEWER_REFERENCE: u8 = 90;
/// The pre-R8 fun format, refused since OTP 23.
pub const FUN: u8 = 117;
/// A closure.
pub const NEW_FUN: u8 = 112;
/// An export fun `fun M:F/A`.
pub const EXPORT: u8 = 113;
/// An OTP 29 native record: field count (u32), exported flag (u8, 0 or
/// 1), module atom, name atom, the field names in declaration order, then
/// the values in that order.
pub const RECORD: u8 = 67;
/// A map: pair count, then key, value, key, value...
pub const MAP: u8 = 116;
/// Atom, Latin-1 text with a two-byte length.
pub const ATOM: u8 = 100;
/// Atom, Latin-1 text with a one-byte length.
pub const SMALL_ATOM: u8 = 115;
/// Atom, UTF-8 text with a two-byte length.
pub const ATOM_UTF8: u8 = 118;
/// Atom, UTF-8 text with a one-byte length.
pub const SMALL_ATOM_UTF8: u8 = 119;
/// A reference into the distribution atom cache (only inside distribution
/// messages; refused here).
pub const ATOM_CACHE_REF: u8 = 82;
