//! The return-trace frame: how a call to a function whose trace pattern
//! asks for `return_trace` reports its return.
//!
//! At the call, [`push_frame`] puts four words on the stack, all of them
//! plain stack words the collector and the stack walkers already know (a
//! code pointer and three immediates):
//!
//! ```text
//! top ->  arity (small integer)
//!         function (atom)
//!         module (atom)
//!         the real return address (code pointer; null at the end of a process)
//! ```
//!
//! and points CP at [`stub`], one `return_trace` instruction that belongs
//! to no module. When the function returns there, [`pop_frame`] takes the
//! four words back, the interpreter fires `return_from` and returns on to the
//! real address. An exception unwinds past the frame like any other stack
//! words (no `exception_from` yet).

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
    p.stack.push(Term::atom(mfa.module));
    p.stack.push(Term::atom(mfa.function));
    p.stack.push(Term::small_unchecked(i64::from(mfa.arity)));
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
    while p.return_traces.last().is_some_and(|f| f.depth > len) {
        let Some(frame) = p.return_traces.pop() else {
            break;
        };
        if frame.exceptions {
            let pid = p.pid;
            probes::exception_from(&mut p.trace, pid, frame.mfa, class, reason);
        }
    }
}

/// Pops the frame [`push_frame`] pushed: the function that returned and the
/// real return address (null when the process ends).
pub fn pop_frame(p: &mut Process) -> Option<(Mfa, *const Instr)> {
    p.return_traces.pop();
    let arity = p.stack.pop()?.as_small()?;
    let function = p.stack.pop()?.as_atom()?;
    let module = p.stack.pop()?.as_atom()?;
    let back = p
        .stack
        .pop()?
        .as_code_pointer()
        .map_or(std::ptr::null(), <*const ()>::cast);
    let mfa = Mfa {
        module,
        function,
        arity: u32::try_from(arity).ok()?,
    };
    Some((mfa, back))
}

/// The error raised if the stub ever ran without its frame on the stack
/// (a bug): `{beamr_internal, return_trace_frame}`.
pub fn broken_frame(p: &mut Process) -> Exception {
    let tag = Term::atom(Atom::new("beamr_internal").expect("atom"));
    let what = Term::atom(Atom::new("return_trace_frame").expect("atom"));
    Exception::error(p.heap.tuple(&[tag, what]))
}
