//! Rewrites an Erlang `re` pattern and its options into the pattern text
//! handed to PCRE2.
//!
//! The `pcre2` crate compiles a `&str` with a handful of options
//! (caseless, dotall, extended, multiline, utf) and matches with none. The
//! rest of what the BEAM passes to `pcre2_compile` and `pcre2_match` is
//! expressed in the pattern itself, which PCRE2 reads the same way:
//!
//! ```text
//!   (*LF)(*BSR_ANYCRLF)(*UCP)(*NO_START_OPT)(*NOTEMPTY)(*LIMIT_MATCH=N)   ours
//!   (*CRLF)...                                                  the user's own
//!   (?U)(?J)(?n)                            ungreedy, dupnames, no_auto_capture
//!   \G(?:  BODY  \E)                                anchored (at the offset)
//! ```
//!
//! Start-of-pattern items must come first, so the user's own leading items
//! stay in front of the inline flags. In BODY, outside character classes
//! and `\Q...\E`, `^` and `$` are rewritten for `notbol`, `noteol` and
//! `dollar_endonly`, which PCRE2 has no in-pattern form for; a byte above
//! 127 in a pattern that is not UTF-8 becomes `\x{HH}` (the text handed to
//! PCRE2 must be a `str`). [`Translated::original_offset`] maps an error
//! offset in the text back to the user's pattern.

use super::errors::EarlyError;
use super::latin1::{self, Class};
use super::pcre8_syntax::{self, pcre8_quantifier};

/// The newline convention (`{newline, NL}`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Newline {
    /// `cr`.
    Cr,
    /// `lf` (PCRE's default).
    Lf,
    /// `crlf`.
    Crlf,
    /// `anycrlf`.
    AnyCrlf,
    /// `any`.
    Any,
    /// `nul`.
    Nul,
}

impl Newline {
    fn verb(self) -> &'static str {
        match self {
            Newline::Cr => "(*CR)",
            Newline::Lf => "(*LF)",
            Newline::Crlf => "(*CRLF)",
            Newline::AnyCrlf => "(*ANYCRLF)",
            Newline::Any => "(*ANY)",
            Newline::Nul => "(*NUL)",
        }
    }

    /// True for the conventions in which `\r\n` is one newline: the
    /// `UseCRLF` element of a compiled pattern.
    pub(super) fn crlf(self) -> bool {
        matches!(self, Newline::Crlf | Newline::AnyCrlf | Newline::Any)
    }
}

/// What `\R` matches (`bsr_anycrlf`, `bsr_unicode`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Bsr {
    /// `\r`, `\n` or `\r\n`.
    AnyCrlf,
    /// Any Unicode newline sequence.
    Unicode,
}

/// The compile options of `re:compile/2` (and of `re:run/3` on a pattern
/// given as text).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct CompileOptions {
    /// `unicode`: pattern and subject are UTF-8.
    pub unicode: bool,
    /// `caseless`.
    pub caseless: bool,
    /// `multiline`.
    pub multiline: bool,
    /// `dotall`.
    pub dotall: bool,
    /// `extended`.
    pub extended: bool,
    /// `ungreedy`.
    pub ungreedy: bool,
    /// `dupnames`.
    pub dupnames: bool,
    /// `no_auto_capture`.
    pub no_auto_capture: bool,
    /// `dollar_endonly`.
    pub dollar_endonly: bool,
    /// `firstline`.
    pub firstline: bool,
    /// `ucp`.
    pub ucp: bool,
    /// `never_utf`.
    pub never_utf: bool,
    /// `no_start_optimize`.
    pub no_start_optimize: bool,
    /// `anchored` given when compiling.
    pub anchored: bool,
    /// `{newline, NL}`.
    pub newline: Option<Newline>,
    /// `bsr_anycrlf` / `bsr_unicode`.
    pub bsr: Option<Bsr>,
}

/// The options of one match that PCRE2 takes at match time and beamr
/// expresses in the pattern: each distinct set is a pattern of its own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct MatchVariant {
    /// `anchored` given to `re:run`.
    pub anchored: bool,
    /// `notempty`.
    pub notempty: bool,
    /// `notempty_atstart`.
    pub notempty_atstart: bool,
    /// `notbol`.
    pub notbol: bool,
    /// `noteol`.
    pub noteol: bool,
    /// `{match_limit, N}`.
    pub match_limit: Option<u32>,
    /// `{match_limit_recursion, N}` (PCRE2's depth limit).
    pub depth_limit: Option<u32>,
}

