//! Compile errors as the release's erts reports them.
//!
//! beamr compiles with PCRE2 10.45; erts used PCRE 8 before OTP 28 and
//! PCRE2 10.47 from OTP 29. The differences checked against each release:
//!
//! - PCRE 8 words many messages differently ("missing )" for PCRE2's
//!   "missing closing parenthesis", ...) and places a few offsets
//!   elsewhere: a reference by name to a group that does not exist at the
//!   reference's closing character, one by number at the end of the
//!   pattern; an unknown POSIX class just after its `[:`; a lookbehind
//!   that is not fixed length at its closing parenthesis; a duplicate name
//!   and an unknown property one byte earlier.
//! - PCRE2 10.47 places the offset of an error found at a character after
//!   that character, one byte later than 10.45, for the messages listed in
//!   [`AFTER_THE_CHARACTER`] and for a reference by number.
//!
//! Messages not listed are PCRE2 10.45's own.

/// A compile error found before PCRE2 sees the pattern.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct EarlyError {
    /// The message, worded as PCRE2 words it.
    pub message: String,
    /// Byte offset in the user's pattern.
    pub offset: usize,
}

/// PCRE2's message, PCRE 8's, and how PCRE 8's offset differs.
const PCRE8: &[(&str, &str, Offset)] = &[
    ("missing closing parenthesis", "missing )", Offset::Same),
    (
        "unmatched closing parenthesis",
        "unmatched parentheses",
        Offset::Same,
    ),
    (
        "quantifier does not follow a repeatable item",
        "nothing to repeat",
        Offset::Same,
    ),
    (
        "two named subpatterns have the same name (PCRE2_DUPNAMES not set)",
        "two named subpatterns have the same name",
        Offset::Before,
    ),
    (
        "subpattern name must start with a non-digit",
        "group name must start with a non-digit",
        Offset::Same,
    ),
    (
        "reference to non-existent subpattern",
        "reference to non-existent subpattern",
        Offset::Reference,
    ),
    (
        "unknown POSIX class name",
        "unknown POSIX class name",
        Offset::PosixClass,
    ),
    (
        "missing ) after (?# comment",
        "missing ) after comment",
        Offset::Same,
    ),
    (
        "unknown property after \\P or \\p",
        "unknown property name after \\P or \\p",
        Offset::Before,
    ),
    (
        "length of lookbehind assertion is not limited",
        "lookbehind assertion is not fixed length",
        Offset::GroupEnd,
    ),
    (
        "number after (?C is greater than 255",
        "number after (?C is > 255",
        Offset::Same,
    ),
];

/// Where PCRE 8 puts the offset, against PCRE2.
#[derive(Clone, Copy)]
enum Offset {
    /// The same byte.
    Same,
    /// One byte earlier.
    Before,
    /// A reference: a name's closing character, or for a number the end
    /// of the pattern.
    Reference,
    /// Just after the `[:` that opens the class.
    PosixClass,
    /// The parenthesis that closes the group opening at the offset.
    GroupEnd,
}

/// The messages whose offset PCRE2 10.47 gives one byte later than 10.45.
const AFTER_THE_CHARACTER: &[&str] = &[
    "unmatched closing parenthesis",
    "quantifier does not follow a repeatable item",
    "unrecognized character after (? or (?-",
    "range out of order in character class",
    "subpattern name must start with a non-digit",
];

/// PCRE2 10.45's `message` at `offset` in `pattern`, as the release's
/// erts reports it.
pub(super) fn as_release(message: String, offset: usize, pattern: &[u8]) -> (String, usize) {
    let len = pattern.len();
    let release = crate::code::otp_release();
    if release < 28 {
        if let Some(&(_, old, place)) = PCRE8.iter().find(|(new, _, _)| *new == message) {
            let offset = match place {
                Offset::Same => offset,
                Offset::Before => offset.saturating_sub(1),
                Offset::Reference => {
                    let close = pattern[offset.min(len)..]
                        .iter()
                        .position(|c| b">)}'".contains(c))
                        .map(|p| offset + p);
                    match close {
                        Some(c) if c > 0 && !pattern[c - 1].is_ascii_digit() => c,
                        _ => len,
                    }
                }
                Offset::PosixClass => pattern[..offset.min(len)]
                    .windows(2)
                    .rposition(|w| w == b"[:")
                    .map_or(offset, |p| p + 2),
                Offset::GroupEnd => group_end(pattern, offset).unwrap_or(offset),
            };
            return (old.to_string(), offset);
        }
    } else if release >= 29 {
        // A reference by number: after its last digit.
        let digit_at = |i: usize| pattern.get(i).is_some_and(u8::is_ascii_digit);
        let numbered = message == "reference to non-existent subpattern"
            && (digit_at(offset)
                || (pattern.get(offset) == Some(&b'}') && offset > 0 && digit_at(offset - 1)));
        if numbered || AFTER_THE_CHARACTER.contains(&message.as_str()) {
            return (message, (offset + 1).min(len));
        }
        // `\N{U+hh}` outside UTF mode: after the escape's `}`.
        if message == "\\N{U+dddd} is supported only in Unicode (UTF) mode" {
            let close = pattern[offset.min(len)..].iter().position(|&b| b == b'}');
            return (message, close.map_or(len, |p| offset + p + 1));
        }
    }
    (message, offset)
}

/// The offset of the parenthesis closing the group that opens at `start`
/// (escapes skipped; a parenthesis in a class counted as any other).
fn group_end(pattern: &[u8], start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = start;
    while i < pattern.len() {
        match pattern[i] {
            b'\\' => i += 1,
            b'(' => depth += 1,
            b')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}
