//! Execution of [`MapInstr`](crate::loader::maps::MapInstr) instructions.

use super::Flow;
use crate::loader::maps::MapInstr;
use crate::process::Process;
use crate::runtime::Runtime;

/// Executes one instruction.
pub fn exec(_rt: &Runtime, _p: &mut Process, op: &MapInstr) -> Flow {
    match *op {}
}