/// The text handed to PCRE2 and how to map offsets back.
#[derive(Debug)]
pub(super) struct Translated {
    /// The pattern text.
    pub text: String,
    /// Length of beamr's own start-of-pattern items.
    ours: usize,
    /// Length of the user's leading start-of-pattern items.
    user_items: usize,
    /// Length of the inline flags and the anchoring group's opening.
    flags: usize,
    /// The newline convention in force (the pattern's own item wins).
    pub newline: Newline,
}

impl Translated {
    /// The offset in the user's pattern of `offset` in [`Translated::text`]
    /// (exact unless a rewritten `^`, `$` or high byte comes before it).
    pub(super) fn original_offset(&self, offset: usize) -> usize {
        if offset < self.ours {
            0
        } else if offset < self.ours + self.user_items {
            offset - self.ours
        } else if offset < self.ours + self.user_items + self.flags {
            self.user_items
        } else {
            offset - self.ours - self.flags
        }
    }
}

/// The user's leading start-of-pattern items: `(*NAME)` or `(*NAME=N)`.
fn leading_items(source: &[u8]) -> usize {
    let mut at = 0;
    while source[at..].starts_with(b"(*") {
        let rest = &source[at + 2..];
        let Some(close) = rest.iter().position(|&b| b == b')') else {
            break;
        };
        let name = &rest[..close];
        let valid = !name.is_empty()
            && name[0].is_ascii_uppercase()
            && name
                .iter()
                .all(|&b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_' || b == b'=');
        if !valid {
            break;
        }
        at += close + 3;
    }
    at
}

fn item_newline(item: &[u8]) -> Option<Newline> {
    Some(match item {
        b"(*CR)" => Newline::Cr,
        b"(*LF)" => Newline::Lf,
        b"(*CRLF)" => Newline::Crlf,
        b"(*ANYCRLF)" => Newline::AnyCrlf,
        b"(*ANY)" => Newline::Any,
        b"(*NUL)" => Newline::Nul,
        _ => return None,
    })
}

/// Builds the PCRE2 pattern text for `source` under `opts` and `variant`.
pub(super) fn translate(
    source: &[u8],
    opts: &CompileOptions,
    variant: &MatchVariant,
) -> Result<Translated, EarlyError> {
    if opts.unicode {
        if let Err(e) = std::str::from_utf8(source) {
            return Err(EarlyError {
                message: "UTF-8 error: isolated byte with 0x80 bit set".into(),
                offset: e.valid_up_to(),
            });
        }
    }
    if crate::code::otp_release() < 28 {
        pcre8_syntax::check(source)?;
    }
    let items_len = leading_items(source);
    let (items, body) = source.split_at(items_len);
    let mut newline = opts.newline.unwrap_or(Newline::Lf);
    let mut at = 0;
    while at < items.len() {
        let end = at + items[at..].iter().position(|&b| b == b')').unwrap_or(0) + 1;
        let item = &items[at..end];
        if let Some(nl) = item_newline(item) {
            newline = nl;
        }
        if opts.never_utf && (item == b"(*UTF)" || item == b"(*UTF8)") {
            return Err(EarlyError {
                message: "using UTF is disabled by the application".into(),
                offset: end,
            });
        }
        at = end;
    }

    let mut text = String::new();
    if let Some(nl) = opts.newline {
        text.push_str(nl.verb());
    }
    match opts.bsr {
        Some(Bsr::AnyCrlf) => text.push_str("(*BSR_ANYCRLF)"),
        Some(Bsr::Unicode) => text.push_str("(*BSR_UNICODE)"),
        None => {}
    }
    if opts.ucp {
        text.push_str("(*UCP)");
    }
    if opts.no_start_optimize {
        text.push_str("(*NO_START_OPT)");
    }
    if variant.notempty {
        text.push_str("(*NOTEMPTY)");
    }
    if variant.notempty_atstart {
        text.push_str("(*NOTEMPTY_ATSTART)");
    }
    if let Some(n) = variant.match_limit {
        text.push_str(&format!("(*LIMIT_MATCH={n})"));
    }
    if let Some(n) = variant.depth_limit {
        text.push_str(&format!("(*LIMIT_DEPTH={n})"));
    }
    let ours = text.len();
    // The items are ASCII by construction.
    text.push_str(std::str::from_utf8(items).unwrap_or_default());
    let flags_start = text.len();
    if opts.ungreedy {
        text.push_str("(?U)");
    }
    if opts.dupnames {
        text.push_str("(?J)");
    }
    if opts.no_auto_capture {
        text.push_str("(?n)");
    }
    let anchored = opts.anchored || variant.anchored;
    if anchored {
        text.push_str("\\G(?:");
    }
    let flags = text.len() - flags_start;
    let dollar = dollar_form(opts, variant);
    let caret = if variant.notbol {
        Some("(?:(?!\\A)^)")
    } else {
        None
    };
    let pcre8 = crate::code::otp_release() < 28 && !opts.ucp;
    let body_opts = Body {
        unicode: opts.unicode,
        caret,
        dollar,
        latin1_tables: pcre8,
        latin1_fold: pcre8 && !opts.unicode,
        caseless: opts.caseless,
        pcre8_braces: crate::code::otp_release() < 28,
    };
    rewrite_body(body, &body_opts, &mut text);
    if anchored {
        if opts.extended {
            text.push('\n');
        }
        text.push_str("\\E)");
    }
    Ok(Translated {
        text,
        ours,
        user_items: items_len,
        flags,
        newline,
    })
}

/// What a top-level `$` becomes, if anything.
fn dollar_form(opts: &CompileOptions, variant: &MatchVariant) -> Option<&'static str> {
    match (variant.noteol, opts.multiline, opts.dollar_endonly) {
        (true, false, _) => Some("(?!)"),
        (true, true, _) => Some("(?:(?!\\z)$)"),
        (false, false, true) => Some("(?:\\z)"),
        _ => None,
    }
}

