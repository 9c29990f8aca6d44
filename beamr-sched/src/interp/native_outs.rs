//! The interpreter's side of native code's call-outs
//! (`loader::native::CallOuts`): what the interpreter itself does at a
//! traced local call and at a return to the return-trace stub.

use super::{call_trace, return_trace};
use crate::loader::native::CallOuts;
use crate::loader::Instr;
use crate::process::Process;
use crate::runtime::Runtime;

/// Native code's call-outs, for the processes of `rt`.
pub(super) struct Interpreter<'a> {
    /// The runtime of the process native code runs.
    pub(super) rt: &'a Runtime,
}

impl CallOuts for Interpreter<'_> {
    fn local_call(&mut self, p: &mut Process, callee: *const Instr) {
        call_trace::local(self.rt, p, callee);
    }

    fn traced_return(&mut self, p: &mut Process) -> Option<*const Instr> {
        return_trace::returned(p)
    }
}
