//! Bit-level reading and writing of byte buffers, as the bit syntax needs:
//! integers of any size and endianness, floats of 16, 32 and 64 bits,
//! bit-range copies, and UTF-8/16/32 characters.
//!
//! Bits are numbered from the most significant bit of the first byte, as
//! in Erlang's bitstrings: bit offset 0 is `data[0] & 0x80`. Writers OR
//! their bits into a buffer whose target bits are zero.

use num_bigint::{BigInt, Sign};

/// Reads `n <= 64` bits from bit offset `off` of `data` as an unsigned
/// big-endian number. The range must lie within `data`.
#[inline]
pub fn read_u64(data: &[u8], off: usize, n: usize) -> u64 {
    if n == 0 {
        return 0;
    }
    let first = off / 8;
    let last = (off + n - 1) / 8;
    if off % 8 == 0 && n % 8 == 0 {
        let mut v = 0u64;
        for &b in &data[first..=last] {
            v = (v << 8) | b as u64;
        }
        return v;
    }
    let mut acc: u128 = 0;
    for &b in &data[first..=last] {
        acc = (acc << 8) | b as u128;
    }
    let total = (last - first + 1) * 8;
    let v = acc >> (total - off % 8 - n);
    (v & ((1u128 << n) - 1)) as u64
}

/// ORs the low `n <= 64` bits of `v` into `dst` at bit offset `off`,
/// most significant bit first.
#[inline]
pub fn write_u64(dst: &mut [u8], off: usize, v: u64, n: usize) {
    if n == 0 {
        return;
    }
    let v = if n < 64 { v & ((1u64 << n) - 1) } else { v };
    let first = off / 8;
    let last = (off + n - 1) / 8;
    if off % 8 == 0 && n % 8 == 0 {
        let bytes = v.to_be_bytes();
        dst[first..=last].copy_from_slice(&bytes[8 - n / 8..]);
        return;
    }
    let total = (last - first + 1) * 8;
    let acc = (v as u128) << (total - off % 8 - n);
    for (k, byte) in dst[first..=last].iter_mut().enumerate() {
        *byte |= (acc >> ((last - first - k) * 8)) as u8;
    }
}

/// Copies `n` bits from bit offset `src_off` of `src` to bit offset
/// `dst_off` of `dst` (whose target bits are zero).
pub fn copy_bits(dst: &mut [u8], dst_off: usize, src: &[u8], src_off: usize, n: usize) {
    if n == 0 {
        return;
    }
    if dst_off % 8 == 0 && src_off % 8 == 0 {
        let (d, s, whole) = (dst_off / 8, src_off / 8, n / 8);
        dst[d..d + whole].copy_from_slice(&src[s..s + whole]);
        let rest = n % 8;
        if rest > 0 {
            dst[d + whole] |= src[s + whole] & !(0xFFu8 >> rest);
        }
        return;
    }
    let (mut d, mut s, mut left) = (dst_off, src_off, n);
    while left >= 56 {
        write_u64(dst, d, read_u64(src, s, 56), 56);
        d += 56;
        s += 56;
        left -= 56;
    }
    write_u64(dst, d, read_u64(src, s, left), left);
}

/// Compares `n` bits at `a_off` of `a` with `n` bits at `b_off` of `b`.
pub fn bits_equal(a: &[u8], a_off: usize, b: &[u8], b_off: usize, n: usize) -> bool {
    let (mut x, mut y, mut left) = (a_off, b_off, n);
    if x % 8 == 0 && y % 8 == 0 {
        let whole = n / 8;
        if a[x / 8..x / 8 + whole] != b[y / 8..y / 8 + whole] {
            return false;
        }
        x += whole * 8;
        y += whole * 8;
        left -= whole * 8;
    }
    while left > 0 {
        let k = left.min(56);
        if read_u64(a, x, k) != read_u64(b, y, k) {
            return false;
        }
        x += k;
        y += k;
        left -= k;
    }
    true
}

