//! Step 2 of the module doc: a whole packet decoded as its type says.

use super::http::{self, Http, HttpState};
use super::length::body;
use super::packet_type::PacketType;
use super::ssl::{self, SslRecord};

/// A whole packet, decoded as its type says.
#[derive(Debug, PartialEq, Eq)]
pub enum Decoded<'a> {
    /// The packet's body, as bytes.
    Body(&'a [u8]),
    /// An HTTP line.
    Http(Http<'a>),
    /// A TLS record.
    SslTls(SslRecord<'a>),
}

/// Decodes the whole packet `packet` (as long as [`super::packet_length`]
/// said) of type `ty`, in HTTP state `state`; returns the HTTP state
/// that follows (unchanged for the other types).
pub fn decode(ty: PacketType, packet: &[u8], state: HttpState) -> (Decoded<'_>, HttpState) {
    if ty.is_http() {
        let (line, next) = http::parse(packet, ty.http_state(state));
        (Decoded::Http(line), next)
    } else if ty == PacketType::SslTls {
        (Decoded::SslTls(ssl::parse(packet)), state)
    } else {
        (Decoded::Body(body(ty, packet)), state)
    }
}
