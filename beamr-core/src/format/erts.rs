//! Terms as the runtime's own C printer writes them (`erts_printf`'s `%T`,
//! used by `erlang:display/1` and by `erl` for `{"init terminating in
//! do_boot", Reason}`): like `~w`, with these differences:
//!
//! - floats as C's `%e` (`1.500000e+00`);
//! - maps as `#{K=>V,...}`, without spaces;
//! - a non-empty flat list of bytes that are printable latin1 or space
//!   (`\n \t \r`) as a string, escaping only `"` and newline;
//! - a non-empty binary of printable ASCII bytes as `<<"...">>`;
//! - atoms quoted when not a latin1 lowercase letter followed by latin1
//!   alphanumerics and `_`, with utf8 names written as their bytes;
//! - output as bytes: characters 160..=255 in strings are single bytes.
//!
//! Hash-trie maps (over 32 keys) are written in `~w`'s key order rather
//! than as erts' internal `#<bitmap>{...}` nodes.

use crate::map::{self, Order};
use crate::term::{Kind, Term};

use super::ids::{write_pid, write_port, write_ref};

/// `term` as the runtime's C printer writes it.
pub fn display_erts(term: Term) -> Vec<u8> {
    let mut out = Vec::new();
    write(&mut out, term);
    out
}

fn is_cntrl(c: u32) -> bool {
    c < 32 || c == 127 || (128..160).contains(&c)
}

fn is_space(c: u32) -> bool {
    matches!(c, 0x20 | 0x0A | 0x09 | 0x0D)
}

fn is_lower(c: u32) -> bool {
    (u32::from(b'a')..=u32::from(b'z')).contains(&c) || ((223..=255).contains(&c) && c != 247)
}

fn is_alnum(c: u32) -> bool {
    (u32::from(b'0')..=u32::from(b'9')).contains(&c)
        || is_lower(c)
        || (u32::from(b'A')..=u32::from(b'Z')).contains(&c)
        || ((192..=222).contains(&c) && c != 215)
}

/// The bytes of a printable string, or `None`.
fn printable_string(mut t: Term) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    while let Some((h, tl)) = t.as_cons() {
        let c = u32::try_from(h.as_small()?).ok().filter(|&c| c <= 255)?;
        if is_cntrl(c) && !is_space(c) {
            return None;
        }
        bytes.push(c as u8);
        t = tl;
    }
    (t.is_nil() && !bytes.is_empty()).then_some(bytes)
}

