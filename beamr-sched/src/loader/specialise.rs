//! Specialisation: the last loading pass, which rewrites general
//! instructions into forms made for their operands and fuses common pairs,
//! so that the dispatch loop decodes less at run time.
//!
//! - **Operand kinds.** A `move` names its source and destination as
//!   [`Src`]/[`Dst`] words that the loop must decode (register or constant,
//!   X or Y); `MoveXX`, `MoveXY`, `MoveYX` and `MoveCX` carry plain
//!   register numbers instead.
//! - **Sub-operations.** A type test, comparison or arithmetic instruction
//!   carries which test or operation it is, a second dispatch inside the
//!   first; the frequent ones (`is_nonempty_list`, `is_nil`, `is_tuple`,
//!   `is_eq_exact`, `is_ne_exact`, `is_lt`, `is_ge`, `+`, `-`) get
//!   instructions of their own. The hottest of those also get a form for X
//!   register operands that carries the register number, as the moves do
//!   (`IsNilX`, `IsNonemptyListX`, `IsEqExactXX`, `IsLtXX`,
//!   `IsNonemptyGetListX`, `GetTupleElementXX`).
//! - **Small tables.** A `select_val` on one or two immediates is compared
//!   in place (`SelectVal2`, `SelectVal2X` for an X register), and so is
//!   one on three immediates in an X register (`SelectVal3X`: a
//!   comparison's `lt`, `eq`, `gt`).
//! - **Constant operands.** `+` and `-` of a small-integer constant
//!   (`N - 1`, a counter's `+ 1`) decode one operand instead of two
//!   (`AddC`, `SubC`).
//! - **Binaries.** The instructions of matching and appending loops
//!   (`bs_start_match*`, `bs_get_position`, `bs_get_integer2` of a constant
//!   size up to 64 bits, `bs_test_unit`, and a `bs_create_bin` that appends
//!   integers: see [`AppendInts`](super::bs::AppendInts)) come out of
//!   [`Instr::Bs`]'s box into instructions of their own, and a
//!   `bs_start_match*` followed by the `bs_get_position` of its context
//!   (the head of an OTP 25 matching loop) is one.
//! - **Pairs.** A fused instruction replaces the first of a pair and does
//!   the work of both; the second stays where it was, so a jump that lands
//!   on it (or a return address, a line-table entry, a stack walker reading
//!   the code) sees the code it always saw. `deallocate` + `return` is one;
//!   so are two `move`s between registers of the same kinds (X to X, X to Y,
//!   Y to X: argument shuffles, values saved before a call and restored
//!   after it).
//! - **A list cell returned.** `test_heap`, `put_list` into x0,
//!   `deallocate` and `return`, the end of a function that builds a list
//!   body-recursively (`[F(H) | map(T)]`, `[H | app(T, L)]`), is one
//!   instruction, with the three after it in place as for a pair.
//!
//! No instruction moves and none changes size, so labels, the line table,
//! export entries and fun entries, all resolved by index during lowering,
//! stay valid.

use beamr_core::term::Term;

use super::bs::{BsInstr, GetKind, MatchInt, MatchInts, MatchStart, Size, LITTLE, SIGNED};
use super::instr::{ArithOp, Compare, Instr, Select, TypeTest};
use super::operand::{Src, SrcKind, Target};

/// Rewrites `code` in place (see the module documentation).
pub fn specialise(code: &mut [Instr]) {
    for i in 0..code.len() {
        if let Some(head) = match_ints(&code[i..]) {
            code[i] = Instr::BsMatchInts(Box::new(head));
        } else if let Some(fused) = put_list_return(&code[i..]) {
            code[i] = fused;
        } else if let Some(fused) = fuse(&code[i], code.get(i + 1)) {
            code[i] = fused;
        } else if let Some(special) = special_form(&code[i]) {
            code[i] = special;
        } else if matches!(code[i], Instr::Bs(_)) {
            let Instr::Bs(op) = std::mem::replace(&mut code[i], Instr::IntCodeEnd) else {
                unreachable!("matched above");
            };
            code[i] = bs_form(*op);
        }
    }
}

