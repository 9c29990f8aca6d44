//! `~p`, `~tp` and `~P`: OTP 25's `io_lib_pretty:print/2`.
//!
//! Printing goes in two steps, as in OTP:
//!
//! 1. [`Builder::build`] turns the term into the intermediate form
//!    ([`Elem`]): the text of every atomic part, and for every list,
//!    tuple, map and binary its parts and its length on one line. Printable
//!    lists and binaries become strings here, and the depth limit of `~P`
//!    turns what lies beyond it into `...`.
//! 2. If the whole fits in the rest of the line it is written on one line;
//!    otherwise [`layout`](super::layout) breaks it across lines.
//!
//! Records are not known (no record definitions reach the runtime), so they
//! print as the tuples they are. The `chars_limit` option of
//! `io_lib_pretty` is not supported (`io:format` never sets it).

use std::fmt::{self, Write};

use super::binary::{for_each_piece, Piece};
use super::chars::{write_atom, write_quoted, CharMode};
use super::layout;
use super::printable::{printable_bin, printable_list};
use super::write::write_term;
use super::{Encoding, PrintableRange};
use crate::map::{iter_in, Order};
use crate::term::{Kind, Term};

/// Options of [`write_p`]: what distinguishes `~p`, `~tp` and `~P`, and
/// where on the line the output starts.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PrettyOptions {
    /// The column the term starts at, from 1 (`io_lib_format` passes the
    /// number of characters already on the line plus one).
    pub column: usize,
    /// The line length (80 unless a field width is given, as in `~40p`;
    /// 0 writes everything on one line).
    pub line_length: usize,
    /// The depth limit of `~P` (`None`: unlimited, as `~p`; `Some(0)`
    /// prints just `...`).
    pub depth: Option<usize>,
    /// `Latin1` for `~p`, `Unicode` for `~tp`.
    pub encoding: Encoding,
    /// The characters accepted in strings (`io:printable_range/0`).
    pub printable_range: PrintableRange,
    /// Whether printable lists and binaries are shown as strings (`false`
    /// for the `l` modifier, `~lp`).
    pub strings: bool,
}

impl Default for PrettyOptions {
    /// The options of a `~p` at the start of a line.
    fn default() -> PrettyOptions {
        PrettyOptions {
            column: 1,
            line_length: 80,
            depth: None,
            encoding: Encoding::Latin1,
            printable_range: PrintableRange::Latin1,
            strings: true,
        }
    }
}

/// Writes `term` as `io:format("~p", [Term])` does with `options`.
pub fn write_p<W: Write + ?Sized>(term: Term, out: &mut W, options: &PrettyOptions) -> fmt::Result {
    out.write_str(&format_p(term, options))
}

/// `term` as `~p` prints it with `options`, as a string.
pub fn format_p(term: Term, options: &PrettyOptions) -> String {
    let mut out = String::new();
    let depth = match options.depth {
        None => -1,
        Some(d) => i64::try_from(d).unwrap_or(i64::MAX),
    };
    let enc = options.encoding;
    if depth == 0 {
        out.push_str("...");
        return out;
    }
    match term.kind() {
        Kind::Atom => {
            let name = term.as_atom().map(|a| a.name()).unwrap_or("");
            let _ = write_atom(&mut out, name, CharMode::for_atoms(enc));
        }
        Kind::Tuple | Kind::Nil | Kind::Cons | Kind::Map | Kind::Binary => {
            let builder = Builder {
                enc,
                range: options.printable_range,
                strings: options.strings,
            };
            let elem = builder.build(term, depth);
            let col = (options.column as i64).max(1);
            let ll = options.line_length as i64;
            let m = elem.len;
            if ll == 0 || (elem.len < ll - col && elem.len <= m) {
                elem.write(&mut out);
            } else {
                layout::print(&elem, col, ll, m, &mut out);
            }
        }
        _ => {
            let _ = write_term(&mut out, term, -1, Encoding::Latin1);
        }
    }
    out
}

/// A part of the intermediate form with its length on one line, in
/// characters (OTP's `{Form, Len, Dots, More}` without the last two, which
/// only serve `chars_limit`).
#[derive(Clone, Debug)]
pub(super) struct Elem {
    /// What the part is.
    pub node: Node,
    /// Its length written on one line.
    pub len: i64,
}

