//! Execution of [`RecordInstr`](crate::loader::record::RecordInstr):
//! `update_record` copies a tuple and replaces some of its elements; OTP
//! 29's native-record instructions test, read, create and update native
//! records.
//!
//! The errors are OTP 29's (checked against its `erl`):
//!
//! ```text
//! read or update a value that is not the record asked for   {badrecord, Value}
//! create a record whose module is not loaded, does not
//!   declare it, or does not export it                        {badrecord, {Module, Name}}
//! name a field the record lacks                              {badfield, {{Module, Name}, Field}}
//! create without a value for a field that has no default     {novalue, {{Module, Name}, Field}}
//! ```
//!
//! A field the record lacks is reported before a missing value. A record
//! of another module is built only when that module's current version
//! declares and exports it; as OTP 29.1 does, creating one does not load
//! the module.

use beamr_core::atom::Atom;
use beamr_core::term::{RecordDef, Term};

use super::{fail_or, get, put, Flow};
use crate::code::CodeServer;
use crate::interp::unwind;
use crate::loader::record::{CreateTarget, ModuleRecord, RecordId, RecordInstr};
use crate::loader::{Src, Target};
use crate::process::{Exception, Process};

/// Executes one instruction.
pub fn exec(p: &mut Process, op: &RecordInstr) -> Flow {
    match op {
        RecordInstr::Update {
            size,
            src,
            dst,
            updates,
        } => {
            let tuple = get(p, *src);
            // erlc emits update_record only for a tuple it knows has `size`
            // elements; anything else is a compiler bug, raised as badarg.
            let Some(elements) = tuple.as_tuple().filter(|e| e.len() == *size as usize) else {
                return Flow::Raise(Exception::badarg());
            };
            let mut copy: Vec<_> = elements.to_vec();
            for &(index, value) in updates.iter() {
                copy[index as usize] = get(p, value);
            }
            let new = p.heap.tuple(&copy);
            put(p, *dst, new);
            Flow::Next
        }
        RecordInstr::IsAny { fail, src } => test(get(p, *src).is_record(), *fail),
        RecordInstr::IsNative {
            fail,
            src,
            module,
            name,
        } => {
            let ok = get(p, *src)
                .as_record()
                .is_some_and(|r| r.def.module == *module && r.def.name == *name);
            test(ok, *fail)
        }
        RecordInstr::Accessible { fail, src, module } => {
            let ok = get(p, *src)
                .as_record()
                .is_some_and(|r| r.def.exported || Some(r.def.module) == *module);
            test(ok, *fail)
        }
        RecordInstr::Elements { fail, src, fields } => {
            let rec = get(p, *src);
            let Some(r) = rec.as_record() else {
                return Flow::Jump(*fail);
            };
            let mut values = Vec::with_capacity(fields.len());
            for &(f, _) in fields.iter() {
                match r.get(f) {
                    Some(v) => values.push(v),
                    None => return Flow::Jump(*fail),
                }
            }
            for (&(_, dst), v) in fields.iter().zip(values) {
                put(p, dst, v);
            }
            Flow::Next
        }
        RecordInstr::GetField {
            fail,
            src,
            id,
            module,
            field,
            dst,
        } => {
            let rec = get(p, *src);
            let def = match rec.as_record() {
                Some(r) if accepts(*id, *module, r.def) => r.def,
                _ => return fail_or(*fail, || unwind::tagged_error(p, Atom::BADRECORD, rec)),
            };
            match rec.as_record().and_then(|r| r.get(*field)) {
                Some(v) => {
                    put(p, *dst, v);
                    Flow::Next
                }
                None => fail_or(*fail, || badfield(p, def, *field)),
            }
        }
        RecordInstr::Create {
            fail,
            target,
            dst,
            fields,
        } => {
            let found;
            let record = match target {
                CreateTarget::Local(r) => r,
                CreateTarget::External(m, n) => {
                    found = external(*m, *n);
                    match &found {
                        Some(r) => r,
                        None => {
                            return fail_or(*fail, || {
                                let id = p.heap.tuple(&[Term::atom(*m), Term::atom(*n)]);
                                unwind::tagged_error(p, Atom::BADRECORD, id)
                            })
                        }
                    }
                }
            };
            match create(p, record, fields) {
                Ok(t) => {
                    put(p, *dst, t);
                    Flow::Next
                }
                Err(e) => fail_or(*fail, || e.raise(p, record.def)),
            }
        }
        RecordInstr::Put {
            fail,
            id,
            module,
            src,
            dst,
            fields,
        } => {
            let rec = get(p, *src);
            let Some(r) = rec.as_record().filter(|r| accepts(*id, *module, r.def)) else {
                return fail_or(*fail, || unwind::tagged_error(p, Atom::BADRECORD, rec));
            };
            let def = r.def;
            let mut values = r.values.to_vec();
            for &(f, v) in fields.iter() {
                match def.field_index(f) {
                    Some(i) => values[i] = get(p, v),
                    None => return fail_or(*fail, || badfield(p, def, f)),
                }
            }
            let new = p.heap.record(def, &values);
            put(p, *dst, new);
            Flow::Next
        }
    }
}

