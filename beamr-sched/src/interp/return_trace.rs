//! The return-trace frame: how a call to a function whose trace pattern
//! asks for `return_trace` (or `exception_trace`) reports its return.
//!
//! At the call, [`push_frame`] pushes the real return address on the stack
//! (a code-pointer word, which the collector and the stack walkers already
//! know; null at the end of a process), records the frame in the process's
//! `return_traces` (its stack depth, the function, whether exceptions
//! report), and points CP at [`stub`], one `return_trace` instruction that
//! belongs to no module. When the function returns there, [`pop_frame`]
//! takes both back, the interpreter fires `return_from` and returns on to
//! the real address. An exception that unwinds below a frame's depth drops
//! it ([`unwound`]), firing `exception_from` for `exception_trace`.

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use beamr_trace::Mfa;

use crate::loader::Instr;
use crate::process::{Exception, Process, ReturnTraceFrame};
use crate::trace::probes;

/// The return-trace instruction, at a fixed address for the whole run.
static STUB: Instr = Instr::ReturnTrace;

/// The address of the return-trace instruction.
pub fn stub() -> *const Instr {
    &STUB
}

/// Pushes the frame for a call of `mfa` that returns to `p.cp`, and makes
/// the call return to [`stub`] instead; `exceptions` also reports an
/// exception that unwinds through it ([`unwound`]).
pub fn push_frame(p: &mut Process, mfa: Mfa, exceptions: bool) {
    p.stack.push(Term::code_pointer(p.cp));
    p.cp = stub().cast();
    let depth = p.stack.len();
    p.return_traces.push(ReturnTraceFrame {
        depth,
        mfa,
        exceptions,
    });
}

/// An exception of `class` with `reason` unwound the stack to `len` words:
/// the frames above are gone, and each pushed with `exceptions` fires
/// `exception_from`, innermost first.
pub fn unwound(p: &mut Process, len: usize, class: Atom, reason: Term) {
    while let Some(&frame) = p.return_traces.last() {
        if frame.depth <= len {
            break;
        }
        p.return_traces.pop();
        if frame.exceptions {
            let pid = p.pid;
            probes::exception_from(&mut p.trace, pid, frame.mfa, class, reason);
        }
    }
}

/// Pops the frame [`push_frame`] pushed: the function that returned and the
/// real return address (null when the process ends). `None` if the stack
/// does not end with a frame (a bug).
pub fn pop_frame(p: &mut Process) -> Option<(Mfa, *const Instr)> {
    let frame = p.return_traces.pop()?;
    if frame.depth != p.stack.len() {
        return None;
    }
    let back = p
        .stack
        .pop()?
        .as_code_pointer()
        .map_or(std::ptr::null(), <*const ()>::cast);
    Some((frame.mfa, back))
}

/// The error raised if the stub ever ran without its frame on the stack
/// (a bug): `{beamr_internal, return_trace_frame}`.
pub fn broken_frame(p: &mut Process) -> Exception {
    let tag = Term::atom(Atom::new("beamr_internal").expect("atom"));
    let what = Term::atom(Atom::new("return_trace_frame").expect("atom"));
    Exception::error(p.heap.tuple(&[tag, what]))
}
