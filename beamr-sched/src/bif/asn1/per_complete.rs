//! `asn1rt_nif:encode_per_complete/1`: a PER encoder's intermediate form,
//! a byte string of commands, packed into the final bits.
//!
//! The commands: `0` and `1` a bit; `2` pad to the next octet; `10 N V`
//! the low `N` bits of `V`; `20 L Bytes` and `21 L:16 Bytes` whole octets
//! after aligning; `30 U L Bytes` and `31 U L:16 Bytes` octets without
//! aligning, the last one's low `U` bits left out; `40`-`43 Len L Bytes`
//! (`Len` and `L` of one or two octets) `L` bytes each 0 or 1 as bits,
//! cut or padded with zeros to `Len` bits; `45`-`47 Len L Bytes` the first
//! `Len` bits of `L` octets, padded with zeros when they have fewer. The
//! result is whole octets, at least one for any command.
//!
//! Where erl's C code reads past its input or mixes stray bits into the
//! output (a command cut short, a bit count over 8, octets beyond what a
//! bit count needs), this refuses the input instead.

/// The bits written so far: every byte of `out` but the last is full; the
/// last has its low `unused` bits (1 to 8) still free.
struct Bits {
    out: Vec<u8>,
    unused: u32,
}

impl Bits {
    fn cur(&mut self) -> &mut u8 {
        let last = self.out.len() - 1;
        &mut self.out[last]
    }

    /// Starts the next byte.
    fn advance(&mut self, first: u8) {
        self.out.push(first);
        self.unused = 8;
    }

    fn bit(&mut self, one: bool) {
        if one {
            let shift = self.unused - 1;
            *self.cur() |= 1 << shift;
        }
        if self.unused == 1 {
            self.advance(0);
        } else {
            self.unused -= 1;
        }
    }

    fn zeros(&mut self, n: usize) {
        for _ in 0..n {
            self.bit(false);
        }
    }

    fn align(&mut self) {
        if self.unused != 8 {
            self.advance(0);
        }
    }

    /// The low `n` (at most 8) bits of `val`.
    fn low_bits(&mut self, n: u32, val: u8) {
        let (val, unused) = (u32::from(val), self.unused);
        if n < unused {
            *self.cur() |= (val << (unused - n)) as u8;
            self.unused -= n;
        } else if n == unused {
            *self.cur() |= val as u8;
            self.advance(0);
        } else {
            let over = n - unused;
            *self.cur() |= (val >> over) as u8;
            self.advance((val << (8 - over)) as u8);
            self.unused = 8 - over;
        }
    }

    /// The high `n` (at most 8) bits of `val`.
    fn high_bits(&mut self, n: u32, val: u8) {
        let (val, unused) = (u32::from(val), self.unused);
        *self.cur() |= (val >> (8 - unused)) as u8;
        if n < unused {
            self.unused -= n;
        } else if n == unused {
            self.advance(0);
        } else {
            self.advance((val << unused) as u8);
            self.unused = 8 - (n - unused);
        }
    }

    /// Whole octets where the bits stand, without aligning.
    fn octets(&mut self, bytes: &[u8]) {
        for &v in bytes {
            if self.unused == 8 {
                *self.cur() = v;
                self.advance(0);
            } else {
                let unused = self.unused;
                *self.cur() |= v >> (8 - unused);
                self.advance(v << unused);
                self.unused = unused;
            }
        }
    }

    /// Bytes each 0 or 1 as bits.
    fn bit_bytes(&mut self, bytes: &[u8]) -> Option<()> {
        for &b in bytes {
            match b {
                0 => self.bit(false),
                1 => self.bit(true),
                _ => return None,
            }
        }
        Some(())
    }

    /// The packed bytes.
    fn finish(mut self) -> Vec<u8> {
        if self.unused == 8 && self.out.len() > 1 {
            self.out.pop();
        }
        self.out
    }
}

