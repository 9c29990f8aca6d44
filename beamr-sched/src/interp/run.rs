//! The dispatch loop: the instructions straight-line code spends its time
//! in (moves, calls and returns, frames, small-integer arithmetic, tests,
//! lists and tuples, the fused binary matches and appends) and the ones
//! message passing spends it in (BIF calls such as `send`, receive), each
//! handled in the loop's own body; every other instruction is one call of
//! [`cold::step`](super::cold::step).
//!
//! The loop is kept small so that the compiler holds its state in machine
//! registers: the instruction pointer, the reductions left and the process
//! pointer. In one loop over every instruction, LLVM kept the process
//! pointer in a stack slot, and each register access reloaded it first;
//! split, fib runs 14% faster and nrev 7% (wall time, interleaved runs).
//! Which values get a register matters more than instruction counts here:
//! with the reductions counter forced into a stack slot, fib and nrev ran
//! 27% slower, and holding the X register base (or the stack's end) in a
//! local as well, fewer instructions in all, made both slower again, as
//! LLVM then spilled the reductions counter to make room. Measure any
//! change to this loop's live values on the wall clock.

use std::sync::atomic::Ordering;

use beamr_core::atom::Atom;
use beamr_core::order;
use beamr_core::term::{Export, Term};

use super::call_trace;
use super::cold::{self, Step};
use super::fun_call;
use super::ops::{self, get, put, set_x, set_y, x, y, Flow};
use super::unwind::{self, Unwound};
use crate::code::resolve;
use crate::loader::{ArithOp, BifFn, Compare, Dst, Instr, Src, SrcKind, Target, TypeTest};
use crate::process::{Exception, Process};
use crate::runtime::Runtime;
use crate::trace::pattern;

/// Why [`run`] returned.
#[derive(Debug)]
pub enum Outcome {
    /// The process's initial call returned; its value is in x0.
    Returned,
    /// The reduction budget ran out; call [`run`] again to continue.
    Yielded,
    /// The process waits for a message (or a timeout); run it again when one arrives.
    Waiting,
    /// An exception was not caught: the process dies with it. `trace` is the
    /// stack trace as a list term on the process heap.
    Crashed {
        /// The exception.
        exception: Exception,
        /// Its stack trace.
        trace: Term,
    },
}

#[inline(always)]
pub(super) fn offset(ip: *const Instr, t: Target) -> *const Instr {
    // SAFETY: targets are resolved at load time to instructions of the same
    // module's code array.
    unsafe { ip.offset(t.0 as isize) }
}

/// A code pointer stored on the stack as a word (layout in beamr-core's
/// `term::tag`).
#[inline(always)]
fn cp_word(cp: *const Instr) -> Term {
    Term::code_pointer(cp.cast())
}

