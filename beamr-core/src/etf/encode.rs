//! Encoding: `term_to_binary`, byte for byte as OTP 25 writes it, or as a
//! later release or another `minor_version` does ([`EncodeOptions`]).
//!
//! OTP 25's choices, which this file reproduces:
//! - integers in the smallest form: `SMALL_INTEGER` for 0..=255, `INTEGER`
//!   for the rest of the signed 32-bit range, `SMALL_BIG` up to 255
//!   magnitude bytes, `LARGE_BIG` above;
//! - floats as `NEW_FLOAT`;
//! - atoms whose characters are all Latin-1 as `ATOM` (Latin-1 bytes, two-byte
//!   length), others as `SMALL_ATOM_UTF8`, or `ATOM_UTF8` past 255 bytes;
//! - proper lists of at most 65535 integers in 0..=255 as `STRING`;
//! - maps pair by pair in `maps:to_list/1` order (key order for flat maps;
//!   for hash tries, depth first from each node's last slot);
//! - pids as `NEW_PID`, ports as `NEW_PORT` (`V4_PORT` past 32 bits),
//!   references as `NEWER_REFERENCE`, all with creation 0 and node
//!   `nonode@nohost` for local ones;
//! - closures as `NEW_FUN`, export funs as `EXPORT`;
//! - OTP 29's native records as `RECORD` (tag 67), their own atoms (module,
//!   name, field names) written as OTP 29 writes every atom,
//!   `SMALL_ATOM_UTF8` (a native record exists only on OTP 29).
//!
//! What [`EncodeOptions`] changes:
//! - `{minor_version, 0}`: floats as `FLOAT` (C's `"%.20e"`, NUL-padded
//!   to 31 bytes);
//! - `{minor_version, 2}` (OTP 26's default): every atom as UTF-8
//!   (`SMALL_ATOM_UTF8`, or `ATOM_UTF8` past 255 bytes), node names too;
//! - OTP 26 and later write every port as `V4_PORT`.
//!
//! Work goes through an explicit stack, so deep terms do not recurse.

use std::cell::Cell;

use super::local::{local_pid_parts, this_node};
use super::tag;
use super::zlib::deflate;
use crate::atom::Atom;
use crate::map::{self, MapIter, Order};
use crate::term::{Kind, Subtag, Term};

/// The zlib level of `term_to_binary(T, [compressed])`.
pub const DEFAULT_COMPRESSION: u32 = 6;

/// A value that is not an Erlang term and has no encoding: a catch label,
/// a match context, `NON_VALUE` (they exist only inside the runtime).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("cannot encode a {0:?}: not an Erlang term")]
pub struct EncodeError(pub Kind);

/// The choices a release and `term_to_binary/2`'s options make; the
/// default is OTP 25's `term_to_binary/1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EncodeOptions {
    /// `minor_version`: 0 writes floats as text, 2 every atom as UTF-8.
    pub minor_version: u8,
    /// Every port as `V4_PORT` (OTP 26 and later), not `NEW_PORT`.
    pub v4_ports: bool,
    /// zlib level, 0 for none (see [`encode_compressed`]).
    pub compression: u32,
}

impl Default for EncodeOptions {
    fn default() -> Self {
        EncodeOptions {
            minor_version: 1,
            v4_ports: false,
            compression: 0,
        }
    }
}

/// `term_to_binary(Term, Options)` with the choices of `options`.
pub fn encode_with(term: Term, options: &EncodeOptions) -> Result<Vec<u8>, EncodeError> {
    let mut plain = Vec::with_capacity(64);
    plain.push(tag::VERSION);
    Encoder {
        out: &mut plain,
        options: *options,
    }
    .term(term)?;
    Ok(compress(plain, options.compression))
}

/// `term_to_binary(Term)`: the version byte and the encoded term.
///
/// # Panics
///
/// On a value that is not an Erlang term (see [`EncodeError`]); the runtime
/// never hands one to `term_to_binary`. Use [`try_encode`] to get an error
/// instead.
pub fn encode(term: Term) -> Vec<u8> {
    match try_encode(term) {
        Ok(bytes) => bytes,
        Err(e) => panic!("etf::encode: {e}"),
    }
}

/// `term_to_binary(Term)`, or an error for a value that is not a term.
pub fn try_encode(term: Term) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::with_capacity(64);
    encode_into(term, &mut out)?;
    Ok(out)
}