fn push_high_byte(b: u8, out: &mut String) {
    out.push_str(&format!("\\x{{{b:02x}}}"));
}

/// How [`rewrite_body`] rewrites a pattern's body.
struct Body<'a> {
    /// The pattern is UTF-8.
    unicode: bool,
    /// What a top-level `^` becomes, if anything.
    caret: Option<&'a str>,
    /// What a top-level `$` becomes, if anything.
    dollar: Option<&'a str>,
    /// Classify characters 128-255 as PCRE 8 does (OTP 25 and 27 without
    /// `ucp`): `\w`, `\W`, `\b`, `\B` and the POSIX classes written out
    /// (see `latin1`).
    latin1_tables: bool,
    /// Fold the Latin-1 letters of a byte pattern where it is caseless
    /// (the `caseless` option, or an inline `(?i)` in its scope), as PCRE
    /// 8 does: literal letters, `\xHH` / `\x{HH}` escapes and quoted ones.
    latin1_fold: bool,
    /// The `caseless` option: the pattern starts caseless.
    caseless: bool,
    /// Read `{` as PCRE 8 does (before OTP 28): a quantifier only as
    /// `{n}`, `{n,}` or `{n,m}`, else a literal `{` (PCRE2 also reads
    /// `{,m}` and allows spaces inside); and refuse PCRE2's `(?^`.
    pcre8_braces: bool,
}

