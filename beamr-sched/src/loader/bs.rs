//! Binary construction (`bs_create_bin`) and matching (`bs_start_match*`, `bs_get_*`, `bs_skip_*`, `bs_test_*`, `bs_match_string`, positions, UTF-8/16/32).
//!
//! Lowered here into [`BsInstr`]; executed by `interp::ops::bs`.

use beamr_core::beam::{Instruction, Opcode};

use super::error::LoadError;
use super::lower::Lowering;

/// An executable bs instruction.
#[derive(Debug)]
pub enum BsInstr {}

/// True for the generic opcodes this module lowers.
pub(super) fn handles(_op: Opcode) -> bool {
    false
}

impl Lowering<'_> {
    /// Lowers one generic instruction for which [`handles`] is true.
    pub(super) fn lower_bs(
        &mut self,
        ins: &Instruction,
        _here: usize,
    ) -> Result<BsInstr, LoadError> {
        Err(LoadError::Unsupported {
            module: self.module.name().to_string(),
            opcode: ins.opcode.name(),
            offset: ins.offset,
        })
    }
}