/// The form of a binary instruction: the ones every matching loop or
/// appending loop runs come out of their box into instructions of their
/// own (the others stay [`Instr::Bs`]).
fn bs_form(op: BsInstr) -> Instr {
    match op {
        BsInstr::StartMatch {
            fail,
            live,
            src,
            dst,
        } => Instr::BsStartMatch {
            fail,
            live,
            src,
            dst,
        },
        BsInstr::GetPosition { ctx, dst } => Instr::BsGetPosition { ctx, dst },
        BsInstr::Get {
            kind: GetKind::Integer,
            fail,
            ctx,
            size: Size::Bits(n),
            flags,
            dst,
        } if n <= 64 => Instr::BsGetInt {
            fail,
            ctx,
            dst,
            bits: n as u8,
            flags,
        },
        BsInstr::TestUnit { fail, ctx, unit } if u32::try_from(unit).is_ok() => Instr::BsTestUnit {
            fail,
            ctx,
            unit: unit as u32,
        },
        BsInstr::Create(c) if c.append_ints.is_some() => Instr::BsAppendInts(Box::new(c)),
        other => Instr::Bs(Box::new(other)),
    }
}

/// The [`MatchInts`] form of the binary-matching instructions at the
/// start of `code`, if they have its shape and there are at least two:
/// an optional `bs_start_match*` into an X register (with the
/// `bs_get_position` of that register, if one follows), then
/// `bs_get_integer2`s of constant sizes up to 64 bits on that context into
/// other X registers, then an optional `bs_test_unit` of the context, the
/// gets and the test failing to one label. The instructions stay
/// unspecialised at this point (the loop in [`specialise`] has not reached
/// them), so they are read as lowering made them.
fn match_ints(code: &[Instr]) -> Option<MatchInts> {
    let bs = |k: usize| match code.get(k) {
        Some(Instr::Bs(op)) => Some(&**op),
        _ => None,
    };
    // A target relative to instruction k, made relative to instruction 0.
    let rebase = |t: Target, k: usize| -> Option<Target> {
        t.is_some()
            .then(|| t.0.checked_add(i32::try_from(k).ok()?).map(Target))
            .flatten()
    };
    let mut start = None;
    let mut ctx = None;
    let mut k = 0;
    if let Some(&BsInstr::StartMatch {
        fail,
        live,
        src,
        dst,
    }) = bs(0)
    {
        let SrcKind::X(src) = src.kind() else {
            return None;
        };
        if dst.is_y() {
            return None;
        }
        let pos = match bs(1) {
            Some(&BsInstr::GetPosition { ctx: of, dst: pos })
                if of == dst.as_src() && !pos.is_y() && pos != dst =>
            {
                Some(pos.index() as u32)
            }
            _ => None,
        };
        start = Some(MatchStart {
            fail,
            live,
            src: src as u32,
            pos,
        });
        ctx = Some(dst.index());
        k = 1 + usize::from(pos.is_some());
    }
    let mut ints = [MatchInt::default(); MatchInts::MAX_INTS];
    let mut len = 0;
    let mut fail = None;
    while len < MatchInts::MAX_INTS {
        let Some(&BsInstr::Get {
            kind: GetKind::Integer,
            fail: f,
            ctx: of,
            size: Size::Bits(n),
            flags,
            dst,
        }) = bs(k)
        else {
            break;
        };
        let SrcKind::X(of) = of.kind() else {
            break;
        };
        let Some(f) = rebase(f, k) else {
            break;
        };
        if n > 64 || dst.is_y() || dst.index() == of || *ctx.get_or_insert(of) != of {
            break;
        }
        if *fail.get_or_insert(f) != f {
            break;
        }
        ints[len] = MatchInt {
            bits: n as u8,
            flags,
            dst: dst.index() as u32,
        };
        len += 1;
        k += 1;
    }
    let (ctx, fail) = (ctx?, fail?);
    let mut unit = 1;
    if let Some(&BsInstr::TestUnit {
        fail: f,
        ctx: of,
        unit: u,
    }) = bs(k)
    {
        if of == Src::x(ctx) && rebase(f, k) == Some(fail) {
            if let Ok(u) = u32::try_from(u) {
                unit = u;
                k += 1;
            }
        }
    }
    if k < 2 {
        return None;
    }
    let ints_used = &ints[..len];
    let bits: u32 = ints_used.iter().map(|i| u32::from(i.bits)).sum();
    let packed = bits <= 64
        && ints_used
            .iter()
            .all(|i| (1..=59).contains(&i.bits) && i.flags & (LITTLE | SIGNED) == 0);
    Some(MatchInts {
        start,
        fail,
        ctx: ctx as u32,
        unit,
        span: k as u32,
        bits,
        packed,
        len: len as u8,
        ints,
    })
}