/// Runs `p` from `p.ip` for at most `budget` reductions, with a full
/// register file installed (see [`super::slice::run`]).
pub(super) fn run_slice(rt: &Runtime, p: &mut Process, budget: u32) -> Outcome {
    let mut reds = budget as i64;
    let mut ip: *const Instr = p.ip.cast();
    macro_rules! next {
        () => {{
            // SAFETY: every instruction but the last (int_code_end, never
            // executed) has a successor in the same code array.
            ip = unsafe { ip.add(1) };
            continue;
        }};
    }
    // After a fused instruction: past the instruction it absorbed too.
    macro_rules! skip2 {
        () => {{
            // SAFETY: a fused instruction is made only where its second
            // instruction follows it in the same code array
            // (loader/specialise.rs), and that one has a successor (see
            // next!).
            ip = unsafe { ip.add(2) };
            continue;
        }};
    }
    macro_rules! jump {
        ($t:expr) => {{
            ip = offset(ip, $t);
            continue;
        }};
    }
    macro_rules! raise {
        ($e:expr) => {{
            let e: Exception = $e;
            match raise_at(p, e, ip) {
                Ok(handler) => {
                    ip = handler;
                    continue;
                }
                Err(done) => return done,
            }
        }};
    }
    // Returns to CP (the frame, if any, already dropped).
    macro_rules! ret {
        () => {{
            if let Some(done) = do_return(p, &mut ip) {
                return done;
            }
            continue;
        }};
    }
    // An instruction the loop does not run itself.
    macro_rules! cold_step {
        () => {{
            match cold::step(rt, p, ip, reds, budget) {
                Step::Go(next, left) => {
                    ip = next;
                    reds = left;
                    continue;
                }
                Step::Exit(done) => return done,
            }
        }};
    }
    macro_rules! call_code {
        ($addr:expr) => {{
            reds -= 1;
            ip = $addr;
            if reds <= 0 {
                return pause(p, ip, budget as u64, Outcome::Yielded);
            }
            continue;
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
                    return pause(p, ip, spent, Outcome::Waiting);
                }
                Flow::Yield => return pause(p, ip, budget as u64, Outcome::Yielded),
            }
        }};
    }
    // Arithmetic past the small-integer fast path: the BIF. The slow path
    // reads the operation and live count from the instruction itself, so
    // each handler's call stays as small as it was before it had a live
    // count (the handlers sit in fib's dispatch loop; see compare_bool).
    macro_rules! arith_tail {
        ($ins:expr, $fail:expr, $x:expr, $y:expr, $dst:expr) => {{
            match arith_slow(rt, p, $ins, $x, $y) {
                Ok(v) => {
                    put(p, $dst, v);
                    next!()
                }
                Err(None) => jump!($fail),
                Err(Some(e)) => raise!(e),
            }
        }};
    }
    // A test: on to the next instruction when it holds, else to `fail`.
    macro_rules! test {
        ($holds:expr, $fail:expr) => {{
            if $holds {
                next!()
            }
            jump!($fail)
        }};
    }
    loop {
        // SAFETY: ip points into loaded code, which is never freed.
        let ins = unsafe { &*ip };
        match ins {
            Instr::Move { src, dst } => {
                let v = get(p, *src);
                put(p, *dst, v);
                next!()
            }
            Instr::MoveXX { from, to } => {
                set_x(p, *to, x(p, *from));
                next!()
            }
            Instr::MoveXY { from, to } => {
                set_y(p, *to, x(p, *from));
                next!()
            }
            Instr::MoveYX { from, to } => {
                set_x(p, *to, y(p, *from));
                next!()
            }
            Instr::MoveCX { value, to } => {
                set_x(p, *to, value.term());
                next!()
            }
            Instr::Call { target } => {
                let entry = offset(ip, *target);
                // SAFETY: the successor exists (see next!).
                p.cp = unsafe { ip.add(1) }.cast();
                trace_local(rt, p, entry);
                call_code!(entry)
            }
            Instr::CallOnly { target } => {
                let entry = offset(ip, *target);
                trace_local(rt, p, entry);
                call_code!(entry)
            }
            Instr::CallLast { target, dealloc } => {
                let entry = offset(ip, *target);
                p.cp = pop_frame(p, *dealloc).cast();
                trace_local(rt, p, entry);
                call_code!(entry)
            }
            // A closure's call; export funs, BIFs and errors in the cold
            // path.
            Instr::CallFun { arity } => {
                let f = p.x[*arity as usize];
                let Some(code) = fun_call::closure_entry(p, f, *arity) else {
                    cold_step!()
                };
                // SAFETY: see next!.
                p.cp = unsafe { ip.add(1) }.cast();
                trace_local(rt, p, code);
                call_code!(code)
            }
            Instr::CallFun2 { arity, func, .. } => {
                let f = get(p, *func);
                let Some(code) = fun_call::closure_entry(p, f, *arity) else {
                    cold_step!()
                };
                // SAFETY: see next!.
                p.cp = unsafe { ip.add(1) }.cast();
                trace_local(rt, p, code);
                call_code!(code)
            }
            Instr::CallExt { export } => {
                let Some(code) = resolve::code_of(export) else {
                    raise!(undef(p, export))
                };
                // SAFETY: see next!.
                p.cp = unsafe { ip.add(1) }.cast();
                trace_call(rt, p, export, true);
                call_code!(code)
            }
            Instr::CallExtOnly { export } => {
                let Some(code) = resolve::code_of(export) else {
                    raise!(undef(p, export))
                };
                trace_call(rt, p, export, true);
                call_code!(code)
            }
            Instr::CallExtLast { export, dealloc } => {
                let Some(code) = resolve::code_of(export) else {
                    raise!(undef(p, export))
                };
                p.cp = pop_frame(p, *dealloc).cast();
                trace_call(rt, p, export, true);
                call_code!(code)
            }
            Instr::Arith {
                op,
                fail,
                a,
                b,
                dst,
                ..
            } => {
                let (x, y) = (get(p, *a), get(p, *b));
                if let (Some(i), Some(j)) = (x.as_small(), y.as_small()) {
                    if let Some(r) = op.small(i, j).and_then(Term::small) {
                        put(p, *dst, r);
                        next!()
                    }
                }
                arith_tail!(ins, *fail, x, y, *dst)
            }
            Instr::Add {
                fail, a, b, dst, ..
            } => {
                let (x, y) = (get(p, *a), get(p, *b));
                if let Some(r) = x.small_add(y) {
                    put(p, *dst, r);
                    next!()
                }
                arith_tail!(ins, *fail, x, y, *dst)
            }
            Instr::Sub {
                fail, a, b, dst, ..
            } => {
                let (x, y) = (get(p, *a), get(p, *b));
                if let Some(r) = x.small_sub(y) {
                    put(p, *dst, r);
                    next!()
                }
                arith_tail!(ins, *fail, x, y, *dst)
            }
            Instr::RemC {
                fail, a, b, dst, ..
            } => {
                let v = get(p, *a);
                if let Some(i) = v.as_small() {
                    put(p, *dst, Term::small_unchecked(rem_by(i, b.small_value())));
                    next!()
                }
                arith_tail!(ins, *fail, v, *b, *dst)
            }
            Instr::AddXX {
                fail, a, b, dst, ..
            } => {
                let (l, r) = (x(p, *a), x(p, *b));
                if let Some(v) = l.small_add(r) {
                    set_x(p, u32::from(*dst), v);
                    next!()
                }
                arith_tail!(ins, *fail, l, r, Dst::x(usize::from(*dst)))
            }
            Instr::AddC {
                fail, a, b, dst, ..
            } => {
                let x = get(p, *a);
                if let Some(r) = x.small_add(*b) {
                    put(p, *dst, r);
                    next!()
                }
                arith_tail!(ins, *fail, x, *b, *dst)
            }
            Instr::SubC {
                fail, a, b, dst, ..
            } => {
                let x = get(p, *a);
                if let Some(r) = x.small_sub(*b) {
                    put(p, *dst, r);
                    next!()
                }
                arith_tail!(ins, *fail, x, *b, *dst)
            }
            Instr::Return => {
                ret!()
            }
            Instr::DeallocateReturn { slots } => {
                p.cp = pop_frame(p, *slots).cast();
                ret!()
            }
            Instr::TestHeapPutListReturn {
                need,
                live,
                head,
                tail,
                slots,
            } => {
                let cell = cons_after_test_heap(p, *need, *live, *head, *tail);
                set_x(p, 0, cell);
                p.cp = pop_frame(p, *slots).cast();
                ret!()
            }
            Instr::Allocate { slots, heap, live } => {
                push_frame(p, *slots);
                if *heap > 0 && !p.heap.fits_without_gc(*heap as usize) {
                    p.collect(*heap as usize, *live as usize);
                }
                next!()
            }
            Instr::TestHeap { heap, live } => {
                test_heap(p, *heap as usize, *live as usize);
                next!()
            }
            Instr::Deallocate { slots } => {
                p.cp = pop_frame(p, *slots).cast();
                next!()
            }
            Instr::Trim { n } => {
                let len = p.stack.len();
                p.stack.truncate(len - *n as usize);
                next!()
            }
            Instr::InitYregs(ys) => {
                for &y in ys.iter() {
                    put(p, Dst::y(y as usize), Term::NIL);
                }
                next!()
            }
            Instr::Compare { op, fail, a, b } => {
                test!(compare(*op, get(p, *a), get(p, *b)), *fail)
            }
            Instr::CompareBool { op, a, b, dst } => {
                compare_bool(p, *op, *a, *b, *dst);
                next!()
            }
            Instr::IsEqExact { fail, a, b } => test!(exact_eq(get(p, *a), get(p, *b)), *fail),
            Instr::IsNeExact { fail, a, b } => test!(!exact_eq(get(p, *a), get(p, *b)), *fail),
            Instr::IsLt { fail, a, b } => test!(less(get(p, *a), get(p, *b)), *fail),
            Instr::IsEqExactXX { fail, a, b } => test!(exact_eq(x(p, *a), x(p, *b)), *fail),
            Instr::IsEqExactXC { fail, x: n, c } => test!(x(p, *n) == *c, *fail),
            Instr::IsLtXX { fail, a, b } => test!(less(x(p, *a), x(p, *b)), *fail),
            Instr::IsGe { fail, a, b } => test!(!less(get(p, *a), get(p, *b)), *fail),
            Instr::IsNonemptyList { fail, arg } => test!(get(p, *arg).is_cons(), *fail),
            Instr::IsNil { fail, arg } => test!(get(p, *arg).is_nil(), *fail),
            Instr::IsNonemptyListX { fail, x: n } => test!(x(p, *n).is_cons(), *fail),
            Instr::IsNilX { fail, x: n } => test!(x(p, *n).is_nil(), *fail),
            Instr::IsTuple { fail, arg } => test!(get(p, *arg).is_tuple(), *fail),
            Instr::TypeTest { test, fail, arg } => {
                let v = get(p, *arg);
                if type_test(*test, v) {
                    next!()
                }
                jump!(*fail)
            }
            Instr::TestArity { fail, arg, arity } => match get(p, *arg).as_tuple() {
                Some(t) if t.len() == *arity as usize => next!(),
                _ => jump!(*fail),
            },
            Instr::IsTaggedTuple {
                fail,
                arg,
                arity,
                tag,
            } => match get(p, *arg).as_tuple() {
                Some(t) if t.len() == *arity as usize && t[0] == Term::atom(*tag) => next!(),
                _ => jump!(*fail),
            },
            Instr::IsFunction2 { fail, arg, arity } => {
                let (f, a) = (get(p, *arg), get(p, *arity));
                if fun_arity(f).is_some_and(|n| Some(n as i64) == a.as_small()) {
                    next!()
                }
                jump!(*fail)
            }
            Instr::SelectVal(sel) => {
                let v = get(p, sel.arg);
                jump!(select(sel, v))
            }
            Instr::SelectVal2 {
                arg,
                fail,
                a,
                to_a,
                b,
                to_b,
            } => {
                let v = get(p, *arg).raw() as i64;
                if v == i64::from(*a) {
                    jump!(*to_a)
                }
                if v == i64::from(*b) {
                    jump!(*to_b)
                }
                jump!(*fail)
            }
            Instr::SelectVal2X {
                x: n,
                fail,
                a,
                to_a,
                b,
                to_b,
            } => {
                let v = x(p, u32::from(*n)).raw() as i64;
                if v == i64::from(*a) {
                    jump!(*to_a)
                }
                if v == i64::from(*b) {
                    jump!(*to_b)
                }
                jump!(*fail)
            }
            Instr::SelectVal3X {
                x: n,
                fail,
                a,
                to_a,
                b,
                to_b,
                c,
                to_c,
            } => {
                let v = x(p, u32::from(*n)).raw() as i64;
                if v == i64::from(*a) {
                    jump!(*to_a)
                }
                if v == i64::from(*b) {
                    jump!(*to_b)
                }
                if v == i64::from(*c) {
                    jump!(*to_c)
                }
                jump!(*fail)
            }
            Instr::SelectTupleArity(sel) => {
                let v = get(p, sel.arg);
                match v.as_tuple() {
                    Some(t) => jump!(select(sel, Term::small_unchecked(t.len() as i64))),
                    None => jump!(sel.fail),
                }
            }
            Instr::Jump { target } => jump!(*target),
            Instr::GetList { src, head, tail } => {
                let Some(cell) = get(p, *src).as_cons() else {
                    raise!(cold::unverified())
                };
                split_cell(p, cell, *head, *tail);
                next!()
            }
            Instr::GetHd { src, dst } => {
                let Some((h, _)) = get(p, *src).as_cons() else {
                    raise!(cold::unverified())
                };
                put(p, *dst, h);
                next!()
            }
            Instr::GetTl { src, dst } => {
                let Some((_, t)) = get(p, *src).as_cons() else {
                    raise!(cold::unverified())
                };
                put(p, *dst, t);
                next!()
            }
            Instr::GetTupleElement { src, index, dst } => {
                let Some(&v) = get(p, *src).as_tuple().and_then(|t| t.get(*index as usize)) else {
                    raise!(cold::unverified())
                };
                put(p, *dst, v);
                next!()
            }
            Instr::GetTupleElementXX { from, index, to } => {
                let Some(&v) = x(p, *from).as_tuple().and_then(|t| t.get(*index as usize)) else {
                    raise!(cold::unverified())
                };
                set_x(p, *to, v);
                next!()
            }
            Instr::Element {
                tuple,
                index,
                dst,
                fail,
            } => {
                let t = get(p, *tuple);
                if let Some(&v) = t.as_tuple().and_then(|e| e.get(*index as usize)) {
                    put(p, *dst, v);
                    next!()
                }
                if fail.is_some() {
                    jump!(*fail)
                }
                raise!(element_badarg(p, *index, t))
            }
            Instr::SetTupleElement {
                value,
                tuple,
                index,
            } => {
                let (v, t) = (get(p, *value), get(p, *tuple));
                unwind::set_tuple_element(t, *index as usize, v);
                next!()
            }
            Instr::IsNonemptyGetList {
                fail,
                src,
                head,
                tail,
            } => match get(p, *src).as_cons() {
                Some(cell) => {
                    split_cell(p, cell, *head, *tail);
                    skip2!()
                }
                None => jump!(*fail),
            },
            Instr::IsNonemptyGetListX {
                fail,
                x: n,
                head,
                tail,
            } => match x(p, *n).as_cons() {
                Some(cell) => {
                    split_cell(p, cell, *head, *tail);
                    skip2!()
                }
                None => jump!(*fail),
            },
            Instr::TestHeapPutList {
                need,
                live,
                head,
                tail,
                dst,
            } => {
                let cell = cons_after_test_heap(p, *need, *live, *head, *tail);
                put(p, *dst, cell);
                skip2!()
            }
            Instr::MoveXYThenXX {
                from_x,
                to_y,
                from,
                to,
            } => {
                set_y(p, *to_y, x(p, *from_x));
                set_x(p, *to, x(p, *from));
                skip2!()
            }
            Instr::MoveXX2 {
                from_a,
                to_a,
                from_b,
                to_b,
            } => {
                set_x(p, *to_a, x(p, *from_a));
                set_x(p, *to_b, x(p, *from_b));
                skip2!()
            }
            Instr::MoveXY2 {
                from_a,
                to_a,
                from_b,
                to_b,
            } => {
                set_y(p, *to_a, x(p, *from_a));
                set_y(p, *to_b, x(p, *from_b));
                skip2!()
            }
            Instr::MoveYX2 {
                from_a,
                to_a,
                from_b,
                to_b,
            } => {
                set_x(p, *to_a, y(p, *from_a));
                set_x(p, *to_b, y(p, *from_b));
                skip2!()
            }
            Instr::PutList { head, tail, dst } => {
                let (h, t) = (get(p, *head), get(p, *tail));
                let cell = p.heap.cons(h, t);
                put(p, *dst, cell);
                next!()
            }
            Instr::PutTuple2 { dst, elements } => {
                let (tuple, body) = p.heap.tuple_uninit(elements.len());
                for (i, &s) in elements.iter().enumerate() {
                    let v = get(p, s);
                    // SAFETY: body has elements.len() slots, just allocated.
                    unsafe { body.add(i).write(v) };
                }
                put(p, *dst, tuple);
                next!()
            }
            Instr::Swap { a, b } => {
                let (va, vb) = (get(p, a.as_src()), get(p, b.as_src()));
                put(p, *a, vb);
                put(p, *b, va);
                next!()
            }
            Instr::BsAppendInts(c) => {
                if let Some(t) = ops::bs::append_packed(p, c) {
                    put(p, c.dst, t);
                    next!()
                }
                flow!(ops::bs::create_append_ints(p, c))
            }
            Instr::BsMatchInts(m) => {
                match ops::bs::match_ints_packed(p, m) {
                    Some(true) => {}
                    Some(false) => jump!(m.fail),
                    None => match ops::bs::match_ints(p, m) {
                        Flow::Next => {}
                        other => flow!(other),
                    },
                }
                // SAFETY: a fused instruction is made only where the
                // `span - 1` instructions it stands for follow it in the
                // same code array (loader/specialise.rs), and the last of
                // them has a successor (see next!).
                ip = unsafe { ip.add(m.span as usize) };
                continue;
            }
            Instr::CallBif { bif, export }
            | Instr::CallBifOnly { bif, export }
            | Instr::CallBifLast { bif, export, .. } => {
                reds -= 1;
                // A BIF returns at once: no return-trace frame.
                trace_call(rt, p, export, false);
                // BIFs that inspect code (check_process_code, purge) see where the caller is.
                p.ip = ip.cast();
                if let Err(e) = call_native(rt, p, *bif, export) {
                    raise!(e)
                }
                match ins {
                    Instr::CallBif { .. } => next!(),
                    Instr::CallBifLast { dealloc, .. } => {
                        p.cp = pop_frame(p, *dealloc).cast();
                        ret!()
                    }
                    _ => {
                        ret!()
                    }
                }
            }
            Instr::Bif(call) => {
                let args: [Term; 4] =
                    std::array::from_fn(|i| call.args.get(i).map_or(Term::NIL, |&s| get(p, s)));
                // BIFs that inspect code (check_process_code, purge) see where the caller is.
                p.ip = ip.cast();
                match (call.bif)(rt, p, &args[..call.args.len()]) {
                    Ok(v) => {
                        put(p, call.dst, v);
                        next!()
                    }
                    Err(e) => {
                        if call.fail.is_some() {
                            jump!(call.fail)
                        }
                        raise!(unwind::bif_error(
                            p,
                            e,
                            call.mfa.0,
                            call.mfa.1,
                            &args[..call.args.len()]
                        ))
                    }
                }
            }
            Instr::Recv(op) => flow!(ops::recv::exec(rt, p, op)),
            _ => cold_step!(),
        }
    }
}

