//! `~w`, `~tw` and `~W`: a term on one line, as `io_lib:write/2` writes it.
//!
//! Lists are never shown as strings, maps are written in their internal
//! iteration order, and atoms are quoted when Erlang quotes them. Under the
//! latin1 encoding (`~w`) characters of atoms above 255 are written as
//! `\x{HEX}`; under unicode (`~tw`) as they are.
//!
//! With a depth (`~W`), each nesting level and each element of a list,
//! tuple, map or binary uses up one unit; what lies beyond is written as
//! `...` (`[1,2|...]`, `{a,...}`, `<<1,...>>`, `#{a => 1,...}`).
//!
//! The writer goes straight to a [`fmt::Write`] without building anything
//! in between; small integers, atoms, pids and floats are written without
//! `core::fmt`'s machinery.

use std::fmt::{self, Write};

use super::binary::write_binary;
use super::chars::{write_atom, CharMode};
use super::float::write_float;
use super::ids::{write_fun, write_internal, write_pid, write_port, write_ref};
use super::number::{write_big, write_i64};
use super::Encoding;
use crate::map::{iter_in, Order};
use crate::term::{Kind, Term};

/// Options of [`write_with`]: what distinguishes `~w`, `~tw` and `~W`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// How characters of atoms above 255 are written: `Latin1` for `~w`,
    /// `Unicode` for `~tw`.
    pub encoding: Encoding,
    /// The depth limit of `~W` (`None`: unlimited, as `~w`; `Some(0)`
    /// writes just `...`).
    pub depth: Option<usize>,
}

impl Default for WriteOptions {
    /// The options of `~w`: latin1, no depth limit.
    fn default() -> WriteOptions {
        WriteOptions {
            encoding: Encoding::Latin1,
            depth: None,
        }
    }
}

/// Writes `term` as `io:format("~w", [Term])` does.
pub fn write_w<W: Write + ?Sized>(term: Term, out: &mut W) -> fmt::Result {
    write_term(out, term, -1, Encoding::Latin1)
}

/// Writes `term` as `~w`, `~tw` or `~W` do, as `options` say.
pub fn write_with<W: Write + ?Sized>(
    term: Term,
    out: &mut W,
    options: &WriteOptions,
) -> fmt::Result {
    let depth = match options.depth {
        None => -1,
        Some(d) => i64::try_from(d).unwrap_or(i64::MAX),
    };
    write_term(out, term, depth, options.encoding)
}

/// A term that displays as `~w` writes it (see [`display_w`]).
#[derive(Copy, Clone, Debug)]
pub struct DisplayW {
    term: Term,
    options: WriteOptions,
}

impl fmt::Display for DisplayW {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_with(self.term, f, &self.options)
    }
}

/// Wraps `term` so that `{}` formats it as `~w`: `format!("{}", display_w(t))`.
pub fn display_w(term: Term) -> DisplayW {
    DisplayW {
        term,
        options: WriteOptions::default(),
    }
}

/// Wraps `term` so that `{}` formats it with `options` (`~tw`, `~W`).
pub fn display_with(term: Term, options: WriteOptions) -> DisplayW {
    DisplayW { term, options }
}

/// One level less of depth; a negative depth is unlimited and stays so.
#[inline]
fn sub(d: i64) -> i64 {
    if d > 0 {
        d - 1
    } else {
        d
    }
}

/// Writes `t` at depth `d` (negative: unlimited), as OTP's `io_lib:write1/3`.
pub(crate) fn write_term<W: Write + ?Sized>(
    out: &mut W,
    t: Term,
    d: i64,
    enc: Encoding,
) -> fmt::Result {
    if d == 0 {
        return out.write_str("...");
    }
    match t.kind() {
        Kind::SmallInt => write_i64(out, t.small_value()),
        Kind::Atom => match t.as_atom() {
            Some(a) => write_atom(out, a.name(), CharMode::for_atoms(enc)),
            None => write_internal(out, t),
        },
        Kind::Nil => out.write_str("[]"),
        Kind::Cons => write_list(out, t, d, enc),
        Kind::Tuple => write_tuple(out, t, d, enc),
        Kind::Float => write_float(out, t.as_float().unwrap_or(0.0)),
        Kind::BigInt => match t.big_parts() {
            Some(b) => write_big(out, b),
            None => write_internal(out, t),
        },
        Kind::Map => write_map(out, t, d, enc),
        Kind::Record => write_record(out, t, d, enc),
        Kind::Binary => match t.binary_parts() {
            Some(view) => write_binary(out, &view, d),
            None => write_internal(out, t),
        },
        Kind::Pid => write_pid(out, t),
        Kind::Port => write_port(out, t),
        Kind::Ref => write_ref(out, t),
        Kind::Fun => write_fun(out, t),
        Kind::MatchContext | Kind::Catch | Kind::NonValue | Kind::Invalid => write_internal(out, t),
    }
}

