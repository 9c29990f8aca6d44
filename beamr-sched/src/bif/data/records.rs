//! `records` (OTP 29): the BIFs on native records, and `erlang:is_record/1`.
//!
//! Their errors are OTP 29's (checked against its `erl`):
//!
//! ```text
//! get/2, get_module/1, get_name/1       badarg on a non-record (or a missing field)
//! get_field_names/1, is_exported/1      {badrecord, Value} on a non-record
//! create(M, N, Fields, Options)         {badrecord, N} when M or N is not an atom;
//!                                       {badmap, Options}; badarg unless Options is
//!                                       exactly #{is_exported => Boolean}; badarg for
//!                                       a Fields that is not a proper list of pairs, or
//!                                       that names a field twice; {badfield, {{M, N}, K}}
//!                                       for a name that is not an atom
//! update(R, M, N, Map)                  {badrecord, R} on a non-record; {badrecord, N}
//!                                       unless N is '_' or R is M's record N;
//!                                       {badmap, Map}; {badfield, {{M, N}, K}}
//! get_definition(M, N)                  badarg unless M's current version declares N
//! ```
//!
//! `create/4` gives the record the definition its module declares when the
//! shape is the same, as OTP does (see [`RecordDef::resolve`]).

use beamr_core::atom::Atom;
use beamr_core::map;
use beamr_core::term::{RecordDef, Term};

use crate::code::CodeServer;
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("records", "get", 2, get),
    ("records", "get_module", 1, get_module),
    ("records", "get_name", 1, get_name),
    ("records", "get_field_names", 1, get_field_names),
    ("records", "is_exported", 1, is_exported),
    ("records", "create", 4, create),
    ("records", "update", 4, update),
    ("records", "get_definition", 2, get_definition),
    ("erlang", "is_record", 1, is_record1),
];

/// `{Tag, Value}` as an error.
fn tagged(p: &mut Process, tag: Atom, value: Term) -> Exception {
    Exception::error(p.heap.tuple(&[Term::atom(tag), value]))
}

/// `records:get(Field, Record)`.
fn get(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let field = a[0].as_atom().ok_or_else(Exception::badarg)?;
    a[1].as_record()
        .and_then(|r| r.get(field))
        .ok_or_else(Exception::badarg)
}

/// `records:get_module(Record)`.
fn get_module(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let r = a[0].as_record().ok_or_else(Exception::badarg)?;
    Ok(Term::atom(r.def.module))
}

/// `records:get_name(Record)`.
fn get_name(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let r = a[0].as_record().ok_or_else(Exception::badarg)?;
    Ok(Term::atom(r.def.name))
}

/// `records:get_field_names(Record)`: in declaration order.
fn get_field_names(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let Some(r) = a[0].as_record() else {
        return Err(tagged(p, Atom::BADRECORD, a[0]));
    };
    let names: Vec<Term> = r.def.fields.iter().map(|&f| Term::atom(f)).collect();
    Ok(p.heap.list(&names))
}

/// `records:is_exported(Record)`.
fn is_exported(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    match a[0].as_record() {
        Some(r) => Ok(Term::bool(r.def.exported)),
        None => Err(tagged(p, Atom::BADRECORD, a[0])),
    }
}

/// `records:create(Module, Name, [{Field, Value}], #{is_exported => Bool})`.
fn create(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (Some(module), Some(name)) = (a[0].as_atom(), a[1].as_atom()) else {
        return Err(tagged(p, Atom::BADRECORD, a[1]));
    };
    if !a[3].is_map() {
        return Err(tagged(p, Atom::BADMAP, a[3]));
    }
    let is_exported = Term::atom(Atom::new("is_exported").expect("atom"));
    let exported = match (a[3].map_size(), map::get(a[3], is_exported)) {
        (Some(1), Some(v)) if v == Term::bool(true) => true,
        (Some(1), Some(v)) if v == Term::bool(false) => false,
        _ => return Err(Exception::badarg()),
    };
    let items = a[2].list_to_vec().ok_or_else(Exception::badarg)?;
    let mut fields = Vec::with_capacity(items.len());
    let mut values = Vec::with_capacity(items.len());
    for item in items {
        let Some(&[k, v]) = item.as_tuple() else {
            return Err(Exception::badarg());
        };
        let Some(f) = k.as_atom() else {
            let id = p.heap.tuple(&[a[0], a[1]]);
            let what = p.heap.tuple(&[id, k]);
            return Err(tagged(p, Atom::new("badfield").expect("atom"), what));
        };
        fields.push(f);
        values.push(v);
    }
    let mut sorted = fields.clone();
    sorted.sort();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return Err(Exception::badarg());
    }
    let def = RecordDef::resolve(module, name, exported, &fields);
    Ok(p.heap.record(def, &values))
}

/// `records:update(Record, Module, Name, #{Field => Value})`.
fn update(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let Some(r) = a[0].as_record() else {
        return Err(tagged(p, Atom::BADRECORD, a[0]));
    };
    let def = r.def;
    if a[2].as_atom().map(Atom::name) != Some("_") {
        let matches = match (a[1].as_atom(), a[2].as_atom()) {
            (Some(m), Some(n)) => def.module == m && def.name == n,
            _ => false,
        };
        if !matches {
            return Err(tagged(p, Atom::BADRECORD, a[2]));
        }
    }
    let Some(pairs) = map::iter(a[3]) else {
        return Err(tagged(p, Atom::BADMAP, a[3]));
    };
    let mut values = r.values.to_vec();
    let mut pairs: Vec<(Term, Term)> = pairs.collect();
    if pairs.is_empty() {
        return Ok(a[0]);
    }
    pairs.sort_by(|x, y| beamr_core::order::compare_exact(x.0, y.0));
    for (k, v) in pairs {
        match k.as_atom().and_then(|f| def.field_index(f)) {
            Some(i) => values[i] = v,
            None => {
                let id = p
                    .heap
                    .tuple(&[Term::atom(def.module), Term::atom(def.name)]);
                let what = p.heap.tuple(&[id, k]);
                return Err(tagged(p, Atom::new("badfield").expect("atom"), what));
            }
        }
    }
    Ok(p.heap.record(def, &values))
}

/// `records:get_definition(Module, Name)`: `{#{is_exported => Bool},
/// [{Field, Default} | Field]}` of the record the module's current version
/// declares.
fn get_definition(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (Some(module), Some(name)) = (a[0].as_atom(), a[1].as_atom()) else {
        return Err(Exception::badarg());
    };
    let code = CodeServer::global()
        .current(module)
        .ok_or_else(Exception::badarg)?;
    let record = code.record(name).ok_or_else(Exception::badarg)?;
    let mut items = Vec::with_capacity(record.def.fields.len());
    for (&f, default) in record.def.fields.iter().zip(record.defaults.iter()) {
        items.push(match default {
            Some(v) => p.heap.tuple(&[Term::atom(f), *v]),
            None => Term::atom(f),
        });
    }
    let fields = p.heap.list(&items);
    let key = Term::atom(Atom::new("is_exported").expect("atom"));
    let options = map::from_pairs(&mut p.heap, &[(key, Term::bool(record.def.exported))]);
    Ok(p.heap.tuple(&[options, fields]))
}

/// `erlang:is_record/1` (OTP 29): whether the term is a native record.
fn is_record1(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::bool(a[0].is_record()))
}