/// `i rem d` for small integers, `d` not 0 ([`Instr::RemC`]): the sign
/// of `i`, as Erlang's `rem`; a power of two by a mask. The result is
/// smaller in magnitude than `i`, so a small again.
#[inline(always)]
fn rem_by(i: i64, d: i64) -> i64 {
    if d > 0 && d & (d - 1) == 0 {
        let mask = d - 1;
        if i >= 0 {
            i & mask
        } else {
            -(i.wrapping_neg() & mask)
        }
    } else {
        // No overflow: |i| < 2^59, and d is not 0.
        i % d
    }
}

/// How far down the tail a list walk prefetches
/// ([`prefetch_later_element`]): 2 cells, the third element after the one
/// just taken. Measured on Gleam's `list.sort` of a million `{float, int}`
/// pairs (the sort's wall time on a busy 2-core machine, three runs each):
/// no prefetch 3.0-3.3 s, the next element 2.2-2.3 s, the one after it
/// 2.1-2.2 s, the third 1.9-2.0 s, the fourth 2.0 s.
const PREFETCH_AHEAD: usize = 2;

/// `get_list`'s work once the list is known to be a cons cell (in every
/// form of it): the head and tail stored in `head` and `tail`, a later
/// element prefetched ([`prefetch_later_element`]).
#[inline(always)]
fn split_cell(p: &mut Process, (h, t): (Term, Term), head: Dst, tail: Dst) {
    prefetch_later_element(h, t);
    put(p, head, h);
    put(p, tail, t);
}

