//! Generic code for the loader's checks' tests: instructions, and a
//! function `f/1` around a body.

use beamr_core::beam::{Instruction, Opcode, Operand};

/// One instruction at offset 0.
pub fn ins(opcode: Opcode, args: Vec<Operand>) -> Instruction {
    Instruction {
        opcode,
        args,
        offset: 0,
    }
}

/// A function `f/1` (label 1, its `func_info`, entry label 2) whose body
/// is `body`, with every instruction at its own offset (its index).
pub fn function(body: Vec<Instruction>) -> Vec<Instruction> {
    let mut code = vec![
        ins(Opcode::Label, vec![Operand::Unsigned(1)]),
        ins(
            Opcode::FuncInfo,
            vec![Operand::Atom(1), Operand::Atom(2), Operand::Unsigned(1)],
        ),
        ins(Opcode::Label, vec![Operand::Unsigned(2)]),
    ];
    code.extend(body);
    for (i, ins) in code.iter_mut().enumerate() {
        ins.offset = i;
    }
    code
}
