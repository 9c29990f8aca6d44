//! Splitting a module's instruction list into functions, the way the `.S`
//! listing groups them.
//!
//! A function starts at the `label` (and `line`) instructions just before
//! its `func_info`, and runs up to the next function's start or to
//! `int_code_end`. Its entry label is the first `label` after `func_info`.

use std::ops::Range;

use super::instruction::Instruction;
use super::opcode::Opcode;
use super::operand::Operand;

/// One function of the code: its name, arity, entry label and instructions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionSpan {
    /// The function name's atom index (0 if `func_info` is malformed).
    pub name: u32,
    /// The arity.
    pub arity: u32,
    /// The entry label (0 if there is none).
    pub entry: u32,
    /// The function's instructions, as a range of indices.
    pub range: Range<usize>,
}

/// The functions of `instructions`, in code order. Instructions before the
/// first function (there are none in compiler output) belong to no span.
pub fn split_functions(instructions: &[Instruction]) -> Vec<FunctionSpan> {
    let end = instructions
        .iter()
        .position(|i| i.opcode == Opcode::IntCodeEnd)
        .unwrap_or(instructions.len());
    let mut spans: Vec<FunctionSpan> = Vec::new();
    for (k, instr) in instructions[..end].iter().enumerate() {
        if instr.opcode != Opcode::FuncInfo {
            continue;
        }
        let floor = spans.last().map_or(0, |s| s.range.start + 1);
        let mut start = k;
        while start > floor
            && matches!(instructions[start - 1].opcode, Opcode::Label | Opcode::Line)
        {
            start -= 1;
        }
        if let Some(prev) = spans.last_mut() {
            prev.range.end = start;
        }
        let name = match instr.args.get(1) {
            Some(Operand::Atom(a)) => *a,
            _ => 0,
        };
        let arity = match instr.args.get(2) {
            Some(Operand::Unsigned(n)) => u32::try_from(*n).unwrap_or(u32::MAX),
            _ => 0,
        };
        let entry = instructions[k + 1..end]
            .iter()
            .find(|i| i.opcode == Opcode::Label)
            .and_then(|i| match i.args.first() {
                Some(Operand::Unsigned(n)) => u32::try_from(*n).ok(),
                _ => None,
            })
            .unwrap_or(0);
        spans.push(FunctionSpan {
            name,
            arity,
            entry,
            range: start..end,
        });
    }
    spans
}