/// The [`Instr::TestHeapPutListReturn`] form of the instructions at the
/// start of `code`, if they are `test_heap`, `put_list` into x0,
/// `deallocate` and `return`: the end of a body-recursive function that
/// builds a list. The three after the first stay in place.
fn put_list_return(code: &[Instr]) -> Option<Instr> {
    let narrow = |n: u32| u16::try_from(n).ok();
    match code {
        [Instr::TestHeap { heap, live }, Instr::PutList { head, tail, dst }, Instr::Deallocate { slots }, Instr::Return, ..]
            if !dst.is_y() && dst.index() == 0 =>
        {
            Some(Instr::TestHeapPutListReturn {
                need: narrow(*heap)?,
                live: narrow(*live)?,
                head: *head,
                tail: *tail,
                slots: *slots,
            })
        }
        _ => None,
    }
}

/// The fused form of `first` followed by `second`, if there is one.
fn fuse(first: &Instr, second: Option<&Instr>) -> Option<Instr> {
    let narrow = |n: u32| u16::try_from(n).ok();
    match (first, second?) {
        (Instr::Deallocate { slots }, Instr::Return) => {
            Some(Instr::DeallocateReturn { slots: *slots })
        }
        (
            Instr::TypeTest {
                test: TypeTest::NonemptyList,
                fail,
                arg,
            },
            Instr::GetList { src, head, tail },
        ) if arg == src => Some(match src.kind() {
            SrcKind::X(x) => Instr::IsNonemptyGetListX {
                fail: *fail,
                x: x as u32,
                head: *head,
                tail: *tail,
            },
            _ => Instr::IsNonemptyGetList {
                fail: *fail,
                src: *src,
                head: *head,
                tail: *tail,
            },
        }),
        (Instr::Bs(start), Instr::Bs(position)) => match (&**start, &**position) {
            (
                &BsInstr::StartMatch {
                    fail,
                    live,
                    src,
                    dst,
                },
                &BsInstr::GetPosition { ctx, dst: pos },
            ) if ctx == dst.as_src() => Some(Instr::BsStartMatchGetPosition {
                fail,
                live,
                src,
                ctx: dst,
                pos,
            }),
            _ => None,
        },
        (Instr::TestHeap { heap, live }, Instr::PutList { head, tail, dst }) => {
            Some(Instr::TestHeapPutList {
                need: narrow(*heap)?,
                live: narrow(*live)?,
                head: *head,
                tail: *tail,
                dst: *dst,
            })
        }
        (Instr::Move { src: a, dst: b }, Instr::Move { src: c, dst: d }) => {
            let (from_a, to_a, from_b, to_b) = (
                a.index() as u32,
                b.index() as u32,
                c.index() as u32,
                d.index() as u32,
            );
            let (a_y, c_y) = (
                matches!(a.kind(), SrcKind::Y(_)),
                matches!(c.kind(), SrcKind::Y(_)),
            );
            match (a.is_x(), a_y, b.is_y(), c.is_x(), c_y, d.is_y()) {
                (true, _, true, true, _, false) => Some(Instr::MoveXYThenXX {
                    from_x: from_a,
                    to_y: to_a,
                    from: from_b,
                    to: to_b,
                }),
                (true, _, false, true, _, false) => Some(Instr::MoveXX2 {
                    from_a,
                    to_a,
                    from_b,
                    to_b,
                }),
                (true, _, true, true, _, true) => Some(Instr::MoveXY2 {
                    from_a,
                    to_a,
                    from_b,
                    to_b,
                }),
                (_, true, false, _, true, false) => Some(Instr::MoveYX2 {
                    from_a,
                    to_a,
                    from_b,
                    to_b,
                }),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The specialised form of one instruction, if it has one.
fn special_form(ins: &Instr) -> Option<Instr> {
    Some(match *ins {
        Instr::Move { src, dst } => match (src.kind(), dst.is_y()) {
            (SrcKind::X(from), false) => Instr::MoveXX {
                from: from as u32,
                to: dst.index() as u32,
            },
            (SrcKind::X(from), true) => Instr::MoveXY {
                from: from as u32,
                to: dst.index() as u32,
            },
            (SrcKind::Y(from), false) => Instr::MoveYX {
                from: from as u32,
                to: dst.index() as u32,
            },
            (SrcKind::Const(_), false) => Instr::MoveCX {
                value: src,
                to: dst.index() as u32,
            },
            _ => return None,
        },
        Instr::GetTupleElement { src, index, dst } => match src.kind() {
            SrcKind::X(from) if !dst.is_y() => Instr::GetTupleElementXX {
                from: from as u32,
                index,
                to: dst.index() as u32,
            },
            _ => return None,
        },
        Instr::TypeTest { test, fail, arg } => match (test, arg.kind()) {
            (TypeTest::NonemptyList, SrcKind::X(x)) => Instr::IsNonemptyListX { fail, x: x as u32 },
            (TypeTest::Nil, SrcKind::X(x)) => Instr::IsNilX { fail, x: x as u32 },
            (TypeTest::NonemptyList, _) => Instr::IsNonemptyList { fail, arg },
            (TypeTest::Nil, _) => Instr::IsNil { fail, arg },
            (TypeTest::Tuple, _) => Instr::IsTuple { fail, arg },
            _ => return None,
        },
        Instr::Compare { op, fail, a, b } => match (op, a.kind(), b.kind()) {
            (Compare::EqExact, SrcKind::X(a), SrcKind::X(b)) => Instr::IsEqExactXX {
                fail,
                a: a as u32,
                b: b as u32,
            },
            (Compare::Lt, SrcKind::X(a), SrcKind::X(b)) => Instr::IsLtXX {
                fail,
                a: a as u32,
                b: b as u32,
            },
            (Compare::EqExact, SrcKind::X(a), SrcKind::Const(c)) if c.is_immediate() => {
                Instr::IsEqExactXC {
                    fail,
                    x: a as u32,
                    c,
                }
            }
            (Compare::EqExact, ..) => Instr::IsEqExact { fail, a, b },
            (Compare::NeExact, ..) => Instr::IsNeExact { fail, a, b },
            (Compare::Lt, ..) => Instr::IsLt { fail, a, b },
            (Compare::Ge, ..) => Instr::IsGe { fail, a, b },
            (Compare::Eq | Compare::Ne, ..) => return None,
        },
        Instr::Arith {
            op,
            fail,
            a,
            b,
            dst,
            live,
        } => match (op, small_constant(b)) {
            (ArithOp::Add, Some(b)) => Instr::AddC {
                fail,
                a,
                b,
                dst,
                live,
            },
            (ArithOp::Sub, Some(b)) => Instr::SubC {
                fail,
                a,
                b,
                dst,
                live,
            },
            (ArithOp::Rem, Some(b)) if b != Term::small_unchecked(0) => Instr::RemC {
                fail,
                a,
                b,
                dst,
                live,
            },
            (ArithOp::Add, None) => match (a.kind(), b.kind()) {
                (SrcKind::X(a), SrcKind::X(b)) if !dst.is_y() => Instr::AddXX {
                    fail,
                    a: a as u32,
                    b: b as u32,
                    dst: dst.index() as u16,
                    live,
                },
                _ => Instr::Add {
                    fail,
                    a,
                    b,
                    dst,
                    live,
                },
            },
            (ArithOp::Sub, None) => Instr::Sub {
                fail,
                a,
                b,
                dst,
                live,
            },
            _ => return None,
        },
        Instr::SelectVal(ref sel) => return select_val2(sel).or_else(|| select_val3x(sel)),
        _ => return None,
    })
}

/// The constant `src` names, if it is a small integer.
fn small_constant(src: Src) -> Option<Term> {
    match src.kind() {
        SrcKind::Const(t) if t.as_small().is_some() => Some(t),
        _ => None,
    }
}

/// [`Instr::SelectVal3X`] for a table of three immediates whose words fit
/// in an `i32`, examining an X register.
fn select_val3x(sel: &Select) -> Option<Instr> {
    let SrcKind::X(x) = sel.arg.kind() else {
        return None;
    };
    if !sel.immediates || sel.cases.len() != 3 {
        return None;
    }
    let [(a, to_a), (b, to_b), (c, to_c)] = [sel.cases[0], sel.cases[1], sel.cases[2]];
    Some(Instr::SelectVal3X {
        x: u16::try_from(x).ok()?,
        fail: sel.fail,
        a: word(a)?,
        to_a,
        b: word(b)?,
        to_b,
        c: word(c)?,
        to_c,
    })
}

/// A select table's immediate as the word the in-place forms compare, if
/// it fits in an `i32`.
fn word(t: Term) -> Option<i32> {
    i32::try_from(t.raw() as i64).ok()
}

/// [`Instr::SelectVal2`] for a table of one or two immediates whose words
/// fit in an `i32`.
fn select_val2(sel: &Select) -> Option<Instr> {
    if !sel.immediates || sel.cases.is_empty() || sel.cases.len() > 2 {
        return None;
    }
    let (first, second) = (sel.cases[0], sel.cases[sel.cases.len() - 1]);
    if let SrcKind::X(x) = sel.arg.kind() {
        if let Ok(x) = u16::try_from(x) {
            return Some(Instr::SelectVal2X {
                x,
                fail: sel.fail,
                a: word(first.0)?,
                to_a: first.1,
                b: word(second.0)?,
                to_b: second.1,
            });
        }
    }
    Some(Instr::SelectVal2 {
        arg: sel.arg,
        fail: sel.fail,
        a: word(first.0)?,
        to_a: first.1,
        b: word(second.0)?,
        to_b: second.1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loader::{Dst, Target};
    use beamr_core::atom::Atom;

    #[test]
    fn moves_get_the_form_of_their_operands() {
        let mut code = vec![
            Instr::Move {
                src: Src::x(1),
                dst: Dst::x(0),
            },
            Instr::Move {
                src: Src::x(2),
                dst: Dst::y(3),
            },
            Instr::Move {
                src: Src::y(4),
                dst: Dst::x(5),
            },
            Instr::Move {
                src: Src::constant(Term::NIL),
                dst: Dst::x(6),
            },
            Instr::Move {
                src: Src::y(0),
                dst: Dst::y(1),
            },
        ];
        specialise(&mut code);
        assert!(matches!(code[0], Instr::MoveXX { from: 1, to: 0 }));
        assert!(matches!(code[1], Instr::MoveXY { from: 2, to: 3 }));
        assert!(matches!(code[2], Instr::MoveYX { from: 4, to: 5 }));
        assert!(matches!(code[3], Instr::MoveCX { to: 6, value } if value.term() == Term::NIL));
        // Y to Y stays general.
        assert!(matches!(code[4], Instr::Move { .. }));
        let mut code = vec![
            Instr::GetTupleElement {
                src: Src::x(1),
                index: 2,
                dst: Dst::x(3),
            },
            Instr::GetTupleElement {
                src: Src::x(1),
                index: 2,
                dst: Dst::y(3),
            },
        ];
        specialise(&mut code);
        assert!(matches!(
            code[0],
            Instr::GetTupleElementXX {
                from: 1,
                index: 2,
                to: 3
            }
        ));
        assert!(matches!(code[1], Instr::GetTupleElement { .. }));
    }

    #[test]
    fn deallocate_before_return_is_fused_and_the_return_stays() {
        let mut code = vec![
            Instr::Deallocate { slots: 2 },
            Instr::Return,
            Instr::Deallocate { slots: 1 },
            Instr::Jump { target: Target(-3) },
        ];
        specialise(&mut code);
        assert!(matches!(code[0], Instr::DeallocateReturn { slots: 2 }));
        assert!(matches!(code[1], Instr::Return));
        assert!(matches!(code[2], Instr::Deallocate { slots: 1 }));
    }

    #[test]
    fn common_pairs_are_fused_into_the_first() {
        let list = Src::x(0);
        let mut code = vec![
            Instr::TypeTest {
                test: TypeTest::NonemptyList,
                fail: Target(7),
                arg: list,
            },
            Instr::GetList {
                src: list,
                head: Dst::y(0),
                tail: Dst::x(0),
            },
            Instr::TestHeap { heap: 2, live: 1 },
            Instr::PutList {
                head: Src::y(0),
                tail: Src::x(0),
                dst: Dst::x(0),
            },
            Instr::Move {
                src: Src::x(0),
                dst: Dst::y(0),
            },
            Instr::Move {
                src: Src::x(1),
                dst: Dst::x(0),
            },
            Instr::TestHeap {
                heap: 1 << 20,
                live: 1,
            },
            Instr::PutList {
                head: Src::y(0),
                tail: Src::x(0),
                dst: Dst::x(0),
            },
        ];
        specialise(&mut code);
        assert!(matches!(
            code[0],
            Instr::IsNonemptyGetListX {
                fail: Target(7),
                x: 0,
                ..
            }
        ));
        // The second of each pair stays, specialised on its own.
        assert!(matches!(code[1], Instr::GetList { .. }));
        assert!(matches!(
            code[2],
            Instr::TestHeapPutList {
                need: 2,
                live: 1,
                ..
            }
        ));
        assert!(matches!(code[3], Instr::PutList { .. }));
        assert!(matches!(
            code[4],
            Instr::MoveXYThenXX {
                from_x: 0,
                to_y: 0,
                from: 1,
                to: 0
            }
        ));
        assert!(matches!(code[5], Instr::MoveXX { from: 1, to: 0 }));
        // A need too large for the fused form keeps the plain test_heap.
        assert!(matches!(code[6], Instr::TestHeap { .. }));
    }

    #[test]
    fn a_list_cell_returned_is_one_instruction() {
        let end = |dst: Dst, slots: u32| {
            [
                Instr::TestHeap { heap: 2, live: 1 },
                Instr::PutList {
                    head: Src::y(0),
                    tail: Src::x(0),
                    dst,
                },
                Instr::Deallocate { slots },
                Instr::Return,
            ]
        };
        let mut code: Vec<Instr> = end(Dst::x(0), 1).into_iter().collect();
        // Into x1, or into a Y register: not the value returned.
        code.extend(end(Dst::x(1), 1));
        code.extend(end(Dst::y(0), 2));
        // No return after the deallocate.
        code.extend([
            Instr::TestHeap { heap: 2, live: 1 },
            Instr::PutList {
                head: Src::y(0),
                tail: Src::x(0),
                dst: Dst::x(0),
            },
            Instr::Deallocate { slots: 1 },
            Instr::Jump { target: Target(-3) },
        ]);
        specialise(&mut code);
        assert!(matches!(
            code[0],
            Instr::TestHeapPutListReturn {
                need: 2,
                live: 1,
                slots: 1,
                ..
            }
        ));
        // The three after it stay, specialised on their own.
        assert!(matches!(code[1], Instr::PutList { .. }));
        assert!(matches!(code[2], Instr::DeallocateReturn { slots: 1 }));
        assert!(matches!(code[3], Instr::Return));
        for start in [4, 8, 12] {
            assert!(
                matches!(code[start], Instr::TestHeapPutList { .. }),
                "{:?}",
                code[start]
            );
        }
    }

    #[test]
    fn moves_between_the_same_kinds_are_fused_in_pairs() {
        let mv = |src, dst| Instr::Move { src, dst };
        let mut code = vec![
            mv(Src::x(1), Dst::x(0)),
            mv(Src::x(2), Dst::x(1)),
            mv(Src::x(0), Dst::y(0)),
            mv(Src::x(1), Dst::y(1)),
            mv(Src::y(0), Dst::x(3)),
            mv(Src::y(1), Dst::x(4)),
            mv(Src::constant(Term::NIL), Dst::x(5)),
            mv(Src::y(2), Dst::y(3)),
        ];
        specialise(&mut code);
        assert!(matches!(
            code[0],
            Instr::MoveXX2 {
                from_a: 1,
                to_a: 0,
                from_b: 2,
                to_b: 1
            }
        ));
        // X to X then X to Y has no pair form: specialised alone.
        assert!(matches!(code[1], Instr::MoveXX { from: 2, to: 1 }));
        assert!(matches!(
            code[2],
            Instr::MoveXY2 {
                from_a: 0,
                to_a: 0,
                from_b: 1,
                to_b: 1
            }
        ));
        assert!(matches!(
            code[4],
            Instr::MoveYX2 {
                from_a: 0,
                to_a: 3,
                from_b: 1,
                to_b: 4
            }
        ));
        // A constant, or a Y to Y move, is no pair of these kinds.
        assert!(matches!(code[5], Instr::MoveYX { from: 1, to: 4 }));
        assert!(matches!(code[6], Instr::MoveCX { to: 5, .. }));
    }

    #[test]
    fn frequent_tests_and_operations_get_their_own_instruction() {
        let fail = Target(5);
        let mut code = vec![
            Instr::TypeTest {
                test: TypeTest::NonemptyList,
                fail,
                arg: Src::x(0),
            },
            Instr::TypeTest {
                test: TypeTest::Map,
                fail,
                arg: Src::x(0),
            },
            Instr::Compare {
                op: Compare::EqExact,
                fail,
                a: Src::x(0),
                b: Src::x(1),
            },
            Instr::Compare {
                op: Compare::Eq,
                fail,
                a: Src::x(0),
                b: Src::x(1),
            },
            Instr::Arith {
                op: ArithOp::Sub,
                fail: Target::NONE,
                a: Src::x(0),
                b: Src::constant(Term::small_unchecked(1)),
                dst: Dst::x(1),
                live: 1,
            },
            Instr::Arith {
                op: ArithOp::Mul,
                fail: Target::NONE,
                a: Src::x(0),
                b: Src::x(0),
                dst: Dst::x(1),
                live: 1,
            },
            Instr::Arith {
                op: ArithOp::Add,
                fail: Target::NONE,
                a: Src::y(0),
                b: Src::x(0),
                dst: Dst::x(0),
                live: 1,
            },
            Instr::Arith {
                op: ArithOp::Add,
                fail: Target::NONE,
                a: Src::y(0),
                b: Src::constant(Term::atom(Atom::TRUE)),
                dst: Dst::x(0),
                live: 1,
            },
        ];
        specialise(&mut code);
        assert!(matches!(code[0], Instr::IsNonemptyListX { x: 0, .. }));
        assert!(matches!(code[1], Instr::TypeTest { .. }));
        assert!(matches!(code[2], Instr::IsEqExactXX { a: 0, b: 1, .. }));
        assert!(matches!(code[3], Instr::Compare { .. }));
        // A small-integer constant operand: the constant form.
        assert!(matches!(code[4], Instr::SubC { b, .. } if b == Term::small_unchecked(1)));
        assert!(matches!(code[5], Instr::Arith { .. }));
        assert!(matches!(code[6], Instr::Add { .. }));
        // A constant that is not a small integer raises: the general form.
        assert!(matches!(code[7], Instr::Add { .. }));
    }

    #[test]
    fn a_matching_loop_head_is_one_instruction() {
        let bs = |op| Instr::Bs(Box::new(op));
        let get = |fail, bits, dst| {
            bs(BsInstr::Get {
                kind: GetKind::Integer,
                fail: Target(fail),
                ctx: Src::x(0),
                size: Size::Bits(bits),
                flags: 0,
                dst,
            })
        };
        let mut code = vec![
            bs(BsInstr::StartMatch {
                fail: Target::NONE,
                live: 2,
                src: Src::x(0),
                dst: Dst::x(0),
            }),
            bs(BsInstr::GetPosition {
                ctx: Src::x(0),
                dst: Dst::x(2),
            }),
            // All fail to the instruction at index 9.
            get(7, 32, Dst::x(3)),
            get(6, 8, Dst::x(4)),
            bs(BsInstr::TestUnit {
                fail: Target(5),
                ctx: Src::x(0),
                unit: 8,
            }),
            // Another label: a run of its own, cut at the Y register.
            get(4, 8, Dst::x(1)),
            get(3, 8, Dst::x(2)),
            get(2, 8, Dst::y(0)),
            Instr::Return,
            Instr::Return,
        ];
        specialise(&mut code);
        let Instr::BsMatchInts(m) = &code[0] else {
            panic!("not fused: {:?}", code[0]);
        };
        assert_eq!((m.fail, m.ctx, m.unit, m.span), (Target(9), 0, 8, 5));
        assert!(m.packed && m.bits == 40);
        assert!(matches!(m.start, Some(s) if s.pos == Some(2) && s.live == 2));
        let ints: Vec<_> = m.ints().iter().map(|i| (i.bits, i.dst)).collect();
        assert_eq!(ints, [(32, 3), (8, 4)]);
        // The instructions it stands for stay, each in its own form (the
        // two gets and the test are a shorter run of their own).
        assert!(matches!(code[1], Instr::BsGetPosition { .. }));
        assert!(matches!(&code[2], Instr::BsMatchInts(m) if m.span == 3 && m.start.is_none()));
        assert!(matches!(code[4], Instr::BsTestUnit { .. }));
        let Instr::BsMatchInts(m) = &code[5] else {
            panic!("not fused: {:?}", code[5]);
        };
        assert_eq!((m.fail, m.span, m.unit), (Target(4), 2, 1));
        // One get alone is no run.
        assert!(matches!(code[7], Instr::BsGetInt { .. }));
    }

    #[test]
    fn two_value_tables_are_compared_in_place() {
        let table = |cases: Vec<(Term, Target)>, immediates| {
            Instr::SelectVal(Box::new(Select {
                arg: match cases.len() {
                    1 => Src::y(0),
                    2 => Src::x(2),
                    _ => Src::x(0),
                },
                fail: Target(9),
                cases: cases.into_boxed_slice(),
                immediates,
            }))
        };
        let (t, f) = (Term::atom(Atom::TRUE), Term::atom(Atom::FALSE));
        let mut code = vec![
            table(vec![(f, Target(2)), (t, Target(3))], true),
            table(vec![(Term::small_unchecked(-5), Target(4))], true),
            table(
                vec![
                    (Term::small_unchecked(0), Target(1)),
                    (Term::small_unchecked(1), Target(2)),
                    (Term::small_unchecked(2), Target(3)),
                ],
                true,
            ),
            table(vec![(Term::small_unchecked(1 << 40), Target(1))], true),
        ];
        specialise(&mut code);
        let word = |t: Term| t.raw() as i64 as i32;
        assert!(
            matches!(code[0], Instr::SelectVal2X { x: 2, a, to_a: Target(2), b, to_b: Target(3), fail: Target(9), .. }
            if a == word(f) && b == word(t))
        );
        // Not in an X register: the general form.
        assert!(
            matches!(code[1], Instr::SelectVal2 { a, b, to_b: Target(4), .. }
            if a == b && a == word(Term::small_unchecked(-5)))
        );
        // Three values in an X register: compared in place too.
        assert!(
            matches!(code[2], Instr::SelectVal3X { x: 0, a, to_a: Target(1), b, c, to_c: Target(3), fail: Target(9), .. }
            if a == word(Term::small_unchecked(0)) && b == word(Term::small_unchecked(1))
                && c == word(Term::small_unchecked(2)))
        );
        // A word that needs more than 32 bits: the table.
        assert!(matches!(code[3], Instr::SelectVal(_)));
    }
}
