//! How long the packet at the front of some bytes is, by its type
//! (erts's `packet_get_length`), and which part of a whole packet is its
//! body (`packet_get_body`).
//!
//! The headers, big-endian unless said, sizes in bytes:
//!
//! ```text
//! 1, 2, 4   Length:1|2|4, then Length bytes
//! sunrm     Last:1 bit, Length:31 bits, then Length bytes
//! asn1      Tag (1 byte; 0x1f in its low bits: more bytes, each with
//!           0x80 set, then one without), then a length: one byte below
//!           0x80, or 0x80 + N and N (at most 4) bytes; then the contents
//! cdr       "GIOP", Major:1, Minor:1, Flags:1 (bit 0: little-endian
//!           size), Type:1, Size:4, then Size bytes
//! fcgi      Version:1 (= 1), Type:1, Id:2, Length:2, Padding:1,
//!           Reserved:1, then Length bytes, then Padding bytes
//! tpkt      Version:1 (= 3), Reserved:1, Length:2 (header included)
//! ssl_tls   Type:1, Major:1, Minor:1, Length:2; or an SSLv2 hello:
//!           1:1 bit, Length:15 bits, 1:1 (type), Major:1, Minor:1
//! line      the bytes up to and including the delimiter
//! http      a line up to and including "\n" (among headers, with the
//!           lines after it that start with a space or a tab)
//! ```
//!
//! The limits, as erts applies them ([`Limits`]): `packet_size` bounds
//! the body's length of the header types (a longer one is invalid; 0:
//! erts's own bound, `i32::MAX` with the header) and the length of a
//! line or an HTTP line; `line_length` cuts a longer `line` packet short
//! (the rest is the next packet), and bounds an HTTP line when
//! `packet_size` is 0.

use super::packet_type::PacketType;

/// The options that bound a packet, 0 for none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// `packet_size`: the longest packet.
    pub packet_size: u32,
    /// `line_length`: the longest `line` packet before it is cut.
    pub line_length: u32,
    /// `line_delimiter`: the byte that ends a `line` packet.
    pub delimiter: u8,
    /// Cut a `line` packet at `line_length` only while no delimiter has
    /// come, keeping a longer line whole once it has (OTP 29's sockets);
    /// false cuts any longer line (decode_packet, earlier sockets).
    pub whole_lines: bool,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            packet_size: 0,
            line_length: 0,
            delimiter: b'\n',
            whole_lines: false,
        }
    }
}

/// What the bytes say of the packet at their front.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Length {
    /// The packet's whole length in bytes, header included: more than
    /// the bytes hold when it has not all arrived (`{more, Length}`).
    Total(usize),
    /// Not enough has arrived to tell (`{more, undefined}`).
    Unknown,
    /// A malformed header, or a packet longer than the limits allow
    /// (`{error, invalid}`).
    Invalid,
}

/// The length of the packet at the front of `buf`. `in_headers` is the
/// HTTP state of an `http` or `http_bin` reader (`httph` and `httph_bin`
/// are always among headers); the other types ignore it.
pub fn packet_length(ty: PacketType, buf: &[u8], limits: &Limits, in_headers: bool) -> Length {
    let max = limits.packet_size;
    match ty {
        PacketType::Raw if buf.is_empty() => Length::Unknown,
        PacketType::Raw => Length::Total(buf.len()),
        PacketType::One | PacketType::Two | PacketType::Four => {
            let size = ty.header_size().unwrap_or(4);
            match buf.get(..size) {
                Some(header) => remain(size, be(header), max),
                None => Length::Unknown,
            }
        }
        PacketType::SunRm => match buf.get(..4) {
            Some(header) => remain(4, be(header) & 0x7fff_ffff, max),
            None => Length::Unknown,
        },
        PacketType::Line => line(buf, limits),
        PacketType::Asn1 => asn1(buf, max),
        PacketType::Cdr => match buf.get(..12) {
            None => Length::Unknown,
            Some(h) if &h[..4] != b"GIOP" => Length::Invalid,
            Some(h) if h[6] & 1 != 0 => {
                let size = u32::from_le_bytes([h[8], h[9], h[10], h[11]]);
                remain(12, u64::from(size), max)
            }
            Some(h) => remain(12, be(&h[8..12]), max),
        },
        PacketType::Fcgi => match buf.get(..8) {
            None => Length::Unknown,
            Some(h) if h[0] != 1 => Length::Invalid,
            Some(h) => remain(8, be(&h[4..6]) + u64::from(h[6]), max),
        },
        PacketType::Tpkt => match buf.get(..4) {
            None => Length::Unknown,
            Some(h) if h[0] != 3 => Length::Invalid,
            // The length counts the header; one shorter than it wraps
            // round, as erts's unsigned arithmetic does, and is too long.
            Some(h) => remain(4, u64::from((be(&h[2..4]) as u32).wrapping_sub(4)), max),
        },
        PacketType::SslTls => match buf.get(..5) {
            None => Length::Unknown,
            Some(h) if h[0] & 0x80 != 0 && h[2] == 1 => {
                let len = (be(&h[..2]) as u32) & 0x7fff;
                remain(5, u64::from(len.wrapping_sub(3)), max)
            }
            Some(h) => remain(5, be(&h[3..5]), max),
        },
        PacketType::Http | PacketType::HttpBin => http(buf, limits, in_headers),
        PacketType::HttpH | PacketType::HttpHBin => http(buf, limits, true),
    }
}