/// The little-endian two's-complement bytes of `v`, sign-extended or
/// truncated to `len` bytes.
fn le_bytes_i64(v: i64, len: usize) -> Vec<u8> {
    let fill = if v < 0 { 0xFF } else { 0 };
    let mut out = vec![fill; len];
    let b = v.to_le_bytes();
    let k = len.min(8);
    out[..k].copy_from_slice(&b[..k]);
    out
}

fn le_bytes_big(v: &BigInt, len: usize) -> Vec<u8> {
    let mut b = v.to_signed_bytes_le();
    let fill = if v.sign() == Sign::Minus { 0xFF } else { 0 };
    b.resize(len, fill);
    b
}

/// Writes an `n`-bit integer given by its little-endian two's-complement
/// bytes (at least `ceil(n / 8)` of them).
fn write_le_bytes(dst: &mut [u8], off: usize, le: &[u8], n: usize, little: bool) {
    let whole = n / 8;
    let rest = n % 8;
    if little {
        for (i, &b) in le[..whole].iter().enumerate() {
            write_u64(dst, off + 8 * i, b as u64, 8);
        }
        if rest > 0 {
            write_u64(dst, off + 8 * whole, le[whole] as u64, rest);
        }
    } else {
        let mut at = off;
        if rest > 0 {
            write_u64(dst, at, le[whole] as u64, rest);
            at += rest;
        }
        for i in (0..whole).rev() {
            write_u64(dst, at, le[i] as u64, 8);
            at += 8;
        }
    }
}

/// Writes the small integer `v` as an `n`-bit integer (modulo 2^n).
#[inline]
pub fn write_int_small(dst: &mut [u8], off: usize, v: i64, n: usize, little: bool) {
    if n <= 64 {
        if !little || n <= 8 {
            write_u64(dst, off, v as u64, n);
            return;
        }
        if n % 8 == 0 {
            write_u64(dst, off, (v as u64).swap_bytes() >> (64 - n), n);
            return;
        }
    }
    write_le_bytes(dst, off, &le_bytes_i64(v, n.div_ceil(8)), n, little);
}

/// Writes the integer `v` as an `n`-bit integer (modulo 2^n).
pub fn write_int_big(dst: &mut [u8], off: usize, v: &BigInt, n: usize, little: bool) {
    write_le_bytes(dst, off, &le_bytes_big(v, n.div_ceil(8)), n, little);
}

/// An integer read from a bitstring.
pub enum IntValue {
    /// Fits in an `i64`.
    Small(i64),
    /// Larger.
    Big(BigInt),
}

/// Reads `n <= 64` bits, a whole number of bytes, from the byte boundary
/// `off` of `data`, as an unsigned number (big- or little-endian): one
/// unaligned 8-byte load where 8 bytes are there, else byte by byte. The
/// range must lie within `data`.
#[inline(always)]
pub fn read_bytes_u64(data: &[u8], off: usize, n: usize, little: bool) -> u64 {
    debug_assert!(off % 8 == 0 && n % 8 == 0 && n <= 64);
    if n == 0 {
        return 0;
    }
    let at = off / 8;
    let k = n / 8;
    if let Some(word) = data.get(at..at + 8) {
        let word: [u8; 8] = word.try_into().expect("8 bytes");
        return if little {
            u64::from_le_bytes(word) & (u64::MAX >> (64 - n))
        } else {
            u64::from_be_bytes(word) >> (64 - n)
        };
    }
    let bytes = &data[at..at + k];
    if little {
        bytes.iter().rev().fold(0, |v, &b| (v << 8) | b as u64)
    } else {
        bytes.iter().fold(0, |v, &b| (v << 8) | b as u64)
    }
}

/// Reads an `n <= 64`-bit integer at `off` as its `n` low bits (the
/// others zero), in the byte order `little` says: whole bytes at a byte
/// boundary directly ([`read_bytes_u64`]), anything else bit by bit. The
/// range must lie within `data`.
#[inline(always)]
pub fn read_raw(data: &[u8], off: usize, n: usize, little: bool) -> u64 {
    if (off | n) % 8 == 0 {
        read_bytes_u64(data, off, n, little)
    } else {
        read_raw_bits(data, off, n, little)
    }
}

