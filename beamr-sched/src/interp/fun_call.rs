//! Calling funs and applying argument lists: what a fun value runs
//! (resolved through `code::resolve`), `badfun`/`badarity`, and spreading
//! `apply`'s list into the X registers.

use crate::code::{resolve, Callee, CodeServer};
use crate::loader::BifFn;
use crate::loader::Instr;
use crate::process::{Exception, Process};
use beamr_core::atom::Atom;
use beamr_core::term::{Export, Term};
use std::sync::atomic::Ordering;

use super::unwind::bif_error;

/// What calling a fun runs.
pub(super) enum FunTarget {
    /// Bytecode at this address (free variables already in x registers).
    Code(*const Instr),
    /// A native BIF (an export fun of a BIF).
    Bif(BifFn, &'static Export),
}

/// Resolves a call of `f` with `arity` arguments in x0.., putting a
/// closure's free variables after them.
///
/// The common case, a closure of the right arity whose module is loaded,
/// is decided here, inlined into the dispatch loop; the rest (export funs,
/// loading, errors) in [`fun_target_slow`].
#[inline(always)]
pub(super) fn fun_target(p: &mut Process, f: Term, arity: u32) -> Result<FunTarget, Exception> {
    match closure_entry(p, f, arity) {
        Some(code) => Ok(FunTarget::Code(code)),
        None => fun_target_slow(p, f, arity),
    }
}

/// The common case of [`fun_target`], which the dispatch loop runs
/// itself: `f` is a closure of `arity` whose module is loaded. Its free
/// variables go after the arguments and its code is returned; `None`
/// (nothing changed) for every other call.
#[inline(always)]
pub(super) fn closure_entry(p: &mut Process, f: Term, arity: u32) -> Option<*const Instr> {
    let c = f.as_closure()?;
    let code = c.entry.code.load(Ordering::Acquire);
    if c.entry.arity != arity || code == 0 {
        return None;
    }
    // Most funs capture nothing: no call to copy nothing.
    if !c.free.is_empty() {
        let start = arity as usize;
        p.x[start..start + c.free.len()].copy_from_slice(c.free);
    }
    Some(code as *const Instr)
}

/// [`fun_target`] past its fast path.
#[inline(never)]
fn fun_target_slow(p: &mut Process, f: Term, arity: u32) -> Result<FunTarget, Exception> {
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
