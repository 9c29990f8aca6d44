//! Message passing: `send`, `loop_rec`, `loop_rec_end`, `remove_message`, `wait`, `wait_timeout`, `timeout`, and the receive-marker instructions.
//!
//! Lowered here into [`RecvInstr`]; executed by `interp::ops::recv`.

use beamr_core::beam::{Instruction, Opcode};

use super::error::LoadError;
use super::lower::Lowering;

/// An executable recv instruction.
#[derive(Debug, Clone, Copy)]
pub enum RecvInstr {}

/// True for the generic opcodes this module lowers.
pub(super) fn handles(_op: Opcode) -> bool {
    false
}

impl Lowering<'_> {
    /// Lowers one generic instruction for which [`handles`] is true.
    pub(super) fn lower_recv(
        &mut self,
        ins: &Instruction,
        _here: usize,
    ) -> Result<RecvInstr, LoadError> {
        Err(LoadError::Unsupported {
            module: self.module.name().to_string(),
            opcode: ins.opcode.name(),
            offset: ins.offset,
        })
    }
}
