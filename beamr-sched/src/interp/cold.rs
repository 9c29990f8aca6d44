//! The instructions the dispatch loop ([`super::run`]) runs out of line,
//! one at a time: fun calls, `apply`, exceptions, floats, binaries (but
//! the fused integer matches and appends), maps and records. Kept out of the loop's function so
//! that the loop stays small enough for the compiler to hold its state
//! (the instruction pointer, the reductions left, the process) in machine
//! registers.

use beamr_core::atom::Atom;
use beamr_core::term::{Export, Term};

use super::fun_call::{self, FunTarget};
use super::native_outs::Interpreter;
use super::ops::{self, get, put, Flow};
use super::return_trace;
use super::run::{
    call_native, do_return, offset, pause, pop_frame, raise_at, trace_call, trace_fun, trace_local,
    undef, Outcome,
};
use super::unwind;
use crate::code::{resolve, Callee};
use crate::loader::native;
use crate::loader::{Dst, FloatOp, Instr, Tail};
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// Where the dispatch loop goes on after [`step`].
pub(super) enum Step {
    /// On at this instruction, with this many reductions left.
    Go(*const Instr, i64),
    /// The slice ends.
    Exit(Outcome),
}

/// Runs the instruction at `ip`, one the dispatch loop does not run itself,
/// with `reds` of the slice's `budget` reductions left.
#[inline(never)]
pub(super) fn step(
    rt: &Runtime,
    p: &mut Process,
    mut ip: *const Instr,
    mut reds: i64,
    budget: u32,
) -> Step {
    // On at `ip`.
    macro_rules! go {
        () => {
            return Step::Go(ip, reds)
        };
    }
    macro_rules! next {
        () => {{
            // SAFETY: every instruction but the last (int_code_end, never
            // executed) has a successor in the same code array.
            ip = unsafe { ip.add(1) };
            go!()
        }};
    }
    macro_rules! skip2 {
        () => {{
            // SAFETY: a fused instruction is made only where its second
            // instruction follows it in the same code array
            // (loader/specialise.rs), and that one has a successor (see
            // next!).
            ip = unsafe { ip.add(2) };
            go!()
        }};
    }
    macro_rules! jump {
        ($t:expr) => {{
            ip = super::run::offset(ip, $t);
            go!()
        }};
    }
    macro_rules! raise {
        ($e:expr) => {{
            let e: Exception = $e;
            match raise_at(p, e, ip) {
                Ok(handler) => {
                    ip = handler;
                    go!()
                }
                Err(done) => return Step::Exit(done),
            }
        }};
    }
    macro_rules! call_code {
        ($addr:expr) => {{
            reds -= 1;
            ip = $addr;
            if reds <= 0 {
                return Step::Exit(pause(p, ip, budget as u64, Outcome::Yielded));
            }
            go!()
        }};
    }
    macro_rules! flow {
        ($f:expr) => {{
            match $f {
                Flow::Next => next!(),
                Flow::Jump(t) => jump!(t),
                Flow::Raise(e) => raise!(e),
                Flow::Wait => {
                    let spent = (budget as i64 - reds).max(0) as u64;
                    return Step::Exit(pause(p, ip, spent, Outcome::Waiting));
                }
                Flow::Yield => return Step::Exit(pause(p, ip, budget as u64, Outcome::Yielded)),
            }
        }};
    }
    // Returns to CP (the frame, if any, already dropped).
    macro_rules! ret {
        () => {{
            if let Some(done) = do_return(p, &mut ip) {
                return Step::Exit(done);
            }
            go!()
        }};
    }
    // SAFETY: ip points into loaded code, which is never freed.
    let ins = unsafe { &*ip };
    match ins {
        Instr::NativeCall {
            target,
            tail,
            entry,
        } => {
            // The interpreter's local call (run's `Call`, `CallLast`,
            // `CallOnly`), then the callee's native code instead of its
            // instructions.
            let callee = offset(ip, *target);
            set_cp_for_call(p, ip, *tail);
            trace_local(rt, p, callee);
            reds -= 1;
            if reds <= 0 {
                return Step::Exit(pause(p, callee, budget as u64, Outcome::Yielded));
            }
            let (at, left) = native::enter(p, *entry, reds, &mut Interpreter { rt });
            ip = at;
            reds = left;
            go!()
        }
        Instr::ReturnTrace => {
            // A function called with a return_trace pattern returned:
            // report it, then return on to where it was called from.
            let Some(back) = return_trace::returned(p) else {
                // Only push_frame points CP at the stub, over its frame.
                raise!(return_trace::broken_frame(p))
            };
            p.cp = back.cast();
            ret!()
        }
        Instr::FuncInfo {
            module,
            function,
            arity,
        } => {
            let args = p.x[..*arity as usize].to_vec();
            raise!(unwind::function_clause(p, *module, *function, &args))
        }
        Instr::Badmatch { arg }
        | Instr::CaseEnd { arg }
        | Instr::TryCaseEnd { arg }
        | Instr::Badrecord { arg } => {
            let tag = match ins {
                Instr::Badmatch { .. } => Atom::BADMATCH,
                Instr::CaseEnd { .. } => Atom::CASE_CLAUSE,
                Instr::TryCaseEnd { .. } => Atom::TRY_CLAUSE,
                _ => Atom::BADRECORD,
            };
            let v = get(p, *arg);
            raise!(unwind::tagged_error(p, tag, v))
        }
        Instr::IfEnd => raise!(Exception::error(Term::atom(Atom::IF_CLAUSE))),
        Instr::Catch { y, handler } => {
            put(
                p,
                Dst::y(*y as usize),
                unwind::catch_marker(super::run::offset(ip, *handler), *y),
            );
            next!()
        }
        Instr::CatchEnd { y, .. } => {
            put(p, Dst::y(*y as usize), Term::NIL);
            if p.x[0].is_non_value() {
                unwind::catch_value(p);
            }
            next!()
        }
        Instr::TryEnd { y } => {
            put(p, Dst::y(*y as usize), Term::NIL);
            next!()
        }
        Instr::TryCase { y, .. } => {
            put(p, Dst::y(*y as usize), Term::NIL);
            p.x[0] = p.x[1];
            p.x[1] = p.x[2];
            p.x[2] = p.x[3];
            next!()
        }
        Instr::BuildStacktrace => {
            // x0 holds the raw stack trace that TryCase put there.
            p.x[0] = super::stacktrace::rendered(p, p.x[0]);
            next!()
        }
        Instr::RawRaise => {
            let (class, reason, trace) = (p.x[0], p.x[1], p.x[2]);
            match class.as_atom().and_then(crate::process::Class::from_atom) {
                Some(class) => raise!(Exception {
                    class,
                    reason,
                    args: Term::NON_VALUE,
                    trace,
                    mfa: None,
                    error_info: Term::NON_VALUE,
                }),
                None => {
                    p.x[0] = Term::atom(Atom::BADARG);
                    next!()
                }
            }
        }
        Instr::Raise { trace, value } => {
            let (trace, value) = (get(p, *trace), get(p, *value));
            let class = p
                .last_exception
                .as_ref()
                .map_or(crate::process::Class::Error, |e| e.class);
            raise!(Exception {
                class,
                reason: value,
                args: Term::NON_VALUE,
                trace,
                mfa: None,
                error_info: Term::NON_VALUE,
            })
        }
        Instr::MakeFun(mf) => {
            let free: Vec<Term> = mf.free.iter().map(|&s| get(p, s)).collect();
            let pid = p.pid;
            let f = p.heap.closure(mf.entry, pid, &free);
            put(p, mf.dst, f);
            next!()
        }
        Instr::CallFun { arity } | Instr::CallFun2 { arity, .. } => {
            let f = match ins {
                Instr::CallFun2 { func, .. } => get(p, *func),
                _ => p.x[*arity as usize],
            };
            match fun_call::fun_target(p, f, *arity) {
                Ok(FunTarget::Code(code)) => {
                    // SAFETY: see next!.
                    p.cp = unsafe { ip.add(1) }.cast();
                    trace_fun(rt, p, f, code);
                    call_code!(code)
                }
                Ok(FunTarget::Bif(bif, export)) => {
                    trace_call(rt, p, export, false);
                    if let Err(e) = call_native(rt, p, bif, export) {
                        raise!(e)
                    }
                    next!()
                }
                Err(e) => raise!(e),
            }
        }
        Instr::Apply { .. } | Instr::ApplyLast { .. } | Instr::ApplyList { .. } => {
            let (arity, tail) = match ins {
                Instr::Apply { arity } => (*arity, Tail::Call),
                Instr::ApplyLast { arity, dealloc } => (*arity, Tail::Last(*dealloc)),
                Instr::ApplyList { tail } => match fun_call::spread_args(p, 2) {
                    Ok(n) => (n, *tail),
                    Err(e) => raise!(e),
                },
                _ => unreachable!(),
            };
            let (m, f) = (p.x[arity as usize], p.x[arity as usize + 1]);
            let export = match (m.as_atom(), f.as_atom()) {
                (Some(m), Some(f)) => Export::intern(m, f, arity),
                _ => raise!(Exception::badarg()),
            };
            let code = match resolve::resolve(export) {
                Callee::Code(code) => code,
                Callee::Undefined => raise!(undef(p, export)),
                Callee::Native(bif) => {
                    trace_call(rt, p, export, false);
                    if let Err(e) = call_native(rt, p, bif, export) {
                        raise!(e)
                    }
                    match tail {
                        Tail::Call => next!(),
                        Tail::Last(dealloc) => p.cp = pop_frame(p, dealloc).cast(),
                        Tail::Only => {}
                    }
                    ret!()
                }
            };
            set_cp_for_call(p, ip, tail);
            trace_call(rt, p, export, true);
            call_code!(code)
        }
        Instr::ApplyFunList { tail } => {
            let f = p.x[0];
            let arity = match fun_call::spread_args(p, 1) {
                Ok(n) => n,
                Err(e) => raise!(e),
            };
            match fun_call::fun_target(p, f, arity) {
                Ok(FunTarget::Code(code)) => {
                    set_cp_for_call(p, ip, *tail);
                    trace_fun(rt, p, f, code);
                    call_code!(code)
                }
                Ok(FunTarget::Bif(bif, export)) => {
                    trace_call(rt, p, export, false);
                    if let Err(e) = call_native(rt, p, bif, export) {
                        raise!(e)
                    }
                    match tail {
                        Tail::Call => next!(),
                        Tail::Last(dealloc) => p.cp = pop_frame(p, *dealloc).cast(),
                        Tail::Only => {}
                    }
                    ret!()
                }
                Err(e) => raise!(e),
            }
        }
        Instr::FLoad { src, fr } => {
            p.fr[*fr as usize] = get(p, *src).as_float().unwrap_or(0.0);
            next!()
        }
        Instr::FStore { fr, dst } => {
            let f = p.heap.float(p.fr[*fr as usize]);
            put(p, *dst, f);
            next!()
        }
        Instr::FMove { from, to } => {
            p.fr[*to as usize] = p.fr[*from as usize];
            next!()
        }
        Instr::FConv { src, fr } => {
            let v = get(p, *src);
            let f = if let Some(i) = v.as_small() {
                Some(i as f64)
            } else if let Some(f) = v.as_float() {
                Some(f)
            } else {
                v.as_big()
                    .and_then(|b| num_traits::ToPrimitive::to_f64(&b.to_bigint()))
                    .filter(|f| f.is_finite())
            };
            match f {
                Some(f) => p.fr[*fr as usize] = f,
                None => raise!(Exception::badarith()),
            }
            next!()
        }
        Instr::FArith { op, a, b, dst } => {
            let (x, y) = (p.fr[*a as usize], p.fr[*b as usize]);
            let r = match op {
                FloatOp::Add => x + y,
                FloatOp::Sub => x - y,
                FloatOp::Mul => x * y,
                FloatOp::Div => x / y,
                FloatOp::Negate => -x,
            };
            if !r.is_finite() {
                raise!(Exception::badarith())
            }
            p.fr[*dst as usize] = r;
            next!()
        }
        Instr::Bs(op) => flow!(ops::bs::exec(rt, p, op)),
        Instr::BsStartMatch {
            fail,
            live,
            src,
            dst,
        } => flow!(ops::bs::start_match(p, *fail, *live, *src, *dst)),
        Instr::BsGetPosition { ctx, dst } => flow!(ops::bs::get_position(p, *ctx, *dst)),
        Instr::BsStartMatchGetPosition {
            fail,
            live,
            src,
            ctx,
            pos,
        } => match ops::bs::start_match(p, *fail, *live, *src, *ctx) {
            Flow::Next => match ops::bs::get_position(p, ctx.as_src(), *pos) {
                Flow::Next => skip2!(),
                other => flow!(other),
            },
            other => flow!(other),
        },
        Instr::BsGetInt {
            fail,
            ctx,
            dst,
            bits,
            flags,
        } => flow!(ops::bs::get_int(
            p,
            *fail,
            *ctx,
            *bits as usize,
            *flags,
            *dst
        )),
        Instr::BsTestUnit { fail, ctx, unit } => {
            flow!(ops::bs::test_unit(p, *fail, *ctx, *unit as usize))
        }
        Instr::Map(op) => flow!(ops::maps::exec(rt, p, op)),
        Instr::Record(op) => flow!(ops::record::exec(p, op)),
        // The loader's checks leave no way into it; should one be found,
        // the process gets an error, not the runtime a panic.
        Instr::IntCodeEnd => raise!(unverified()),
        _ => unreachable!("the dispatch loop runs {ins:?} itself"),
    }
}

/// CP for a call of kind `tail` made by the instruction at `ip`: the next
/// instruction for a plain call, the CP saved under the frame a `_last`
/// call drops, unchanged for an `_only` call.
#[inline(always)]
fn set_cp_for_call(p: &mut Process, ip: *const Instr, tail: Tail) {
    match tail {
        // SAFETY: a call is never a function's last instruction (a return
        // or jump follows it), so its successor is in the same code array.
        Tail::Call => p.cp = unsafe { ip.add(1) }.cast(),
        Tail::Last(slots) => p.cp = pop_frame(p, slots).cast(),
        Tail::Only => {}
    }
}

/// The exception an instruction raises when the value it works on is not
/// of the type it needs (`get_list` on a non-cons, `get_tuple_element`
/// past a tuple's arity): the type state the loader could not prove
/// (`loader::verify`), checked at run time so that code from a crafted
/// file gets an error, never reaches unchecked code. erlc writes such an
/// instruction only where its type is known, so erl has no behaviour to
/// match (its own loader trusts the file and crashes): `badarg`, as a BIF
/// given the wrong type raises.
#[cold]
pub(super) fn unverified() -> Exception {
    Exception::badarg()
}