#[inline]
fn test(ok: bool, fail: Target) -> Flow {
    if ok {
        Flow::Next
    } else {
        Flow::Jump(fail)
    }
}

/// Whether a field read or update naming `id`, run by `module`, accepts a
/// record of `def`: `'_'` any record, a local name the running module's
/// record of that name, `{M, N}` that record when exported (or when `M`
/// is the running module).
fn accepts(id: RecordId, module: Atom, def: &RecordDef) -> bool {
    match id {
        RecordId::Any => true,
        RecordId::Local(n) => def.module == module && def.name == n,
        RecordId::External(m, n) => {
            def.module == m && def.name == n && (def.exported || m == module)
        }
    }
}

/// The exported record `name` of `module`'s current version.
fn external(module: Atom, name: Atom) -> Option<ModuleRecord> {
    let m = CodeServer::global().current(module)?;
    m.record(name).filter(|r| r.def.exported).cloned()
}

/// Why a record could not be created.
pub(crate) enum CreateError {
    /// A given field the record lacks.
    BadField(Atom),
    /// A field with no default and no value.
    NoValue(Atom),
}

impl CreateError {
    /// The exception: `{badfield, {{M, N}, F}}` or `{novalue, {{M, N}, F}}`.
    pub(crate) fn raise(self, p: &mut Process, def: &RecordDef) -> Exception {
        match self {
            CreateError::BadField(f) => badfield(p, def, f),
            CreateError::NoValue(f) => field_error(p, "novalue", def, f),
        }
    }
}

/// Builds a record of `record` from the given `fields` and the defaults.
fn create(
    p: &mut Process,
    record: &ModuleRecord,
    fields: &[(Atom, Src)],
) -> Result<Term, CreateError> {
    let def = record.def;
    let mut values: Vec<Option<Term>> = record.defaults.to_vec();
    for &(f, v) in fields {
        match def.field_index(f) {
            Some(i) => values[i] = Some(get(p, v)),
            None => return Err(CreateError::BadField(f)),
        }
    }
    let mut out = Vec::with_capacity(values.len());
    for (i, v) in values.into_iter().enumerate() {
        out.push(v.ok_or(CreateError::NoValue(def.fields[i]))?);
    }
    Ok(p.heap.record(def, &out))
}

/// `{badfield, {{Module, Name}, Field}}`.
pub(crate) fn badfield(p: &mut Process, def: &RecordDef, field: Atom) -> Exception {
    field_error(p, "badfield", def, field)
}

fn field_error(p: &mut Process, tag: &str, def: &RecordDef, field: Atom) -> Exception {
    let id = p
        .heap
        .tuple(&[Term::atom(def.module), Term::atom(def.name)]);
    let what = p.heap.tuple(&[id, Term::atom(field)]);
    let tag = Atom::new(tag).expect("atom");
    Exception::error(p.heap.tuple(&[Term::atom(tag), what]))
}
