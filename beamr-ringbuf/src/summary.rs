//! [`TermSummary`]: what the ring keeps of a term (a message, a return value,
//! an exit reason): its size and a one-word sketch, never the term itself.
//!
//! ```text
//! word 0 (size):    bit 63: 1 if the size is a lower bound | bits 0..63: words
//! word 1 (sketch):  | detail (32) | count (24) | kind (8) |
//!                     bits 63..32   31..8        7..0
//! ```
//!
//! | kind | count | detail |
//! |---|---|---|
//! | 1 small integer | 0 | value, clamped to i32 |
//! | 2 big integer | digit words | 0 |
//! | 3 float | 0 | the value as f32 bits |
//! | 4 atom | 0 | atom key |
//! | 5 `[]` | 0 | 0 |
//! | 6 list | length (to the walk budget) | head's atom key or `u32::MAX` |
//! | 7 tuple | arity | first element's atom key or `u32::MAX` |
//! | 8 map | keys | 0 |
//! | 9 binary | bytes (saturating) | 0 |
//! | 10 pid / 11 port | 0 | local number (low 32 bits) or `u32::MAX` if remote |
//! | 12 reference, 13 fun, 14 other, 0 none | 0 | 0 |
//!
//! The size is the words a deep copy would take (as `erts_debug:flat_size/1`),
//! measured by a walk with a fixed stack and a word budget: no allocation on
//! the write path. Past the budget the size is a lower bound.

use beamr_core::atom::Atom;
use beamr_core::term::{Kind, Term};

use crate::strings::StringTable;

/// Words the size walk visits before it stops.
pub const SIZE_BUDGET: u64 = 4096;
/// Depth of the walk's fixed stack.
const STACK: usize = 32;
/// Bit of the size word marking a lower bound.
const INEXACT: u64 = 1 << 63;

/// The kind of a summarised term.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum SummaryKind {
    /// No term.
    None = 0,
    /// A small integer.
    Small = 1,
    /// A big integer.
    Big = 2,
    /// A float.
    Float = 3,
    /// An atom.
    Atom = 4,
    /// `[]`.
    Nil = 5,
    /// A non-empty list.
    List = 6,
    /// A tuple.
    Tuple = 7,
    /// A map.
    Map = 8,
    /// A binary or bitstring.
    Binary = 9,
    /// A pid.
    Pid = 10,
    /// A port.
    Port = 11,
    /// A reference.
    Ref = 12,
    /// A fun.
    Fun = 13,
    /// Anything else.
    Other = 14,
}

impl SummaryKind {
    fn from_u8(n: u8) -> SummaryKind {
        use SummaryKind::*;
        [
            None, Small, Big, Float, Atom, Nil, List, Tuple, Map, Binary, Pid, Port, Ref, Fun,
            Other,
        ]
        .get(n as usize)
        .copied()
        .unwrap_or(Other)
    }
}

/// A decoded summary.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TermSummary {
    /// Deep size in words.
    pub size_words: u64,
    /// False if `size_words` is only a lower bound.
    pub size_exact: bool,
    /// What the term is.
    pub kind: SummaryKind,
    /// Arity, length, map size or byte size (see the module table).
    pub count: u32,
    /// Kind-specific detail (see the module table).
    pub detail: u32,
}

/// Sketches `t`, interning atoms with `atom_key`. Returns the two words.
#[inline(always)]
pub fn encode(t: Term, mut atom_key: impl FnMut(Atom) -> u32) -> [u64; 2] {
    // Most messages are small tuples (`{token, 7}`, `{ok, Pid}`): sized
    // and sketched from one look at the tuple, a tuple of immediates
    // without the walk. Only here: `encode_other` takes everything else.
    if let Some(elems) = t.as_tuple() {
        let (size, exact) = if elems.iter().all(|e| e.is_immediate()) {
            (1 + elems.len() as u64, true)
        } else {
            flat_size_walk(t)
        };
        let first = match elems.first().and_then(|e| e.as_atom()) {
            Some(a) => atom_key(a),
            None => u32::MAX,
        };
        return words(size, exact, SummaryKind::Tuple, elems.len() as u64, first);
    }
    encode_other(t, atom_key)
}

