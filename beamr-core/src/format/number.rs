//! Integers in decimal, without going through `core::fmt` for the common
//! small case (the `~w` hot path of trace dumps).

use std::fmt::{self, Write};

use crate::term::BigView;

/// Writes an unsigned integer in decimal.
#[inline]
pub(crate) fn write_u64<W: Write + ?Sized>(out: &mut W, mut n: u64) -> fmt::Result {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // Only ASCII digits were written.
    out.write_str(std::str::from_utf8(&buf[i..]).unwrap_or("?"))
}

/// Writes a signed integer in decimal.
#[inline]
pub(crate) fn write_i64<W: Write + ?Sized>(out: &mut W, n: i64) -> fmt::Result {
    if n < 0 {
        out.write_char('-')?;
    }
    write_u64(out, n.unsigned_abs())
}

/// Writes a bignum in decimal.
pub(crate) fn write_big<W: Write + ?Sized>(out: &mut W, big: BigView) -> fmt::Result {
    write!(out, "{}", big.to_bigint())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_in_decimal() {
        let mut s = String::new();
        for n in [0i64, 7, -7, 1234567890, i64::MIN, i64::MAX] {
            s.clear();
            write_i64(&mut s, n).unwrap();
            assert_eq!(s, n.to_string());
        }
    }
}
