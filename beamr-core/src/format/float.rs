//! Floats as Erlang/OTP 25 writes them with `~w` and `~p`:
//! `float_to_list(F, [short])`, the shortest text that reads back as the
//! same float.
//!
//! # The rule
//!
//! OTP computes the shortest round-trip digits with Ryu, giving a decimal
//! significand `digits` (no trailing zeros) and an exponent `exp` such that
//! the value is `digits * 10^exp`. With `n` the number of digits and
//! `sci = exp + n - 1` the exponent of scientific notation, fixed notation is
//! used when `lower <= exp <= upper`, scientific notation otherwise:
//!
//! | case          | lower      | upper |
//! |---------------|------------|-------|
//! | `n == 1`      | `-4`       | `2`   |
//! | `sci >= 10`   | `-(n + 2)` | `2`   |
//! | otherwise     | `-(n + 2)` | `1`   |
//!
//! except that integers of 2^53 and above always use scientific notation
//! (`digits >= 2^53` with `exp == 0`, `digits > 2^52 / 5` with `exp == 1`,
//! `digits > 2^51 / 25` with `exp == 2`). Fixed notation always shows a
//! fractional part (`100.0`); scientific notation always shows one digit
//! before the point and at least one after it, and an exponent without `+`
//! or leading zeros (`1.0e10`, `1.0e-10`). Zero is `0.0` or `-0.0`.
//!
//! The shortest digits come from the `ryu` crate, the same algorithm OTP
//! uses, so that ties between equally short digit strings are broken the
//! same way (Rust's own `{:e}` sometimes picks the other one).

use std::fmt::{self, Write};

/// Writes `value` as `io_lib:write/1` (`~w`) writes a float.
///
/// Erlang has no infinities or NaNs; should one reach this function it is
/// written as `inf`, `-inf` or `nan`.
pub fn write_float<W: Write + ?Sized>(out: &mut W, value: f64) -> fmt::Result {
    let mut buf = FloatBuf::new();
    let text = format_float(value, &mut buf);
    out.write_str(text)
}

/// The longest text [`format_float`] produces: a sign, 17 digits, a point,
/// `e-` and a three-digit exponent, or a fixed notation of at most 24 bytes.
const MAX_LEN: usize = 32;

/// A stack buffer for one formatted float.
pub(crate) struct FloatBuf {
    bytes: [u8; MAX_LEN],
    len: usize,
}

impl FloatBuf {
    pub(crate) fn new() -> FloatBuf {
        FloatBuf {
            bytes: [0; MAX_LEN],
            len: 0,
        }
    }

    fn push(&mut self, b: u8) {
        // The rule above bounds every output well below MAX_LEN.
        if self.len < MAX_LEN {
            self.bytes[self.len] = b;
            self.len += 1;
        }
    }

    fn push_str(&mut self, s: &str) {
        for b in s.bytes() {
            self.push(b);
        }
    }

    fn as_str(&self) -> &str {
        // Only ASCII bytes are ever pushed.
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or("")
    }
}

/// Formats `value` into `buf` and returns the text.
pub(crate) fn format_float(value: f64, buf: &mut FloatBuf) -> &str {
    buf.len = 0;
    if value.is_nan() {
        buf.push_str("nan");
        return buf.as_str();
    }
    if value.is_sign_negative() {
        buf.push(b'-');
    }
    let abs = value.abs();
    if abs.is_infinite() {
        buf.push_str("inf");
        return buf.as_str();
    }
    if abs == 0.0 {
        buf.push_str("0.0");
        return buf.as_str();
    }
    let (digits, exp) = shortest(abs);
    write_decimal(buf, digits, exp);
    buf.as_str()
}

