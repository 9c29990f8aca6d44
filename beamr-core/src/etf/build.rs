//! The second decoding pass: builds the term on a heap, bottom-up.
//!
//! Children are decoded before their parent is built (as a postfix
//! expression is evaluated): each finished term is pushed on a value stack;
//! when an open compound term has all its children, it is built from the
//! top of that stack and replaces them. Nothing recurses, so a deeply
//! nested term costs heap memory, not native stack. [`scan`](super::scan)
//! has checked the input first, so the errors left here are those that need
//! the terms themselves: atoms that cannot be created, duplicate map keys,
//! fields beamr cannot represent.

use std::borrow::Cow;

use num_bigint::{BigInt, Sign};

use super::error::EtfErrorKind;
use super::local::{local_pid_number, this_node};
use super::reader::Reader;
use super::token::{
    self as token, next_token, AtomText, FunToken, PidToken, PortToken, RefToken, Token,
};
use super::{DecodeOptions, EtfError};
use crate::atom::{Atom, AtomError};
use crate::heap::Heap;
use crate::map;
use crate::term::tag::MAX_LOCAL_ID;
use crate::term::{Export, FunEntry, RecordDef, Term};

/// What an open compound term will become.
enum Pending {
    Tuple,
    List,
    Map,
    Fun {
        entry: &'static FunEntry,
        creator: Term,
    },
    Record(&'static RecordDef),
}

/// An open compound term: its kind, children still expected, where its
/// children start on the value stack, and its offset for errors.
struct Frame {
    pending: Pending,
    left: u64,
    base: usize,
    at: usize,
}

/// Builds the term at the reader's cursor (already checked by `scan`).
pub(crate) fn build(
    r: &mut Reader<'_>,
    heap: &mut Heap,
    opts: &DecodeOptions,
) -> Result<Term, EtfError> {
    let mut values: Vec<Term> = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    let mut pairs: Vec<(Term, Term)> = Vec::new();
    loop {
        let at = r.pos();
        let token = next_token(r)?;
        let mut value = match step(heap, token, opts).map_err(|k| r.error_at(k, at))? {
            Step::Value(t) => t,
            Step::Open(pending) => {
                frames.push(Frame {
                    pending,
                    left: token.children(),
                    base: values.len(),
                    at,
                });
                continue;
            }
        };
        // A finished term is a child of the innermost open term, and may
        // finish it, and so on up.
        loop {
            let Some(top) = frames.last_mut() else {
                return Ok(value);
            };
            values.push(value);
            top.left -= 1;
            if top.left > 0 {
                break;
            }
            let Some(frame) = frames.pop() else {
                return Ok(value);
            };
            value = finish(heap, frame.pending, &values[frame.base..], &mut pairs)
                .map_err(|k| r.error_at(k, frame.at))?;
            values.truncate(frame.base);
        }
    }
}

/// What one token gives: a finished term, or an open compound term whose
/// children follow.
enum Step {
    Value(Term),
    Open(Pending),
}

/// Builds a token that has no children, or opens a compound term that has.
#[inline]
fn step(heap: &mut Heap, token: Token<'_>, opts: &DecodeOptions) -> Result<Step, EtfErrorKind> {
    Ok(Step::Value(match token {
        Token::Int(v) => heap.int(v),
        Token::Atom(a) => Term::atom(atom(a, opts)?),
        Token::Nil => Term::NIL,
        Token::Tuple(0) => heap.tuple(&[]),
        Token::Map(0) => map::new(heap),
        Token::Tuple(_) => return Ok(Step::Open(Pending::Tuple)),
        Token::List(_) => return Ok(Step::Open(Pending::List)),
        Token::Map(_) => return Ok(Step::Open(Pending::Map)),
        Token::Fun(f) if f.num_free > 0 => {
            let (entry, creator) = fun_parts(heap, &f, opts)?;
            return Ok(Step::Open(Pending::Fun { entry, creator }));
        }
        Token::Fun(f) => {
            let (entry, creator) = fun_parts(heap, &f, opts)?;
            heap.closure(entry, creator, &[])
        }
        Token::Str(bytes) => heap.byte_list(bytes, Term::NIL),
        Token::Binary(bytes) => heap.binary(bytes),
        Token::Bits { bytes, bits } => heap.bitstring(bytes, (bytes.len() - 1) * 8 + bits as usize),
        Token::Float(f) => heap.float(f),
        Token::Big {
            negative,
            magnitude,
        } => {
            let sign = if negative { Sign::Minus } else { Sign::Plus };
            heap.bigint(&BigInt::from_bytes_le(sign, magnitude))
        }
        Token::Pid(p) => pid(heap, &p, opts)?,
        Token::Port(p) => port(heap, &p, opts)?,
        Token::Ref(rf) => reference(heap, &rf, opts)?,
        Token::Record {
            n,
            exported,
            module,
            name,
            fields,
        } => {
            let def = record_def(exported, module, name, fields, opts)?;
            if n > 0 {
                return Ok(Step::Open(Pending::Record(def)));
            }
            heap.record(def, &[])
        }
        Token::Export {
            module,
            function,
            arity,
        } => {
            let export = Export::intern(atom(module, opts)?, atom(function, opts)?, arity as u32);
            heap.export(export)
        }
    }))
}

/// Builds a compound term from its children (`pairs` is scratch space for
/// a map's).
fn finish(
    heap: &mut Heap,
    pending: Pending,
    children: &[Term],
    pairs: &mut Vec<(Term, Term)>,
) -> Result<Term, EtfErrorKind> {
    Ok(match pending {
        Pending::Tuple => heap.tuple(children),
        Pending::List => {
            let (tail, items) = match children.split_last() {
                Some((tail, items)) => (*tail, items),
                None => (Term::NIL, children),
            };
            heap.list_with_tail(items, tail)
        }
        Pending::Map => {
            pairs.clear();
            pairs.extend(children.chunks_exact(2).map(|kv| (kv[0], kv[1])));
            let m = map::from_pairs(heap, pairs);
            // `from_pairs` keeps the last of equal keys; OTP refuses them.
            if m.map_size() != Some(pairs.len()) {
                return Err(EtfErrorKind::DuplicateMapKey);
            }
            m
        }
        Pending::Fun { entry, creator } => heap.closure(entry, creator, children),
        Pending::Record(def) => heap.record(def, children),
    })
}

/// The definition of a decoded native record: the declared one when a
/// loaded module declares this shape (see [`RecordDef::resolve`]).
fn record_def(
    exported: bool,
    module: AtomText<'_>,
    name: AtomText<'_>,
    fields: &[u8],
    opts: &DecodeOptions,
) -> Result<&'static RecordDef, EtfErrorKind> {
    let mut r = Reader::new(fields, false);
    let mut names = Vec::new();
    while r.remaining() > 0 {
        // `scan` read these atoms already.
        let text = token::atom(&mut r).map_err(|e| e.kind)?;
        let f = atom(text, opts)?;
        if names.contains(&f) {
            return Err(EtfErrorKind::DuplicateRecordField);
        }
        names.push(f);
    }
    Ok(RecordDef::resolve(
        atom(module, opts)?,
        atom(name, opts)?,
        exported,
        &names,
    ))
}

