//! Checksums of iodata: `erlang:crc32/1,2`, `erlang:adler32/1,2` and
//! `erlang:md5/1` (zlib's CRC-32 and Adler-32, RFC 1321's MD5).

use beamr_core::term::Term;

use super::erlang_binaries::iodata_bytes;
use super::table::BifRow;
use crate::process::{Exception, Process};

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "crc32", 1, crc32_1),
    ("erlang", "crc32", 2, crc32_2),
    ("erlang", "adler32", 1, adler32_1),
    ("erlang", "adler32", 2, adler32_2),
    ("erlang", "md5", 1, md5_1),
];

/// A running checksum given as an argument: an integer in `0..2^32`.
fn checksum_arg(t: Term) -> Result<u32, Exception> {
    t.as_small()
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(Exception::badarg)
}

/// The reflected CRC-32 table (polynomial 0xEDB88320), built at compile time.
const CRC_TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
};

/// zlib's `crc32(crc, bytes)`.
fn crc32(crc: u32, bytes: &[u8]) -> u32 {
    let mut c = !crc;
    for &b in bytes {
        c = CRC_TABLE[((c ^ u32::from(b)) & 0xFF) as usize] ^ (c >> 8);
    }
    !c
}

/// zlib's `adler32(adler, bytes)`.
fn adler32(adler: u32, bytes: &[u8]) -> u32 {
    const MOD: u32 = 65521;
    let (mut a, mut b) = (adler & 0xFFFF, adler >> 16);
    // 5552 bytes keep the sums below 2^32 before reducing (zlib's NMAX).
    for chunk in bytes.chunks(5552) {
        for &byte in chunk {
            a += u32::from(byte);
            b += a;
        }
        a %= MOD;
        b %= MOD;
    }
    (b << 16) | a
}

fn crc32_1(p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = iodata_bytes(a[0])?;
    Ok(p.heap.int(i64::from(crc32(0, &bytes))))
}

fn crc32_2(p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let old = checksum_arg(a[0])?;
    let bytes = iodata_bytes(a[1])?;
    Ok(p.heap.int(i64::from(crc32(old, &bytes))))
}

fn adler32_1(p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = iodata_bytes(a[0])?;
    Ok(p.heap.int(i64::from(adler32(1, &bytes))))
}

fn adler32_2(p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let old = checksum_arg(a[0])?;
    let bytes = iodata_bytes(a[1])?;
    Ok(p.heap.int(i64::from(adler32(old, &bytes))))
}

fn md5_1(p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = iodata_bytes(a[0])?;
    Ok(p.heap.binary(&md5(&bytes)))
}

/// RFC 1321's MD5 digest.
fn md5(message: &[u8]) -> [u8; 16] {
    const S: [u32; 64] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5,
        9, 14, 20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10,
        15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ];
    // K[i] = floor(abs(sin(i + 1)) * 2^32).
    let k: Vec<u32> = (0..64)
        .map(|i| ((i as f64 + 1.0).sin().abs() * 4_294_967_296.0) as u32)
        .collect();
    let mut state: [u32; 4] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476];
    let mut data = message.to_vec();
    let bit_len = (message.len() as u64).wrapping_mul(8);
    data.push(0x80);
    while data.len() % 64 != 56 {
        data.push(0);
    }
    data.extend_from_slice(&bit_len.to_le_bytes());
    for block in data.chunks(64) {
        let m: Vec<u32> = block
            .chunks(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        let [mut a, mut b, mut c, mut d] = state;
        for i in 0..64 {
            let (f, g) = match i / 16 {
                0 => ((b & c) | (!b & d), i),
                1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
                2 => (b ^ c ^ d, (3 * i + 5) % 16),
                _ => (c ^ (b | !d), (7 * i) % 16),
            };
            let rotated = a
                .wrapping_add(f)
                .wrapping_add(k[i])
                .wrapping_add(m[g])
                .rotate_left(S[i]);
            a = d;
            d = c;
            c = b;
            b = b.wrapping_add(rotated);
        }
        for (s, v) in state.iter_mut().zip([a, b, c, d]) {
            *s = s.wrapping_add(v);
        }
    }
    let mut digest = [0u8; 16];
    for (i, s) in state.iter().enumerate() {
        digest[i * 4..i * 4 + 4].copy_from_slice(&s.to_le_bytes());
    }
    digest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        let fox = b"The quick brown fox jumps over the lazy dog";
        assert_eq!(crc32(0, fox), 0x414F_A339);
        assert_eq!(adler32(1, b"Wikipedia"), 0x11E6_0398);
        assert_eq!(
            md5(b""),
            [
                0xd4, 0x1d, 0x8c, 0xd9, 0x8f, 0x00, 0xb2, 0x04, 0xe9, 0x80, 0x09, 0x98, 0xec, 0xf8,
                0x42, 0x7e
            ]
        );
        assert_eq!(md5(fox)[..4], [0x9e, 0x10, 0x7d, 0x9d]);
    }
}
