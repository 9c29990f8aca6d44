//! The interpreter's slow path for exceptions: building error terms,
//! recording the stack trace and unwinding to the innermost catch.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use super::stacktrace::{raw_stacktrace, rendered};
use crate::loader::Instr;
use crate::process::{Class, Exception, Process};

/// Where an exception went.
pub(super) enum Unwound {
    /// To the handler at this address; x0..x3 hold NON_VALUE, class, reason, trace.
    Caught(*const Instr),
    /// Nowhere: the process dies. The trace is a list on its heap.
    Uncaught(Exception, Term),
}

/// Bits of a catch marker's payload below the Y index.
const CATCH_Y_SHIFT: u32 = 46;

/// The catch marker for a handler at `handler` installed in Y register `y`.
pub(super) fn catch_marker(handler: *const Instr, y: u32) -> Term {
    let addr = handler as u64 >> 3;
    debug_assert!(addr < 1 << CATCH_Y_SHIFT);
    Term::catch(addr | (y as u64) << CATCH_Y_SHIFT)
}

fn decode_catch(payload: u64) -> (*const Instr, usize) {
    (
        ((payload & ((1 << CATCH_Y_SHIFT) - 1)) << 3) as *const Instr,
        (payload >> CATCH_Y_SHIFT) as usize,
    )
}

/// The Y slots of the frame a catch handler runs in, which the loader
/// records in the handler's first instruction (`loader::frames` requires a
/// handler to start with `try_case` or `catch_end`).
fn handler_frame(handler: *const Instr) -> usize {
    // SAFETY: a catch word is made only by `Instr::Catch`, from its
    // handler's address in the same loaded module's code, never freed.
    match unsafe { &*handler } {
        Instr::TryCase { frame, .. } | Instr::CatchEnd { frame, .. } => *frame as usize,
        _ => usize::MAX,
    }
}

/// Raises `e` at `ip`: records it, takes its stack trace (raw: a handler
/// gets the frames only if it asks, see [`raw_stacktrace`]), and unwinds
/// the stack to the innermost catch.
#[cold]
pub(super) fn unwind(p: &mut Process, e: Exception, ip: *const Instr) -> Unwound {
    let trace = if e.trace.is_non_value() {
        raw_stacktrace(p, ip, &e)
    } else {
        e.trace
    };
    // The error_info term is in the trace now; drop it (it is no GC root).
    let last = Exception {
        error_info: Term::NON_VALUE,
        ..e
    };
    // Boxed to keep rarely used state out of every process's body; the box
    // is reused from one exception to the next.
    match p.last_exception.as_deref_mut() {
        Some(slot) => *slot = last,
        None => p.last_exception = Some(Box::new(last)),
    }
    p.last_trace = trace;
    // A process with a pending exit (an exit signal taken in, or
    // `exit(self(), R)`) is dead already on the BEAM: no handler runs, so
    // no frame is searched for one.
    let searched = if p.pending_exit.is_none() {
        p.stack.len()
    } else {
        0
    };
    for i in (0..searched).rev() {
        if let Some(payload) = p.stack[i].as_catch() {
            let (handler, y) = decode_catch(payload);
            if i + 1 + y < handler_frame(handler) {
                // A catch word moved out of its frame by hand-made code:
                // resuming there would leave the handler fewer stack words
                // than it names Y registers (see `loader::frames`).
                continue;
            }
            p.stack.truncate(i + 1 + y);
            super::return_trace::unwound(p, i + 1 + y, Some(handler), e.class.atom(), e.reason);
            // The handler's function keeps its return address in its frame:
            // the one in `cp` belongs to the call that failed, and is no
            // frame of a stack trace the handler's own errors show.
            p.cp = std::ptr::null();
            p.x[0] = Term::NON_VALUE;
            p.x[1] = Term::atom(e.class.atom());
            p.x[2] = e.reason;
            p.x[3] = trace;
            return Unwound::Caught(handler);
        }
    }
    super::return_trace::unwound(p, 0, None, e.class.atom(), e.reason);
    let trace = rendered(p, trace);
    p.last_trace = trace;
    Unwound::Uncaught(e, trace)
}

/// The value of `catch Expr` after an exception (x1..x3 hold class, reason,
/// trace): the thrown value, `{'EXIT', {Reason, Trace}}` for an error, or
/// `{'EXIT', Reason}` for an exit.
pub(super) fn catch_value(p: &mut Process) {
    let (class, reason, trace) = (p.x[1], p.x[2], p.x[3]);
    p.x[0] = match class.as_atom().and_then(Class::from_atom) {
        Some(Class::Throw) => reason,
        Some(Class::Error) => {
            let trace = rendered(p, trace);
            let inner = p.heap.tuple(&[reason, trace]);
            p.heap.tuple(&[Term::atom(Atom::EXIT), inner])
        }
        _ => p.heap.tuple(&[Term::atom(Atom::EXIT), reason]),
    };
}

/// An error raised by the BIF `m:f` called with `args`: the stack trace will
/// show `{m, f, args, [{error_info, ...}]}` first. `erlang:error/1,2,3` are
/// not frames of their own, as in the BEAM: the caller's frame comes first.
#[cold]
pub(super) fn bif_error(
    p: &mut Process,
    mut e: Exception,
    m: Atom,
    f: Atom,
    args: &[Term],
) -> Exception {
    let raises_itself = m == Atom::ERLANG && f == Atom::ERROR;
    if e.class == Class::Error && e.mfa.is_none() && !raises_itself {
        e.args = p.heap.list(args);
        e.mfa = Some((m, f));
    }
    e
}

/// `error:function_clause` for `m:f(args)`.
#[cold]
pub(super) fn function_clause(p: &mut Process, m: Atom, f: Atom, args: &[Term]) -> Exception {
    let mut e = Exception::error(Term::atom(Atom::FUNCTION_CLAUSE));
    e.args = p.heap.list(args);
    e.mfa = Some((m, f));
    e
}

/// `error:{tag, value}`.
#[cold]
pub(super) fn tagged_error(p: &mut Process, tag: Atom, value: Term) -> Exception {
    Exception::error(p.heap.tuple(&[Term::atom(tag), value]))
}

/// `set_tuple_element`: overwrites a freshly built tuple's element.
pub(super) fn set_tuple_element(tuple: Term, index: usize, value: Term) {
    if tuple.as_tuple().is_some_and(|t| index < t.len()) {
        // SAFETY: the compiler emits set_tuple_element only on a tuple that
        // `setelement/3` has just copied, before anything else can see it.
        unsafe { tuple.set_tuple_element(index, value) };
    }
}