/// Copies `body` to `out`, replacing top-level `^` and `$` when asked,
/// escaping bytes above 127 when the pattern is not UTF-8, and writing out
/// the classes PCRE 8 fills from its Latin-1 tables.
fn rewrite_body(body: &[u8], opts: &Body<'_>, out: &mut String) {
    let (unicode, caret, dollar) = (opts.unicode, opts.caret, opts.dollar);
    if unicode && caret.is_none() && dollar.is_none() && !opts.latin1_tables && !opts.pcre8_braces {
        out.push_str(std::str::from_utf8(body).unwrap_or_default());
        return;
    }
    // Bytes are copied one at a time: in a UTF-8 body every byte above 127
    // belongs to a character copied whole below.
    let mut i = 0;
    let mut quoted = false;
    let mut in_class = false;
    let copy = |i: usize, out: &mut String| -> usize {
        let b = body[i];
        if b < 0x80 {
            out.push(b as char);
            1
        } else if unicode {
            let len = utf8_len(b);
            let end = (i + len).min(body.len());
            out.push_str(std::str::from_utf8(&body[i..end]).unwrap_or("\u{FFFD}"));
            end - i
        } else {
            push_high_byte(b, out);
            1
        }
    };
    // Whether the pattern is caseless here, and what it was outside each
    // group that is open.
    let mut caseless = opts.caseless;
    let mut outer: Vec<bool> = Vec::new();
    // A Latin-1 letter of a byte pattern where it is caseless, with its
    // other case.
    let fold = |b: u8, caseless: bool| {
        (opts.latin1_fold && caseless)
            .then(|| super::latin1::other_case(b))
            .flatten()
    };
    while i < body.len() {
        let b = body[i];
        if quoted {
            if body[i..].starts_with(b"\\E") {
                quoted = false;
                out.push_str("\\E");
                i += 2;
            } else if b >= 0x80 && !unicode {
                out.push_str("\\E");
                match fold(b, caseless) {
                    Some(other) => push_pair(b, other, false, out),
                    None => push_high_byte(b, out),
                }
                out.push_str("\\Q");
                i += 1;
            } else {
                i += copy(i, out);
            }
            continue;
        }
        match b {
            b'\\' if i + 1 < body.len() && opts.latin1_tables && b"wWbB".contains(&body[i + 1]) => {
                let next = body[i + 1];
                match (next, in_class) {
                    (b'w' | b'W', true) => {
                        out.push_str(&Class::Word.ranges(next == b'W', unicode));
                    }
                    (b'w' | b'W', false) => {
                        out.push('[');
                        out.push_str(&Class::Word.ranges(next == b'W', unicode));
                        out.push(']');
                    }
                    // In a class, \b is a backspace and \B an error: PCRE2's.
                    (_, true) => {
                        out.push('\\');
                        out.push(next as char);
                    }
                    (_, false) => out.push_str(&latin1::word_boundary(next == b'B', unicode)),
                }
                i += 2;
            }
            _ if in_class && opts.latin1_fold && caseless && class_range(&body[i..]).is_some() => {
                // A range reaching into Latin-1: it, and the other case of
                // each of its letters.
                if let Some((lo, hi, len)) = class_range(&body[i..]) {
                    push_high_byte(lo, out);
                    out.push('-');
                    push_high_byte(hi, out);
                    for c in lo.max(0x80)..=hi {
                        if let Some(o) = super::latin1::other_case(c) {
                            push_high_byte(o, out);
                        }
                    }
                    i += len;
                }
            }
            b'\\'
                if hex_escape(&body[i..])
                    .and_then(|(c, len)| Some((fold(c, caseless)?, c, len)))
                    .filter(|&(_, _, len)| !(in_class && body.get(i + len) == Some(&b'-')))
                    .is_some() =>
            {
                // `\xHH` or `\x{HH}` naming a Latin-1 letter (not a range's
                // start): it and its other case.
                if let Some((c, len)) = hex_escape(&body[i..]) {
                    push_pair(c, fold(c, caseless).unwrap_or(c), in_class, out);
                    i += len;
                }
            }
            b'(' if !in_class && opts.pcre8_braces && body[i..].starts_with(b"(?^") => {
                // PCRE2's option reset, which PCRE 8 does not know: a
                // character PCRE2 rejects in its place gives PCRE 8's error
                // ("unrecognized character after (? or (?-") at its offset.
                out.push_str("(?\"");
                i += 3;
            }
            b'(' if !in_class => {
                match option_setting(&body[i..]) {
                    // `(?i)`: from here to the end of the enclosing group;
                    // copied whole (its `)` closes no group).
                    Some((set, len, b')')) => {
                        caseless = set.unwrap_or(caseless);
                        body[i..i + len].iter().for_each(|&c| out.push(c as char));
                        i += len;
                        continue;
                    }
                    Some((set, _, _)) => {
                        outer.push(caseless);
                        caseless = set.unwrap_or(caseless);
                    }
                    None => outer.push(caseless),
                }
                out.push('(');
                i += 1;
            }
            b')' if !in_class => {
                caseless = outer.pop().unwrap_or(caseless);
                out.push(')');
                i += 1;
            }
            b'\\' if i + 1 < body.len() => {
                let next = body[i + 1];
                if next == b'Q' {
                    quoted = true;
                }
                out.push('\\');
                if next >= 0x80 && !unicode {
                    // `\` and a high byte: the byte taken literally.
                    out.push_str(&format!("x{{{next:02x}}}"));
                    i += 2;
                } else {
                    i += 1 + copy(i + 1, out);
                    // An escape's braced argument (`\x{..}`, `\p{..}`, `\g{..}`).
                    if b"xpPgkNo".contains(&next) && body.get(i) == Some(&b'{') {
                        while i < body.len() && body[i] != b'}' {
                            i += copy(i, out);
                        }
                        if i < body.len() {
                            out.push('}');
                            i += 1;
                        }
                    }
                }
            }
            b'[' if !in_class => {
                in_class = true;
                out.push('[');
                i += 1;
                if body.get(i) == Some(&b'^') {
                    out.push('^');
                    i += 1;
                }
                if body.get(i) == Some(&b']') {
                    out.push(']');
                    i += 1;
                }
            }
            b'[' if in_class && body.get(i + 1) == Some(&b':') => {
                let end = body[i + 2..]
                    .windows(2)
                    .position(|w| w == b":]")
                    .map_or(i + 1, |p| i + 2 + p + 2);
                let item = &body[i..end];
                // `[:name:]` or `[:^name:]`.
                let (negated, name) = match item.get(2..item.len().saturating_sub(2)) {
                    Some([b'^', name @ ..]) => (true, name),
                    Some(name) => (false, name),
                    None => (false, &[][..]),
                };
                match Class::posix(name).filter(|_| opts.latin1_tables && end > i + 1) {
                    Some(class) => out.push_str(&class.ranges(negated, unicode)),
                    None => item.iter().for_each(|&c| out.push(c as char)),
                }
                i = end;
            }
            b if b >= 0x80 && !unicode && fold(b, caseless).is_some() => {
                let other = fold(b, caseless).unwrap_or(b);
                let range_end = (in_class && body.get(i + 1) == Some(&b'-'))
                    .then(|| body.get(i + 2).copied())
                    .flatten()
                    .filter(|&e| e >= b);
                if let Some(end) = range_end {
                    // A range: it and its letters' other cases.
                    push_high_byte(b, out);
                    out.push('-');
                    push_high_byte(end, out);
                    for c in b..=end {
                        if let Some(o) = super::latin1::other_case(c) {
                            push_high_byte(o, out);
                        }
                    }
                    i += 3;
                } else {
                    push_pair(b, other, in_class, out);
                    i += 1;
                }
            }
            b'{' if opts.pcre8_braces && !in_class && !pcre8_quantifier(&body[i..]) => {
                out.push_str("\\{");
                i += 1;
            }
            b']' if in_class => {
                in_class = false;
                out.push(']');
                i += 1;
            }
            b'^' if !in_class && caret.is_some() => {
                out.push_str(caret.unwrap_or("^"));
                i += 1;
            }
            b'$' if !in_class && dollar.is_some() => {
                out.push_str(dollar.unwrap_or("$"));
                i += 1;
            }
            _ => i += copy(i, out),
        }
    }
}