/// The shortest round-trip decimal of a positive finite `value`:
/// `(digits, exp)` with `value ~ digits * 10^exp` and no trailing zero in
/// `digits`.
fn shortest(value: f64) -> (u64, i32) {
    let mut ryu = ryu::Buffer::new();
    // Forms: "123.0", "0.001234", "1.2345e-7", "1e16".
    let text = ryu.format_finite(value);
    let mut digits: u64 = 0;
    let mut frac_digits: i32 = 0;
    let mut seen_point = false;
    let mut exp: i32 = 0;
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'0'..=b'9' => {
                digits = digits * 10 + u64::from(b - b'0');
                if seen_point {
                    frac_digits += 1;
                }
            }
            b'.' => seen_point = true,
            b'e' | b'E' => {
                exp = text[i + 1..].parse().unwrap_or(0);
                break;
            }
            _ => {}
        }
    }
    let mut exp = exp - frac_digits;
    while digits != 0 && digits % 10 == 0 {
        digits /= 10;
        exp += 1;
    }
    (digits, exp)
}

/// Number of decimal digits of `n` (at least 1).
fn decimal_len(mut n: u64) -> i32 {
    let mut len = 1;
    while n >= 10 {
        n /= 10;
        len += 1;
    }
    len
}

/// Appends `digits * 10^exp` in OTP's choice of fixed or scientific notation.
fn write_decimal(buf: &mut FloatBuf, digits: u64, exp: i32) {
    let olength = decimal_len(digits);
    let sci_exp = exp + olength - 1;
    let (lower, upper) = if olength == 1 {
        (-4, 2)
    } else if sci_exp >= 10 {
        (-(olength + 2), 2)
    } else {
        (-(olength + 2), 1)
    };
    let fixed = lower <= exp
        && exp <= upper
        && !((digits >= 1 << 53 && exp == 0)
            || (digits > (1 << 52) / 5 && exp == 1)
            || (digits > (1 << 51) / 25 && exp == 2));

    let mut text = [0u8; 20];
    let mut n = digits;
    for slot in text[..olength as usize].iter_mut().rev() {
        *slot = b'0' + (n % 10) as u8;
        n /= 10;
    }
    let text = &text[..olength as usize];

    if fixed {
        let whole = olength + exp;
        if exp >= 0 {
            text.iter().for_each(|&b| buf.push(b));
            (0..exp).for_each(|_| buf.push(b'0'));
            buf.push_str(".0");
        } else if whole > 0 {
            text[..whole as usize].iter().for_each(|&b| buf.push(b));
            buf.push(b'.');
            text[whole as usize..].iter().for_each(|&b| buf.push(b));
        } else {
            buf.push_str("0.");
            (0..-whole).for_each(|_| buf.push(b'0'));
            text.iter().for_each(|&b| buf.push(b));
        }
    } else {
        buf.push(text[0]);
        buf.push(b'.');
        if olength == 1 {
            buf.push(b'0');
        } else {
            text[1..].iter().for_each(|&b| buf.push(b));
        }
        buf.push(b'e');
        if sci_exp < 0 {
            buf.push(b'-');
        }
        let mut e = [0u8; 4];
        let mut k = sci_exp.unsigned_abs();
        let mut len = 0;
        loop {
            e[len] = b'0' + (k % 10) as u8;
            k /= 10;
            len += 1;
            if k == 0 {
                break;
            }
        }
        e[..len].iter().rev().for_each(|&b| buf.push(b));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(v: f64) -> String {
        let mut s = String::new();
        write_float(&mut s, v).unwrap();
        s
    }

    #[test]
    fn known_values_match_otp() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1.0, "1.0"),
            (0.1, "0.1"),
            (1.0e10, "1.0e10"),
            (1.0e-10, "1.0e-10"),
            (1.2345678901234567e20, "1.2345678901234567e20"),
            (0.1 + 0.2, "0.30000000000000004"),
            (5.0e-324, "5.0e-324"),
            (f64::MAX, "1.7976931348623157e308"),
            (123456789.0, "123456789.0"),
            (9007199254740992.0, "9.007199254740992e15"),
            (9007199254740991.0, "9007199254740991.0"),
            (100.0, "100.0"),
            (1000.0, "1.0e3"),
            (0.0001, "0.0001"),
            (0.00001, "1.0e-5"),
            (0.000123, "1.23e-4"),
            (1.2e6, "1.2e6"),
            (123456.7, "123456.7"),
            (-2.5, "-2.5"),
        ];
        for &(v, want) in cases {
            assert_eq!(fmt(v), want, "{v:e}");
        }
    }
}