/// After splitting a list cell into `head` and `tail`: when the head is a
/// boxed object (a tuple, a float), starts loading the boxed object of the
/// element [`PREFETCH_AHEAD`] cells down `tail`, so that a loop that looks
/// into each element (a sort's comparisons, a `lists:keyfind`) finds it in
/// the cache when it gets there instead of waiting for memory: a list
/// walked in a different order from the one its elements were allocated in
/// misses the cache on every element. The cells on the way, allocated
/// together, are mostly in the cache already. One tag test for a list of
/// immediates.
#[inline(always)]
fn prefetch_later_element(head: Term, tail: Term) {
    // A cons cell's head is a term, never a header word (tag 0b00), so
    // tag bit 0 clear means boxed (0b10): one bit test.
    if head.raw() & 1 == 0 {
        unlikely_path();
        tail.prefetch_element::<PREFETCH_AHEAD>();
    }
}

/// Marks the branch that calls it as the unlikely one (`std::hint::cold_path`
/// is newer than the workspace's minimum Rust), so that the compiler keeps
/// [`prefetch_later_element`]'s bit test a branch of its own: without it,
/// it merged the test with the walk's first one, and a list of immediates
/// (nrev's) paid for both.
#[cold]
#[inline(always)]
fn unlikely_path() {}

