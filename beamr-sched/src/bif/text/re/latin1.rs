//! PCRE 8's Latin-1 character tables, which OTP 25 and 27 match with.
//!
//! Before OTP 28, erts's PCRE (8.x) classifies the characters 128 to 255
//! with tables built for ISO 8859-1 whenever `ucp` is not given, in
//! UTF-8 patterns as well as byte patterns: `\w`, `\b`, `[[:alpha:]]`
//! and the other POSIX classes take in `ª µ º À-Ö Ø-ö ø-ÿ`, and
//! `caseless` folds `À-Þ` to `à-þ` in byte patterns. PCRE2 (beamr's
//! engine, and erts's from OTP 28) knows only ASCII there. `translate`
//! writes these classes out as explicit ranges built from this table:
//!
//! ```text
//!   class   bytes 128-255 that PCRE 8 puts in it (besides ASCII's own)
//!   word    aa b5 ba c0-d6 d8-f6 f8-ff
//!   alpha   as word
//!   upper   c0-d6 d8-de
//!   lower   aa b5 ba df-f6 f8-ff
//!   punct   a0-a9 ab-b4 b6-b9 bb-bf d7 f7
//!   print   a0-ff          graph  a0-ff          cntrl  80-9f
//! ```

use std::fmt::Write as _;

/// A class whose Latin-1 members PCRE 8 and PCRE2 disagree on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Class {
    /// `\w`, `[:word:]`.
    Word,
    /// `[:alpha:]`.
    Alpha,
    /// `[:upper:]`.
    Upper,
    /// `[:lower:]`.
    Lower,
    /// `[:alnum:]`.
    Alnum,
    /// `[:punct:]`.
    Punct,
    /// `[:print:]`.
    Print,
    /// `[:graph:]`.
    Graph,
    /// `[:cntrl:]`.
    Cntrl,
}

impl Class {
    /// The POSIX class named `name` (`alpha`, ...), if it is one of these.
    pub(super) fn posix(name: &[u8]) -> Option<Class> {
        Some(match name {
            b"word" => Class::Word,
            b"alpha" => Class::Alpha,
            b"upper" => Class::Upper,
            b"lower" => Class::Lower,
            b"alnum" => Class::Alnum,
            b"punct" => Class::Punct,
            b"print" => Class::Print,
            b"graph" => Class::Graph,
            b"cntrl" => Class::Cntrl,
            _ => return None,
        })
    }

    /// Whether byte `b` is in the class in PCRE 8's Latin-1 tables.
    fn contains(self, b: u8) -> bool {
        let letter_upper = matches!(b, 0xc0..=0xd6 | 0xd8..=0xde);
        let letter_lower = matches!(b, 0xaa | 0xb5 | 0xba | 0xdf..=0xf6 | 0xf8..=0xff);
        let letter = b.is_ascii_alphabetic() || letter_upper || letter_lower;
        match self {
            Class::Word => letter || b.is_ascii_digit() || b == b'_',
            Class::Alpha => letter,
            Class::Upper => b.is_ascii_uppercase() || letter_upper,
            Class::Lower => b.is_ascii_lowercase() || letter_lower,
            Class::Alnum => letter || b.is_ascii_digit(),
            Class::Punct => {
                b.is_ascii_punctuation()
                    || (matches!(b, 0xa0..=0xbf | 0xd7 | 0xf7) && !matches!(b, 0xaa | 0xb5 | 0xba))
            }
            Class::Print => (0x20..0x7f).contains(&b) || b >= 0xa0,
            Class::Graph => (0x21..0x7f).contains(&b) || b >= 0xa0,
            Class::Cntrl => b < 0x20 || (0x7f..0xa0).contains(&b),
        }
    }

    /// The members of the class (or of its complement), as the inside of
    /// a PCRE2 character class: ranges of `\x{HH}`; a complement in a
    /// UTF-8 pattern takes in every character above 255 too.
    pub(super) fn ranges(self, negated: bool, unicode: bool) -> String {
        let mut out = String::new();
        let mut b = 0u16;
        while b <= 0xff {
            if self.contains(b as u8) == negated {
                b += 1;
                continue;
            }
            let start = b;
            while b < 0xff && self.contains((b + 1) as u8) != negated {
                b += 1;
            }
            let _ = write!(out, "\\x{{{start:x}}}");
            if b > start {
                let _ = write!(out, "-\\x{{{b:x}}}");
            }
            b += 1;
        }
        if negated && unicode {
            out.push_str("\\x{100}-\\x{10ffff}");
        }
        out
    }
}

/// `\b` (or `\B` when `negated`) with PCRE 8's word characters.
pub(super) fn word_boundary(negated: bool, unicode: bool) -> String {
    let w = Class::Word.ranges(false, unicode);
    if negated {
        format!("(?:(?<=[{w}])(?=[{w}])|(?<![{w}])(?![{w}]))")
    } else {
        format!("(?:(?<=[{w}])(?![{w}])|(?<![{w}])(?=[{w}]))")
    }
}

/// The other case of Latin-1 letter `b` in PCRE 8's tables (`À-Þ` and
/// `à-þ`, but for `×` and `÷`).
pub(super) fn other_case(b: u8) -> Option<u8> {
    match b {
        0xd7 | 0xf7 => None,
        0xc0..=0xde => Some(b + 0x20),
        0xe0..=0xfe => Some(b - 0x20),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_ranges_are_ascii_and_latin1_letters() {
        assert_eq!(
            Class::Word.ranges(false, false),
            "\\x{30}-\\x{39}\\x{41}-\\x{5a}\\x{5f}\\x{61}-\\x{7a}\\x{aa}\\x{b5}\\x{ba}\
             \\x{c0}-\\x{d6}\\x{d8}-\\x{f6}\\x{f8}-\\x{ff}"
        );
        assert!(Class::Word
            .ranges(true, true)
            .ends_with("\\x{100}-\\x{10ffff}"));
    }

    #[test]
    fn punct_leaves_out_the_letters_among_the_symbols() {
        assert!(Class::Punct.contains(0xa0) && Class::Punct.contains(0xd7));
        assert!(!Class::Punct.contains(0xaa) && !Class::Punct.contains(0xb5));
    }

    #[test]
    fn case_pairs() {
        assert_eq!(other_case(0xc9), Some(0xe9));
        assert_eq!(other_case(0xe9), Some(0xc9));
        assert_eq!(other_case(0xdf), None);
        assert_eq!(other_case(0xf7), None);
    }
}
