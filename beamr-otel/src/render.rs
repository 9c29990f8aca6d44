//! Terms as short strings for attributes: `~W` with a depth limit, cut at a
//! byte limit, so that a huge message never costs more than the limit.

use std::fmt::{self, Write};

use beamr_core::format::{display_with, Encoding, WriteOptions};
use beamr_core::term::Term;
use beamr_trace::Mfa;

/// How deep `~W` goes into a term.
pub const DEPTH: usize = 8;
/// The most bytes of a rendered term kept in an attribute.
pub const MAX_BYTES: usize = 512;

/// How terms are written: `~tW` with depth [`DEPTH`].
const OPTIONS: WriteOptions = WriteOptions {
    encoding: Encoding::Unicode,
    depth: Some(DEPTH),
};

/// A `fmt::Write` that keeps at most `limit` bytes and then refuses more,
/// which stops the writer early.
struct Bounded {
    out: String,
    limit: usize,
    cut: bool,
}

impl Bounded {
    fn new(limit: usize) -> Bounded {
        Bounded {
            out: String::new(),
            limit,
            cut: false,
        }
    }

    /// What was written, ending in `...` when it was cut.
    fn finish(mut self) -> String {
        if self.cut {
            self.out.push_str("...");
        }
        self.out
    }
}

impl Write for Bounded {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.cut {
            return Err(fmt::Error);
        }
        let room = self.limit - self.out.len();
        if s.len() <= room {
            self.out.push_str(s);
            return Ok(());
        }
        let mut end = room;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        self.out.push_str(&s[..end]);
        self.cut = true;
        Err(fmt::Error)
    }
}

/// `term` as `~tW` with depth [`DEPTH`], at most `limit` bytes, ending in
/// `...` when cut.
pub fn term_limited(term: Term, limit: usize) -> String {
    let mut b = Bounded::new(limit);
    let _ = write!(b, "{}", display_with(term, OPTIONS));
    b.finish()
}

/// `term` as [`term_limited`] with [`MAX_BYTES`].
pub fn term(term: Term) -> String {
    term_limited(term, MAX_BYTES)
}

/// Arguments as `[A1, A2]`-style `~W` text, cut at [`MAX_BYTES`].
pub fn args(args: &[Term]) -> String {
    let mut b = Bounded::new(MAX_BYTES);
    let _ = b.write_str("[");
    for (i, &a) in args.iter().enumerate() {
        let sep = if i == 0 { "" } else { "," };
        let _ = write!(b, "{sep}{}", display_with(a, OPTIONS));
    }
    let _ = b.write_str("]");
    b.finish()
}

/// A local pid as `<0.ID.SERIAL>`.
pub fn pid(n: u64) -> String {
    term(Term::pid(n))
}

/// `module:function/arity`.
pub fn mfa(m: Mfa) -> String {
    format!("{}:{}/{}", m.module.name(), m.function.name(), m.arity)
}

#[cfg(test)]
mod tests {
    use super::*;
    use beamr_core::atom::Atom;
    use beamr_core::heap::Heap;

    #[test]
    fn renders_as_erlang_writes() {
        let mut h = Heap::new();
        let ok = Term::atom(Atom::new("ok").unwrap());
        let t = h.tuple(&[ok, Term::small_unchecked(42)]);
        assert_eq!(term(t), "{ok,42}");
        assert_eq!(pid(80), "<0.80.0>");
        assert_eq!(args(&[ok, Term::NIL]), "[ok,[]]");
        assert_eq!(args(&[]), "[]");
        let m = Mfa {
            module: Atom::new("lists").unwrap(),
            function: Atom::new("map").unwrap(),
            arity: 2,
        };
        assert_eq!(mfa(m), "lists:map/2");
    }

    #[test]
    fn cuts_long_terms() {
        let mut h = Heap::new();
        let long = Term::atom(Atom::new(&"x".repeat(200)).unwrap());
        let l = h.tuple(&[long; 5]);
        let s = term_limited(l, 20);
        assert!(s.len() == 23 && s.ends_with("..."), "{s}");
        let many: Vec<Term> = vec![l; 3];
        let a = args(&many);
        assert!(a.len() <= MAX_BYTES + 3 && a.ends_with("..."));
    }
}
