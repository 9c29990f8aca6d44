//! erts's packet parser (`packet_parser.c`), in Rust: what
//! `erlang:decode_packet/3` and a socket's `packet` option do with the
//! bytes that have arrived, as pure functions over `&[u8]`.
//!
//! Decoding a packet is two steps, each its own function:
//!
//! 1. [`packet_length`]: how long the packet at the front of the bytes
//!    is ([`Length::Total`], which may be more than has arrived), that
//!    its length cannot be known yet ([`Length::Unknown`]), or that it is
//!    malformed or too long ([`Length::Invalid`]). The [`Limits`] are the
//!    `packet_size`, `line_length` and `line_delimiter` options.
//! 2. [`decode`], on a whole packet: its body ([`Decoded::Body`]: the
//!    length header stripped for 1, 2 and 4, the padding for fcgi, the
//!    packet as it is for the others), an HTTP line ([`Decoded::Http`],
//!    [`http`]) or a TLS record ([`Decoded::SslTls`], [`ssl`]).
//!
//! An HTTP socket is in one of two states ([`HttpState`]): before the
//! start line (`http`, `http_bin`) or among the headers (`httph`,
//! `httph_bin`, and `http` after a request or status line until the
//! empty line). [`term`] builds the Erlang terms of what was decoded,
//! on any heap.
//!
//! - [`packet_type`]: the packet types and their codes;
//! - [`decoded`]: step 2, by the packet's type;
//! - [`length`]: step 1, and the body of step 2;
//! - [`http`]: HTTP start lines and header lines;
//! - [`names`]: the header names and methods erts knows as atoms;
//! - [`ssl`]: TLS (and SSLv2 hello) records;
//! - [`term`]: the terms.

pub mod decoded;
pub mod http;
pub mod length;
pub mod names;
pub mod packet_type;
pub mod ssl;
pub mod term;

pub use decoded::{decode, Decoded};
pub use http::{Http, HttpState};
pub use length::{body, body_range, packet_length, Length, Limits};
pub use packet_type::PacketType;
pub use ssl::SslRecord;