/// [`read_raw`] for a size or position that is not whole bytes.
#[inline(never)]
fn read_raw_bits(data: &[u8], off: usize, n: usize, little: bool) -> u64 {
    if !little || n <= 8 {
        read_u64(data, off, n)
    } else if n % 8 == 0 {
        read_u64(data, off, n).swap_bytes() >> (64 - n)
    } else {
        let mut v = 0u64;
        for i in 0..n / 8 {
            v |= read_u64(data, off + 8 * i, 8) << (8 * i);
        }
        v | read_u64(data, off + 8 * (n / 8), n % 8) << (8 * (n / 8))
    }
}

/// The value of the `n <= 64` low bits `raw` (the others zero), two's
/// complement when `signed`: an `i64`, or `Err` with `raw` for an unsigned
/// value above `i64::MAX`.
#[inline(always)]
pub fn int_of_raw(raw: u64, n: usize, signed: bool) -> Result<i64, u64> {
    if signed && n > 0 {
        let shift = 64 - n;
        return Ok(((raw << shift) as i64) >> shift);
    }
    i64::try_from(raw).map_err(|_| raw)
}

/// Reads an `n`-bit integer at `off`.
#[inline]
pub fn read_int(data: &[u8], off: usize, n: usize, little: bool, signed: bool) -> IntValue {
    if n <= 64 {
        return match int_of_raw(read_raw(data, off, n, little), n, signed) {
            Ok(v) => IntValue::Small(v),
            Err(raw) => IntValue::Big(BigInt::from(raw)),
        };
    }
    read_int_big(data, off, n, little, signed)
}

/// [`read_int`] for more than 64 bits.
#[inline(never)]
fn read_int_big(data: &[u8], off: usize, n: usize, little: bool, signed: bool) -> IntValue {
    let len = n.div_ceil(8);
    let mut le = vec![0u8; len];
    if little {
        for (i, b) in le.iter_mut().enumerate().take(n / 8) {
            *b = read_u64(data, off + 8 * i, 8) as u8;
        }
        if n % 8 > 0 {
            le[n / 8] = read_u64(data, off + 8 * (n / 8), n % 8) as u8;
        }
    } else {
        let mut be = vec![0u8; len];
        copy_bits(&mut be, len * 8 - n, data, off, n);
        be.reverse();
        le = be;
    }
    let mut v = BigInt::from_bytes_le(Sign::Plus, &le);
    if signed && v.bit(n as u64 - 1) {
        v -= BigInt::from(1) << n;
    }
    IntValue::Big(v)
}

/// Converts a finite double to IEEE half precision bits (round to nearest
/// even; too large a magnitude becomes infinity, as the BEAM's conversion).
fn f64_to_f16(f: f64) -> u16 {
    let x = f.to_bits();
    let sign = ((x >> 48) & 0x8000) as u16;
    let a = f.abs();
    if a == 0.0 {
        return sign;
    }
    if a >= 65520.0 {
        return sign | 0x7C00;
    }
    let exp = ((x >> 52) & 0x7FF) as i32 - 1023;
    if exp < -14 {
        // Subnormal: units of 2^-24.
        let m = (a * (1u64 << 24) as f64).round_ties_even() as u16;
        return sign | m;
    }
    let mant = x & ((1u64 << 52) - 1);
    // Keep 10 bits, round to nearest even on the 42 dropped ones.
    let mut m = mant >> 42;
    let dropped = mant & ((1u64 << 42) - 1);
    let half = 1u64 << 41;
    let mut e = (exp + 15) as u64;
    if dropped > half || (dropped == half && m & 1 == 1) {
        m += 1;
        if m == 1 << 10 {
            m = 0;
            e += 1;
        }
    }
    if e >= 31 {
        return sign | 0x7C00;
    }
    sign | ((e as u16) << 10) | m as u16
}

