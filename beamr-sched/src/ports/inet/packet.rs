//! How a TCP socket cuts its byte stream into packets (the `packet`
//! option) and frames what it sends:
//!
//! - `raw` (0): whatever has arrived; `recv(S, N)` with N > 0 waits for
//!   exactly N bytes;
//! - `1`, `2`, `4`: a big-endian length header of that many bytes, then
//!   the packet (the header is stripped on receipt and written on send;
//!   erts keeps only the length's low bytes when it does not fit, and so
//!   does beamr);
//! - `line`: up to and including the line delimiter (`line_delimiter`,
//!   `$\n` by default).
//!
//! `packet_size` (when not 0) bounds a packet's length; a longer one is
//! the error `emsgsize`.

/// A packet type (`TCP_PB_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Packet {
    /// No framing.
    Raw,
    /// A length header of 1, 2 or 4 bytes.
    Header(usize),
    /// Lines.
    Line,
}

/// `TCP_PB_RAW`.
pub const PB_RAW: u32 = 0;
/// `TCP_PB_1`.
pub const PB_1: u32 = 1;
/// `TCP_PB_2`.
pub const PB_2: u32 = 2;
/// `TCP_PB_4`.
pub const PB_4: u32 = 3;
/// `TCP_PB_LINE_LF`.
pub const PB_LINE: u32 = 8;

impl Packet {
    /// The packet type with code `code`; `None` for the types beamr does
    /// not cut (asn1, sunrm, cdr, fcgi, tpkt, http, ssl_tls).
    pub fn from_code(code: u32) -> Option<Packet> {
        Some(match code {
            PB_RAW => Packet::Raw,
            PB_1 => Packet::Header(1),
            PB_2 => Packet::Header(2),
            PB_4 => Packet::Header(4),
            PB_LINE => Packet::Line,
            _ => return None,
        })
    }

    /// Its code, as `getopts` answers it.
    pub fn code(self) -> u32 {
        match self {
            Packet::Raw => PB_RAW,
            Packet::Header(1) => PB_1,
            Packet::Header(2) => PB_2,
            Packet::Header(_) => PB_4,
            Packet::Line => PB_LINE,
        }
    }

    /// `data` framed for sending.
    pub fn frame(self, data: &[u8]) -> Vec<u8> {
        let Packet::Header(size) = self else {
            return data.to_vec();
        };
        let len = (data.len() as u64).to_be_bytes();
        let mut out = Vec::with_capacity(size + data.len());
        out.extend_from_slice(&len[8 - size..]);
        out.extend_from_slice(data);
        out
    }
}

/// What the receive buffer holds for one reader.
#[derive(Debug, PartialEq, Eq)]
pub enum Cut {
    /// A packet: the range of the buffer it takes (header included) and
    /// the part that is its data.
    Packet {
        /// Bytes to drop from the buffer's front.
        consumed: usize,
        /// Where the data starts.
        start: usize,
    },
    /// Not enough yet.
    Incomplete,
    /// A packet longer than `packet_size`.
    TooLarge,
}

/// Cuts the packet at the front of `buf`. `wanted` is `recv`'s length
/// (0: any, only meaningful for raw); `limit` is `packet_size` (0: none).
pub fn cut(packet: Packet, buf: &[u8], wanted: usize, limit: usize, delimiter: u8) -> Cut {
    match packet {
        Packet::Raw if wanted == 0 && buf.is_empty() => Cut::Incomplete,
        Packet::Raw if wanted == 0 => Cut::Packet {
            consumed: buf.len(),
            start: 0,
        },
        Packet::Raw if buf.len() >= wanted => Cut::Packet {
            consumed: wanted,
            start: 0,
        },
        Packet::Raw => Cut::Incomplete,
        Packet::Header(size) => {
            if buf.len() < size {
                return Cut::Incomplete;
            }
            let len = buf[..size]
                .iter()
                .fold(0usize, |n, &b| (n << 8) | usize::from(b));
            if limit != 0 && len > limit {
                return Cut::TooLarge;
            }
            if buf.len() < size + len {
                return Cut::Incomplete;
            }
            Cut::Packet {
                consumed: size + len,
                start: size,
            }
        }
        Packet::Line => match buf.iter().position(|&b| b == delimiter) {
            Some(i) if limit != 0 && i + 1 > limit => Cut::TooLarge,
            Some(i) => Cut::Packet {
                consumed: i + 1,
                start: 0,
            },
            None if limit != 0 && buf.len() > limit => Cut::TooLarge,
            None => Cut::Incomplete,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_each_packet_type() {
        assert_eq!(
            cut(Packet::Raw, b"abc", 0, 0, b'\n'),
            Cut::Packet {
                consumed: 3,
                start: 0
            }
        );
        assert_eq!(cut(Packet::Raw, b"abc", 4, 0, b'\n'), Cut::Incomplete);
        assert_eq!(
            cut(Packet::Header(2), b"\0\x02hix", 0, 0, b'\n'),
            Cut::Packet {
                consumed: 4,
                start: 2
            }
        );
        assert_eq!(
            cut(Packet::Header(2), b"\0\x03hi", 0, 0, b'\n'),
            Cut::Incomplete
        );
        assert_eq!(cut(Packet::Header(1), b"\x09", 0, 4, b'\n'), Cut::TooLarge);
        assert_eq!(
            cut(Packet::Line, b"ab\ncd", 0, 0, b'\n'),
            Cut::Packet {
                consumed: 3,
                start: 0
            }
        );
        assert_eq!(cut(Packet::Line, b"abcd", 0, 0, b'\n'), Cut::Incomplete);
    }

    #[test]
    fn frames_with_the_length_header() {
        assert_eq!(Packet::Header(2).frame(b"hi"), b"\0\x02hi".to_vec());
        assert_eq!(Packet::Header(4).frame(b""), vec![0, 0, 0, 0]);
        assert_eq!(Packet::Header(1).frame(&[7; 300])[0], 44);
        assert_eq!(Packet::Line.frame(b"x\n"), b"x\n".to_vec());
    }
}
