//! Execution of [`BsInstr`](crate::loader::bs::BsInstr) instructions.

use super::Flow;
use crate::loader::bs::BsInstr;
use crate::process::Process;
use crate::runtime::Runtime;

/// Executes one instruction.
pub fn exec(_rt: &Runtime, _p: &mut Process, op: &BsInstr) -> Flow {
    match *op {}
}