/// Appends the version byte and the encoded term to `out`.
pub fn encode_into(term: Term, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    out.push(tag::VERSION);
    Encoder {
        out,
        options: EncodeOptions::default(),
    }
    .term(term)
}

/// Appends what [`encode_with`] writes for the tuple of `elements`
/// (uncompressed, whatever `options.compression` says): the version byte,
/// the tuple's header, each element. A caller that has a tuple's elements
/// but not the tuple (a trace message bound for a trace port) encodes it
/// without building it.
pub fn encode_tuple_into(
    elements: &[Term],
    options: &EncodeOptions,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    out.push(tag::VERSION);
    let mut encoder = Encoder {
        out,
        options: *options,
    };
    encoder.count(tag::SMALL_TUPLE, tag::LARGE_TUPLE, elements.len());
    for &t in elements {
        encoder.term(t)?;
    }
    Ok(())
}

/// `term_to_binary(Term, [{compressed, Level}])`: zlib at `level` (0 to 9;
/// [`DEFAULT_COMPRESSION`] for plain `compressed`), used only when it does
/// not make the result longer, as OTP. Level 0 means no compression.
pub fn encode_compressed(term: Term, level: u32) -> Result<Vec<u8>, EncodeError> {
    Ok(compress(try_encode(term)?, level))
}

/// The plain encoding `plain` (version byte first) compressed at `level`
/// when that makes it shorter.
fn compress(plain: Vec<u8>, level: u32) -> Vec<u8> {
    if level == 0 {
        return plain;
    }
    let body = &plain[1..];
    // OTP gives zlib room for 5 bytes less than the plain encoding (the
    // tag and size the compressed form adds), and keeps the plain one
    // when the stream does not fit.
    match deflate(body, level, body.len().saturating_sub(5)) {
        Some(z) => {
            let mut out = Vec::with_capacity(6 + z.len());
            out.push(tag::VERSION);
            out.push(tag::COMPRESSED);
            out.extend_from_slice(&(body.len() as u32).to_be_bytes());
            out.extend_from_slice(&z);
            out
        }
        None => plain,
    }
}

/// Pending encoder work, innermost last.
enum Work {
    /// Encode this term.
    Term(Term),
    /// Encode these terms in order (tuple elements, free variables).
    Elems(&'static [Term]),
    /// Encode this cons cell's head, then go on with its tail (the rest of
    /// a `LIST` whose header is written).
    Cons(Term),
    /// Encode the next key and value, then the rest (a map's pairs, in
    /// `maps:to_list/1` order).
    Pairs(MapIter),
    /// Write the byte count since `at` into the four bytes at `at` (a
    /// closure's size field, once its free variables are written).
    PatchSize(usize),
}

struct Encoder<'a> {
    out: &'a mut Vec<u8>,
    options: EncodeOptions,
}

/// The most pending-work entries a thread keeps allocated between
/// encodings.
const KEPT_STACK: usize = 1024;

thread_local! {
    /// The pending-work stack, empty between encodings: kept, so that
    /// encoding a term with a tuple or a list in it allocates nothing (a
    /// trace port encodes one such message per traced event).
    static STACK: Cell<Vec<Work>> = const { Cell::new(Vec::new()) };
}

