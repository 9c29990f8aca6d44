//! Writing atoms and strings the way Erlang's `~w` does.
//!
//! An atom is bare when it starts with a lowercase Latin-1 letter, goes on
//! with Latin-1 letters, digits, `_` and `@`, and is not a reserved word;
//! otherwise it is quoted. Inside quotes (`'` for atoms, `"` for strings)
//! the delimiter and `\` are escaped, control characters use `\n`-style or
//! three-digit octal escapes, and characters above 255 use `\x{HEX}`.

use std::fmt::Write;

/// Erlang's reserved words, which must be quoted as atoms.
const RESERVED: &[&str] = &[
    "after", "and", "andalso", "band", "begin", "bnot", "bor", "bsl", "bsr", "bxor", "case",
    "catch", "cond", "div", "end", "fun", "if", "let", "not", "of", "or", "orelse", "receive",
    "rem", "try", "when", "xor",
];

fn is_lower(c: char) -> bool {
    c.is_ascii_lowercase() || (('\u{df}'..='\u{ff}').contains(&c) && c != '\u{f7}')
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || c == '_'
        || c == '@'
        || (('\u{c0}'..='\u{ff}').contains(&c) && c != '\u{d7}' && c != '\u{f7}')
}

/// True when `name` can be written without quotes.
pub fn atom_is_bare(name: &str) -> bool {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if is_lower(c) => {}
        _ => return false,
    }
    chars.all(is_name_char) && !RESERVED.contains(&name)
}

/// Writes `name` as `~w` writes the atom: bare or single-quoted.
pub fn write_atom(out: &mut String, name: &str) {
    if atom_is_bare(name) {
        out.push_str(name);
    } else {
        write_quoted(out, name, '\'');
    }
}

/// `name` as `~w` writes the atom.
pub fn atom(name: &str) -> String {
    let mut s = String::with_capacity(name.len() + 2);
    write_atom(&mut s, name);
    s
}

/// Writes `text` as a double-quoted Erlang string.
pub fn write_string(out: &mut String, text: &str) {
    write_quoted(out, text, '"');
}

fn write_quoted(out: &mut String, text: &str, quote: char) {
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\u{1b}' => out.push_str("\\e"),
            '\u{7f}' => out.push_str("\\d"),
            c if (c as u32) < 0x20 || (0x80..0xa0).contains(&(c as u32)) => {
                let _ = write!(out, "\\{:03o}", c as u32);
            }
            c if (c as u32) > 0xff => {
                let _ = write!(out, "\\x{{{:X}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atoms_as_erlang_writes_them() {
        assert_eq!(atom("ok"), "ok");
        assert_eq!(atom("a@b"), "a@b");
        assert_eq!(atom("é"), "é");
        assert_eq!(atom("+"), "'+'");
        assert_eq!(atom("foo bar"), "'foo bar'");
        assert_eq!(atom("don't"), "'don\\'t'");
        assert_eq!(atom("after"), "'after'");
        assert_eq!(atom("X"), "'X'");
        assert_eq!(atom("_x"), "'_x'");
        assert_eq!(atom(""), "''");
        assert_eq!(atom("a×"), "'a×'");
        assert_eq!(atom("π"), "'\\x{3C0}'");
        assert_eq!(atom("\u{1}\n\u{7f}"), "'\\001\\n\\d'");
    }
}
