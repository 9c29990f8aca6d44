//! Record instructions: `update_record` (opcode 181, OTP 26), which erlc
//! emits for `R#rec{f = V}` on a tuple record known to be of its size.
//!
//! ```text
//! update_record Hint Size Src Dst {list, [Index1, Value1, ...]}
//!   Hint   copy | reuse (a hint only: beamr always copies)
//!   Size   the tuple's arity
//!   Index  1-based element positions, ascending
//! ```
//!
//! # OTP 29's native records (opcodes 186 to 191)
//!
//! ```text
//! is_any_native_record Fail Term             Term is a native record
//! is_native_record     Fail Rec Module Name  Rec is Module's record Name
//! get_record_elements  Fail Rec [Field, Dst, ...]
//! put_record           Fail Id Src Dst Live [Field, Value, ...]   (Src nil: create)
//! is_record_accessible Fail Rec Scope        (external | auto_local)
//! get_record_field     Fail Rec Id Field Dst (Fail 0: raise)
//!   Id  a: '_'             any record
//!       a: Name            this module's record Name
//!       literal {M, Name}  module M's record Name (exported, or this module's)
//! ```
//!
//! The module's own definitions come from its `Recs` chunk
//! ([`ModuleRecord`], built by [`Lowering::module_records`]): a local
//! `put_record` is bound to its definition and defaults here; an external
//! one finds the defining module's current version when it runs.

use beamr_core::atom::Atom;
use beamr_core::beam::{Instruction, Opcode, Operand};
use beamr_core::term::{RecordDef, Term};

use super::error::LoadError;
use super::lower::Lowering;
use super::operand::{Dst, Src, SrcKind, Target};

/// An executable record instruction.
#[derive(Debug)]
pub enum RecordInstr {
    /// `update_record`: `dst` = a copy of the tuple `src` with some elements replaced.
    Update {
        /// The tuple's arity.
        size: u32,
        /// The tuple.
        src: Src,
        /// Destination.
        dst: Dst,
        /// 0-based element indexes and their new values, ascending.
        updates: Box<[(u32, Src)]>,
    },
    /// `is_any_native_record`: jump unless `src` is a native record.
    IsAny {
        /// Where to go.
        fail: Target,
        /// The term.
        src: Src,
    },
    /// `is_native_record`: jump unless `src` is `module`'s record `name`.
    IsNative {
        /// Where to go.
        fail: Target,
        /// The term.
        src: Src,
        /// The defining module.
        module: Atom,
        /// The record's name.
        name: Atom,
    },
    /// `is_record_accessible`: jump unless the record `src` is exported,
    /// or (`auto_local`) defined by `module`.
    Accessible {
        /// Where to go.
        fail: Target,
        /// The record.
        src: Src,
        /// The module a record of its own is accessible to (`auto_local`),
        /// or `None` (`external`).
        module: Option<Atom>,
    },
    /// `get_record_elements`: each field's value into its register; jump
    /// unless `src` is a record holding every field.
    Elements {
        /// Where to go.
        fail: Target,
        /// The record.
        src: Src,
        /// Field names and destinations.
        fields: Box<[(Atom, Dst)]>,
    },
    /// `get_record_field`: one field's value into `dst`.
    GetField {
        /// Where to go when the read fails; NONE raises.
        fail: Target,
        /// The record.
        src: Src,
        /// Which records it reads.
        id: RecordId,
        /// The module running the instruction.
        module: Atom,
        /// The field.
        field: Atom,
        /// Destination.
        dst: Dst,
    },
    /// `put_record` with no source: a new record, each field given or
    /// defaulted.
    Create {
        /// Where to go when creation fails; NONE raises.
        fail: Target,
        /// This module's definition (local), or the one to find (external).
        target: CreateTarget,
        /// Destination.
        dst: Dst,
        /// Given fields and values.
        fields: Box<[(Atom, Src)]>,
    },
    /// `put_record` with a source: a copy of the record with some fields
    /// replaced.
    Put {
        /// Where to go when the update fails; NONE raises.
        fail: Target,
        /// Which records it updates.
        id: RecordId,
        /// The module running the instruction.
        module: Atom,
        /// The record.
        src: Src,
        /// Destination.
        dst: Dst,
        /// Fields and their new values.
        fields: Box<[(Atom, Src)]>,
    },
}