impl Encoder<'_> {
    /// Encodes `root` and everything under it.
    fn term(&mut self, root: Term) -> Result<(), EncodeError> {
        let mut stack = STACK.take();
        let done = self.term_with(root, &mut stack);
        stack.clear();
        if stack.capacity() <= KEPT_STACK {
            STACK.set(stack);
        }
        done
    }

    /// [`Encoder::term`] with `stack`, empty, as its pending work.
    fn term_with(&mut self, root: Term, stack: &mut Vec<Work>) -> Result<(), EncodeError> {
        let mut next = Some(root);
        loop {
            let t = match next.take() {
                Some(t) => t,
                None => match stack.pop() {
                    None => return Ok(()),
                    Some(work) => match self.resume(work, stack) {
                        Some(t) => t,
                        None => continue,
                    },
                },
            };
            next = self.one(t, stack)?;
        }
    }

    /// Takes up a piece of pending work: the next term to encode, if any.
    #[inline]
    fn resume(&mut self, work: Work, stack: &mut Vec<Work>) -> Option<Term> {
        match work {
            Work::Term(t) => Some(t),
            Work::Elems(elems) => {
                let (first, rest) = elems.split_first()?;
                if !rest.is_empty() {
                    stack.push(Work::Elems(rest));
                }
                Some(*first)
            }
            Work::Cons(cell) => {
                let (head, tail) = cell.as_cons()?;
                stack.push(if tail.is_cons() {
                    Work::Cons(tail)
                } else {
                    Work::Term(tail)
                });
                Some(head)
            }
            Work::Pairs(mut pairs) => {
                let (k, v) = pairs.next()?;
                if pairs.len() > 0 {
                    stack.push(Work::Pairs(pairs));
                }
                stack.push(Work::Term(v));
                Some(k)
            }
            Work::PatchSize(at) => {
                let size = (self.out.len() - at) as u32;
                self.out[at..at + 4].copy_from_slice(&size.to_be_bytes());
                None
            }
        }
    }

    /// Writes one term's tag and fixed fields, queueing its children.
    /// Returns a child to encode right away (a list's first element).
    fn one(&mut self, t: Term, stack: &mut Vec<Work>) -> Result<Option<Term>, EncodeError> {
        match t.kind() {
            Kind::SmallInt => self.int(t.small_value()),
            Kind::Atom => {
                if let Some(a) = t.as_atom() {
                    self.atom(a)
                }
            }
            Kind::Nil => self.out.push(tag::NIL),
            Kind::Cons => return Ok(self.list(t, stack)),
            Kind::Tuple => {
                let elems = t.tuple_elements().unwrap_or(&[]);
                self.count(tag::SMALL_TUPLE, tag::LARGE_TUPLE, elems.len());
                if !elems.is_empty() {
                    stack.push(Work::Elems(elems));
                }
            }
            Kind::Float => self.float(t.as_float().unwrap_or(0.0)),
            Kind::BigInt => self.big(t),
            Kind::Binary => self.binary(t),
            Kind::Map => self.map(t, stack),
            Kind::Record => self.record(t, stack),
            Kind::Pid => self.pid(t),
            Kind::Port => self.port(t),
            Kind::Ref => self.reference(t),
            Kind::Fun => self.fun(t, stack),
            kind @ (Kind::MatchContext | Kind::Catch | Kind::NonValue | Kind::Invalid) => {
                return Err(EncodeError(kind))
            }
        }
        Ok(None)
    }

    /// A tag with a one-byte count, or the large tag with a four-byte count.
    #[inline]
    fn count(&mut self, small: u8, large: u8, n: usize) {
        if n <= 0xff {
            self.out.extend_from_slice(&[small, n as u8]);
        } else {
            self.out.push(large);
            self.out.extend_from_slice(&(n as u32).to_be_bytes());
        }
    }

    /// An integer that fits in an `i64`, in the smallest form.
    #[inline]
    fn int(&mut self, v: i64) {
        if (0..=255).contains(&v) {
            self.out.extend_from_slice(&[tag::SMALL_INTEGER, v as u8]);
        } else if let Ok(v) = i32::try_from(v) {
            self.out.push(tag::INTEGER);
            self.out.extend_from_slice(&v.to_be_bytes());
        } else {
            let magnitude = v.unsigned_abs().to_le_bytes();
            let n = 8 - (v.unsigned_abs().leading_zeros() / 8) as usize;
            self.out
                .extend_from_slice(&[tag::SMALL_BIG, n as u8, (v < 0) as u8]);
            self.out.extend_from_slice(&magnitude[..n]);
        }
    }

    /// A bignum.
    fn big(&mut self, t: Term) {
        let Some(big) = t.big_parts() else { return };
        let top = big
            .digits
            .iter()
            .rposition(|&d| d != 0)
            .map_or(0, |i| i + 1);
        let digits = &big.digits[..top];
        let n = match digits.last() {
            Some(last) => (digits.len() - 1) * 8 + 8 - (last.leading_zeros() / 8) as usize,
            None => 0,
        };
        self.count(tag::SMALL_BIG, tag::LARGE_BIG, n);
        self.out.push(big.negative as u8);
        let start = self.out.len();
        for d in digits {
            self.out.extend_from_slice(&d.to_le_bytes());
        }
        self.out.truncate(start + n);
    }

    /// A float: `NEW_FLOAT`, or `FLOAT` text with `minor_version` 0.
    fn float(&mut self, f: f64) {
        if self.options.minor_version == 0 {
            self.out.push(tag::FLOAT);
            let text = c_exponent_text(f);
            let mut field = [0u8; 31];
            field[..text.len()].copy_from_slice(text.as_bytes());
            self.out.extend_from_slice(&field);
        } else {
            self.out.push(tag::NEW_FLOAT);
            self.out.extend_from_slice(&f.to_bits().to_be_bytes());
        }
    }

    /// An atom, as OTP 25's `term_to_binary` writes it, or in UTF-8 with
    /// `minor_version` 2.
    fn atom(&mut self, a: Atom) {
        let name = a.name();
        if self.options.minor_version >= 2 {
            self.utf8_atom(name);
        } else if name.is_ascii() {
            self.out.push(tag::ATOM);
            self.out
                .extend_from_slice(&(name.len() as u16).to_be_bytes());
            self.out.extend_from_slice(name.as_bytes());
        } else if name.chars().all(|c| (c as u32) < 256) {
            self.out.push(tag::ATOM);
            let chars = name.chars().count();
            self.out.extend_from_slice(&(chars as u16).to_be_bytes());
            self.out.extend(name.chars().map(|c| c as u8));
        } else {
            self.utf8_atom(name);
        }
    }

    /// An atom's name as `SMALL_ATOM_UTF8`, or `ATOM_UTF8` past 255 bytes.
    fn utf8_atom(&mut self, name: &str) {
        if name.len() <= 0xff {
            self.out
                .extend_from_slice(&[tag::SMALL_ATOM_UTF8, name.len() as u8]);
        } else {
            self.out.push(tag::ATOM_UTF8);
            self.out
                .extend_from_slice(&(name.len() as u16).to_be_bytes());
        }
        self.out.extend_from_slice(name.as_bytes());
    }

    /// A native record: its definition, then its values (queued).
    fn record(&mut self, t: Term, stack: &mut Vec<Work>) {
        let Some(r) = t.record_parts() else { return };
        self.out.push(tag::RECORD);
        self.out
            .extend_from_slice(&(r.values.len() as u32).to_be_bytes());
        self.out.push(r.def.exported as u8);
        self.utf8_atom(r.def.module.name());
        self.utf8_atom(r.def.name.name());
        for &f in r.def.fields.iter() {
            self.utf8_atom(f.name());
        }
        if !r.values.is_empty() {
            stack.push(Work::Elems(r.values));
        }
    }

    /// A non-empty list: a `STRING` when it is a proper list of at most
    /// 65535 bytes, a `LIST` otherwise. Returns the first element to encode.
    fn list(&mut self, t: Term, stack: &mut Vec<Work>) -> Option<Term> {
        let mut bytes = 0usize;
        let mut iter = t.iter_list();
        let mut non_byte = false;
        for head in iter.by_ref() {
            match head.as_small() {
                Some(v) if (0..=255).contains(&v) => bytes += 1,
                _ => {
                    non_byte = true;
                    break;
                }
            }
        }
        if !non_byte && iter.tail().is_nil() && bytes <= 0xffff {
            self.out.push(tag::STRING);
            self.out.extend_from_slice(&(bytes as u16).to_be_bytes());
            self.out
                .extend(t.iter_list().map(|c| c.small_value() as u8));
            return None;
        }
        let len = bytes + usize::from(non_byte) + iter.by_ref().count();
        self.out.push(tag::LIST);
        self.out.extend_from_slice(&(len as u32).to_be_bytes());
        let (head, tail) = t.as_cons()?;
        stack.push(if tail.is_cons() {
            Work::Cons(tail)
        } else {
            Work::Term(tail)
        });
        Some(head)
    }

    /// A binary (`BINARY`) or bitstring (`BIT_BINARY`, unused bits zeroed).
    fn binary(&mut self, t: Term) {
        let Some(view) = t.binary_parts() else { return };
        let n = view.bit_size.div_ceil(8);
        let bits = view.trailing_bits();
        if bits == 0 {
            self.out.push(tag::BINARY);
            self.out.extend_from_slice(&(n as u32).to_be_bytes());
        } else {
            self.out.push(tag::BIT_BINARY);
            self.out.extend_from_slice(&(n as u32).to_be_bytes());
            self.out.push(bits as u8);
        }
        if view.bit_offset % 8 == 0 {
            let start = view.bit_offset / 8;
            self.out.extend_from_slice(&view.storage[start..start + n]);
            if bits != 0 {
                if let Some(last) = self.out.last_mut() {
                    *last &= 0xffu8 << (8 - bits);
                }
            }
        } else {
            self.out.extend_from_slice(&view.to_vec());
        }
    }

    /// A map: its size, then its pairs in the order OTP's encoder writes
    /// them, which is `maps:to_list/1`'s.
    fn map(&mut self, t: Term, stack: &mut Vec<Work>) {
        let size = t.map_size().unwrap_or(0);
        self.out.push(tag::MAP);
        self.out.extend_from_slice(&(size as u32).to_be_bytes());
        if size > 0 {
            if let Some(pairs) = map::iter_in(t, Order::ToList) {
                stack.push(Work::Pairs(pairs));
            }
        }
    }

    /// A node name: the local node for `None`.
    #[inline]
    fn node(&mut self, node: Option<Atom>) {
        match node {
            Some(a) => self.atom(a),
            None if self.options.minor_version >= 2 => self.utf8_atom(this_node().0.name()),
            None => {
                let name = this_node().0.name();
                self.out.push(tag::ATOM);
                self.out
                    .extend_from_slice(&(name.len() as u16).to_be_bytes());
                self.out.extend_from_slice(name.as_bytes());
            }
        }
    }

    /// A pid as `NEW_PID`.
    fn pid(&mut self, t: Term) {
        let (node, id, serial, creation) = match t.as_local_pid() {
            Some(n) => {
                let (id, serial) = local_pid_parts(n);
                (None, id, serial, this_node().1)
            }
            None => match t.as_external_pid() {
                Some(p) => (Some(p.node), p.id, p.serial, p.creation),
                None => return,
            },
        };
        self.out.push(tag::NEW_PID);
        self.node(node);
        self.out.extend_from_slice(&id.to_be_bytes());
        self.out.extend_from_slice(&serial.to_be_bytes());
        self.out.extend_from_slice(&creation.to_be_bytes());
    }

    /// A port as `NEW_PORT`, or `V4_PORT` when its number needs 64 bits
    /// or the release writes every port so.
    fn port(&mut self, t: Term) {
        let (node, id, creation) = match t.as_local_port() {
            Some(n) => (None, n, this_node().1),
            None => match t.as_external_port() {
                Some(p) => (Some(p.node), p.id, p.creation),
                None => return,
            },
        };
        match u32::try_from(id) {
            Ok(id) if !self.options.v4_ports => {
                self.out.push(tag::NEW_PORT);
                self.node(node);
                self.out.extend_from_slice(&id.to_be_bytes());
            }
            _ => {
                self.out.push(tag::V4_PORT);
                self.node(node);
                self.out.extend_from_slice(&id.to_be_bytes());
            }
        }
        self.out.extend_from_slice(&creation.to_be_bytes());
    }

    /// A reference as `NEWER_REFERENCE`.
    fn reference(&mut self, t: Term) {
        let Some(r) = t.as_ref() else { return };
        let local = t.is_boxed_with(Subtag::Ref);
        self.out.push(tag::NEWER_REFERENCE);
        self.out.extend_from_slice(&(r.len as u16).to_be_bytes());
        self.node(if local { None } else { Some(r.node) });
        let creation = if local { this_node().1 } else { r.creation };
        self.out.extend_from_slice(&creation.to_be_bytes());
        for id in r.ids() {
            self.out.extend_from_slice(&id.to_be_bytes());
        }
    }

    /// A closure as `NEW_FUN` (its size patched once its free variables
    /// are written), or an export fun as `EXPORT`.
    fn fun(&mut self, t: Term, stack: &mut Vec<Work>) {
        if let Some(export) = t.as_export() {
            self.out.push(tag::EXPORT);
            self.atom(export.module);
            self.atom(export.function);
            self.int(export.arity as i64);
            return;
        }
        let Some(closure) = t.closure_parts() else {
            return;
        };
        let entry = closure.entry;
        self.out.push(tag::NEW_FUN);
        let size_at = self.out.len();
        self.out.extend_from_slice(&[0; 4]);
        self.out.push(entry.arity as u8);
        self.out.extend_from_slice(&entry.uniq);
        self.out.extend_from_slice(&entry.index.to_be_bytes());
        self.out
            .extend_from_slice(&(closure.free.len() as u32).to_be_bytes());
        self.atom(entry.module);
        self.int(entry.old_index as i32 as i64);
        self.int(entry.old_uniq as i32 as i64);
        self.pid(closure.creator);
        if closure.free.is_empty() {
            self.resume(Work::PatchSize(size_at), stack);
        } else {
            stack.push(Work::PatchSize(size_at));
            stack.push(Work::Elems(closure.free));
        }
    }
}