fn f16_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = ((h >> 10) & 0x1F) as i32;
    let m = (h & 0x3FF) as f64;
    match e {
        0 => sign * m * 2f64.powi(-24),
        31 => {
            if m == 0.0 {
                sign * f64::INFINITY
            } else {
                f64::NAN
            }
        }
        _ => sign * (1.0 + m / 1024.0) * 2f64.powi(e - 15),
    }
}

/// The bits of the finite `f` as an `n`-bit float (16, 32 or 64; a value
/// too large for 16 or 32 bits becomes infinity, as in the BEAM); `None`
/// when `n` is another size.
pub fn float_bits(f: f64, n: usize) -> Option<u64> {
    match n {
        64 => Some(f.to_bits()),
        32 => Some((f as f32).to_bits() as u64),
        16 => Some(f64_to_f16(f) as u64),
        _ => None,
    }
}

/// Reads an `n`-bit float; `None` for another size or a NaN or infinity.
pub fn read_float(data: &[u8], off: usize, n: usize, little: bool) -> Option<f64> {
    if !matches!(n, 16 | 32 | 64) {
        return None;
    }
    let mut raw = read_u64(data, off, n);
    if little {
        raw = raw.swap_bytes() >> (64 - n);
    }
    let f = match n {
        64 => f64::from_bits(raw),
        32 => f32::from_bits(raw as u32) as f64,
        _ => f16_to_f64(raw as u16),
    };
    f.is_finite().then_some(f)
}

/// True for a Unicode scalar value (a code point that is not a surrogate).
#[inline]
pub fn is_scalar(c: i64) -> bool {
    (0..=0x10FFFF).contains(&c) && !(0xD800..=0xDFFF).contains(&c)
}

/// Bits a character takes in UTF-8.
#[inline]
pub fn utf8_bits(c: u32) -> usize {
    match c {
        0..=0x7F => 8,
        0x80..=0x7FF => 16,
        0x800..=0xFFFF => 24,
        _ => 32,
    }
}

/// Writes `c` (a scalar value) in UTF-8.
pub fn write_utf8(dst: &mut [u8], off: usize, c: u32) {
    let mut buf = [0u8; 4];
    let s = char::from_u32(c).map_or(&[][..], |ch| ch.encode_utf8(&mut buf).as_bytes());
    for (i, &b) in s.iter().enumerate() {
        write_u64(dst, off + 8 * i, b as u64, 8);
    }
}

/// Writes `c` (a scalar value) in UTF-16; returns the bits written.
pub fn write_utf16(dst: &mut [u8], off: usize, c: u32, little: bool) -> usize {
    let mut units = [0u16; 2];
    let n = char::from_u32(c).map_or(0, |ch| ch.encode_utf16(&mut units).len());
    for (i, &u) in units[..n].iter().enumerate() {
        let v = if little { u.swap_bytes() } else { u };
        write_u64(dst, off + 16 * i, v as u64, 16);
    }
    16 * n
}

/// Reads a UTF-8 character from `off`, with at most `avail` bits
/// available: the character and its size in bits, or `None` when the bits
/// there are not a valid, shortest encoding of a scalar value.
pub fn read_utf8(data: &[u8], off: usize, avail: usize) -> Option<(u32, usize)> {
    if avail < 8 {
        return None;
    }
    let b0 = read_u64(data, off, 8) as u32;
    let (len, init, min) = match b0 {
        0x00..=0x7F => return Some((b0, 8)),
        0xC2..=0xDF => (2, b0 & 0x1F, 0x80),
        0xE0..=0xEF => (3, b0 & 0x0F, 0x800),
        0xF0..=0xF4 => (4, b0 & 0x07, 0x10000),
        _ => return None,
    };
    if avail < 8 * len {
        return None;
    }
    let mut c = init;
    for i in 1..len {
        let b = read_u64(data, off + 8 * i, 8) as u32;
        if b & 0xC0 != 0x80 {
            return None;
        }
        c = (c << 6) | (b & 0x3F);
    }
    (c >= min && is_scalar(c as i64)).then_some((c, 8 * len))
}

