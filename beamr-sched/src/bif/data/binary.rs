//! The `binary` module's BIFs: slicing, searching (`match`, `matches`,
//! `split`, `replace`), conversions and unsigned integer encoding.
//!
//! # Searching
//!
//! Patterns are a binary or a non-empty list of non-empty binaries. The
//! search scans the subject left to right; at the first position where any
//! pattern matches, the longest matching pattern wins, as OTP's
//! Aho-Corasick and Boyer-Moore searches report. `matches`, `split` and
//! `replace` with `global` go on after the end of each match, so matches
//! never overlap. A `{scope, {Start, Len}}` option confines the matches to
//! that part of the subject.

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use num_bigint::{BigInt, Sign};

use crate::bif::erlang::binaries::{
    binary_bytes, bitstring_arg, bitstrings_rejected, iodata_bytes, list_items, part_range,
    sub_bytes, usize_arg,
};
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    (
        "binary",
        "part",
        2,
        crate::bif::erlang::binaries::binary_part2,
    ),
    (
        "binary",
        "part",
        3,
        crate::bif::erlang::binaries::binary_part3,
    ),
    ("binary", "at", 2, at),
    ("binary", "first", 1, first),
    ("binary", "last", 1, last),
    ("binary", "copy", 1, copy1),
    ("binary", "copy", 2, copy2),
    ("binary", "compile_pattern", 1, compile_pattern),
    ("binary", "match", 2, match2),
    ("binary", "match", 3, match3),
    ("binary", "matches", 2, matches2),
    ("binary", "matches", 3, matches3),
    ("binary", "split", 2, split2),
    ("binary", "split", 3, split3),
    ("binary", "replace", 3, replace3),
    ("binary", "replace", 4, replace4),
    ("binary", "bin_to_list", 1, bin_to_list1),
    ("binary", "bin_to_list", 2, bin_to_list2),
    ("binary", "bin_to_list", 3, bin_to_list3),
    ("binary", "list_to_bin", 1, list_to_bin),
    ("binary", "decode_unsigned", 1, decode_unsigned1),
    ("binary", "decode_unsigned", 2, decode_unsigned2),
    ("binary", "encode_unsigned", 1, encode_unsigned1),
    ("binary", "encode_unsigned", 2, encode_unsigned2),
    ("binary", "longest_common_prefix", 1, longest_common_prefix),
    ("binary", "longest_common_suffix", 1, longest_common_suffix),
    ("binary", "referenced_byte_size", 1, referenced_byte_size),
];

/// `binary:referenced_byte_size(Binary)`: the size of the binary whose
/// bytes it shares (a slice keeps the whole of its original alive).
fn referenced_byte_size(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let v = bitstring_arg(&a[0])?;
    Ok(Term::small_unchecked(v.storage.len() as i64))
}

fn at(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = binary_bytes(&a[0])?;
    let i = usize_arg(a[1])?;
    bytes
        .get(i)
        .map(|&b| Term::small_unchecked(b as i64))
        .ok_or_else(Exception::badarg)
}

fn first(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = binary_bytes(&a[0])?;
    bytes
        .first()
        .map(|&b| Term::small_unchecked(b as i64))
        .ok_or_else(Exception::badarg)
}

fn last(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = binary_bytes(&a[0])?;
    bytes
        .last()
        .map(|&b| Term::small_unchecked(b as i64))
        .ok_or_else(Exception::badarg)
}

fn copy1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = binary_bytes(&a[0])?;
    Ok(p.heap.binary(&bytes))
}

/// `binary:copy(Subject, N)`: before OTP 27, zero copies of a bitstring
/// are `<<>>`.
fn copy2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let n = usize_arg(a[1])?;
    if n == 0 && a[0].is_bitstring() && !bitstrings_rejected() {
        return Ok(p.heap.binary(&[]));
    }
    let bytes = binary_bytes(&a[0])?;
    if bytes.is_empty() {
        return Ok(p.heap.binary(&[]));
    }
    let total = bytes
        .len()
        .checked_mul(n)
        .filter(|&t| t < 1 << 40)
        .ok_or_else(Exception::system_limit)?;
    let mut out = Vec::new();
    out.try_reserve_exact(total)
        .map_err(|_| Exception::system_limit())?;
    for _ in 0..n {
        out.extend_from_slice(&bytes);
    }
    Ok(p.heap.binary_from_vec(out))
}