/// `f` as C's `printf("%.20e")` writes it: one digit, a point, 20
/// digits, `e`, a sign and at least two exponent digits
/// (`1.50000000000000000000e+00`).
fn c_exponent_text(f: f64) -> String {
    let rust = format!("{f:.20e}");
    let (mantissa, exponent) = rust.split_once('e').unwrap_or((&rust, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let sign = if exponent < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exponent.unsigned_abs())
}

#[cfg(test)]
mod tests {
    use super::{encode_tuple_into, encode_with, EncodeOptions};
    use crate::atom::Atom;
    use crate::heap::Heap;
    use crate::term::Term;

    fn with(minor_version: u8, v4_ports: bool) -> EncodeOptions {
        EncodeOptions {
            minor_version,
            v4_ports,
            compression: 0,
        }
    }

    /// `nonode@nohost` as `ATOM` (100) and as `SMALL_ATOM_UTF8` (119).
    fn node(utf8: bool) -> Vec<u8> {
        let mut out = if utf8 {
            vec![119, 13]
        } else {
            vec![100, 0, 13]
        };
        out.extend_from_slice(b"nonode@nohost");
        out
    }

    #[test]
    fn minor_version_zero_writes_floats_as_c_text() {
        let mut heap = Heap::new();
        let f = heap.float(-2.75);
        let bytes = encode_with(f, &with(0, false)).unwrap();
        let mut want = vec![131, 99];
        let text = b"-2.75000000000000000000e+00";
        want.extend_from_slice(text);
        want.resize(2 + 31, 0);
        assert_eq!(bytes, want);
        let tiny = heap.float(2.5e-300);
        let bytes = encode_with(tiny, &with(0, false)).unwrap();
        assert_eq!(&bytes[2..29], b"2.49999999999999997976e-300");
    }

    #[test]
    fn minor_version_two_writes_every_atom_as_utf8() {
        let e_acute = Term::atom(Atom::new("é").unwrap());
        assert_eq!(
            encode_with(e_acute, &with(1, false)).unwrap(),
            [131, 100, 0, 1, 0xe9]
        );
        assert_eq!(
            encode_with(e_acute, &with(2, false)).unwrap(),
            [131, 119, 2, 0xc3, 0xa9]
        );
        let a = Term::atom(Atom::new("a").unwrap());
        assert_eq!(
            encode_with(a, &with(2, false)).unwrap(),
            [131, 119, 1, b'a']
        );
    }

    #[test]
    fn ports_as_new_port_or_v4_port() {
        let port = Term::port(5);
        let mut new_port = vec![131, 89];
        new_port.extend(node(false));
        new_port.extend_from_slice(&[0, 0, 0, 5, 0, 0, 0, 0]);
        assert_eq!(encode_with(port, &with(1, false)).unwrap(), new_port);
        let mut v4 = vec![131, 120];
        v4.extend(node(true));
        v4.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0]);
        assert_eq!(encode_with(port, &with(2, true)).unwrap(), v4);
    }

    #[test]
    fn a_tuple_of_elements_encodes_as_the_tuple_does() {
        let mut heap = Heap::new();
        let inner = heap.tuple(&[Term::atom(Atom::OK), Term::small_unchecked(300)]);
        let list = heap.list(&[Term::pid(7), inner, Term::small_unchecked(1)]);
        let big: Vec<Term> = (0..300).map(Term::small_unchecked).collect();
        let shapes: [&[Term]; 4] = [
            &[],
            &[Term::atom(Atom::TRACE), Term::pid(3), inner],
            &[list, Term::port(5), Term::NIL, inner],
            &big,
        ];
        for elems in shapes {
            let tuple = heap.tuple(elems);
            for options in [with(1, false), with(2, true)] {
                let mut out = vec![9];
                encode_tuple_into(elems, &options, &mut out).unwrap();
                assert_eq!(out[0], 9, "appends");
                assert_eq!(out[1..], encode_with(tuple, &options).unwrap());
            }
        }
    }
}