/// A Latin-1 letter and its other case, as a class (or inside one).
fn push_pair(b: u8, other: u8, in_class: bool, out: &mut String) {
    if !in_class {
        out.push('[');
    }
    push_high_byte(b, out);
    push_high_byte(other, out);
    if !in_class {
        out.push(']');
    }
}

/// `text` (from a `\`) as `\xHH` or `\x{H..}` naming a character from 128
/// to 255: the character and the escape's length.
fn hex_escape(text: &[u8]) -> Option<(u8, usize)> {
    let rest = text.strip_prefix(b"\\x")?;
    let (digits, len) = match rest.strip_prefix(b"{") {
        Some(braced) => {
            let n = braced.iter().position(|&b| b == b'}')?;
            (&braced[..n], 3 + n + 1)
        }
        None => {
            let n = rest
                .iter()
                .take(2)
                .take_while(|b| b.is_ascii_hexdigit())
                .count();
            (&rest[..n], 2 + n)
        }
    };
    let digits = std::str::from_utf8(digits).ok()?;
    let value = u32::from_str_radix(digits, 16).ok()?;
    u8::try_from(value)
        .ok()
        .filter(|&c| c >= 0x80)
        .map(|c| (c, len))
}

/// `text` (inside a class) as a range whose end is above 127: its ends
/// (literal bytes or `\xHH` escapes) and its length.
fn class_range(text: &[u8]) -> Option<(u8, u8, usize)> {
    let end_point = |t: &[u8]| match t.first() {
        Some(b'\\') => hex_escape(t),
        Some(b']' | b'[') | None => None,
        Some(&b) => Some((b, 1)),
    };
    let (lo, n) = end_point(text)?;
    if text.get(n) != Some(&b'-') {
        return None;
    }
    let (hi, m) = end_point(&text[n + 1..])?;
    (hi >= 0x80 && hi >= lo).then_some((lo, hi, n + 1 + m))
}

