//! [`run`]: one slice of a process. The process borrows its scheduler
//! thread's register file for the slice (`process::registers`), and keeps
//! only the X registers still live when the slice ends.

use super::run::{run_slice, Outcome};
use crate::loader::recv::RecvInstr;
use crate::loader::Instr;
use crate::process::{Process, RegisterFile, MAX_X_REGS};
use crate::runtime::Runtime;

/// Runs `p` from `p.ip` for at most `budget` reductions, on the register
/// file `registers` (the running thread's).
pub fn run(rt: &Runtime, p: &mut Process, registers: &mut RegisterFile, budget: u32) -> Outcome {
    registers.lend(p);
    let outcome = run_slice(rt, p, budget);
    let live = live_after(p, &outcome);
    registers.take_back(p, live);
    outcome
}

/// How many X registers are live where a slice ended.
fn live_after(p: &Process, outcome: &Outcome) -> usize {
    let ip: *const Instr = p.ip.cast();
    match outcome {
        // The value.
        Outcome::Returned => 1,
        Outcome::Crashed { .. } => 0,
        // A slice runs out of reductions only at a function's entry,
        // which the loader emits right after the function's `FuncInfo`:
        // its arguments are live.
        Outcome::Yielded => {
            // SAFETY: `ip` is a function's entry (the loop yields only in
            // `call_code!`, at a call's target), and every entry has the
            // function's `FuncInfo` before it in the same code array
            // (`loader::lower`), so `ip - 1` is in bounds.
            match unsafe { &*ip.sub(1) } {
                Instr::FuncInfo { arity, .. } => *arity as usize,
                _ => MAX_X_REGS,
            }
        }
        // The compiler keeps nothing in X registers across a wait, except
        // the timeout of a `receive after T` without clauses, which waits
        // on itself.
        Outcome::Waiting => {
            // SAFETY: a waiting process's `ip` is the receive instruction it
            // waits in, in loaded code.
            match unsafe { &*ip } {
                Instr::Recv(RecvInstr::WaitTimeout { timeout, .. }) if timeout.is_x() => {
                    timeout.index() + 1
                }
                _ => 0,
            }
        }
    }
}
