//! Instruction groups executed outside the main dispatch loop's body: each
//! returns a [`Flow`] telling the loop what to do next.

pub mod bs;
pub mod maps;
pub mod recv;

use beamr_core::term::Term;

use crate::loader::{Dst, Src, Target};
use crate::process::{Exception, Process};

/// What the dispatch loop does after an instruction group's step.
pub enum Flow {
    /// Go on with the next instruction.
    Next,
    /// Jump relative to the current instruction.
    Jump(Target),
    /// Raise an exception.
    Raise(Exception),
    /// Suspend the process: it waits for a message or timeout, and resumes at
    /// the current instruction.
    Wait,
    /// Stay on the current instruction and yield to the scheduler.
    Yield,
}

/// Reads a source operand (register or constant).
#[inline(always)]
pub fn get(p: &Process, s: Src) -> Term {
    if !s.is_register() {
        s.term()
    } else if s.is_x() {
        p.x[s.index()]
    } else {
        p.stack[p.stack.len() - 1 - s.index()]
    }
}

/// Writes a destination register.
#[inline(always)]
pub fn put(p: &mut Process, d: Dst, v: Term) {
    if d.is_y() {
        let len = p.stack.len();
        p.stack[len - 1 - d.index()] = v;
    } else {
        p.x[d.index()] = v;
    }
}