/// The body of the whole packet `packet`: without its length header
/// (1, 2, 4) or its padding (fcgi); the packet itself for the others.
pub fn body(ty: PacketType, packet: &[u8]) -> &[u8] {
    &packet[body_range(ty, packet)]
}

/// Where [`body`] lies in `packet`.
pub fn body_range(ty: PacketType, packet: &[u8]) -> std::ops::Range<usize> {
    let n = packet.len();
    if let Some(size) = ty.header_size() {
        return size.min(n)..n;
    }
    if ty == PacketType::Fcgi {
        let padding = packet.get(6).copied().map_or(0, usize::from);
        return 0..n.saturating_sub(padding);
    }
    0..n
}

/// A big-endian number of up to 4 bytes.
fn be(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0, |n, &b| (n << 8) | u64::from(b))
}

/// A header of `header` bytes announcing `len` more: too long beyond
/// `max` (0: beyond what erts's `int` holds with the header).
fn remain(header: usize, len: u64, max: u32) -> Length {
    let limit = match max {
        0 => i32::MAX as u64 - header as u64,
        n => u64::from(n),
    };
    let total = header as u64 + len;
    // erts returns the total as an `int`: one past `i32::MAX` (only a
    // `packet_size` near `u32::MAX` lets one through) is an error there.
    if len > limit || total > i32::MAX as u64 {
        return Length::Invalid;
    }
    Length::Total(total as usize)
}

/// A `line` packet: up to the delimiter, cut at `line_length` (see
/// [`Limits::whole_lines`]).
fn line(buf: &[u8], limits: &Limits) -> Length {
    let max = limits.packet_size as usize;
    let cut = limits.line_length as usize;
    match buf.iter().position(|&b| b == limits.delimiter) {
        None if max != 0 && buf.len() > max => Length::Invalid,
        None if cut != 0 && buf.len() >= cut => Length::Total(cut),
        None => Length::Unknown,
        Some(i) if max != 0 && i + 1 > max => Length::Invalid,
        Some(i) if cut != 0 && i + 1 > cut && !limits.whole_lines => Length::Total(cut),
        Some(i) => Length::Total(i + 1),
    }
}

/// An `asn1` packet: a BER tag, a length, the contents.
fn asn1(buf: &[u8], max: u32) -> Length {
    if buf.len() < 2 {
        return Length::Unknown;
    }
    // `at` is the next byte to read; `left` how many follow it, with it.
    let mut at = 1;
    let mut left = buf.len() - 1;
    if buf[0] & 0x1f == 0x1f {
        // A long tag: bytes with the top bit set, then one without.
        while left > 0 && buf[at] & 0x80 != 0 {
            at += 1;
            left -= 1;
        }
        if left < 2 {
            return Length::Unknown;
        }
        at += 1;
        left -= 1;
    }
    let first = buf[at];
    at += 1;
    left -= 1;
    if first & 0x80 == 0 {
        return remain(at, u64::from(first), max);
    }
    // The long form: the low bits say how many length bytes follow (0:
    // the indefinite form, a length of 0 here, as erts takes it).
    let count = usize::from(first & 0x7f);
    if left < count {
        return Length::Unknown;
    }
    if count > 4 {
        return Length::Invalid;
    }
    remain(at + count, be(&buf[at..at + count]), max)
}

