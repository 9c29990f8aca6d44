//! Instruction groups executed outside the main dispatch loop's body: each
//! returns a [`Flow`] telling the loop what to do next.

pub mod bs;
pub mod maps;
pub mod record;
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

/// Jumps to `fail` when the instruction has a fail label (it is in a
/// guard), else raises the exception `raise` makes.
#[inline(always)]
fn fail_or(fail: Target, raise: impl FnOnce() -> Exception) -> Flow {
    if fail.is_some() {
        Flow::Jump(fail)
    } else {
        Flow::Raise(raise())
    }
}

/// Reads a source operand (register or constant): one test of the low byte
/// tells an X or Y register from a constant (see [`Src`]'s layout).
#[inline(always)]
pub fn get(p: &Process, s: Src) -> Term {
    let w = s.raw();
    match w & 0xff {
        // SAFETY: the loader accepts only X registers below MAX_X_REGS
        // (`Lowering::src_of`), the length of `p.x` while the interpreter runs
        // the process (it holds a lent `RegisterFile` then).
        Src::X_TAG => unsafe { *p.x.get_unchecked((w >> Src::INDEX_SHIFT) as usize) },
        Src::Y_TAG => y(p, (w >> Src::INDEX_SHIFT) as u32),
        _ => s.term(),
    }
}

/// Writes a destination register.
#[inline(always)]
pub fn put(p: &mut Process, d: Dst, v: Term) {
    if d.is_y() {
        set_y(p, d.index() as u32, v);
    } else {
        // SAFETY: the loader accepts only X registers below MAX_X_REGS
        // (`Lowering::dst_of`), the length of `p.x` while the interpreter runs
        // the process (it holds a lent `RegisterFile` then).
        unsafe { *p.x.get_unchecked_mut(d.index()) = v };
    }
}

/// Reads X register `n` (a register number the loader checked, as in
/// [`get`]).
#[inline(always)]
pub fn x(p: &Process, n: u32) -> Term {
    // SAFETY: specialised instructions carry X register numbers taken from
    // operands the loader accepted, all below MAX_X_REGS (`Lowering::src_of`,
    // `Lowering::dst_of`), the length of `p.x` while the interpreter runs
    // the process (it holds a lent `RegisterFile` then).
    unsafe { *p.x.get_unchecked(n as usize) }
}

/// Writes X register `n` (a register number the loader checked).
#[inline(always)]
pub fn set_x(p: &mut Process, n: u32, v: Term) {
    // SAFETY: as in [`x`]: n < MAX_X_REGS by the loader's checks.
    unsafe { *p.x.get_unchecked_mut(n as usize) = v };
}

/// Reads Y register `n` of the current frame: the word `n + 1` below the
/// stack's top, read without a bounds check.
///
/// Only for a Y register an instruction of loaded code names:
/// `loader::frames` accepts such an operand only inside the frame its
/// function has allocated there, and the stack holds at least that frame
/// whenever the instruction runs (the invariant argued in that module).
#[inline(always)]
pub fn y(p: &Process, n: u32) -> Term {
    let len = p.stack.len();
    debug_assert!((n as usize) < len, "Y{n} outside a stack of {len} words");
    // SAFETY: n < the frame's slots <= len (loader::frames' invariant), so
    // len - 1 - n is an index of the stack.
    unsafe { *p.stack.get_unchecked(len - 1 - n as usize) }
}

/// Writes Y register `n` of the current frame (a register loaded code
/// names, as in [`y`]).
#[inline(always)]
pub fn set_y(p: &mut Process, n: u32, v: Term) {
    let len = p.stack.len();
    debug_assert!((n as usize) < len, "Y{n} outside a stack of {len} words");
    // SAFETY: as in `y`: n < the frame's slots <= len.
    unsafe { *p.stack.get_unchecked_mut(len - 1 - n as usize) = v };
}
