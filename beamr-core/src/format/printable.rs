//! Which lists and binaries `~p` shows as strings (OTP 25's
//! `io_lib:printable_latin1_list/1`, `io_lib:printable_unicode_list/1` and
//! `io_lib_pretty:printable_bin/4`).
//!
//! A list is a string when every element is a printable character: under
//! the latin1 range printable ASCII, 160..=255 and `\n \r \t \v \b \f \e`;
//! under the unicode range any character except surrogates, `U+FFFE` and
//! `U+FFFF`, below 160 only those same ones. An empty list is `[]`.
//!
//! A binary (whole bytes) is a string when its bytes are printable latin1,
//! or, under `~tp`, when it is valid UTF-8 of printable characters; the
//! latter is written `<<"é"/utf8>>` unless every character is one byte.
//! Under a depth limit only the first `4 * depth` bytes are looked at, and
//! a printable start of at least `depth` characters is shown as a prefix:
//! `<<"abc"...>>`.

use super::{Encoding, PrintableRange};
use crate::term::Term;

/// The control characters every range accepts.
#[inline]
fn is_control_escape(c: u32) -> bool {
    // \b \t \n \v \f \r and \e
    matches!(c, 8..=13 | 27)
}

/// True for a character of the latin1 printable range.
#[inline]
pub(crate) fn latin1_printable(c: u32) -> bool {
    matches!(c, 32..=126 | 160..=255) || is_control_escape(c)
}

/// True for a character of the unicode printable range.
#[inline]
pub(crate) fn unicode_printable(c: u32) -> bool {
    matches!(c, 32..=126 | 160..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF)
        || is_control_escape(c)
}

/// True for a character printable in `range`.
#[inline]
pub(crate) fn printable_in(c: u32, range: PrintableRange) -> bool {
    match range {
        PrintableRange::Latin1 => latin1_printable(c),
        PrintableRange::Unicode => unicode_printable(c),
    }
}

/// The characters of `list` if `~p` shows it as a string under `enc` and
/// `range`; `None` otherwise (including for an improper list).
pub(crate) fn printable_list(
    list: Term,
    enc: Encoding,
    range: PrintableRange,
) -> Option<Vec<char>> {
    let range = match enc {
        Encoding::Latin1 => PrintableRange::Latin1,
        Encoding::Unicode => range,
    };
    let mut chars = Vec::new();
    let mut iter = list.iter_list();
    for e in iter.by_ref() {
        let c = e.as_small()?;
        let c = u32::try_from(c).ok().filter(|&c| printable_in(c, range))?;
        chars.push(char::from_u32(c)?);
    }
    iter.tail().is_nil().then_some(chars)
}

/// How `~p` shows a binary as a string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BinString {
    /// The characters shown.
    pub chars: Vec<char>,
    /// Written with `/utf8` (some character took more than one byte).
    pub utf8: bool,
    /// Only a prefix is shown, followed by `...`.
    pub prefix: bool,
}

/// OTP's `printable_bin0/4` without a characters limit: whether and how the
/// byte-aligned binary `bytes` shows as a string at depth `d` (the depth of
/// the binary less one; negative: unlimited).
pub(crate) fn printable_bin(
    bytes: &[u8],
    d: i64,
    enc: Encoding,
    range: PrintableRange,
) -> Option<BinString> {
    let len = if d >= 0 {
        usize::try_from(d.saturating_mul(4))
            .unwrap_or(usize::MAX)
            .min(bytes.len())
    } else {
        bytes.len()
    };
    if len == 0 {
        return None;
    }
    if enc == Encoding::Unicode && valid_utf8_prefix(bytes, len) {
        return printable_utf8(bytes, len, d, range);
    }
    printable_latin1_bin(bytes, len, d)
}

/// The latin1 case: bytes as characters.
fn printable_latin1_bin(bytes: &[u8], len: usize, d: i64) -> Option<BinString> {
    let window = &bytes[..len];
    let idx = window
        .iter()
        .position(|&b| !latin1_printable(u32::from(b)))
        .unwrap_or(len);
    let shown = if idx == len {
        len
    } else if d > 0 && idx as i64 >= d {
        idx
    } else {
        return None;
    };
    Some(BinString {
        chars: bytes[..shown].iter().map(|&b| char::from(b)).collect(),
        utf8: false,
        prefix: shown < bytes.len(),
    })
}

/// The UTF-8 case of `~tp`.
fn printable_utf8(bytes: &[u8], len: usize, d: i64, range: PrintableRange) -> Option<BinString> {
    let mut chars = Vec::new();
    let mut consumed = 0;
    let mut remaining = len;
    while remaining > 0 {
        let Some((c, n)) = decode_utf8(&bytes[consumed..]) else {
            break;
        };
        if !printable_in(c as u32, range) {
            break;
        }
        chars.push(c);
        consumed += n;
        remaining -= 1;
    }
    let whole = consumed == bytes.len();
    let long_enough = d > 0 && (len - remaining) as i64 >= d;
    if !whole && !long_enough {
        return None;
    }
    Some(BinString {
        utf8: consumed != chars.len(),
        chars,
        prefix: !whole,
    })
}

/// True when the first `n` characters of `bytes` (or all of it, if it has
/// fewer) are valid UTF-8, as OTP's `valid_utf8/2`.
fn valid_utf8_prefix(bytes: &[u8], n: usize) -> bool {
    let mut rest = bytes;
    for _ in 0..n {
        if rest.is_empty() {
            return true;
        }
        match decode_utf8(rest) {
            Some((_, len)) => rest = &rest[len..],
            None => return false,
        }
    }
    true
}

/// Decodes the first UTF-8 character of `bytes` (Erlang's `/utf8`: no
/// overlong forms, no surrogates, at most U+10FFFF).
fn decode_utf8(bytes: &[u8]) -> Option<(char, usize)> {
    let first = *bytes.first()?;
    let len = match first {
        0x00..=0x7F => return Some((char::from(first), 1)),
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return None,
    };
    let s = std::str::from_utf8(bytes.get(..len)?).ok()?;
    s.chars().next().map(|c| (c, len))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_escapes_are_printable() {
        for c in [8u32, 9, 10, 11, 12, 13, 27] {
            assert!(latin1_printable(c) && unicode_printable(c), "{c}");
        }
        for c in [0u32, 7, 14, 26, 28, 127, 159] {
            assert!(!latin1_printable(c) && !unicode_printable(c), "{c}");
        }
        assert!(!latin1_printable(256) && unicode_printable(256));
        assert!(!unicode_printable(0xD800) && !unicode_printable(0xFFFE));
    }

    #[test]
    fn binaries_as_strings() {
        let s = printable_bin(b"abc", -1, Encoding::Latin1, PrintableRange::Latin1).unwrap();
        assert_eq!(s.chars, vec!['a', 'b', 'c']);
        assert!(!s.utf8 && !s.prefix);
        assert!(printable_bin(&[1, 2], -1, Encoding::Latin1, PrintableRange::Latin1).is_none());
        let e = printable_bin(
            "é".as_bytes(),
            -1,
            Encoding::Unicode,
            PrintableRange::Latin1,
        );
        assert_eq!(e.map(|s| (s.chars, s.utf8)), Some((vec!['é'], true)));
        let p = printable_bin(
            b"abcdefghij\x01",
            2,
            Encoding::Latin1,
            PrintableRange::Latin1,
        );
        assert_eq!(p.map(|s| (s.chars.len(), s.prefix)), Some((8, true)));
    }
}