/// The kinds of parts.
#[derive(Clone, Debug)]
pub(super) enum Node {
    /// Text that is never broken: numbers, atoms, strings, `...`, printable
    /// binaries. Only these count as "atomic" for the layout.
    Leaf(String),
    /// A binary shown as its bytes, which may wrap between bytes.
    Bin(Vec<Piece>),
    /// A list.
    List(Seq),
    /// A tuple; `tagged` when its first element is an atom and it has more
    /// than one, which changes its indentation.
    Tuple {
        /// First element an atom, size at least 2.
        tagged: bool,
        /// The elements.
        seq: Seq,
    },
    /// A map: a sequence of [`Node::Pair`]s.
    Map(Seq),
    /// `Key => Value` in a map.
    Pair(Box<Elem>, Box<Elem>),
}

/// The elements of a list, tuple or map, and what ends them.
#[derive(Clone, Debug)]
pub(super) struct Seq {
    /// The elements shown.
    pub items: Vec<Elem>,
    /// The end.
    pub tail: Tail,
}

/// How a sequence ends.
#[derive(Clone, Debug)]
pub(super) enum Tail {
    /// Nothing more.
    Nil,
    /// Cut by the depth limit: `...`.
    Dots,
    /// The improper tail of a list, after `|`.
    Improper(Box<Elem>),
}

impl Elem {
    fn leaf(s: String) -> Elem {
        let len = s.chars().count() as i64;
        Elem {
            node: Node::Leaf(s),
            len,
        }
    }

    /// True for a part the layout may put after others on a line (OTP's
    /// `?ATM`).
    pub(super) fn is_atomic(&self) -> bool {
        matches!(self.node, Node::Leaf(_))
    }

    /// Writes the part on one line (OTP's `write/1`).
    pub(super) fn write(&self, out: &mut String) {
        match &self.node {
            Node::Leaf(s) => out.push_str(s),
            Node::Bin(pieces) => {
                out.push_str("<<");
                for (i, p) in pieces.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    let _ = p.write(out);
                }
                out.push_str(">>");
            }
            Node::List(seq) => {
                out.push('[');
                seq.write(out, '|');
                out.push(']');
            }
            Node::Tuple { seq, .. } => {
                out.push('{');
                seq.write(out, ',');
                out.push('}');
            }
            Node::Map(seq) => {
                out.push_str("#{");
                seq.write(out, ',');
                out.push('}');
            }
            Node::Pair(k, v) => {
                k.write(out);
                out.push_str(" => ");
                v.write(out);
            }
        }
    }
}

impl Seq {
    /// Writes the elements on one line; `sep` goes before `...` and an
    /// improper tail (OTP's `write_list/2`).
    fn write(&self, out: &mut String, sep: char) {
        for (i, e) in self.items.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            e.write(out);
        }
        let first = self.items.is_empty();
        match &self.tail {
            Tail::Nil => {}
            Tail::Dots => {
                if !first {
                    out.push(sep);
                }
                out.push_str("...");
            }
            Tail::Improper(e) => {
                if !first {
                    out.push(sep);
                }
                e.write(out);
            }
        }
    }

    /// The sequence's length on one line inside brackets of `base`
    /// characters (OTP's `list_length/3`).
    fn len(&self, base: i64) -> i64 {
        let mut len = base;
        for (i, e) in self.items.iter().enumerate() {
            len += e.len + i64::from(i > 0);
        }
        let sep = i64::from(!self.items.is_empty());
        match &self.tail {
            Tail::Nil => len,
            Tail::Dots => len + sep + 3,
            Tail::Improper(e) => len + sep + e.len,
        }
    }
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

/// Builds the intermediate form (OTP's `print_length/6`).
struct Builder {
    enc: Encoding,
    range: PrintableRange,
    strings: bool,
}

impl Builder {
    /// The intermediate form of `t` at depth `d` (negative: unlimited).
    fn build(&self, t: Term, d: i64) -> Elem {
        match t.kind() {
            Kind::Nil => Elem::leaf("[]".into()),
            Kind::Atom => {
                let mut s = String::new();
                let name = t.as_atom().map(|a| a.name()).unwrap_or("");
                let _ = write_atom(&mut s, name, CharMode::for_atoms(self.enc));
                Elem::leaf(s)
            }
            Kind::Cons => {
                if self.strings && d != 1 {
                    if let Some(chars) = printable_list(t, self.enc, self.range) {
                        return Elem::leaf(quoted(chars));
                    }
                }
                self.list(t, d)
            }
            Kind::Tuple => self.tuple(t, d),
            Kind::Map => self.map(t, d),
            Kind::Binary => self.binary(t, d),
            _ => {
                let mut s = String::new();
                let _ = write_term(&mut s, t, -1, Encoding::Latin1);
                Elem::leaf(s)
            }
        }
    }