/// [`encode`] of anything but a tuple (which it would sketch as `Other`).
#[inline(never)]
fn encode_other(t: Term, mut atom_key: impl FnMut(Atom) -> u32) -> [u64; 2] {
    let (size, exact) = flat_size(t);
    let mut key_of = |t: Term| t.as_atom().map(&mut atom_key).unwrap_or(u32::MAX);
    let (kind, count, detail): (SummaryKind, u64, u32) = match t.kind() {
        Kind::SmallInt => {
            let v = t.small_value().clamp(i32::MIN as i64, i32::MAX as i64) as i32;
            (SummaryKind::Small, 0, v as u32)
        }
        Kind::BigInt => (
            SummaryKind::Big,
            t.header().map_or(0, |h| h.arity() as u64),
            0,
        ),
        Kind::Float => (
            SummaryKind::Float,
            0,
            (t.as_float().unwrap_or(0.0) as f32).to_bits(),
        ),
        Kind::Atom => (SummaryKind::Atom, 0, key_of(t)),
        Kind::Nil => (SummaryKind::Nil, 0, 0),
        Kind::Cons => {
            let head = t.as_cons().map_or(Term::NIL, |(h, _)| h);
            let len = t.iter_list().take(SIZE_BUDGET as usize).count() as u64;
            (SummaryKind::List, len, key_of(head))
        }
        Kind::Map => (SummaryKind::Map, t.map_size().unwrap_or(0) as u64, 0),
        Kind::Binary => (
            SummaryKind::Binary,
            t.as_binary().map_or(0, |b| b.byte_size() as u64),
            0,
        ),
        Kind::Pid => (
            SummaryKind::Pid,
            0,
            t.as_local_pid().map_or(u32::MAX, |n| n as u32),
        ),
        Kind::Port => (
            SummaryKind::Port,
            0,
            t.as_local_port().map_or(u32::MAX, |n| n as u32),
        ),
        Kind::Ref => (SummaryKind::Ref, 0, 0),
        Kind::Fun => (SummaryKind::Fun, 0, 0),
        Kind::NonValue => (SummaryKind::None, 0, 0),
        _ => (SummaryKind::Other, 0, 0),
    };
    words(size, exact, kind, count, detail)
}

/// The two words of a summary (the module's layout).
#[inline]
fn words(size: u64, exact: bool, kind: SummaryKind, count: u64, detail: u32) -> [u64; 2] {
    let count = count.min(0xff_ffff);
    let size_word = size.min(!INEXACT) | if exact { 0 } else { INEXACT };
    [size_word, kind as u64 | count << 8 | (detail as u64) << 32]
}

/// Decodes the two words of a summary.
pub fn decode(words: [u64; 2]) -> TermSummary {
    TermSummary {
        size_words: words[0] & !INEXACT,
        size_exact: words[0] & INEXACT == 0,
        kind: SummaryKind::from_u8(words[1] as u8),
        count: ((words[1] >> 8) & 0xff_ffff) as u32,
        detail: (words[1] >> 32) as u32,
    }
}

/// Deep size of `t` (not a tuple: [`encode`] sizes those) in words, and
/// whether it is exact, with a bounded walk; immediates without it.
#[inline]
fn flat_size(t: Term) -> (u64, bool) {
    if t.is_immediate() {
        return (0, true);
    }
    flat_size_walk(t)
}

/// [`flat_size`] of a term with boxed parts: a walk with a fixed stack.
fn flat_size_walk(t: Term) -> (u64, bool) {
    let mut stack = [Term::NIL; STACK];
    let mut sp = 0;
    let mut total = 0u64;
    let mut exact = true;
    let mut cur = Some(t);
    while let Some(t) = cur.take().or_else(|| {
        (sp > 0).then(|| {
            sp -= 1;
            stack[sp]
        })
    }) {
        if total > SIZE_BUDGET {
            return (total, false);
        }
        let mut push = |c: Term| {
            if c.is_immediate() {
                return;
            }
            if sp < STACK {
                stack[sp] = c;
                sp += 1;
            } else {
                exact = false;
            }
        };
        if let Some((h, tl)) = t.as_cons() {
            total += 2;
            push(h);
            // Walk the tail next without using the stack (long lists).
            if !tl.is_immediate() {
                cur = Some(tl);
            }
        } else if let Some(header) = t.header() {
            total += 1 + header.arity() as u64;
            if let Some(elems) = t.as_tuple() {
                elems.iter().for_each(|&e| push(e));
            } else if let Some(m) = t.as_flat_map() {
                m.keys.iter().chain(m.values).for_each(|&e| push(e));
            } else if let Some(n) = t.as_hash_node() {
                n.children.iter().for_each(|&e| push(e));
            } else if let Some(c) = t.as_closure() {
                c.free.iter().for_each(|&e| push(e));
            }
        }
    }
    (total, exact)
}