/// Raises `e` at `ip`: the handler to go on at, or the slice's end when
/// no handler catches it.
#[cold]
#[inline(never)]
pub(super) fn raise_at(
    p: &mut Process,
    e: Exception,
    ip: *const Instr,
) -> Result<*const Instr, Outcome> {
    match unwind::unwind(p, e, ip) {
        Unwound::Caught(handler) => Ok(handler),
        Unwound::Uncaught(exception, trace) => {
            p.ip = ip.cast();
            Err(Outcome::Crashed { exception, trace })
        }
    }
}

/// Ends the slice at `ip` with `spent` more reductions done: the process
/// resumes there (`Yielded`, `Waiting`).
#[inline(always)]
pub(super) fn pause(p: &mut Process, ip: *const Instr, spent: u64, why: Outcome) -> Outcome {
    p.ip = ip.cast();
    p.reductions += spent;
    why
}

/// `test_heap`'s work: a collection, with X registers `0..live` as roots,
/// when `need` words do not fit.
#[inline(always)]
fn test_heap(p: &mut Process, need: usize, live: usize) {
    if !p.heap.fits_without_gc(need) {
        p.collect(need, live);
    }
}

/// A `put_list` after its `test_heap` (`Instr::TestHeapPutList`,
/// `Instr::TestHeapPutListReturn`): the cell of `head` and `tail`.
#[inline(always)]
fn cons_after_test_heap(p: &mut Process, need: u16, live: u16, head: Src, tail: Src) -> Term {
    test_heap(p, need as usize, live as usize);
    let (h, t) = (get(p, head), get(p, tail));
    p.heap.cons(h, t)
}

