//! How a TCP socket cuts its byte stream into packets (the `packet`
//! option) and frames what it sends, on erts's packet parser
//! ([`super::packet_parser`]) as inet_drv does:
//!
//! - `raw` (0): whatever has arrived; `recv(S, N)` with N > 0 waits for
//!   exactly N bytes;
//! - `1`, `2`, `4`: a big-endian length header of that many bytes, then
//!   the packet (the header is stripped on receipt and written on send;
//!   erts keeps only the length's low bytes when it does not fit, and so
//!   does beamr);
//! - `line`: up to and including the line delimiter (`line_delimiter`,
//!   `$\n` by default); a longer line than the `buffer` option is cut
//!   there, the rest the next packet;
//! - `asn1`, `sunrm`, `cdr`, `fcgi`, `tpkt`: one record by its header,
//!   delivered whole (an fcgi record without its padding);
//! - `http`, `httph`, `http_bin`, `httph_bin`: one HTTP line, delivered
//!   as its term (the socket keeps the HTTP state between lines); an HTTP
//!   line longer than `buffer` is too long unless `packet_size` says
//!   otherwise;
//! - `ssl_tls`: one TLS record, delivered as a tuple.
//!
//! Only 1, 2 and 4 frame what is sent; the others send it as it is.
//! `packet_size` (when not 0) bounds a packet's length; a longer one, or
//! a malformed header, is the error `emsgsize`.

use std::ops::Range;

use super::packet_parser::{body_range, packet_length, HttpState, Length, Limits, PacketType};

/// `data` framed for sending with packet type `packet`.
pub fn frame(packet: PacketType, data: &[u8]) -> Vec<u8> {
    let Some(size) = packet.header_size() else {
        return data.to_vec();
    };
    let len = (data.len() as u64).to_be_bytes();
    let mut out = Vec::with_capacity(size + data.len());
    out.extend_from_slice(&len[8 - size..]);
    out.extend_from_slice(data);
    out
}

/// What the receive buffer holds for one reader.
#[derive(Debug, PartialEq, Eq)]
pub enum Cut {
    /// A packet: how much of the buffer it takes (header included) and
    /// the part that is its body.
    Packet {
        /// Bytes to drop from the buffer's front.
        consumed: usize,
        /// Where the body lies.
        body: Range<usize>,
    },
    /// Not enough yet.
    Incomplete,
    /// A packet longer than `packet_size`, or a malformed header.
    TooLarge,
}

/// Cuts the packet at the front of `buf`. `wanted` is `recv`'s length
/// (0: any, only meaningful for raw); `limits` are the socket's
/// `packet_size`, `buffer` (as the line length) and `line_delimiter`;
/// `http` is where an HTTP reader is.
pub fn cut(packet: PacketType, buf: &[u8], wanted: usize, limits: &Limits, http: HttpState) -> Cut {
    if packet == PacketType::Raw && wanted != 0 {
        if buf.len() < wanted {
            return Cut::Incomplete;
        }
        return Cut::Packet {
            consumed: wanted,
            body: 0..wanted,
        };
    }
    match packet_length(packet, buf, limits, http == HttpState::Headers) {
        Length::Total(len) if len <= buf.len() => Cut::Packet {
            consumed: len,
            body: body_range(packet, &buf[..len]),
        },
        Length::Total(_) | Length::Unknown => Cut::Incomplete,
        Length::Invalid => Cut::TooLarge,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(packet: PacketType, buf: &[u8], wanted: usize, packet_size: u32) -> Cut {
        let limits = Limits {
            packet_size,
            ..Limits::default()
        };
        cut(packet, buf, wanted, &limits, HttpState::Start)
    }

    #[test]
    fn cuts_each_packet_type() {
        assert_eq!(
            plain(PacketType::Raw, b"abc", 0, 0),
            Cut::Packet {
                consumed: 3,
                body: 0..3
            }
        );
        assert_eq!(plain(PacketType::Raw, b"abc", 4, 0), Cut::Incomplete);
        assert_eq!(
            plain(PacketType::Two, b"\0\x02hix", 0, 0),
            Cut::Packet {
                consumed: 4,
                body: 2..4
            }
        );
        assert_eq!(plain(PacketType::Two, b"\0\x03hi", 0, 0), Cut::Incomplete);
        assert_eq!(plain(PacketType::One, b"\x09", 0, 4), Cut::TooLarge);
        assert_eq!(
            plain(PacketType::Line, b"ab\ncd", 0, 0),
            Cut::Packet {
                consumed: 3,
                body: 0..3
            }
        );
        assert_eq!(plain(PacketType::Line, b"abcd", 0, 0), Cut::Incomplete);
        assert_eq!(
            plain(PacketType::Fcgi, b"\x01\x01\0\x01\0\x01\x02\0aPP", 0, 0),
            Cut::Packet {
                consumed: 11,
                body: 0..9
            }
        );
        assert_eq!(
            plain(PacketType::Tpkt, b"\x02\0\0\x04", 0, 0),
            Cut::TooLarge
        );
    }

    #[test]
    fn lines_are_cut_at_the_buffer() {
        let limits = Limits {
            line_length: 4,
            ..Limits::default()
        };
        assert_eq!(
            cut(PacketType::Line, b"abcdef\n", 0, &limits, HttpState::Start),
            Cut::Packet {
                consumed: 4,
                body: 0..4
            }
        );
    }

    #[test]
    fn http_headers_wait_for_continuations() {
        let limits = Limits::default();
        let header = b"Host: x\r\n";
        assert_eq!(
            cut(PacketType::HttpBin, header, 0, &limits, HttpState::Headers),
            Cut::Incomplete
        );
        assert_eq!(
            cut(PacketType::HttpBin, header, 0, &limits, HttpState::Start),
            Cut::Packet {
                consumed: 9,
                body: 0..9
            }
        );
    }

    #[test]
    fn frames_with_the_length_header() {
        assert_eq!(frame(PacketType::Two, b"hi"), b"\0\x02hi".to_vec());
        assert_eq!(frame(PacketType::Four, b""), vec![0, 0, 0, 0]);
        assert_eq!(frame(PacketType::One, &[7; 300])[0], 44);
        assert_eq!(frame(PacketType::Line, b"x\n"), b"x\n".to_vec());
        assert_eq!(frame(PacketType::HttpBin, b"x"), b"x".to_vec());
    }
}