impl TermSummary {
    /// A short Erlang-like rendering: `42`, `ok`, `{ok,...}/3`, `[...]/5`,
    /// `<<...>>/12`, `#{...}/2`, `<0.7.0>`, with ` (N words)` for boxed terms.
    pub fn render(&self, strings: &StringTable) -> String {
        let atom = |k: u32| match strings.atom(k) {
            Some(n) => n.to_owned(),
            None => format!("atom#{k}"),
        };
        let body = match self.kind {
            SummaryKind::None => "-".to_owned(),
            SummaryKind::Small => (self.detail as i32).to_string(),
            SummaryKind::Big => format!("bignum/{}w", self.count),
            SummaryKind::Float => format!("{}", f32::from_bits(self.detail)),
            SummaryKind::Atom => atom(self.detail),
            SummaryKind::Nil => "[]".to_owned(),
            SummaryKind::List if self.detail != u32::MAX => {
                format!("[{},...]/{}", atom(self.detail), self.count)
            }
            SummaryKind::List => format!("[...]/{}", self.count),
            SummaryKind::Tuple if self.detail != u32::MAX => {
                format!("{{{},...}}/{}", atom(self.detail), self.count)
            }
            SummaryKind::Tuple => format!("{{...}}/{}", self.count),
            SummaryKind::Map => format!("#{{...}}/{}", self.count),
            SummaryKind::Binary => format!("<<...>>/{}", self.count),
            SummaryKind::Pid if self.detail != u32::MAX => format!("<0.{}.0>", self.detail),
            SummaryKind::Port if self.detail != u32::MAX => format!("#Port<0.{}>", self.detail),
            SummaryKind::Pid => "<remote pid>".to_owned(),
            SummaryKind::Port => "<remote port>".to_owned(),
            SummaryKind::Ref => "#Ref".to_owned(),
            SummaryKind::Fun => "#Fun".to_owned(),
            SummaryKind::Other => "?".to_owned(),
        };
        if self.size_words > 0 {
            let bound = if self.size_exact { "" } else { ">=" };
            format!("{body} ({bound}{} words)", self.size_words)
        } else {
            body
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use beamr_core::heap::{size_of_term, Heap};

    #[test]
    fn sizes_match_the_heaps_own_count() {
        let mut heap = Heap::new();
        let inner = heap.tuple(&[Term::atom(Atom::OK), Term::small_unchecked(1)]);
        let list = heap.list(&[inner, inner, Term::small_unchecked(3)]);
        let f = heap.float(2.5);
        let t = heap.tuple(&[Term::atom(Atom::ERROR), list, f]);
        let [size, sketch] = encode(t, |a| a.index());
        let s = decode([size, sketch]);
        assert_eq!(s.size_words, size_of_term(t) as u64);
        assert!(s.size_exact);
        assert_eq!(
            (s.kind, s.count, s.detail),
            (SummaryKind::Tuple, 3, Atom::ERROR.index())
        );
        // A tuple of immediates is sized without the walk, the same.
        let s = decode(encode(inner, |a| a.index()));
        assert_eq!(
            (s.size_words, s.size_exact),
            (size_of_term(inner) as u64, true)
        );
        assert_eq!(
            (s.kind, s.count, s.detail),
            (SummaryKind::Tuple, 2, Atom::OK.index())
        );
    }

    #[test]
    fn long_lists_are_bounded_and_marked_inexact() {
        let mut heap = Heap::new();
        let items: Vec<Term> = (0..10_000).map(Term::small_unchecked).collect();
        let l = heap.list(&items);
        let s = decode(encode(l, |a| a.index()));
        assert!(!s.size_exact);
        assert!(s.size_words > SIZE_BUDGET && s.size_words < 2 * SIZE_BUDGET);
        assert_eq!(s.kind, SummaryKind::List);
        assert_eq!(s.count as u64, SIZE_BUDGET);
    }

    #[test]
    fn immediates_have_no_size() {
        let s = decode(encode(Term::small_unchecked(-7), |a| a.index()));
        assert_eq!(
            (s.kind, s.detail as i32, s.size_words),
            (SummaryKind::Small, -7, 0)
        );
        let s = decode(encode(Term::pid(12), |a| a.index()));
        assert_eq!(s.render(&StringTable::default()), "<0.12.0>");
        let s = decode(encode(Term::atom(Atom::OK), |a| a.index()));
        assert_eq!(
            s.render(&StringTable::default()),
            format!("atom#{}", Atom::OK.index())
        );
    }
}