/// Returns to CP; `Some(Returned)` when the initial call is done.
#[inline(always)]
pub(super) fn do_return(p: &mut Process, ip: &mut *const Instr) -> Option<Outcome> {
    if p.cp.is_null() {
        p.ip = (*ip).cast();
        return Some(Outcome::Returned);
    }
    *ip = p.cp.cast();
    p.cp = std::ptr::null();
    None
}

/// Pushes CP and a frame of `slots` Y slots, each `[]`, with one capacity
/// check. The frames most functions allocate (up to three slots) are
/// written as four straight stores, CP and three `[]`, into room reserved
/// past the stack's end, and the length then set to the frame's: no fill
/// loop and no jump on the frame's size (the words past the frame are
/// spare capacity, written over by the next push). Larger frames take the
/// loop.
#[inline(always)]
fn push_frame(p: &mut Process, slots: u32) {
    let cp = cp_word(p.cp.cast());
    const NIL: Term = Term::NIL;
    let n = slots as usize;
    if n <= 3 {
        p.stack.reserve(4);
        let len = p.stack.len();
        // SAFETY: `reserve(4)` left room for four words past `len`, and
        // `len + 1 + n <= len + 4` of them are written before the length
        // covers them.
        unsafe {
            let top = p.stack.as_mut_ptr().add(len);
            top.write(cp);
            top.add(1).write(NIL);
            top.add(2).write(NIL);
            top.add(3).write(NIL);
            p.stack.set_len(len + 1 + n);
        }
    } else {
        let frame = std::iter::once(cp).chain(std::iter::repeat_n(NIL, n));
        p.stack.extend(frame);
    }
}

/// Drops a frame of `slots` Y slots and returns the saved CP.
#[inline(always)]
pub(super) fn pop_frame(p: &mut Process, slots: u32) -> *const Instr {
    // The saved CP sits just below the frame's slots. The frame check
    // (loader::frames) keeps a function from dropping more than it pushed;
    // this test keeps a frame-dropping call of a BIF it exempts (one that
    // always raises, lowered to a call of Erlang code) within the stack.
    let len = p.stack.len();
    let Some(at) = len.checked_sub(slots as usize + 1) else {
        return std::ptr::null();
    };
    // SAFETY: at < len.
    let cp = unsafe { *p.stack.get_unchecked(at) };
    // SAFETY: at < len, and the words below `at` stay initialised.
    unsafe { p.stack.set_len(at) };
    cp.as_code_pointer()
        .map_or(std::ptr::null(), <*const ()>::cast)
}

