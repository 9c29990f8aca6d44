//! Checksums of iodata: `erlang:crc32/1,2`, `erlang:adler32/1,2` and
//! `erlang:md5/1` (zlib's CRC-32 and Adler-32, RFC 1321's MD5), computed by
//! the crc32fast, adler2 and md-5 crates.

use beamr_core::term::Term;

use super::binaries::iodata_bytes;
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "crc32", 1, crc32_1),
    ("erlang", "crc32", 2, crc32_2),
    ("erlang", "adler32", 1, adler32_1),
    ("erlang", "adler32", 2, adler32_2),
    ("erlang", "md5", 1, md5_1),
    ("erlang", "crc32_combine", 3, crc32_combine),
    ("erlang", "adler32_combine", 3, adler32_combine),
];

/// A running checksum given as an argument: an integer in `0..2^32`.
fn checksum_arg(t: Term) -> Result<u32, Exception> {
    t.as_small()
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(Exception::badarg)
}

/// zlib's `crc32(crc, bytes)`.
fn crc32(crc: u32, bytes: &[u8]) -> u32 {
    let mut hasher = crc32fast::Hasher::new_with_initial(crc);
    hasher.update(bytes);
    hasher.finalize()
}

/// zlib's `adler32(adler, bytes)`.
fn adler32(adler: u32, bytes: &[u8]) -> u32 {
    let mut hasher = adler2::Adler32::from_checksum(adler);
    hasher.write_slice(bytes);
    hasher.checksum()
}

fn crc32_1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = iodata_bytes(a[0])?;
    Ok(p.heap.int(i64::from(crc32(0, &bytes))))
}

fn crc32_2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let old = checksum_arg(a[0])?;
    let bytes = iodata_bytes(a[1])?;
    Ok(p.heap.int(i64::from(crc32(old, &bytes))))
}

fn adler32_1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = iodata_bytes(a[0])?;
    Ok(p.heap.int(i64::from(adler32(1, &bytes))))
}

fn adler32_2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let old = checksum_arg(a[0])?;
    let bytes = iodata_bytes(a[1])?;
    Ok(p.heap.int(i64::from(adler32(old, &bytes))))
}

/// A length argument of the `_combine` functions: a non-negative integer
/// below 2^64 (badarg otherwise).
fn length_arg(t: Term) -> Result<u64, Exception> {
    t.as_integer()
        .and_then(|i| u64::try_from(i.to_bigint()).ok())
        .ok_or_else(Exception::badarg)
}

/// `crc32_combine(CRC1, CRC2, Size2)`: the CRC-32 of two pieces from
/// theirs, by crc32fast's combination.
fn crc32_combine(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (first, second, len) = (checksum_arg(a[0])?, checksum_arg(a[1])?, length_arg(a[2])?);
    let mut hasher = crc32fast::Hasher::new_with_initial(first);
    hasher.combine(&crc32fast::Hasher::new_with_initial_len(second, len));
    Ok(p.heap.int(i64::from(hasher.finalize())))
}

/// `adler32_combine(Adler1, Adler2, Size2)`: zlib's `adler32_combine`.
/// Adler-32 is two sums modulo 65521: the first piece's sums carry over
/// into the second's, the second sum once per byte of the second piece.
fn adler32_combine(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    const BASE: u64 = 65_521;
    let (first, second, len) = (checksum_arg(a[0])?, checksum_arg(a[1])?, length_arg(a[2])?);
    let rem = len % BASE;
    let (a1, b1) = (u64::from(first & 0xffff), u64::from(first >> 16));
    let (a2, b2) = (u64::from(second & 0xffff), u64::from(second >> 16));
    // a = a1 + a2 - 1; b = b1 + b2 + rem * a1 - rem, all modulo BASE.
    let sum_a = (a1 + a2 + BASE - 1) % BASE;
    let sum_b = (b1 + b2 + rem * a1 % BASE + BASE - rem) % BASE;
    Ok(p.heap.int(((sum_b << 16) | sum_a) as i64))
}

fn md5_1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = iodata_bytes(a[0])?;
    Ok(p.heap.binary(&md5(&bytes)))
}

/// RFC 1321's MD5 digest.
pub(crate) fn md5(message: &[u8]) -> [u8; 16] {
    use md5::Digest;
    md5::Md5::digest(message).into()
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
