//! Syntax PCRE2 added that PCRE 8 (the BEAM's engine up to OTP 27)
//! rejects, rejected as PCRE 8 rejects it (its message, its offset) when
//! beamr follows an OTP release before 28:
//!
//! ```text
//! (*napla:..) (*pla:..) (*atomic:..) (*sr:..) ...   "(*VERB) not recognized or malformed"
//! (*NOTEMPTY) (*LIMIT_HEAP=N) ... (not PCRE 8's)     (at the character after the name,
//!                                                     or the `)` ending its argument)
//! (?*..) (?n) (?aD) ...                               "unrecognized character after (? or (?-"
//! (?C"text")                                          "closing ) for (?C expected"
//! (?(VERSION>=10.0)..)                                "malformed number or name after (?("
//! \N{U+41}                                            "PCRE does not support \L, \l, \N{name}, \U, or \u"
//! ```
//!
//! The scan skips character classes and `\Q...\E`; comments of the
//! `extended` option are not told apart from the pattern. `(?^` is
//! `translate`'s (its error comes from PCRE2 there).

use super::errors::EarlyError;

/// PCRE 8's start-of-pattern items (and those taking a number).
const START_ITEMS: &[&str] = &[
    "UTF8",
    "UTF",
    "UCP",
    "NO_AUTO_POSSESS",
    "NO_START_OPT",
    "CR",
    "LF",
    "CRLF",
    "ANYCRLF",
    "ANY",
    "BSR_ANYCRLF",
    "BSR_UNICODE",
];

/// PCRE 8's backtracking verbs (`""` is `(*:NAME)`).
const VERBS: &[&str] = &[
    "", "ACCEPT", "COMMIT", "F", "FAIL", "MARK", "PRUNE", "SKIP", "THEN",
];

/// PCRE 8's option letters in `(?...)`.
const OPTION_LETTERS: &[u8] = b"imsxJUX";

fn error(message: &str, offset: usize) -> Result<(), EarlyError> {
    Err(EarlyError {
        message: message.into(),
        offset,
    })
}

/// The length of the PCRE 8 start-of-pattern items `source` opens with.
fn start_items(source: &[u8]) -> usize {
    let mut at = 0;
    while source[at..].starts_with(b"(*") {
        let Some(close) = source[at..].iter().position(|&b| b == b')') else {
            break;
        };
        let name = String::from_utf8_lossy(&source[at + 2..at + close]);
        let limit = ["LIMIT_MATCH=", "LIMIT_RECURSION="].iter().any(|p| {
            name.strip_prefix(p)
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        });
        if !limit && !START_ITEMS.contains(&name.as_ref()) {
            break;
        }
        at += close + 1;
    }
    at
}

/// Where the class opening at `start` (a `[`) ends: after its `]`.
fn class_end(source: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    if source.get(i) == Some(&b'^') {
        i += 1;
    }
    if source.get(i) == Some(&b']') {
        i += 1;
    }
    while i < source.len() {
        match source[i] {
            b'\\' => i += 2,
            b'[' if source.get(i + 1) == Some(&b':') => {
                i += source[i + 2..]
                    .windows(2)
                    .position(|w| w == b":]")
                    .map_or(1, |p| p + 4);
            }
            b']' => return i + 1,
            _ => i += 1,
        }
    }
    source.len()
}