/// Reads the command bytes.
struct Reader<'a> {
    buf: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn byte(&mut self) -> Option<u8> {
        let b = *self.buf.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    /// A length of one or two (big-endian) octets.
    fn len(&mut self, two: bool) -> Option<usize> {
        let hi = usize::from(self.byte()?);
        if two {
            Some(hi << 8 | usize::from(self.byte()?))
        } else {
            Some(hi)
        }
    }

    fn bytes(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.buf.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }
}

/// The packed bytes of `input`; `None` when it is not a well-formed
/// command string.
pub(super) fn complete(input: &[u8]) -> Option<Vec<u8>> {
    if input.is_empty() {
        return Some(Vec::new());
    }
    let mut bits = Bits {
        out: vec![0],
        unused: 8,
    };
    let mut r = Reader { buf: input, at: 0 };
    while let Some(cmd) = r.byte() {
        match cmd {
            0 => bits.bit(false),
            1 => bits.bit(true),
            2 => bits.align(),
            10 => {
                let n = u32::from(r.byte()?);
                let val = r.byte()?;
                if n > 8 {
                    return None;
                }
                bits.low_bits(n, val);
            }
            20 | 21 => {
                let n = r.len(cmd == 21)?;
                let bytes = r.bytes(n)?;
                bits.align();
                bits.octets(bytes);
            }
            30 | 31 => {
                let left_out = u32::from(r.byte()?);
                let n = r.len(cmd == 31)?;
                let bytes = r.bytes(n)?;
                match (left_out, bytes.split_last()) {
                    (0, _) => bits.octets(bytes),
                    (1..=7, Some((&last, whole))) => {
                        bits.octets(whole);
                        bits.high_bits(8 - left_out, last);
                    }
                    _ => return None,
                }
            }
            40..=43 => {
                let want = r.len(cmd == 42 || cmd == 43)?;
                let n = r.len(cmd == 41 || cmd == 43)?;
                let bytes = r.bytes(n)?;
                if want >= n {
                    bits.bit_bytes(bytes)?;
                    bits.zeros(want - n);
                } else {
                    bits.bit_bytes(&bytes[..want])?;
                }
            }
            45..=47 => {
                let want = r.len(cmd != 45)?;
                let n = r.len(cmd == 47)?;
                let bytes = r.bytes(n)?;
                if want >= 8 * n {
                    bits.octets(bytes);
                    bits.zeros(want - 8 * n);
                } else if n == want.div_ceil(8) {
                    let (whole, last) = bytes.split_at(want / 8);
                    bits.octets(whole);
                    bits.high_bits((want % 8) as u32, last[0]);
                } else {
                    return None;
                }
            }
            _ => return None,
        }
    }
    Some(bits.finish())
}

#[cfg(test)]
mod tests {
    use super::complete;

    #[test]
    fn bits_pack_into_octets_padded_with_zeros() {
        assert_eq!(complete(&[]), Some(vec![]));
        assert_eq!(complete(&[1]), Some(vec![0x80]));
        assert_eq!(complete(&[2]), Some(vec![0x00]));
        assert_eq!(complete(&[1, 0, 1, 2, 1]), Some(vec![0xa0, 0x80]));
        assert_eq!(complete(&[10, 3, 5, 10, 6, 0x3f]), Some(vec![0xbf, 0x80]));
        assert_eq!(
            complete(&[1, 20, 2, 0xab, 0xcd]),
            Some(vec![0x80, 0xab, 0xcd])
        );
        assert_eq!(complete(&[1, 30, 4, 1, 0xf0]), Some(vec![0xf8]));
        assert_eq!(complete(&[40, 4, 2, 1, 1]), Some(vec![0xc0]));
        assert_eq!(
            complete(&[1, 45, 12, 2, 0xab, 0xc0]),
            Some(vec![0xd5, 0xe0])
        );
    }

    #[test]
    fn malformed_commands_are_refused() {
        assert_eq!(complete(&[3]), None);
        assert_eq!(complete(&[10, 3]), None);
        assert_eq!(complete(&[10, 9, 0]), None);
        assert_eq!(complete(&[20, 3, 1]), None);
        assert_eq!(complete(&[40, 2, 2, 1, 7]), None);
        assert_eq!(complete(&[45, 4, 2, 0, 0]), None);
    }
}