// ----- searching ------------------------------------------------------------------

/// Patterns to search for (copied out: patterns are short).
struct Patterns(Vec<Vec<u8>>);

impl Patterns {
    fn from_term(t: Term) -> Result<Patterns, Exception> {
        // A compiled pattern (`binary:compile_pattern/1`) carries its source.
        let t = match t.as_tuple() {
            Some([tag, source]) if compiled_tag(*tag) => *source,
            _ => t,
        };
        let items = if t.as_binary().is_some() {
            vec![t]
        } else {
            let items = list_items(t)?;
            if items.is_empty() {
                return Err(Exception::badarg());
            }
            items
        };
        let mut pats = Vec::with_capacity(items.len());
        for item in items {
            let b = binary_bytes(&item)?;
            if b.is_empty() {
                return Err(Exception::badarg());
            }
            pats.push(b.into_owned());
        }
        Ok(Patterns(pats))
    }

    /// The first match in `hay[from..to]`: its start and length, taking the
    /// longest pattern at the earliest position.
    fn find(&self, hay: &[u8], from: usize, to: usize) -> Option<(usize, usize)> {
        let region = &hay[..to];
        if let [pat] = &self.0[..] {
            let first = pat[0];
            let mut i = from;
            while i + pat.len() <= to {
                let j = region[i..to - pat.len() + 1]
                    .iter()
                    .position(|&b| b == first)?
                    + i;
                if region[j..j + pat.len()] == pat[..] {
                    return Some((j, pat.len()));
                }
                i = j + 1;
            }
            return None;
        }
        for i in from..to {
            let best = self
                .0
                .iter()
                .filter(|pat| region[i..].starts_with(pat))
                .map(|pat| pat.len())
                .max();
            if let Some(len) = best {
                return Some((i, len));
            }
        }
        None
    }
}

/// True for the tags of a compiled pattern: `bm` (one pattern) and `ac`
/// (several), as OTP names its Boyer-Moore and Aho-Corasick forms.
fn compiled_tag(t: Term) -> bool {
    t.as_atom().is_some_and(|a| matches!(a.name(), "bm" | "ac"))
}

/// `binary:compile_pattern/1`: validates the pattern and returns it tagged
/// `{bm, Binary}` or `{ac, [Binary]}`. OTP hides a prepared search
/// structure behind a reference there; beamr searches from the source
/// bytes, so the tag and source are all it needs.
fn compile_pattern(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Patterns::from_term(a[0])?;
    let tag = if a[0].as_binary().is_some() {
        "bm"
    } else {
        "ac"
    };
    let tag = Term::atom(beamr_core::atom::Atom::new(tag).expect("atom"));
    Ok(p.heap.tuple(&[tag, a[0]]))
}

/// Options of `match`, `matches`, `split` and `replace`.
#[derive(Default)]
struct Options {
    scope: Option<(usize, usize)>,
    global: bool,
    trim: bool,
    trim_all: bool,
    insert: Vec<usize>,
}

fn options(t: Term, size: usize, allowed: &[&str]) -> Result<Options, Exception> {
    let mut o = Options::default();
    for opt in list_items(t)? {
        let name = opt.as_atom().map(Atom::name);
        match name {
            Some(n @ ("global" | "trim" | "trim_all")) if allowed.contains(&n) => match n {
                "global" => o.global = true,
                "trim" => o.trim = true,
                _ => o.trim_all = true,
            },
            _ => {
                let t = opt
                    .as_tuple()
                    .filter(|t| t.len() == 2)
                    .ok_or_else(Exception::badarg)?;
                match t[0].as_atom().map(Atom::name) {
                    Some("scope") => {
                        let s = t[1]
                            .as_tuple()
                            .filter(|s| s.len() == 2)
                            .ok_or_else(Exception::badarg)?;
                        let (from, len) = part_range(size, s[0], s[1])?;
                        o.scope = Some((from, from + len));
                    }
                    Some("insert_replaced") if allowed.contains(&"insert_replaced") => {
                        o.insert = if let Some(n) = t[1].as_small() {
                            vec![usize::try_from(n).map_err(|_| Exception::badarg())?]
                        } else {
                            list_items(t[1])?
                                .into_iter()
                                .map(usize_arg)
                                .collect::<Result<_, _>>()?
                        };
                    }
                    _ => return Err(Exception::badarg()),
                }
            }
        }
    }
    Ok(o)
}

