//! A decoded generic instruction: an opcode and its operands.

use super::opcode::Opcode;
use super::operand::Operand;

/// One generic instruction, as the compiler emitted it.
#[derive(Debug, Clone, PartialEq)]
pub struct Instruction {
    /// The opcode.
    pub opcode: Opcode,
    /// The operands, exactly [`Opcode::arity`] of them.
    pub args: Vec<Operand>,
    /// Absolute file offset of the opcode byte.
    pub offset: usize,
}
