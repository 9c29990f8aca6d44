//! Map instructions: `put_map_assoc`, `put_map_exact`, `get_map_elements`, `has_map_fields`.
//!
//! Lowered here into [`MapInstr`]; executed by `interp::ops::maps`.

use beamr_core::beam::{Instruction, Opcode};

use super::error::LoadError;
use super::lower::Lowering;

/// An executable maps instruction.
#[derive(Debug)]
pub enum MapInstr {}

/// True for the generic opcodes this module lowers.
pub(super) fn handles(_op: Opcode) -> bool {
    false
}

impl Lowering<'_> {
    /// Lowers one generic instruction for which [`handles`] is true.
    pub(super) fn lower_map(
        &mut self,
        ins: &Instruction,
        _here: usize,
    ) -> Result<MapInstr, LoadError> {
        Err(LoadError::Unsupported {
            module: self.module.name().to_string(),
            opcode: ins.opcode.name(),
            offset: ins.offset,
        })
    }
}