/// Interns an atom (or finds it, in safe mode).
#[inline]
fn atom(text: AtomText<'_>, opts: &DecodeOptions) -> Result<Atom, EtfErrorKind> {
    let name: Cow<'_, str> = match text {
        AtomText::Utf8(s) => Cow::Borrowed(s),
        AtomText::Latin1(bytes) => match std::str::from_utf8(bytes) {
            Ok(s) if bytes.is_ascii() => Cow::Borrowed(s),
            _ => Cow::Owned(bytes.iter().map(|&b| b as char).collect()),
        },
    };
    if opts.safe {
        return Atom::existing(&name).ok_or_else(|| EtfErrorKind::UnsafeAtom(name.into_owned()));
    }
    Atom::new_within_limit(&name).map_err(|e| match e {
        AtomError::SystemLimit => EtfErrorKind::AtomTableFull,
        AtomError::TooLong(n) => EtfErrorKind::AtomTooLong(n),
    })
}

/// True for the local node's name and creation.
#[inline]
fn is_local(node: &AtomText<'_>, creation: u32) -> bool {
    let (name, this_creation) = this_node();
    creation == this_creation && node.is_ascii_name(name.name())
}

/// A pid: an immediate for the local node, an external pid otherwise.
fn pid(heap: &mut Heap, p: &PidToken<'_>, opts: &DecodeOptions) -> Result<Term, EtfErrorKind> {
    if is_local(&p.node, p.creation) {
        let n =
            local_pid_number(p.id, p.serial).ok_or(EtfErrorKind::OutOfRange("local pid serial"))?;
        return Ok(Term::pid(n));
    }
    Ok(heap.external_pid(atom(p.node, opts)?, p.id, p.serial, p.creation))
}

/// A port: an immediate for the local node, an external port otherwise.
fn port(heap: &mut Heap, p: &PortToken<'_>, opts: &DecodeOptions) -> Result<Term, EtfErrorKind> {
    if is_local(&p.node, p.creation) {
        if p.id > MAX_LOCAL_ID {
            return Err(EtfErrorKind::OutOfRange("local port number"));
        }
        return Ok(Term::port(p.id));
    }
    Ok(heap.external_port(atom(p.node, opts)?, p.id, p.creation))
}

/// A reference: a local reference for the local node (one to three id
/// words, shorter ones padded with zeros, as OTP 25 does), an external one
/// otherwise.
fn reference(
    heap: &mut Heap,
    rf: &RefToken<'_>,
    opts: &DecodeOptions,
) -> Result<Term, EtfErrorKind> {
    if is_local(&rf.node, rf.creation) {
        if !(1..=3).contains(&rf.len) {
            return Err(EtfErrorKind::BadReferenceLength(rf.len as u16));
        }
        return Ok(heap.local_ref([rf.ids[0], rf.ids[1], rf.ids[2]]));
    }
    Ok(heap.external_ref(atom(rf.node, opts)?, rf.creation, &rf.ids[..rf.len]))
}

/// The interned entry and the creator pid of a closure.
fn fun_parts(
    heap: &mut Heap,
    f: &FunToken<'_>,
    opts: &DecodeOptions,
) -> Result<(&'static FunEntry, Term), EtfErrorKind> {
    let entry = FunEntry::intern(FunEntry {
        module: atom(f.module, opts)?,
        // The encoding does not name the function implementing the fun;
        // the loader knows it, and the entry is keyed without it.
        function: Atom::UNDEFINED,
        arity: f.arity as u32,
        num_free: f.num_free,
        index: f.index,
        uniq: f.uniq,
        old_index: f.old_index,
        old_uniq: f.old_uniq,
        code: Default::default(),
    });
    let creator = pid(heap, &f.creator, opts)?;
    Ok((entry, creator))
}
