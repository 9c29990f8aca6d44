//! Stack traces as Erlang shows them: `[{M, F, ArityOrArgs, Location}]`,
//! innermost first, at most [`MAX_DEPTH`] frames (the BEAM's default
//! `backtrace_depth`).

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::loader::Instr;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// Frames kept in a stack trace.
pub const MAX_DEPTH: usize = 8;

/// The stack trace of `e` raised at `ip` in `p`, built on `p`'s heap.
pub fn build_stacktrace(rt: &Runtime, p: &mut Process, ip: *const Instr, e: &Exception) -> Term {
    let mut frames: Vec<Term> = Vec::new();
    let mut skip_current = false;
    if let Some((m, f)) = e.mfa {
        let location = if let Some(module) = rt.code.module_at(ip).filter(|m2| m2.name == m) {
            // function_clause: the failing function is the current one.
            skip_current = true;
            location(p, module.line_at(module.index_of(ip)))
        } else {
            Term::NIL
        };
        let frame = p
            .heap
            .tuple(&[Term::atom(m), Term::atom(f), e.args, location]);
        frames.push(frame);
    }
    if !skip_current {
        if let Some(frame) = frame_at(rt, p, ip, false) {
            frames.push(frame);
        }
    }
    let mut return_addresses: Vec<*const Instr> = Vec::new();
    if !p.cp.is_null() {
        return_addresses.push(p.cp);
    }
    for w in p.stack.iter().rev() {
        if w.raw() != 0 && w.raw() & 0b11 == 0 {
            return_addresses.push(w.raw() as *const Instr);
        }
    }
    for ra in return_addresses {
        if frames.len() >= MAX_DEPTH {
            break;
        }
        if let Some(frame) = frame_at(rt, p, ra, true) {
            frames.push(frame);
        }
    }
    frames.truncate(MAX_DEPTH);
    p.heap.list(&frames)
}

/// The frame for the function containing `ip`; for a return address, the
/// location is that of the call before it.
fn frame_at(rt: &Runtime, p: &mut Process, ip: *const Instr, is_return: bool) -> Option<Term> {
    let module = rt.code.module_at(ip)?;
    let index = module.index_of(ip);
    let at = if is_return {
        index.saturating_sub(1)
    } else {
        index
    };
    let function = module.function_at(at)?;
    let loc = location(p, module.line_at(at));
    Some(p.heap.tuple(&[
        Term::atom(module.name),
        Term::atom(function.name),
        Term::small_unchecked(function.arity as i64),
        loc,
    ]))
}

fn location(p: &mut Process, line: Option<(&str, u32)>) -> Term {
    match line {
        Some((file, line)) => {
            let file = p.heap.string(file);
            let file_item = p.heap.tuple(&[Term::atom(Atom::FILE), file]);
            let line_item = p
                .heap
                .tuple(&[Term::atom(Atom::LINE), Term::small_unchecked(line as i64)]);
            p.heap.list(&[file_item, line_item])
        }
        None => Term::NIL,
    }
}