/// `text` (from a `(`) as an option setting: `(?flags)` or `(?flags:`,
/// with the caseless state it sets (`None` when it leaves `i` alone), its
/// length and the byte that ends it; `None` for any other group.
fn option_setting(text: &[u8]) -> Option<(Option<bool>, usize, u8)> {
    let flags = text.strip_prefix(b"(?")?;
    let n = flags
        .iter()
        .take_while(|b| b"imsxnUJ-^".contains(b))
        .count();
    let end = *flags.get(n).filter(|&&b| b == b')' || b == b':')?;
    let mut set = None;
    let mut on = true;
    for &f in &flags[..n] {
        match f {
            b'-' => on = false,
            // `(?^)` resets the options: caseless off.
            b'^' => set = Some(false),
            b'i' => set = Some(on),
            _ => {}
        }
    }
    Some((set, 2 + n + 1, end))
}

fn utf8_len(lead: u8) -> usize {
    match lead {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(source: &str, opts: &CompileOptions, variant: &MatchVariant) -> String {
        translate(source.as_bytes(), opts, variant).unwrap().text
    }

    #[test]
    fn plain_pattern_is_unchanged() {
        let o = CompileOptions::default();
        assert_eq!(text("a(b)c", &o, &MatchVariant::default()), "a(b)c");
    }

    #[test]
    fn options_become_items_and_flags_after_the_users_items() {
        let o = CompileOptions {
            ungreedy: true,
            newline: Some(Newline::Cr),
            ..Default::default()
        };
        let t = translate(b"(*ANY)a+(", &o, &MatchVariant::default()).unwrap();
        assert_eq!(t.text, "(*CR)(*ANY)(?U)a+(");
        assert_eq!(t.newline, Newline::Any);
        // The error at the end of the translated text maps to the end of
        // the user's pattern.
        assert_eq!(t.original_offset(t.text.len()), 9);
    }

    #[test]
    fn anchoring_wraps_the_body() {
        let v = MatchVariant {
            anchored: true,
            ..Default::default()
        };
        assert_eq!(text("a|b", &CompileOptions::default(), &v), "\\G(?:a|b\\E)");
    }

    #[test]
    fn dollar_and_caret_rewrites_skip_classes_and_quotes() {
        let v = MatchVariant {
            notbol: true,
            noteol: true,
            ..Default::default()
        };
        let t = text("^a[$^]\\Q$\\E\\$$", &CompileOptions::default(), &v);
        assert_eq!(t, "(?:(?!\\A)^)a[$^]\\Q$\\E\\$(?!)");
    }

    #[test]
    fn high_bytes_are_escaped_outside_utf8() {
        let t = translate(
            b"a\xe9[\xe8]\\\xe7",
            &CompileOptions::default(),
            &Default::default(),
        );
        assert_eq!(t.unwrap().text, "a\\x{e9}[\\x{e8}]\\x{e7}");
    }

    #[test]
    fn never_utf_rejects_the_utf_item() {
        let o = CompileOptions {
            never_utf: true,
            ..Default::default()
        };
        assert!(translate(b"(*UTF)a", &o, &Default::default()).is_err());
    }
}
