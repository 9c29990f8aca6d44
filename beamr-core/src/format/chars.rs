//! Atoms and quoted text: when Erlang quotes an atom, and how it escapes the
//! characters of a quoted atom or string (`io_lib:write_atom/1`,
//! `io_lib:write_string/2` and their latin1 variants in OTP 25).
//!
//! # Quoting
//!
//! An atom is written bare when it is not a reserved word, starts with a
//! lowercase letter (`a..z`, or latin1 `ß..ÿ` except `÷`) and goes on with
//! name characters only: letters (`a..z`, `A..Z`, latin1 `À..ÿ` except `×`
//! and `÷`), digits, `_` and `@`. Anything else is quoted: `'foo bar'`,
//! `'Caps'`, `'+'`, `''`, `'end'`.
//!
//! # Escapes
//!
//! Inside quotes, the quote character and `\` are escaped with `\`;
//! `\n \r \t \v \b \f \e` and DEL (`\d`) get their short escapes; other
//! characters below 160 that are not printable ASCII are written in octal
//! (`\001`). Characters from 160 up are written as they are, except in the
//! "unicode as latin1" mode of `~w` and `~p`, where characters above 255
//! become `\x{HEX}` (uppercase hex).

use std::fmt::{self, Write};

use super::Encoding;

/// How a quoted text treats characters from 160 up (OTP's `string_char`
/// encodings).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum CharMode {
    /// `unicode_as_unicode`: every character from 160 up as it is.
    Unicode,
    /// `unicode_as_latin1`: 160..=255 as they are, above that `\x{HEX}`.
    UnicodeAsLatin1,
}

impl CharMode {
    /// The mode `~w`/`~p` use for atoms under an output encoding.
    pub(crate) fn for_atoms(encoding: Encoding) -> CharMode {
        match encoding {
            Encoding::Latin1 => CharMode::UnicodeAsLatin1,
            Encoding::Unicode => CharMode::Unicode,
        }
    }
}

/// Erlang's reserved words (`erl_scan:reserved_word/1` in OTP 25, without
/// the optional `maybe` feature): atoms with these names are always quoted.
const RESERVED: [&str; 27] = [
    "after", "and", "andalso", "band", "begin", "bnot", "bor", "bsl", "bsr", "bxor", "case",
    "catch", "cond", "div", "end", "fun", "if", "let", "not", "of", "or", "orelse", "receive",
    "rem", "try", "when", "xor",
];

/// True for a character that may start an unquoted atom.
#[inline]
fn is_lower_start(c: char) -> bool {
    c.is_ascii_lowercase() || (('\u{DF}'..='\u{FF}').contains(&c) && c != '\u{F7}')
}

/// True for a character that may continue an unquoted atom.
#[inline]
fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || c == '_'
        || c == '@'
        || (('\u{C0}'..='\u{FF}').contains(&c) && c != '\u{D7}' && c != '\u{F7}')
}

/// True if Erlang writes the atom `name` inside single quotes.
pub(crate) fn atom_needs_quotes(name: &str) -> bool {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if is_lower_start(c) => {}
        _ => return true,
    }
    if !chars.all(is_name_char) {
        return true;
    }
    // Reserved words are all ASCII lowercase of 2 to 7 letters.
    name.len() <= 7 && RESERVED.binary_search(&name).is_ok()
}

/// Writes an atom's name, quoted and escaped when Erlang would.
pub(crate) fn write_atom<W: Write + ?Sized>(
    out: &mut W,
    name: &str,
    mode: CharMode,
) -> fmt::Result {
    if atom_needs_quotes(name) {
        write_quoted(out, name.chars(), '\'', mode)
    } else {
        out.write_str(name)
    }
}

/// Writes `chars` between `quote` characters, escaping as `io_lib` does.
pub(crate) fn write_quoted<W, I>(out: &mut W, chars: I, quote: char, mode: CharMode) -> fmt::Result
where
    W: Write + ?Sized,
    I: IntoIterator<Item = char>,
{
    out.write_char(quote)?;
    for c in chars {
        write_char_escaped(out, c, quote, mode)?;
    }
    out.write_char(quote)
}

/// Writes one character of a quoted text (OTP's `string_char/4`).
#[inline]
pub(crate) fn write_char_escaped<W: Write + ?Sized>(
    out: &mut W,
    c: char,
    quote: char,
    mode: CharMode,
) -> fmt::Result {
    if c == quote {
        out.write_char('\\')?;
        return out.write_char(c);
    }
    let code = c as u32;
    match code {
        0x5C => out.write_str("\\\\"),
        0x20..=0x7E => out.write_char(c),
        0xA0..=0xFF => out.write_char(c),
        0x100.. => match mode {
            CharMode::Unicode => out.write_char(c),
            CharMode::UnicodeAsLatin1 => write!(out, "\\x{{{code:X}}}"),
        },
        0x0A => out.write_str("\\n"),
        0x0D => out.write_str("\\r"),
        0x09 => out.write_str("\\t"),
        0x0B => out.write_str("\\v"),
        0x08 => out.write_str("\\b"),
        0x0C => out.write_str("\\f"),
        0x1B => out.write_str("\\e"),
        0x7F => out.write_str("\\d"),
        _ => {
            let digits = [
                b'0' + (code >> 6) as u8,
                b'0' + ((code >> 3) & 7) as u8,
                b'0' + (code & 7) as u8,
            ];
            out.write_char('\\')?;
            for d in digits {
                out.write_char(d as char)?;
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atom(name: &str, mode: CharMode) -> String {
        let mut s = String::new();
        write_atom(&mut s, name, mode).unwrap();
        s
    }

    #[test]
    fn reserved_words_are_sorted_for_binary_search() {
        let mut sorted = RESERVED;
        sorted.sort_unstable();
        assert_eq!(sorted, RESERVED);
    }

    #[test]
    fn quoting_follows_erlang() {
        let u = CharMode::Unicode;
        assert_eq!(atom("foo", u), "foo");
        assert_eq!(atom("foo_Bar@1", u), "foo_Bar@1");
        assert_eq!(atom("foo bar", u), "'foo bar'");
        assert_eq!(atom("Caps", u), "'Caps'");
        assert_eq!(atom("+", u), "'+'");
        assert_eq!(atom("", u), "''");
        assert_eq!(atom("end", u), "'end'");
        assert_eq!(atom("maybe", u), "maybe");
        assert_eq!(atom("\n", u), "'\\n'");
        assert_eq!(atom("a'b\\", u), "'a\\'b\\\\'");
        assert_eq!(atom("\u{1}", u), "'\\001'");
        assert_eq!(atom("é", u), "é");
        assert_eq!(atom("a÷", u), "'a÷'");
        assert_eq!(atom("日本", u), "'日本'");
        assert_eq!(
            atom("日本", CharMode::UnicodeAsLatin1),
            "'\\x{65E5}\\x{672C}'"
        );
    }
}
