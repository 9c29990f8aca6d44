//! The `string` module's BIFs: `string:list_to_integer/1` and
//! `string:list_to_float/1`, the parsers behind `string:to_integer/1` and
//! `string:to_float/1`.
//!
//! Both read the longest prefix of a character list that is a number and
//! return `{Number, Rest}` (`Rest` the list from there on, whatever its
//! tail), `{error, no_integer | no_float}` when there is none, or
//! `{error, not_a_list}`.
//!
//! ```text
//! integer  [+-]? digit+
//! float    [+-]? digit+ '.' digit+ ([eE] [+-]? digit+)?    (finite, else no_float)
//! ```

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use num_bigint::BigInt;

use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("string", "list_to_integer", 1, list_to_integer),
    ("string", "list_to_float", 1, list_to_float),
];

/// A cursor over a character list: the characters read so far and the rest.
struct Reader {
    text: String,
    rest: Term,
}

impl Reader {
    fn new(list: Term) -> Reader {
        Reader {
            text: String::new(),
            rest: list,
        }
    }

    fn peek(&self) -> Option<char> {
        let (h, _) = self.rest.as_cons()?;
        let c = h.as_small()?;
        u8::try_from(c).ok().map(char::from)
    }

    /// Consumes the next character if `accept` takes it.
    fn take(&mut self, accept: impl Fn(char) -> bool) -> bool {
        match self.peek() {
            Some(c) if accept(c) => {
                self.text.push(c);
                self.rest = self.rest.as_cons().map_or(Term::NIL, |(_, t)| t);
                true
            }
            _ => false,
        }
    }

    fn digits(&mut self) -> usize {
        let mut n = 0;
        while self.take(|c| c.is_ascii_digit()) {
            n += 1;
        }
        n
    }
}

fn error(p: &mut Process, reason: &str) -> Result<Term, Exception> {
    let reason = Atom::new(reason).map_err(|_| Exception::badarg())?;
    Ok(p.heap.tuple(&[Term::atom(Atom::ERROR), Term::atom(reason)]))
}

fn is_list(t: Term) -> bool {
    t.is_nil() || t.as_cons().is_some()
}

fn list_to_integer(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !is_list(a[0]) {
        return error(p, "not_a_list");
    }
    let mut r = Reader::new(a[0]);
    r.take(|c| c == '+' || c == '-');
    if r.digits() == 0 {
        return error(p, "no_integer");
    }
    let text = r.text.strip_prefix('+').unwrap_or(&r.text);
    let value = match text.parse::<i64>() {
        Ok(v) => p.heap.int(v),
        Err(_) => {
            let big: BigInt = text.parse().map_err(|_| Exception::badarg())?;
            p.heap.bigint(&big)
        }
    };
    Ok(p.heap.tuple(&[value, r.rest]))
}

fn list_to_float(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !is_list(a[0]) {
        return error(p, "not_a_list");
    }
    let mut r = Reader::new(a[0]);
    r.take(|c| c == '+' || c == '-');
    if r.digits() == 0 || !r.take(|c| c == '.') || r.digits() == 0 {
        return error(p, "no_float");
    }
    // An exponent counts only when digits follow it.
    let mantissa = (r.text.clone(), r.rest);
    if r.take(|c| c == 'e' || c == 'E') {
        r.take(|c| c == '+' || c == '-');
        if r.digits() == 0 {
            (r.text, r.rest) = mantissa;
        }
    }
    match r.text.parse::<f64>() {
        Ok(f) if f.is_finite() => {
            let value = p.heap.float(f);
            Ok(p.heap.tuple(&[value, r.rest]))
        }
        _ => error(p, "no_float"),
    }
}