/// An HTTP line; among headers, with the lines that continue it.
fn http(buf: &[u8], limits: &Limits, in_headers: bool) -> Length {
    let n = buf.len();
    if buf == b"\n" || buf == b"\r\n" {
        return Length::Total(n);
    }
    // `line_length` bounds HTTP lines too when `packet_size` is not set
    // (erts keeps this for old users of decode_packet).
    let max = match limits.packet_size {
        0 => limits.line_length as usize,
        n => n as usize,
    };
    let too_long = |len: usize| max != 0 && len > max;
    let mut from = 0;
    loop {
        let Some(i) = buf[from..].iter().position(|&b| b == b'\n') else {
            if max != 0 && n >= max {
                return Length::Invalid;
            }
            return Length::Unknown;
        };
        let len = from + i + 1;
        if too_long(len) {
            return Length::Invalid;
        }
        if !in_headers {
            return Length::Total(len);
        }
        match buf.get(len) {
            // Whether a continuation line follows is not known yet.
            None => return Length::Unknown,
            Some(b' ' | b'\t') if len > 2 => from = len,
            Some(_) => return Length::Total(len),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn len(ty: PacketType, buf: &[u8]) -> Length {
        packet_length(ty, buf, &Limits::default(), false)
    }

    fn limited(ty: PacketType, buf: &[u8], packet_size: u32, line_length: u32) -> Length {
        let limits = Limits {
            packet_size,
            line_length,
            ..Limits::default()
        };
        packet_length(ty, buf, &limits, false)
    }

    #[test]
    fn raw_takes_everything() {
        assert_eq!(len(PacketType::Raw, b""), Length::Unknown);
        assert_eq!(len(PacketType::Raw, b"abc"), Length::Total(3));
    }

    #[test]
    fn length_headers() {
        assert_eq!(len(PacketType::One, b""), Length::Unknown);
        assert_eq!(len(PacketType::One, b"\x03ab"), Length::Total(4));
        assert_eq!(len(PacketType::Two, b"\x00"), Length::Unknown);
        assert_eq!(len(PacketType::Two, b"\x01\x00"), Length::Total(258));
        assert_eq!(len(PacketType::Four, b"\xff\xff\xff\xff"), Length::Invalid);
        assert_eq!(
            len(PacketType::Four, b"\x7f\xff\xff\xfb"),
            Length::Total(i32::MAX as usize)
        );
        assert_eq!(len(PacketType::Four, b"\x7f\xff\xff\xfc"), Length::Invalid);
        assert_eq!(limited(PacketType::One, b"\x05", 4, 0), Length::Invalid);
        assert_eq!(limited(PacketType::One, b"\x04", 4, 0), Length::Total(5));
        assert_eq!(body(PacketType::Two, b"\0\x02hi"), b"hi");
    }

    #[test]
    fn sunrm_ignores_the_last_record_bit() {
        assert_eq!(len(PacketType::SunRm, b"\x80\0\0\x02ab"), Length::Total(6));
        assert_eq!(body(PacketType::SunRm, b"\x80\0\0\x02ab").len(), 6);
    }

    #[test]
    fn lines() {
        assert_eq!(len(PacketType::Line, b"ab\ncd"), Length::Total(3));
        assert_eq!(len(PacketType::Line, b"abcd"), Length::Unknown);
        assert_eq!(limited(PacketType::Line, b"abcd", 3, 0), Length::Invalid);
        assert_eq!(limited(PacketType::Line, b"abc", 3, 0), Length::Unknown);
        assert_eq!(limited(PacketType::Line, b"abcd\n", 0, 2), Length::Total(2));
        assert_eq!(limited(PacketType::Line, b"ab", 0, 2), Length::Total(2));
        assert_eq!(limited(PacketType::Line, b"a", 0, 2), Length::Unknown);
        let semicolon = Limits {
            delimiter: b';',
            ..Limits::default()
        };
        assert_eq!(
            packet_length(PacketType::Line, b"a;b\n", &semicolon, false),
            Length::Total(2)
        );
        // OTP 29's sockets: a line is cut at line_length only while no
        // delimiter has come.
        let whole = Limits {
            line_length: 2,
            whole_lines: true,
            ..Limits::default()
        };
        let line = |buf: &[u8]| packet_length(PacketType::Line, buf, &whole, false);
        assert_eq!(line(b"abcd\n"), Length::Total(5));
        assert_eq!(line(b"abcd"), Length::Total(2));
        assert_eq!(line(b"a"), Length::Unknown);
    }

    #[test]
    fn asn1_tags_and_lengths() {
        assert_eq!(len(PacketType::Asn1, b"\x04"), Length::Unknown);
        assert_eq!(len(PacketType::Asn1, b"\x04\x02ab"), Length::Total(4));
        assert_eq!(
            len(PacketType::Asn1, b"\x1f\x81\x01\x01x"),
            Length::Total(5)
        );
        assert_eq!(len(PacketType::Asn1, b"\x1f\x81"), Length::Unknown);
        assert_eq!(len(PacketType::Asn1, b"\x04\x82\x01"), Length::Unknown);
        assert_eq!(
            len(PacketType::Asn1, b"\x04\x82\x01\x00"),
            Length::Total(260)
        );
        assert_eq!(len(PacketType::Asn1, b"\x04\x80"), Length::Total(2));
        assert_eq!(
            len(PacketType::Asn1, b"\x04\x85\0\0\0\0\0"),
            Length::Invalid
        );
        assert_eq!(len(PacketType::Asn1, b"\x04\x85\0"), Length::Unknown);
    }

    #[test]
    fn cdr_fcgi_tpkt_ssl() {
        let cdr_be = b"GIOP\x01\x00\x00\x00\x00\x00\x00\x02ab";
        assert_eq!(len(PacketType::Cdr, cdr_be), Length::Total(14));
        let cdr_le = b"GIOP\x01\x00\x01\x00\x02\x00\x00\x00ab";
        assert_eq!(len(PacketType::Cdr, cdr_le), Length::Total(14));
        assert_eq!(
            len(PacketType::Cdr, b"GIOX\0\0\0\0\0\0\0\0"),
            Length::Invalid
        );
        let fcgi = b"\x01\x01\x00\x01\x00\x02\x01\x00abX";
        assert_eq!(len(PacketType::Fcgi, fcgi), Length::Total(11));
        assert_eq!(
            body(PacketType::Fcgi, fcgi),
            b"\x01\x01\x00\x01\x00\x02\x01\x00ab"
        );
        assert_eq!(
            len(PacketType::Fcgi, b"\x02\0\0\0\0\0\0\0"),
            Length::Invalid
        );
        assert_eq!(
            len(PacketType::Tpkt, b"\x03\x00\x00\x06ab"),
            Length::Total(6)
        );
        assert_eq!(len(PacketType::Tpkt, b"\x03\x00\x00\x02"), Length::Invalid);
        assert_eq!(len(PacketType::Tpkt, b"\x02\x00\x00\x06"), Length::Invalid);
        assert_eq!(
            len(PacketType::SslTls, b"\x16\x03\x01\x00\x02ab"),
            Length::Total(7)
        );
        assert_eq!(
            len(PacketType::SslTls, b"\x80\x05\x01\x03\x01xx"),
            Length::Total(7)
        );
    }

    #[test]
    fn http_lines() {
        assert_eq!(
            len(PacketType::Http, b"GET / HTTP/1.1\r\nHost"),
            Length::Total(16)
        );
        assert_eq!(len(PacketType::Http, b"GET / HTTP/1.1"), Length::Unknown);
        assert_eq!(len(PacketType::Http, b"\r\n"), Length::Total(2));
        assert_eq!(len(PacketType::HttpH, b"A: b\r\n"), Length::Unknown);
        assert_eq!(len(PacketType::HttpH, b"A: b\r\nC"), Length::Total(6));
        assert_eq!(
            len(PacketType::HttpH, b"A: b\r\n c\r\nD"),
            Length::Total(10)
        );
        assert_eq!(len(PacketType::HttpH, b"\r\n c"), Length::Total(2));
        assert_eq!(
            limited(PacketType::Http, b"GET / HTTP/1.1\r\n", 10, 0),
            Length::Invalid
        );
        assert_eq!(
            limited(PacketType::Http, b"GET / HTTP/1.1\r\n", 0, 10),
            Length::Invalid
        );
        assert_eq!(
            limited(PacketType::Http, b"GET / HT", 8, 0),
            Length::Invalid
        );
        assert_eq!(limited(PacketType::Http, b"GET / H", 8, 0), Length::Unknown);
    }
}
