//! Execution of [`RecvInstr`](crate::loader::recv::RecvInstr) instructions.

use super::Flow;
use crate::loader::recv::RecvInstr;
use crate::process::Process;
use crate::runtime::Runtime;

/// Executes one instruction.
pub fn exec(_rt: &Runtime, _p: &mut Process, op: &RecvInstr) -> Flow {
    match *op {}
}
