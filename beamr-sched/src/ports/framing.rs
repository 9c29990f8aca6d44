//! How a port cuts what its program writes into messages: `stream` (each
//! read as it comes), `{line, N}` (`{eol, Line}` per line, `{noeol, Part}`
//! for each N bytes of a longer line and for a last line without its
//! newline) and `{packet, N}` (an N-byte big-endian length, then that
//! many bytes; a partial packet at end of input is dropped).
//!
//! As erts does, a line ends at `\n`, and a `\r` before it is dropped; a
//! line of exactly N bytes followed by its newline (or `\r\n`) is one
//! `{eol, Line}`.

use super::inet::packet::{cut, Cut};
use super::inet::packet_parser::{HttpState, Limits, PacketType};

/// How output is cut into messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    /// Data as it is read.
    Stream,
    /// Lines of at most this many bytes.
    Line(usize),
    /// Packets with a length header of this many bytes (1, 2 or 4).
    Packet(usize),
}

/// One message's worth of data.
#[derive(Debug, PartialEq, Eq)]
pub enum Chunk {
    /// Data (`stream` and `packet` modes).
    Data(Vec<u8>),
    /// A whole line, without its newline.
    Eol(Vec<u8>),
    /// Part of a line.
    Noeol(Vec<u8>),
}

/// Cuts a byte stream into [`Chunk`]s.
pub struct Decoder {
    framing: Framing,
    buf: Vec<u8>,
    /// Line mode: a `\r` read when the line was full, kept back until the
    /// next byte says whether it ends the line (`\r\n`) or is data.
    pending_cr: bool,
}

impl Decoder {
    /// A decoder for `framing`.
    pub fn new(framing: Framing) -> Decoder {
        Decoder {
            framing,
            buf: Vec::new(),
            pending_cr: false,
        }
    }

    /// The chunks that `bytes`, read next, completes.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Chunk> {
        let mut out = Vec::new();
        match self.framing {
            Framing::Stream => out.push(Chunk::Data(bytes.to_vec())),
            Framing::Line(max) => {
                for &b in bytes {
                    if std::mem::take(&mut self.pending_cr) {
                        if b == b'\n' {
                            out.push(Chunk::Eol(std::mem::take(&mut self.buf)));
                            continue;
                        }
                        out.push(Chunk::Noeol(std::mem::take(&mut self.buf)));
                        self.buf.push(b'\r');
                    }
                    if b == b'\n' {
                        let mut line = std::mem::take(&mut self.buf);
                        if line.last() == Some(&b'\r') {
                            line.pop();
                        }
                        out.push(Chunk::Eol(line));
                    } else if b == b'\r' && self.buf.len() == max {
                        self.pending_cr = true;
                    } else {
                        if self.buf.len() >= max {
                            out.push(Chunk::Noeol(std::mem::take(&mut self.buf)));
                        }
                        self.buf.push(b);
                    }
                }
            }
            Framing::Packet(header) => {
                self.buf.extend_from_slice(bytes);
                // The same cut as a socket's `{packet, N}`, with no limit.
                let packet = match header {
                    1 => PacketType::One,
                    2 => PacketType::Two,
                    _ => PacketType::Four,
                };
                let limits = Limits::default();
                while let Cut::Packet { consumed, body } =
                    cut(packet, &self.buf, 0, &limits, HttpState::Start)
                {
                    out.push(Chunk::Data(self.buf[body].to_vec()));
                    self.buf.drain(..consumed);
                }
            }
        }
        out
    }

    /// What is left at end of input: a last line without its newline
    /// (and a `\r` kept back after a full one).
    pub fn finish(&mut self) -> Vec<Chunk> {
        let mut out = Vec::new();
        if matches!(self.framing, Framing::Line(_)) {
            if !self.buf.is_empty() {
                out.push(Chunk::Noeol(std::mem::take(&mut self.buf)));
            }
            if std::mem::take(&mut self.pending_cr) {
                out.push(Chunk::Noeol(b"\r".to_vec()));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_cut_as_erts_cuts_them() {
        let mut d = Decoder::new(Framing::Line(4));
        let chunks = d.push(b"abcd\nabcdefgh\nab\r\n\nxy");
        assert_eq!(
            chunks,
            vec![
                Chunk::Eol(b"abcd".to_vec()),
                Chunk::Noeol(b"abcd".to_vec()),
                Chunk::Eol(b"efgh".to_vec()),
                Chunk::Eol(b"ab".to_vec()),
                Chunk::Eol(Vec::new()),
            ]
        );
        assert_eq!(d.push(b"z"), vec![]);
        assert_eq!(d.finish(), vec![Chunk::Noeol(b"xyz".to_vec())]);
        assert_eq!(d.finish(), vec![]);
    }

    #[test]
    fn packets_wait_for_their_whole_length() {
        let mut d = Decoder::new(Framing::Packet(2));
        assert_eq!(d.push(&[0, 3, b'a']), vec![]);
        assert_eq!(
            d.push(&[b'b', b'c', 0, 0, 0]),
            vec![Chunk::Data(b"abc".to_vec()), Chunk::Data(Vec::new())]
        );
        assert_eq!(d.finish(), vec![]);
    }

    #[test]
    fn a_carriage_return_after_a_full_line_waits_for_the_next_byte() {
        let mut d = Decoder::new(Framing::Line(1));
        let mut chunks = d.push(b"f\r\nab\rcd\r");
        chunks.extend(d.finish());
        let noeol = |s: &[u8]| Chunk::Noeol(s.to_vec());
        assert_eq!(
            chunks,
            vec![
                Chunk::Eol(b"f".to_vec()),
                noeol(b"a"),
                noeol(b"b"),
                noeol(b"\r"),
                noeol(b"c"),
                noeol(b"d"),
                noeol(b"\r"),
            ]
        );
    }
}