/// The per-function flag test of a call to `export`: one load and one
/// branch; past it, the call-trace cold path. `frames` is false for a
/// BIF, which returns at once and gets no return-trace frame.
#[inline(always)]
pub(super) fn trace_call(rt: &Runtime, p: &mut Process, export: &'static Export, frames: bool) {
    if crate::trace::PROBES && export.trace.load(Ordering::Relaxed) != 0 {
        call_trace::external(rt, p, export, frames);
    }
}

/// The local-call gate (`trace::pattern::local_calls`): one load and one
/// branch; past it, the call-trace cold path for the code at `entry`.
#[inline(always)]
pub(super) fn trace_local(rt: &Runtime, p: &mut Process, entry: *const Instr) {
    if pattern::local_calls() {
        call_trace::local(rt, p, entry);
    }
}

/// The gate of a call of the fun `f` that runs the code at `entry`: an
/// export fun is an external call, a local fun a local one.
#[inline(always)]
pub(super) fn trace_fun(rt: &Runtime, p: &mut Process, f: Term, entry: *const Instr) {
    match f.as_export() {
        Some(export) => trace_call(rt, p, export, true),
        None => trace_local(rt, p, entry),
    }
}

/// The `badarg` of `erlang:element(index + 1, tuple)` (`Instr::Element`).
#[cold]
#[inline(never)]
fn element_badarg(p: &mut Process, index: u32, tuple: Term) -> Exception {
    let element = Atom::new("element").expect("a valid atom name");
    let args = [Term::small_unchecked(i64::from(index) + 1), tuple];
    unwind::bif_error(p, Exception::badarg(), Atom::ERLANG, element, &args)
}

/// Arithmetic past the small-integer fast path (bignums, floats, errors),
/// out of line so that the dispatch loop stays small. A failure is
/// `Err(None)` when the instruction has a fail label to jump to, else the
/// exception to raise.
///
/// It collects garbage first when earlier allocations overflowed the young
/// generation, with X registers `0..live` (the `gc_bif`'s live count) as
/// roots: `N * fact(N - 1)` builds a bignum on every return and has no
/// other point where the earlier ones could be reclaimed. (OTP 25 leaves
/// them in heap fragments until the next collection, some 600,000 words
/// after `fact(3000)`; its older `erts_gc_mixed_*` collected here.) The
/// operands are rooted in X registers `live` and `live + 1`, dead across
/// the instruction, as those did, and read back, since they may move.
#[cold]
#[inline(never)]
fn arith_slow(
    rt: &Runtime,
    p: &mut Process,
    ins: &Instr,
    x: Term,
    y: Term,
) -> Result<Term, Option<Exception>> {
    let (op, fail, live) = match *ins {
        Instr::Arith { op, fail, live, .. } => (op, fail, live),
        Instr::Add { fail, live, .. }
        | Instr::AddC { fail, live, .. }
        | Instr::AddXX { fail, live, .. } => (ArithOp::Add, fail, live),
        Instr::RemC { fail, live, .. } => (ArithOp::Rem, fail, live),
        Instr::Sub { fail, live, .. } | Instr::SubC { fail, live, .. } => {
            (ArithOp::Sub, fail, live)
        }
        _ => unreachable!("arith_slow is the slow path of the arithmetic instructions only"),
    };
    let (has_fail_label, live) = (fail.is_some(), usize::from(live));
    let (x, y) = if p.heap.needs_gc() && live + 2 <= p.x.len() {
        p.x[live] = x;
        p.x[live + 1] = y;
        p.collect(0, live + 2);
        (p.x[live], p.x[live + 1])
    } else {
        (x, y)
    };
    resolve::arith(op)(rt, p, &[x, y]).map_err(|e| {
        if has_fail_label {
            return None;
        }
        if crate::code::otp_release() < 26 && is_increment(ins) {
            return Some(e);
        }
        let name = Atom::new(op.name()).expect("atom");
        Some(unwind::bif_error(p, e, Atom::ERLANG, name, &[x, y]))
    })
}

/// Whether OTP 25's loader runs the arithmetic `ins` as an increment: `+`
/// of a register and a small-integer constant, or a register `-` a
/// non-negative one. Its `badarith` then shows no `{erlang, '+', Args,
/// ...}` frame on top of the stack trace, only the function that applied
/// it; OTP 26 and later show the operator's frame for these too.
fn is_increment(ins: &Instr) -> bool {
    let small = |s: Src| match s.kind() {
        SrcKind::Const(t) => t.as_small(),
        _ => None,
    };
    let register = |s: Src| matches!(s.kind(), SrcKind::X(_) | SrcKind::Y(_));
    match *ins {
        Instr::AddC { a, .. } => register(a),
        Instr::SubC { a, b, .. } => register(a) && b.as_small().is_some_and(|c| c >= 0),
        Instr::Add { a, b, .. }
        | Instr::Arith {
            op: ArithOp::Add,
            a,
            b,
            ..
        } => (register(a) && small(b).is_some()) || (small(a).is_some() && register(b)),
        Instr::Sub { a, b, .. }
        | Instr::Arith {
            op: ArithOp::Sub,
            a,
            b,
            ..
        } => register(a) && small(b).is_some_and(|c| c >= 0),
        _ => false,
    }
}