/// Every match in the scope (one unless `global`).
fn find_all(hay: &[u8], pats: &Patterns, o: &Options, global: bool) -> Vec<(usize, usize)> {
    let (mut from, to) = o.scope.unwrap_or((0, hay.len()));
    let mut found = Vec::new();
    while let Some((at, len)) = pats.find(hay, from, to) {
        found.push((at, len));
        from = at + len;
        if !global {
            break;
        }
    }
    found
}

fn pos_len(p: &mut Process, at: usize, len: usize) -> Term {
    p.heap.tuple(&[
        Term::small_unchecked(at as i64),
        Term::small_unchecked(len as i64),
    ])
}

fn do_match(p: &mut Process, a: &[Term], opts: Term) -> Result<Term, Exception> {
    let hay = binary_bytes(&a[0])?;
    let pats = Patterns::from_term(a[1])?;
    let o = options(opts, hay.len(), &[])?;
    Ok(match find_all(&hay, &pats, &o, false).first() {
        Some(&(at, len)) => pos_len(p, at, len),
        None => Term::atom(Atom::new("nomatch").map_err(|_| Exception::badarg())?),
    })
}

fn match2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    do_match(p, a, Term::NIL)
}

fn match3(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    do_match(p, a, a[2])
}

fn do_matches(p: &mut Process, a: &[Term], opts: Term) -> Result<Term, Exception> {
    let hay = binary_bytes(&a[0])?;
    let pats = Patterns::from_term(a[1])?;
    let o = options(opts, hay.len(), &[])?;
    let found = find_all(&hay, &pats, &o, true);
    let items: Vec<Term> = found.iter().map(|&(at, len)| pos_len(p, at, len)).collect();
    Ok(p.heap.list(&items))
}

fn matches2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    do_matches(p, a, Term::NIL)
}

fn matches3(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    do_matches(p, a, a[2])
}

fn do_split(p: &mut Process, a: &[Term], opts: Term) -> Result<Term, Exception> {
    let hay = binary_bytes(&a[0])?;
    let pats = Patterns::from_term(a[1])?;
    let o = options(opts, hay.len(), &["global", "trim", "trim_all"])?;
    let found = find_all(&hay, &pats, &o, o.global);
    let mut ranges = Vec::with_capacity(found.len() + 1);
    let mut start = 0;
    for &(at, len) in &found {
        ranges.push((start, at - start));
        start = at + len;
    }
    ranges.push((start, hay.len() - start));
    if o.trim_all {
        ranges.retain(|&(_, len)| len > 0);
    } else if o.trim {
        while ranges.last().is_some_and(|&(_, len)| len == 0) {
            ranges.pop();
        }
    }
    let parts: Vec<Term> = ranges
        .iter()
        .map(|&(from, len)| sub_bytes(p, a[0], from, len))
        .collect();
    Ok(p.heap.list(&parts))
}

fn split2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    do_split(p, a, Term::NIL)
}

fn split3(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    do_split(p, a, a[2])
}

fn do_replace(p: &mut Process, a: &[Term], opts: Term) -> Result<Term, Exception> {
    let hay = binary_bytes(&a[0])?;
    let pats = Patterns::from_term(a[1])?;
    let with = binary_bytes(&a[2])?;
    let o = options(opts, hay.len(), &["global", "insert_replaced"])?;
    if o.insert.iter().any(|&i| i > with.len()) {
        return Err(Exception::badarg());
    }
    let mut insert = o.insert.clone();
    insert.sort_unstable();
    let found = find_all(&hay, &pats, &o, o.global);
    let mut out = Vec::with_capacity(hay.len());
    let mut start = 0;
    for &(at, len) in &found {
        out.extend_from_slice(&hay[start..at]);
        let mut prev = 0;
        for &i in &insert {
            out.extend_from_slice(&with[prev..i]);
            out.extend_from_slice(&hay[at..at + len]);
            prev = i;
        }
        out.extend_from_slice(&with[prev..]);
        start = at + len;
    }
    out.extend_from_slice(&hay[start..]);
    Ok(p.heap.binary(&out))
}