fn write_atom(out: &mut Vec<u8>, name: &str) {
    if name.is_empty() {
        out.extend_from_slice(b"''");
        return;
    }
    // Each character as latin1 for the quoting test; anything beyond
    // latin1 needs quotes.
    let mut chars = name.chars().map(|c| c as u32);
    let first = chars.next().unwrap_or(0);
    let quote = !is_lower(first) || chars.any(|c| c > 255 || !(is_alnum(c) || c == '_' as u32));
    if quote {
        out.push(b'\'');
    }
    for c in name.chars() {
        match c {
            '\'' => out.extend_from_slice(b"\\'"),
            '\\' => out.extend_from_slice(b"\\\\"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\x0C' => out.extend_from_slice(b"\\f"),
            '\t' => out.extend_from_slice(b"\\t"),
            '\r' => out.extend_from_slice(b"\\r"),
            '\x08' => out.extend_from_slice(b"\\b"),
            '\x0B' => out.extend_from_slice(b"\\v"),
            c if (c as u32) < 32 || (128..160).contains(&(c as u32)) => {
                out.extend_from_slice(format!("\\{:03o}", c as u32).as_bytes());
            }
            c => {
                let mut buf = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
    if quote {
        out.push(b'\'');
    }
}

/// C's `%e`: six decimals and an exponent of at least two digits.
fn write_float(out: &mut Vec<u8>, f: f64) {
    let text = format!("{f:.6e}");
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    let (sign, digits) = match exponent.strip_prefix('-') {
        Some(d) => ('-', d),
        None => ('+', exponent),
    };
    out.extend_from_slice(format!("{mantissa}e{sign}{digits:0>2}").as_bytes());
}

fn write_binary(out: &mut Vec<u8>, t: Term) {
    let Some(view) = t.binary_parts() else {
        out.extend_from_slice(b"<<>>");
        return;
    };
    let (bytes, bits) = super::binary::split_bits(&view);
    let printable =
        bits.is_none() && !bytes.is_empty() && bytes.iter().all(|&b| (32..127).contains(&b));
    if printable {
        out.extend_from_slice(b"<<\"");
        for &b in bytes.iter() {
            if b == b'"' {
                out.push(b'\\');
            }
            out.push(b);
        }
        out.extend_from_slice(b"\">>");
        return;
    }
    out.extend_from_slice(b"<<");
    let mut first = true;
    for &b in bytes.iter() {
        if !first {
            out.push(b',');
        }
        first = false;
        out.extend_from_slice(b.to_string().as_bytes());
    }
    if let Some((value, size)) = bits {
        if !first {
            out.push(b',');
        }
        out.extend_from_slice(format!("{value}:{size}").as_bytes());
    }
    out.extend_from_slice(b">>");
}

fn write_fmt(out: &mut Vec<u8>, f: impl FnOnce(&mut String) -> std::fmt::Result) {
    let mut s = String::new();
    let _ = f(&mut s);
    out.extend_from_slice(s.as_bytes());
}

fn write(out: &mut Vec<u8>, t: Term) {
    match t.kind() {
        Kind::SmallInt => out.extend_from_slice(t.small_value().to_string().as_bytes()),
        Kind::BigInt => match t.big_parts() {
            Some(b) => out.extend_from_slice(b.to_bigint().to_string().as_bytes()),
            None => out.extend_from_slice(b"<unknown>"),
        },
        Kind::Float => write_float(out, t.as_float().unwrap_or(0.0)),
        Kind::Atom => match t.as_atom() {
            Some(a) => write_atom(out, a.name()),
            None => out.extend_from_slice(b"<bad atom>"),
        },
        Kind::Nil => out.extend_from_slice(b"[]"),
        Kind::Cons => {
            if let Some(bytes) = printable_string(t) {
                out.push(b'"');
                for b in bytes {
                    match b {
                        b'\n' => out.extend_from_slice(b"\\n"),
                        b'"' => out.extend_from_slice(b"\\\""),
                        b => out.push(b),
                    }
                }
                out.push(b'"');
                return;
            }
            out.push(b'[');
            let mut l = t;
            let mut first = true;
            while let Some((h, tl)) = l.as_cons() {
                if !first {
                    out.push(b',');
                }
                first = false;
                write(out, h);
                l = tl;
            }
            if !l.is_nil() {
                out.push(b'|');
                write(out, l);
            }
            out.push(b']');
        }
        Kind::Tuple => {
            out.push(b'{');
            for (i, &e) in t.tuple_elements().unwrap_or(&[]).iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write(out, e);
            }
            out.push(b'}');
        }
        Kind::Map => {
            out.extend_from_slice(b"#{");
            if let Some(pairs) = map::iter_in(t, Order::Next) {
                for (i, (k, v)) in pairs.enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    write(out, k);
                    out.extend_from_slice(b"=>");
                    write(out, v);
                }
            }
            out.push(b'}');
        }
        Kind::Record => {
            if let Some(r) = t.record_parts() {
                out.push(b'#');
                write_atom(out, r.def.module.name());
                out.push(b':');
                write_atom(out, r.def.name.name());
                out.push(b'{');
                for (i, (&f, &v)) in r.def.fields.iter().zip(r.values).enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    write_atom(out, f.name());
                    out.push(b'=');
                    write(out, v);
                }
                out.push(b'}');
            }
        }
        Kind::Binary => write_binary(out, t),
        Kind::Pid => write_fmt(out, |s| write_pid(s, t)),
        Kind::Port => write_fmt(out, |s| write_port(s, t)),
        Kind::Ref => write_fmt(out, |s| write_ref(s, t)),
        Kind::Fun => {
            if let Some(c) = t.closure_parts() {
                out.extend_from_slice(b"#Fun<");
                out.extend_from_slice(c.entry.module.name().as_bytes());
                out.extend_from_slice(
                    format!(".{}.{}>", c.entry.old_index, c.entry.old_uniq).as_bytes(),
                );
            } else if let Some(e) = t.as_export() {
                out.extend_from_slice(b"fun ");
                write_atom(out, e.module.name());
                out.push(b':');
                write_atom(out, e.function.name());
                out.extend_from_slice(format!("/{}", e.arity).as_bytes());
            }
        }
        Kind::MatchContext => out.extend_from_slice(b"#MatchState"),
        Kind::Catch | Kind::NonValue | Kind::Invalid => out.extend_from_slice(b"<unknown>"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::Heap;

    fn shown(t: Term) -> String {
        String::from_utf8_lossy(&display_erts(t)).into_owned()
    }

    #[test]
    fn floats_are_c_e_format() {
        let mut h = Heap::new();
        assert_eq!(shown(h.float(1.5)), "1.500000e+00");
        assert_eq!(shown(h.float(-2.0e-10)), "-2.000000e-10");
        assert_eq!(shown(h.float(0.0)), "0.000000e+00");
        assert_eq!(shown(h.float(1.0e300)), "1.000000e+300");
    }

    #[test]
    fn strings_binaries_and_maps() {
        let mut h = Heap::new();
        let s = h.string("a\"b\nc");
        assert_eq!(shown(s), "\"a\\\"b\\nc\"");
        let l = h.list(&[Term::small_unchecked(1), Term::small_unchecked(2)]);
        assert_eq!(shown(l), "[1,2]");
        let b = h.binary(b"ab");
        let raw = h.binary(&[1, 2]);
        let empty = h.binary(b"");
        assert_eq!(shown(b), "<<\"ab\">>");
        assert_eq!(shown(raw), "<<1,2>>");
        assert_eq!(shown(empty), "<<>>");
        let k = Term::atom(crate::atom::Atom::new("k").unwrap());
        let m = crate::map::from_pairs(&mut h, &[(k, Term::small_unchecked(1))]);
        assert_eq!(shown(m), "#{k=>1}");
        let q = Term::atom(crate::atom::Atom::new("Q a").unwrap());
        assert_eq!(shown(q), "'Q a'");
    }
}
