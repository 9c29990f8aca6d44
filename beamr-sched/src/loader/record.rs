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
//! get_record_field     Fail Rec Id Field Dst (Fail 0: raise {badrecord, Rec})
//! ```
//!
//! beamr has no native-record term yet, and no value is one: the tests
//! fail, reads fail as they do on any value that is not a record
//! (`get_record_elements` jumps, `get_record_field` raises `{badrecord,
//! Rec}` or jumps), and `put_record`, the only way to make one, raises
//! `{beamr_unsupported, native_records}`. OTP 29's own library (`io_lib`,
//! `io_lib_pretty`, `erl_eval`) tests for native records on every term it
//! prints, so it runs; a program that builds one stops with that error.

use beamr_core::beam::{Instruction, Opcode};

use super::error::LoadError;
use super::lower::Lowering;
use super::operand::{Dst, Src, Target};

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
    /// `is_any_native_record`, `is_native_record`, `is_record_accessible`
    /// and `get_record_elements`: jump unless `rec` is a native record
    /// (never, in beamr).
    NotNativeRecord {
        /// Where to go.
        fail: Target,
    },
    /// `get_record_field`: `rec`'s field into `dst`; on a value that is not
    /// a native record (every value, in beamr) jump to `fail`, or raise
    /// `{badrecord, Rec}` when it is NONE.
    GetField {
        /// Where to go when the read fails; NONE raises.
        fail: Target,
        /// The record.
        rec: Src,
    },
    /// `put_record`: raises `{beamr_unsupported, native_records}`.
    Put,
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
            O::IsAnyNativeRecord
            | O::IsNativeRecord
            | O::GetRecordElements
            | O::IsRecordAccessible => {
                // The operands are still checked, as a loader that runs them would.
                self.src(ins, 1)?;
                RecordInstr::NotNativeRecord {
                    fail: self.target(ins, 0, here)?,
                }
            }
            O::GetRecordField => {
                self.dst(ins, 4)?;
                RecordInstr::GetField {
                    fail: self.target(ins, 0, here)?,
                    rec: self.src(ins, 1)?,
                }
            }
            _ => {
                self.dst(ins, 3)?;
                RecordInstr::Put
            }
        })
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
