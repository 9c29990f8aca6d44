//! Decoding the Code chunk's bytes into [`Instruction`]s.
//!
//! Each instruction is an opcode byte (1..=191, see [`Opcode`]) followed by
//! exactly [`Opcode::arity`] operands in the compact term encoding (see
//! [`compact`](super::compact)). Decoding stops after `int_code_end`; code
//! that ends before it is truncated.

use super::code::CodeChunk;
use super::compact::{read_operand, OperandLimits};
use super::container::ChunkId;
use super::error::{BeamError, BeamErrorKind};
use super::instruction::Instruction;
use super::opcode::Opcode;
use super::reader::Reader;

/// Decodes every instruction of `code`, checking operand indices against
/// `limits`. The result ends with `int_code_end`.
pub fn decode_code(
    code: &CodeChunk,
    limits: &OperandLimits,
) -> Result<Vec<Instruction>, BeamError> {
    let mut r = Reader::new(&code.code, code.code_offset, Some(ChunkId::CODE));
    // An instruction takes at least its opcode byte; most take about four.
    let mut out = Vec::with_capacity(code.code.len() / 4);
    while !r.is_empty() {
        let offset = r.offset();
        let byte = r.u8()?;
        let opcode = Opcode::from_u8(byte)
            .ok_or_else(|| r.error_at(offset, BeamErrorKind::UnknownOpcode(byte)))?;
        let mut args = Vec::with_capacity(opcode.arity());
        for _ in 0..opcode.arity() {
            args.push(read_operand(&mut r, limits)?);
        }
        out.push(Instruction {
            opcode,
            args,
            offset,
        });
        if opcode == Opcode::IntCodeEnd {
            return Ok(out);
        }
    }
    Err(r.error(BeamErrorKind::MissingCodeEnd))
}
