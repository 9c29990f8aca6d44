//! The interpreter's slow paths for exceptions: building error terms,
//! finding the innermost catch, and calling funs.

use std::sync::atomic::Ordering;

use beamr_core::atom::Atom;
use beamr_core::term::{Export, Term};

use super::stacktrace::build_stacktrace;
use crate::code::{resolve, Callee, CodeServer};
use crate::loader::BifFn;
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

/// Raises `e` at `ip`: records it, builds its stack trace, and unwinds the
/// stack to the innermost catch.
#[cold]
pub(super) fn unwind(p: &mut Process, e: Exception, ip: *const Instr) -> Unwound {
    let trace = if e.trace.is_non_value() {
        build_stacktrace(p, ip, &e)
    } else {
        e.trace
    };
    // The error_info term is in the trace now; drop it (it is no GC root).
    p.last_exception = Some(Exception {
        error_info: Term::NON_VALUE,
        ..e
    });
    p.last_trace = trace;
    for i in (0..p.stack.len()).rev() {
        if let Some(payload) = p.stack[i].as_catch() {
            let (handler, y) = decode_catch(payload);
            p.stack.truncate(i + 1 + y);
            p.x[0] = Term::NON_VALUE;
            p.x[1] = Term::atom(e.class.atom());
            p.x[2] = e.reason;
            p.x[3] = trace;
            return Unwound::Caught(handler);
        }
    }
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

/// What calling a fun runs.
pub(super) enum FunTarget {
    /// Bytecode at this address (free variables already in x registers).
    Code(*const Instr),
    /// A native BIF (an export fun of a BIF).
    Bif(BifFn, &'static Export),
}

/// Resolves a call of `f` with `arity` arguments in x0.., putting a
/// closure's free variables after them.
pub(super) fn fun_target(p: &mut Process, f: Term, arity: u32) -> Result<FunTarget, Exception> {
    if let Some(c) = f.as_closure() {
        if c.entry.arity != arity {
            return Err(badarity(p, f, arity));
        }
        for (i, &v) in c.free.iter().enumerate() {
            p.x[arity as usize + i] = v;
        }
        let mut code = c.entry.code.load(Ordering::Acquire);
        if code == 0 {
            let _ = CodeServer::global().ensure_loaded(c.entry.module);
            code = c.entry.code.load(Ordering::Acquire);
        }
        if code == 0 {
            return Err(Exception::error(
                p.heap.tuple(&[Term::atom(Atom::BADFUN), f]),
            ));
        }
        return Ok(FunTarget::Code(code as *const Instr));
    }
    if let Some(export) = f.as_export() {
        if export.arity != arity {
            return Err(badarity(p, f, arity));
        }
        return match resolve::resolve(export) {
            Callee::Native(bif) => Ok(FunTarget::Bif(bif, export)),
            Callee::Code(code) => Ok(FunTarget::Code(code)),
            Callee::Undefined => {
                let args = p.x[..arity as usize].to_vec();
                Err(bif_error(
                    p,
                    Exception::error(Term::atom(Atom::UNDEF)),
                    export.module,
                    export.function,
                    &args,
                ))
            }
        };
    }
    Err(Exception::error(
        p.heap.tuple(&[Term::atom(Atom::BADFUN), f]),
    ))
}

fn badarity(p: &mut Process, f: Term, arity: u32) -> Exception {
    let args = p.x[..arity as usize].to_vec();
    let args = p.heap.list(&args);
    let inner = p.heap.tuple(&[f, args]);
    Exception::error(p.heap.tuple(&[Term::atom(Atom::BADARITY), inner]))
}

/// Moves the proper list in x(`list_reg`) into x0.., keeping what x0..
/// held before the list (the module and function, or the fun) right after
/// the spread arguments; returns the number of arguments. `badarg` for an
/// improper list or one too long for the registers.
pub(super) fn spread_args(p: &mut Process, list_reg: usize) -> Result<u32, Exception> {
    let args = p.x[list_reg].list_to_vec().ok_or_else(Exception::badarg)?;
    if args.len() + list_reg > crate::process::MAX_X_REGS || args.len() > 255 {
        return Err(Exception::system_limit());
    }
    let head: Vec<Term> = p.x[..list_reg].to_vec();
    p.x[..args.len()].copy_from_slice(&args);
    p.x[args.len()..args.len() + head.len()].copy_from_slice(&head);
    Ok(args.len() as u32)
}