/// Reads a UTF-16 character (one unit or a surrogate pair).
pub fn read_utf16(data: &[u8], off: usize, avail: usize, little: bool) -> Option<(u32, usize)> {
    let unit = |at: usize| {
        let u = read_u64(data, at, 16) as u16;
        if little {
            u.swap_bytes()
        } else {
            u
        }
    };
    if avail < 16 {
        return None;
    }
    let w1 = unit(off) as u32;
    if !(0xD800..=0xDFFF).contains(&w1) {
        return Some((w1, 16));
    }
    if w1 > 0xDBFF || avail < 32 {
        return None;
    }
    let w2 = unit(off + 16) as u32;
    if !(0xDC00..=0xDFFF).contains(&w2) {
        return None;
    }
    Some(((((w1 & 0x3FF) << 10) | (w2 & 0x3FF)) + 0x10000, 32))
}

/// Reads a UTF-32 character.
pub fn read_utf32(data: &[u8], off: usize, avail: usize, little: bool) -> Option<(u32, usize)> {
    if avail < 32 {
        return None;
    }
    let mut v = read_u64(data, off, 32) as u32;
    if little {
        v = v.swap_bytes();
    }
    is_scalar(v as i64).then_some((v, 32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unaligned_round_trips() {
        for off in 0..16 {
            for n in [1, 3, 7, 8, 13, 32, 56, 64] {
                let mut buf = [0u8; 12];
                let v = 0xDEAD_BEEF_CAFE_F00Du64 & if n == 64 { !0 } else { (1 << n) - 1 };
                write_u64(&mut buf, off, v, n);
                assert_eq!(read_u64(&buf, off, n), v, "off {off} n {n}");
            }
        }
    }

    #[test]
    fn little_endian_odd_sizes_follow_erlang() {
        // <<16#123:12/little>> =:= <<16#23, 1:4>>
        let mut buf = [0u8; 2];
        write_int_small(&mut buf, 0, 0x123, 12, true);
        assert_eq!(buf, [0x23, 0x10]);
        match read_int(&buf, 0, 12, true, false) {
            IntValue::Small(v) => assert_eq!(v, 0x123),
            IntValue::Big(_) => panic!("small expected"),
        }
    }

    #[test]
    fn big_integers_and_sign() {
        let v: BigInt = BigInt::from(-1) << 100;
        let mut buf = [0u8; 16];
        write_int_big(&mut buf, 3, &v, 120, false);
        match read_int(&buf, 3, 120, false, true) {
            IntValue::Big(r) => assert_eq!(r, v),
            IntValue::Small(_) => panic!("big expected"),
        }
        let mut buf = [0u8; 16];
        write_int_big(&mut buf, 0, &v, 120, true);
        match read_int(&buf, 0, 120, true, true) {
            IntValue::Big(r) => assert_eq!(r, v),
            IntValue::Small(_) => panic!("big expected"),
        }
    }

    #[test]
    fn half_floats() {
        for f in [
            0.0,
            1.0,
            -2.5,
            65504.0,
            6.103515625e-5,
            5.960464477539063e-8,
        ] {
            let bits = float_bits(f, 16).unwrap();
            let mut buf = [0u8; 2];
            write_u64(&mut buf, 0, bits, 16);
            assert_eq!(read_float(&buf, 0, 16, false), Some(f));
        }
        assert_eq!(float_bits(70000.0, 16), Some(0x7C00));
        assert_eq!(float_bits(-1.0e300, 32), Some(0xFF80_0000));
    }

    #[test]
    fn utf8_rejects_overlong_and_surrogates() {
        assert_eq!(read_utf8(&[0xC0, 0x80], 0, 16), None);
        assert_eq!(read_utf8(&[0xED, 0xA0, 0x80], 0, 24), None);
        assert_eq!(read_utf8(&[0xE2, 0x82, 0xAC], 0, 24), Some((0x20AC, 24)));
        assert_eq!(read_utf8(&[0xE2, 0x82], 0, 16), None);
    }
}