/// Calls the native BIF behind `export` with its arguments in x0..,
/// leaving the result in x0; on failure, the exception with the BIF's
/// frame (its arguments) on top of the stack trace.
#[inline]
pub(super) fn call_native(
    rt: &Runtime,
    p: &mut Process,
    bif: BifFn,
    export: &'static Export,
) -> Result<(), Exception> {
    /// Arguments up to this many are copied to the native stack, not the heap.
    const ON_STACK: usize = 8;
    let arity = export.arity as usize;
    let on_stack: [Term; ON_STACK];
    let on_heap: Vec<Term>;
    let args: &[Term] = if arity <= ON_STACK {
        on_stack = std::array::from_fn(|i| if i < arity { p.x[i] } else { Term::NIL });
        &on_stack[..arity]
    } else {
        on_heap = p.x[..arity].to_vec();
        &on_heap
    };
    match bif(rt, p, args) {
        Ok(v) => {
            p.x[0] = v;
            Ok(())
        }
        Err(e) => Err(unwind::bif_error(
            p,
            e,
            export.module,
            export.function,
            args,
        )),
    }
}

#[cold]
pub(super) fn undef(p: &mut Process, export: &'static Export) -> Exception {
    let args = p.x[..export.arity as usize].to_vec();
    unwind::bif_error(
        p,
        Exception::error(Term::atom(Atom::UNDEF)),
        export.module,
        export.function,
        &args,
    )
}

/// [`Instr::CompareBool`]: `true` or `false` in `dst`. Out of the
/// dispatch loop's body: inlined, the handler moved the loop's hot code
/// enough to cost fib 27% of its wall time with no instruction executed
/// differently (see the commit that made it so).
#[inline(never)]
fn compare_bool(p: &mut Process, op: Compare, a: Src, b: Src, dst: Dst) {
    let holds = compare(op, get(p, a), get(p, b));
    put(p, dst, if holds { Term::TRUE } else { Term::FALSE });
}

/// Whether `op` holds of `a` and `b`.
#[inline(always)]
fn compare(op: Compare, a: Term, b: Term) -> bool {
    match op {
        Compare::EqExact => exact_eq(a, b),
        Compare::NeExact => !exact_eq(a, b),
        Compare::Eq => order::eq(a, b),
        Compare::Ne => !order::eq(a, b),
        Compare::Lt => less(a, b),
        Compare::Ge => !less(a, b),
    }
}

/// `=:=`: equal words, or equal structures.
#[inline(always)]
fn exact_eq(a: Term, b: Term) -> bool {
    a == b || (!a.is_immediate() && order::exact_eq(a, b))
}

/// `a < b` in term order: tagged small integers compared as words, the
/// rest by `order::compare`.
#[inline(always)]
fn less(a: Term, b: Term) -> bool {
    a.small_lt(b)
        .unwrap_or_else(|| order::compare(a, b).is_lt())
}

fn select(sel: &crate::loader::Select, v: Term) -> Target {
    if sel.immediates {
        if !v.is_immediate() {
            return sel.fail;
        }
        // A short table is cheaper to scan than to bisect.
        if sel.cases.len() <= 4 {
            return sel
                .cases
                .iter()
                .find(|(c, _)| c.raw() == v.raw())
                .map_or(sel.fail, |(_, t)| *t);
        }
        match sel.cases.binary_search_by_key(&v.raw(), |(c, _)| c.raw()) {
            Ok(i) => sel.cases[i].1,
            Err(_) => sel.fail,
        }
    } else {
        sel.cases
            .iter()
            .find(|(c, _)| order::exact_eq(*c, v))
            .map_or(sel.fail, |(_, t)| *t)
    }
}

fn fun_arity(f: Term) -> Option<u32> {
    if let Some(c) = f.as_closure() {
        return Some(c.entry.arity);
    }
    f.as_export().map(|e| e.arity)
}

fn type_test(test: TypeTest, v: Term) -> bool {
    match test {
        TypeTest::Integer => v.is_integer(),
        TypeTest::Float => v.is_float(),
        TypeTest::Number => v.is_number(),
        TypeTest::Atom => v.is_atom(),
        TypeTest::Pid => v.is_pid(),
        TypeTest::Reference => v.is_reference(),
        TypeTest::Port => v.is_port(),
        TypeTest::Nil => v.is_nil(),
        TypeTest::Binary => v.as_binary().is_some_and(|b| b.is_binary()),
        TypeTest::Bitstring => v.is_bitstring(),
        TypeTest::List => v.is_list(),
        TypeTest::NonemptyList => v.is_cons(),
        TypeTest::Tuple => v.is_tuple(),
        TypeTest::Function => v.is_fun(),
        TypeTest::Boolean => v == Term::TRUE || v == Term::FALSE,
        TypeTest::Map => v.is_map(),
    }
}
