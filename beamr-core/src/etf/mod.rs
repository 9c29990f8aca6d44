//! The External Term Format: `term_to_binary` ([`encode`]) and
//! `binary_to_term` ([`decode`]), as OTP 25 writes and reads it.
//!
//! # Format
//!
//! A top-level term is the version byte 131 and one term, or 131, the tag
//! 80 and a zlib-compressed term ([`zlib`]). Every term is a tag byte and
//! fields; multi-byte numbers are big-endian unless noted.
//!
//! ```text
//! tag  name              fields (bytes)                              then
//!  97  SMALL_INTEGER     value:1
//!  98  INTEGER           value:4 (signed)
//! 110  SMALL_BIG         n:1 sign:1 magnitude:n (little-endian)
//! 111  LARGE_BIG         n:4 sign:1 magnitude:n (little-endian)
//!  70  NEW_FLOAT         IEEE 754 double:8
//!  99  FLOAT             "%.20e" text, NUL-padded:31                (minor_version 0)
//! 100  ATOM              len:2 Latin-1 text:len
//! 115  SMALL_ATOM        len:1 Latin-1 text:len                      (read only)
//! 118  ATOM_UTF8         len:2 UTF-8 text:len
//! 119  SMALL_ATOM_UTF8   len:1 UTF-8 text:len
//! 104  SMALL_TUPLE       arity:1                                     arity terms
//! 105  LARGE_TUPLE       arity:4                                     arity terms
//! 106  NIL
//! 107  STRING            len:2 bytes:len (a list of small integers)
//! 108  LIST              n:4                                         n terms, tail term
//! 109  BINARY            len:4 bytes:len
//!  77  BIT_BINARY        len:4 bits:1 (used in last byte) bytes:len
//! 116  MAP               n:4                                         n key-value term pairs
//! 103  PID               node:atom id:4 serial:4 creation:1          (read only)
//!  88  NEW_PID           node:atom id:4 serial:4 creation:4
//! 102  PORT              node:atom id:4 creation:1                   (read only)
//!  89  NEW_PORT          node:atom id:4 creation:4
//! 120  V4_PORT           node:atom id:8 creation:4                   (every port on OTP 26+)
//! 101  REFERENCE         node:atom id:4 creation:1                   (read only)
//! 114  NEW_REFERENCE     len:2 node:atom creation:1 ids:4*len        (read only)
//!  90  NEWER_REFERENCE   len:2 node:atom creation:4 ids:4*len
//! 112  NEW_FUN           size:4 arity:1 uniq:16 index:4 nfree:4
//!                        module:atom old_index:int old_uniq:int pid  nfree terms
//! 113  EXPORT            module:atom function:atom arity:SMALL_INTEGER
//! ```
//!
//! # Decoding
//!
//! Two passes over the input, neither recursive: [`scan`] checks the whole
//! term (every tag, length, count against the bytes left, atom text, nesting
//! depth) without building anything, then [`build`] builds it bottom-up on
//! the heap. Both read through [`token`], the one place that knows each
//! tag's layout. Bad input gives an [`EtfError`] naming what and where,
//! never a panic.
//!
//! # Local identifiers
//!
//! beamr is the node `nonode@nohost` with creation 0; see [`local`] for how
//! its pids, ports and references map to the encoded fields.

mod build;
mod decode;
mod encode;
mod error;
pub mod local;
mod reader;
mod scan;
pub mod tag;
mod token;
mod zlib;

pub use decode::{
    decode, decode_used, decode_with, DecodeOptions, DEFAULT_MAX_DEPTH, DEFAULT_MAX_INFLATED,
};
pub use encode::{
    encode, encode_compressed, encode_into, encode_tuple_into, encode_with, try_encode,
    EncodeError, EncodeOptions, DEFAULT_COMPRESSION,
};
pub use error::{EtfError, EtfErrorKind};