/// `[H|T]`: elements separated by `,`, an improper tail after `|`.
fn write_list<W: Write + ?Sized>(out: &mut W, t: Term, d: i64, enc: Encoding) -> fmt::Result {
    if d == 1 {
        return out.write_str("[...]");
    }
    let Some((head, mut tail)) = t.as_cons() else {
        return write_internal(out, t);
    };
    out.write_char('[')?;
    let mut d = sub(d);
    write_term(out, head, d, enc)?;
    loop {
        if tail.is_nil() {
            break;
        }
        if d == 1 {
            out.write_str("|...")?;
            break;
        }
        match tail.as_cons() {
            Some((h, t)) => {
                out.write_char(',')?;
                write_term(out, h, sub(d), enc)?;
                tail = t;
                d = sub(d);
            }
            None => {
                out.write_char('|')?;
                write_term(out, tail, sub(d), enc)?;
                break;
            }
        }
    }
    out.write_char(']')
}

/// `{E1,E2}`.
fn write_tuple<W: Write + ?Sized>(out: &mut W, t: Term, d: i64, enc: Encoding) -> fmt::Result {
    let elements = t.tuple_elements().unwrap_or(&[]);
    let Some((first, rest)) = elements.split_first() else {
        return out.write_str("{}");
    };
    if d == 1 {
        return out.write_str("{...}");
    }
    out.write_char('{')?;
    let mut d = sub(d);
    write_term(out, *first, d, enc)?;
    for &e in rest {
        if d == 1 {
            out.write_str(",...")?;
            break;
        }
        out.write_char(',')?;
        write_term(out, e, sub(d), enc)?;
        d = sub(d);
    }
    out.write_char('}')
}

/// `#M:N{F1 = V1,...}`, fields in declaration order, as OTP 29's
/// `io_lib:write_record/4`: each field one level deeper than the last.
fn write_record<W: Write + ?Sized>(out: &mut W, t: Term, d: i64, enc: Encoding) -> fmt::Result {
    let Some(r) = t.record_parts() else {
        return write_internal(out, t);
    };
    let mode = CharMode::for_atoms(enc);
    out.write_char('#')?;
    write_atom(out, r.def.module.name(), mode)?;
    out.write_char(':')?;
    write_atom(out, r.def.name.name(), mode)?;
    out.write_char('{')?;
    let mut d = d;
    for (i, (&f, &v)) in r.def.fields.iter().zip(r.values).enumerate() {
        if i > 0 {
            out.write_char(',')?;
        }
        if d == 1 {
            out.write_str("...")?;
            break;
        }
        write_atom(out, f.name(), mode)?;
        out.write_str(" = ")?;
        write_term(out, v, sub(d), enc)?;
        d = sub(d);
    }
    out.write_char('}')
}

/// `#{K => V,...}` in the map's iteration order.
fn write_map<W: Write + ?Sized>(out: &mut W, t: Term, d: i64, enc: Encoding) -> fmt::Result {
    if d == 1 {
        return out.write_str("#{}");
    }
    let mut pairs = iter_in(t, Order::Next).into_iter().flatten();
    let Some((k, v)) = pairs.next() else {
        return out.write_str("#{}");
    };
    let d0 = sub(d);
    out.write_str("#{")?;
    write_assoc(out, k, v, d0, enc)?;
    let mut d = d0;
    loop {
        if d == 1 {
            out.write_str(",...")?;
            break;
        }
        let Some((k, v)) = pairs.next() else { break };
        out.write_char(',')?;
        write_assoc(out, k, v, d0, enc)?;
        d = sub(d);
    }
    out.write_char('}')
}

/// `K => V`, both at depth `d`.
fn write_assoc<W: Write + ?Sized>(
    out: &mut W,
    k: Term,
    v: Term,
    d: i64,
    enc: Encoding,
) -> fmt::Result {
    write_term(out, k, d, enc)?;
    out.write_str(" => ")?;
    write_term(out, v, d, enc)
}