/// Rejects in `source` what PCRE 8 does not know (see the module doc).
pub(super) fn check(source: &[u8]) -> Result<(), EarlyError> {
    let at = |i: usize| source.get(i).copied().unwrap_or(0);
    let mut i = start_items(source);
    while i < source.len() {
        match source[i] {
            b'\\' if at(i + 1) == b'Q' => {
                i = source[i + 2..]
                    .windows(2)
                    .position(|w| w == b"\\E")
                    .map_or(source.len(), |p| i + 2 + p + 2);
            }
            b'\\' if at(i + 1) == b'N' && at(i + 2) == b'{' => {
                if !pcre8_quantifier(&source[i + 2..]) {
                    return error(
                        "PCRE does not support \\L, \\l, \\N{name}, \\U, or \\u",
                        i + 1,
                    );
                }
                i += 2;
            }
            b'\\' => i += 2,
            b'[' => i = class_end(source, i),
            b'(' if at(i + 1) == b'*' => {
                let name_end = i
                    + 2
                    + source[i + 2..]
                        .iter()
                        .take_while(|b| b.is_ascii_alphabetic())
                        .count();
                let name = String::from_utf8_lossy(&source[i + 2..name_end]);
                if !VERBS.contains(&name.as_ref()) {
                    let offset = if at(name_end) == b':' {
                        source[name_end..]
                            .iter()
                            .position(|&b| b == b')')
                            .map_or(source.len(), |p| name_end + p)
                    } else {
                        name_end
                    };
                    return error("(*VERB) not recognized or malformed", offset);
                }
                i = name_end;
            }
            b'(' if at(i + 1) == b'?' => {
                let next = at(i + 2);
                match next {
                    b'*' => return error("unrecognized character after (? or (?-", i + 2),
                    b'C' if b"`'\"^%#${".contains(&at(i + 3)) => {
                        return error("closing ) for (?C expected", i + 3)
                    }
                    b'(' if source[i + 3..].starts_with(b"VERSION") => {
                        return error("malformed number or name after (?(", i + 10)
                    }
                    b'P' | b'R' | b'C' => {}
                    c if c.is_ascii_alphabetic()
                        || (c == b'-' && at(i + 3).is_ascii_alphabetic()) =>
                    {
                        let mut k = i + 2;
                        while at(k).is_ascii_alphabetic() || at(k) == b'-' {
                            if at(k) != b'-' && !OPTION_LETTERS.contains(&at(k)) {
                                return error("unrecognized character after (? or (?-", k);
                            }
                            k += 1;
                        }
                    }
                    _ => {}
                }
                i += 2;
            }
            _ => i += 1,
        }
    }
    Ok(())
}

/// Whether `text` (starting at a `{`) is a quantifier for PCRE 8:
/// `{n}`, `{n,}` or `{n,m}`.
pub(super) fn pcre8_quantifier(text: &[u8]) -> bool {
    let digits = |from: usize| {
        text[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let n = digits(1);
    if n == 0 {
        return false;
    }
    match text.get(1 + n) {
        Some(b'}') => true,
        Some(b',') => text.get(2 + n + digits(2 + n)) == Some(&b'}'),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::check;

    fn err(p: &str) -> Option<(String, usize)> {
        check(p.as_bytes()).err().map(|e| (e.message, e.offset))
    }

    #[test]
    fn pcre2_only_syntax_fails_as_on_pcre_8() {
        let verb = "(*VERB) not recognized or malformed".to_string();
        assert_eq!(err("a(*napla:bc)b"), Some((verb.clone(), 11)));
        assert_eq!(err("(*NO_JIT)ab"), Some((verb.clone(), 4)));
        assert_eq!(err("(*NOTEMPTY)ab"), Some((verb, 10)));
        assert_eq!(err("(?aD)\\d").map(|e| e.1), Some(2));
        assert_eq!(err("a(?*bc)b").map(|e| e.1), Some(3));
        assert_eq!(err("(?(VERSION>=10.0)x|z)y").map(|e| e.1), Some(10));
        assert_eq!(err("a(?C\"x\")bc").map(|e| e.1), Some(4));
        assert_eq!(err("\\N{U+41}").map(|e| e.1), Some(1));
    }

    #[test]
    fn pcre_8_syntax_passes() {
        for p in [
            "(*UTF8)(*LIMIT_MATCH=10)a(*PRUNE)b(*MARK:x)(*:y)(*ACCEPT)",
            "(?i)a(?-i:b)(?P<n>c)(?P=n)(?R)?(?C1)",
            "[(*x][[:alpha:]]\\Q(*x\\E\\N{3}(?#c)(?|a|b)",
        ] {
            assert_eq!(err(p), None, "{p}");
        }
    }
}