fn replace3(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    do_replace(p, a, Term::NIL)
}

fn replace4(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    do_replace(p, a, a[3])
}

// ----- conversions ----------------------------------------------------------------

fn bin_to_list1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = binary_bytes(&a[0])?;
    Ok(p.heap.byte_list(&bytes, Term::NIL))
}

fn bin_to_list2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = binary_bytes(&a[0])?;
    let pos = a[1]
        .as_tuple()
        .filter(|t| t.len() == 2)
        .ok_or_else(Exception::badarg)?;
    let (from, len) = part_range(bytes.len(), pos[0], pos[1])?;
    Ok(p.heap.byte_list(&bytes[from..from + len], Term::NIL))
}

fn bin_to_list3(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = binary_bytes(&a[0])?;
    let (from, len) = part_range(bytes.len(), a[1], a[2])?;
    Ok(p.heap.byte_list(&bytes[from..from + len], Term::NIL))
}

fn list_to_bin(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[0].is_list() {
        return Err(Exception::badarg());
    }
    let bytes = iodata_bytes(a[0])?;
    Ok(p.heap.binary(&bytes))
}

/// True for `little`, false for `big`.
fn endian(t: Term) -> Result<bool, Exception> {
    match t.as_atom().map(Atom::name) {
        Some("big") => Ok(false),
        Some("little") => Ok(true),
        _ => Err(Exception::badarg()),
    }
}

fn decode_unsigned(p: &mut Process, t: Term, little: bool) -> Result<Term, Exception> {
    let bytes = binary_bytes(&t)?;
    if bytes.len() <= 7 {
        let mut v: i64 = 0;
        if little {
            for &b in bytes.iter().rev() {
                v = (v << 8) | b as i64;
            }
        } else {
            for &b in bytes.iter() {
                v = (v << 8) | b as i64;
            }
        }
        return Ok(p.heap.int(v));
    }
    let v = if little {
        BigInt::from_bytes_le(Sign::Plus, &bytes)
    } else {
        BigInt::from_bytes_be(Sign::Plus, &bytes)
    };
    Ok(p.heap.bigint(&v))
}

fn decode_unsigned1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    decode_unsigned(p, a[0], false)
}

fn decode_unsigned2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let little = endian(a[1])?;
    decode_unsigned(p, a[0], little)
}

fn encode_unsigned(p: &mut Process, t: Term, little: bool) -> Result<Term, Exception> {
    let v = t.as_integer().ok_or_else(Exception::badarg)?.to_bigint();
    if v.sign() == Sign::Minus {
        return Err(Exception::badarg());
    }
    let mut bytes = v.to_bytes_be().1;
    if little {
        bytes.reverse();
    }
    Ok(p.heap.binary(&bytes))
}

fn encode_unsigned1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    encode_unsigned(p, a[0], false)
}

fn encode_unsigned2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let little = endian(a[1])?;
    encode_unsigned(p, a[0], little)
}

fn common(a: &[Term], suffix: bool) -> Result<Term, Exception> {
    let items = list_items(a[0])?;
    if items.is_empty() {
        return Err(Exception::badarg());
    }
    let bins = items
        .iter()
        .map(|t| {
            bitstring_arg(t)?;
            binary_bytes(t)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let first = &bins[0];
    let mut n = first.len();
    for b in &bins[1..] {
        let k = if suffix {
            first
                .iter()
                .rev()
                .zip(b.iter().rev())
                .take_while(|(x, y)| x == y)
                .count()
        } else {
            first
                .iter()
                .zip(b.iter())
                .take_while(|(x, y)| x == y)
                .count()
        };
        n = n.min(k);
    }
    Ok(Term::small_unchecked(n as i64))
}

fn longest_common_prefix(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    common(a, false)
}

fn longest_common_suffix(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    common(a, true)
}