/// Which records a field read or an update accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordId {
    /// `'_'`: any native record.
    Any,
    /// The running module's record of this name.
    Local(Atom),
    /// Module `.0`'s record `.1`.
    External(Atom, Atom),
}

/// What a `put_record` without a source creates.
#[derive(Debug, Clone)]
pub enum CreateTarget {
    /// A record of the running module, bound when it was loaded.
    Local(ModuleRecord),
    /// Module `.0`'s record `.1`, looked up in its current version.
    External(Atom, Atom),
}

/// A native record a module declares: its canonical definition and each
/// field's default (terms in the module's literal area), in field order.
#[derive(Debug, Clone)]
pub struct ModuleRecord {
    /// The canonical definition.
    pub def: &'static RecordDef,
    /// Each field's default, `None` for a field that must be given.
    pub defaults: Box<[Option<Term>]>,
}

/// True for the generic opcodes this module lowers.
pub(super) fn handles(op: Opcode) -> bool {
    use Opcode as O;
    matches!(
        op,
        O::UpdateRecord
            | O::IsAnyNativeRecord
            | O::IsNativeRecord
            | O::GetRecordElements
            | O::PutRecord
            | O::IsRecordAccessible
            | O::GetRecordField
    )
}

impl Lowering<'_> {
    /// Lowers one generic instruction for which [`handles`] is true.
    pub(super) fn lower_record(
        &mut self,
        ins: &Instruction,
        here: usize,
    ) -> Result<RecordInstr, LoadError> {
        use Opcode as O;
        Ok(match ins.opcode {
            O::UpdateRecord => self.lower_update_record(ins)?,
            O::IsAnyNativeRecord => RecordInstr::IsAny {
                fail: self.target(ins, 0, here)?,
                src: self.src(ins, 1)?,
            },
            O::IsNativeRecord => RecordInstr::IsNative {
                fail: self.target(ins, 0, here)?,
                src: self.src(ins, 1)?,
                module: self.atom_operand(ins, 2)?,
                name: self.atom_operand(ins, 3)?,
            },
            O::IsRecordAccessible => {
                let scope = self.atom_operand(ins, 2)?;
                let module = match scope.name() {
                    "external" => None,
                    "auto_local" => Some(self.module),
                    other => return Err(self.err(ins, format!("unknown record scope {other}"))),
                };
                RecordInstr::Accessible {
                    fail: self.target(ins, 0, here)?,
                    src: self.src(ins, 1)?,
                    module,
                }
            }
            O::GetRecordElements => {
                let items =
                    self.groups(ins, 2, 2, "record elements are not field/register pairs")?;
                let mut fields = Vec::with_capacity(items.len() / 2);
                for pair in items.chunks(2) {
                    fields.push((self.field_atom(ins, &pair[0])?, self.dst_of(ins, &pair[1])?));
                }
                RecordInstr::Elements {
                    fail: self.target(ins, 0, here)?,
                    src: self.src(ins, 1)?,
                    fields: fields.into_boxed_slice(),
                }
            }
            O::GetRecordField => RecordInstr::GetField {
                fail: self.target(ins, 0, here)?,
                src: self.src(ins, 1)?,
                id: self.record_id(ins, 2)?,
                module: self.module,
                field: self.atom_operand(ins, 3)?,
                dst: self.dst(ins, 4)?,
            },
            _ => self.lower_put_record(ins, here)?,
        })
    }

    /// `put_record Fail Id Src Dst Live [Field, Value, ...]`.
    fn lower_put_record(
        &mut self,
        ins: &Instruction,
        here: usize,
    ) -> Result<RecordInstr, LoadError> {
        let fail = self.target(ins, 0, here)?;
        let id = self.record_id(ins, 1)?;
        let dst = self.dst(ins, 3)?;
        let items = self.groups(ins, 5, 2, "record fields are not field/value pairs")?;
        let mut fields = Vec::with_capacity(items.len() / 2);
        for pair in items.chunks(2) {
            fields.push((self.field_atom(ins, &pair[0])?, self.src_of(ins, &pair[1])?));
        }
        let fields = fields.into_boxed_slice();
        if matches!(self.arg(ins, 2)?, Operand::Nil) {
            let target = match id {
                RecordId::Local(name) => CreateTarget::Local(
                    self.records
                        .iter()
                        .find(|r| r.def.name == name)
                        .cloned()
                        .ok_or_else(|| {
                            self.err(ins, format!("no native record {}", name.name()))
                        })?,
                ),
                RecordId::External(m, n) => CreateTarget::External(m, n),
                RecordId::Any => return Err(self.err(ins, "creating a record of no name")),
            };
            return Ok(RecordInstr::Create {
                fail,
                target,
                dst,
                fields,
            });
        }
        Ok(RecordInstr::Put {
            fail,
            id,
            module: self.module,
            src: self.src(ins, 2)?,
            dst,
            fields,
        })
    }

    /// A record identifier operand: `'_'`, a name, or a `{Module, Name}`
    /// literal.
    fn record_id(&mut self, ins: &Instruction, i: usize) -> Result<RecordId, LoadError> {
        let op = self.arg(ins, i)?.clone();
        let term = match self.src_of(ins, &op)?.kind() {
            SrcKind::Const(t) => t,
            _ => return Err(self.err(ins, "a record id is not a constant")),
        };
        if let Some(a) = term.as_atom() {
            return Ok(if a.name() == "_" {
                RecordId::Any
            } else {
                RecordId::Local(a)
            });
        }
        match term.as_tuple() {
            Some(&[m, n]) => match (m.as_atom(), n.as_atom()) {
                (Some(m), Some(n)) => Ok(RecordId::External(m, n)),
                _ => Err(self.err(ins, "a record id is not {Module, Name}")),
            },
            _ => Err(self.err(ins, "a record id is not {Module, Name}")),
        }
    }

    fn field_atom(&self, ins: &Instruction, op: &Operand) -> Result<Atom, LoadError> {
        match op {
            Operand::Atom(n) => Ok(self.atom_at(*n)),
            other => Err(self.err(ins, format!("a record field is {other:?}, not an atom"))),
        }
    }

    /// The native records this module declares (its `Recs` chunk), with
    /// their canonical definitions interned.
    pub(super) fn module_records(&mut self) -> Result<Vec<ModuleRecord>, LoadError> {
        let decls = self.file.records.clone();
        let mut out = Vec::with_capacity(decls.len());
        for decl in &decls {
            let name = self.atom_at(decl.name);
            let fields: Vec<Atom> = decl.fields.iter().map(|(f, _)| self.atom_at(*f)).collect();
            let def = RecordDef::intern(self.module, name, decl.exported, &fields, true);
            let mut defaults = Vec::with_capacity(decl.fields.len());
            for (_, default) in &decl.fields {
                defaults.push(match default {
                    None => None,
                    Some(op) => match self.src_of_record_default(op)? {
                        SrcKind::Const(t) => Some(t),
                        _ => None,
                    },
                });
            }
            out.push(ModuleRecord {
                def,
                defaults: defaults.into_boxed_slice(),
            });
        }
        Ok(out)
    }

    fn src_of_record_default(&mut self, op: &Operand) -> Result<SrcKind, LoadError> {
        let ins = Instruction {
            opcode: Opcode::CallLast,
            args: Vec::new(),
            offset: 0,
        };
        Ok(self.src_of(&ins, op)?.kind())
    }

    fn lower_update_record(&mut self, ins: &Instruction) -> Result<RecordInstr, LoadError> {
        let size = self.unsigned(ins, 1)? as u32;
        let src = self.src(ins, 2)?;
        let dst = self.dst(ins, 3)?;
        let items = self.groups(ins, 4, 2, "update list is not index/value pairs")?;
        let mut updates = Vec::with_capacity(items.len() / 2);
        for pair in items.chunks(2) {
            let index = self.unsigned_of(ins, &pair[0], format_args!("record index"))?;
            if index == 0 || index > u64::from(size) {
                return Err(self.err(
                    ins,
                    format!("record index {index} outside a tuple of {size}"),
                ));
            }
            updates.push((index as u32 - 1, self.src_of(ins, &pair[1])?));
        }
        Ok(RecordInstr::Update {
            size,
            src,
            dst,
            updates: updates.into_boxed_slice(),
        })
    }
}