    fn list(&self, t: Term, d: i64) -> Elem {
        let mut items = Vec::new();
        let mut rest = t;
        let mut d = d;
        let tail = loop {
            if rest.is_nil() {
                break Tail::Nil;
            }
            if d == 1 {
                break Tail::Dots;
            }
            match rest.as_cons() {
                Some((head, tail)) => {
                    items.push(self.build(head, sub(d)));
                    rest = tail;
                    d = sub(d);
                }
                None => break Tail::Improper(Box::new(self.build(rest, sub(d)))),
            }
        };
        let seq = Seq { items, tail };
        Elem {
            len: seq.len(2),
            node: Node::List(seq),
        }
    }

    fn tuple(&self, t: Term, d: i64) -> Elem {
        let elements = t.tuple_elements().unwrap_or(&[]);
        if elements.is_empty() {
            return Elem::leaf("{}".into());
        }
        if d == 1 {
            return Elem::leaf("{...}".into());
        }
        let mut items = Vec::with_capacity(elements.len());
        let mut tail = Tail::Nil;
        let mut d = d;
        for &e in elements {
            if d == 1 {
                tail = Tail::Dots;
                break;
            }
            items.push(self.build(e, sub(d)));
            d = sub(d);
        }
        let tagged = elements.len() > 1 && elements[0].is_atom();
        let seq = Seq { items, tail };
        Elem {
            len: seq.len(2),
            node: Node::Tuple { tagged, seq },
        }
    }

    fn map(&self, t: Term, d: i64) -> Elem {
        let mut pairs = iter_in(t, Order::Next).into_iter().flatten().peekable();
        if pairs.peek().is_none() {
            return Elem::leaf("#{}".into());
        }
        if d == 1 {
            return Elem::leaf("#{...}".into());
        }
        let d0 = sub(d);
        let mut items = Vec::new();
        let mut d = d;
        let tail = loop {
            let Some((k, v)) = pairs.next() else {
                break Tail::Nil;
            };
            if d == 1 {
                break Tail::Dots;
            }
            let k = self.build(k, d0);
            let v = self.build(v, d0);
            items.push(Elem {
                len: k.len + 4 + v.len,
                node: Node::Pair(Box::new(k), Box::new(v)),
            });
            d = sub(d);
        };
        let seq = Seq { items, tail };
        Elem {
            len: seq.len(3),
            node: Node::Map(seq),
        }
    }

    fn binary(&self, t: Term, d: i64) -> Elem {
        let Some(view) = t.binary_parts() else {
            return Elem::leaf(String::new());
        };
        if view.bit_size == 0 {
            return Elem::leaf("<<>>".into());
        }
        if d == 1 {
            return Elem::leaf("<<...>>".into());
        }
        if self.strings && view.is_binary() {
            let (bytes, _) = super::binary::split_bits(&view);
            if let Some(s) = printable_bin(&bytes, sub(d), self.enc, self.range) {
                let mut text = String::from("<<");
                text.push_str(&quoted(s.chars));
                if s.utf8 {
                    text.push_str("/utf8");
                }
                if s.prefix {
                    text.push_str("...");
                }
                text.push_str(">>");
                return Elem::leaf(text);
            }
        }
        let mut pieces = Vec::new();
        let _ = for_each_piece(&view, d, |p| {
            pieces.push(p);
            Ok(())
        });
        let mut len = 4 + pieces.len().saturating_sub(1) as i64;
        for p in &pieces {
            let mut s = String::new();
            let _ = p.write(&mut s);
            len += s.len() as i64;
        }
        Elem {
            node: Node::Bin(pieces),
            len,
        }
    }
}

/// `chars` between double quotes, escaped (`io_lib:write_string/2`).
fn quoted(chars: Vec<char>) -> String {
    let mut s = String::with_capacity(chars.len() + 2);
    let _ = write_quoted(&mut s, chars, '"', CharMode::Unicode);
    s
}
