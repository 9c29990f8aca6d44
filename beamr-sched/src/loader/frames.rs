//! The frame check: every Y register an instruction names lies inside the
//! stack frame its function has allocated at that point.
//!
//! The interpreter reads and writes Y registers without a bounds check
//! (`interp::ops::y`): Y register `n` is the word `n + 1` below the stack's
//! top. That is memory-safe because of the invariant this check
//! establishes for each function's code:
//!
//! > at every instruction, the stack holds at least as many words as the
//! > frame the check computed there has Y slots.
//!
//! The check is a forward dataflow over each function's instructions, as
//! the BEAM's `beam_validator` does before `erlc` writes a file (the BEAM's
//! own loader trusts it; beamr checks again, since a `.beam` may come from
//! anywhere). The state before an instruction is a [`Frame`]: no frame, a
//! frame of some Y slots, or unreachable. `allocate*` sets it, `trim`
//! shrinks it, `deallocate` and the tail calls that drop a frame need one
//! at least as large as what they drop, and each label's state is the
//! smallest over the ways in (fall-through and every label operand that
//! names it), computed to a fixed point since `receive` loops jump back.
//! A function's entry (the label after `func_info`, any local call's
//! target) starts with no frame.
//!
//! Why the invariant holds at run time: a frame pushes its slots and CP;
//! nothing pops more than the check allows (`deallocate N` and the tail
//! calls drop at most the frame they see, so a function never pops its
//! caller's words); a call returns with at least the words it found; and
//! an exception unwinds to the frame of the `try` that caught it, which
//! `interp::unwind` checks against the handler's frame size recorded in
//! its first instruction (`try_case` or `catch_end`, which this check
//! requires a handler to start with), so that a catch word copied
//! elsewhere by hand-made code cannot cut the stack too short.

use std::collections::HashMap;

use beamr_core::beam::{Instruction, Opcode, Operand, Register};

/// What the check knows of a function's stack frame before an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Frame {
    /// No way to reach the instruction is known (yet).
    Unreachable,
    /// The function has pushed no frame.
    None,
    /// A frame of at least this many Y slots.
    Slots(u32),
}

impl Frame {
    /// The state where two ways in meet: what both guarantee.
    fn meet(self, other: Frame) -> Frame {
        match (self, other) {
            (Frame::Unreachable, f) | (f, Frame::Unreachable) => f,
            (Frame::Slots(a), Frame::Slots(b)) => Frame::Slots(a.min(b)),
            _ => Frame::None,
        }
    }

    /// Y slots that may be named.
    fn slots(self) -> u32 {
        match self {
            Frame::Slots(n) => n,
            _ => 0,
        }
    }
}

/// Why a module fails the check: the index of the instruction (in the
/// file's instruction list) and what is wrong.
pub(super) type FrameError = (usize, String);

/// The frame sizes the interpreter needs at run time: for each exception
/// handler's first instruction (`try_case`, `catch_end`), by its byte
/// offset in the file, the Y slots of the frame it runs in.
pub(super) type HandlerFrames = HashMap<usize, u32>;

/// What the check keeps per label, indexed by label number (labels are
/// numbered densely from 1).
#[derive(Default)]
struct Labels {
    /// The state where the label is, over the ways in seen so far.
    state: Vec<Frame>,
    /// For an exception handler's label, the instruction it must start
    /// with.
    handler: Vec<Option<Opcode>>,
    /// Whether this pass has passed the label already.
    passed: Vec<bool>,
    /// Whether this pass lowered the state of a label it had passed (a
    /// jump back with a smaller frame): then another pass is needed.
    again: bool,
}

impl Labels {
    fn index(&mut self, n: u32) -> usize {
        let i = n as usize;
        if i >= self.state.len() {
            self.state.resize(i + 1, Frame::Unreachable);
            self.handler.resize(i + 1, None);
            self.passed.resize(i + 1, false);
        }
        i
    }

    /// A way into label `n` with `state`.
    fn enter(&mut self, n: u32, state: Frame) {
        let i = self.index(n);
        let met = self.state[i].meet(state);
        if met != self.state[i] {
            self.state[i] = met;
            self.again |= self.passed[i];
        }
    }
}

/// Checks a module's instructions; `never_returns` tells whether the
/// import with the given index is a BIF that always raises
/// (`erlang:error/1`...), after which the code is unreachable.
pub(super) fn check(
    code: &[Instruction],
    never_returns: impl Fn(u64) -> bool,
) -> Result<HandlerFrames, FrameError> {
    check_label_numbers(code)?;
    let mut labels = Labels::default();
    // Function entries start with no frame, whatever jumps there; so does
    // the label of each `func_info` (where a function's clauses jump when
    // none matches, from later in the code), which only raises.
    let mut after_func_info = false;
    let mut previous_label = None;
    for ins in code {
        match ins.opcode {
            Opcode::FuncInfo => {
                after_func_info = true;
                if let Some(n) = previous_label.take() {
                    labels.enter(n, Frame::None);
                }
            }
            Opcode::Label if after_func_info => {
                if let Some(n) = label_number(ins) {
                    labels.enter(n, Frame::None);
                }
                after_func_info = false;
            }
            Opcode::Label => previous_label = label_number(ins),
            Opcode::Call | Opcode::CallLast | Opcode::CallOnly | Opcode::MakeFun => {
                for op in &ins.args {
                    if let Operand::Label(n) = op {
                        labels.enter(*n, Frame::None);
                    }
                }
            }
            Opcode::Try | Opcode::Catch => {
                let kind = if ins.opcode == Opcode::Try {
                    Opcode::TryCase
                } else {
                    Opcode::CatchEnd
                };
                scan(&ins.args, &mut |n| {
                    let i = labels.index(n);
                    labels.handler[i] = Some(kind);
                });
            }
            _ => {}
        }
    }
    // To a fixed point: a label's state only ever goes down, so this ends.
    // Most modules need one pass; a jump back with a smaller frame than
    // the label had (which erlc does not write) needs more. A pass's
    // errors stand whatever the later passes find, since lower states
    // only fail more checks.
    loop {
        let mut handlers = HashMap::new();
        labels.again = false;
        labels.passed.fill(false);
        walk(code, &mut labels, &never_returns, &mut handlers)?;
        if !labels.again {
            return Ok(handlers);
        }
    }
}

/// One pass over the code: lowers label states, checks every instruction
/// against its state and records the handlers' frames.
fn walk(
    code: &[Instruction],
    labels: &mut Labels,
    never_returns: &impl Fn(u64) -> bool,
    handlers: &mut HandlerFrames,
) -> Result<(), FrameError> {
    let mut state = Frame::Unreachable;
    // The instruction a handler label just passed must start with.
    let mut awaiting: Option<Opcode> = None;
    let mut last_label = 0;
    for (i, ins) in code.iter().enumerate() {
        let fail = |what: String| Err((i, format!("{what} (in the block of label {last_label})")));
        match ins.opcode {
            Opcode::Label => {
                let Some(n) = label_number(ins) else {
                    return fail("a label without a number".into());
                };
                labels.enter(n, state);
                let at = labels.index(n);
                labels.passed[at] = true;
                state = labels.state[at];
                awaiting = labels.handler[at].or(awaiting);
                last_label = n;
                continue;
            }
            Opcode::Line | Opcode::ExecutableLine | Opcode::DebugLine => continue,
            _ => {}
        }
        if let Some(kind) = awaiting.take() {
            if ins.opcode != kind {
                return fail(format!(
                    "an exception handler starts with {}, not {}",
                    ins.opcode.name(),
                    kind.name()
                ));
            }
            handlers.insert(ins.offset, state.slots());
        }
        if ins.opcode == Opcode::FuncInfo {
            state = Frame::Unreachable;
            continue;
        }
        // Jumps: every label operand but a call's target (another
        // function's entry) is a way into that label with this state.
        let jumps = !matches!(
            ins.opcode,
            Opcode::Call | Opcode::CallLast | Opcode::CallOnly | Opcode::MakeFun
        );
        let max_y = scan(&ins.args, &mut |n| {
            if jumps {
                labels.enter(n, state)
            }
        });
        // Code no way reaches never runs (erlc leaves some after a call of
        // `erlang:error/3`), so its Y registers need no frame.
        if let Some(n) = max_y.filter(|_| state != Frame::Unreachable) {
            if n >= state.slots() {
                return fail(format!(
                    "Y register {n} outside the frame of {} slots there",
                    state.slots()
                ));
            }
        }
        state = match ins.opcode {
            Opcode::Allocate
            | Opcode::AllocateZero
            | Opcode::AllocateHeap
            | Opcode::AllocateHeapZero => Frame::Slots(unsigned(ins, 0, i)?),
            Opcode::Deallocate => {
                drop_frame(state, unsigned(ins, 0, i)?).or_else(fail)?;
                Frame::None
            }
            Opcode::Trim => {
                let n = unsigned(ins, 0, i)?;
                match state {
                    Frame::Slots(s) if n <= s => Frame::Slots(s - n),
                    _ => return fail(format!("trim {n} with a frame of {} slots", state.slots())),
                }
            }
            // erlc writes a tail call of a BIF that always raises with
            // whatever frame size it had before trimming; the BIF raises
            // before its frame would be dropped (`Instr::CallBifLast`).
            Opcode::CallExtLast
                if ins
                    .args
                    .get(1)
                    .and_then(Operand::unsigned)
                    .is_some_and(never_returns) =>
            {
                Frame::Unreachable
            }
            Opcode::CallLast | Opcode::CallExtLast => {
                drop_frame(state, unsigned(ins, 2, i)?).or_else(fail)?;
                Frame::Unreachable
            }
            Opcode::ApplyLast => {
                drop_frame(state, unsigned(ins, 1, i)?).or_else(fail)?;
                Frame::Unreachable
            }
            // A call or guard-less BIF that always raises
            // (`erlang:error/1`...).
            Opcode::CallExt | Opcode::Bif0 | Opcode::Bif1 | Opcode::Bif2 | Opcode::Bif3 => {
                let at = usize::from(ins.opcode != Opcode::Bif0);
                match ins.args.get(at).and_then(Operand::unsigned) {
                    Some(import) if never_returns(import) => Frame::Unreachable,
                    _ => state,
                }
            }
            Opcode::Return
            | Opcode::Jump
            | Opcode::CallOnly
            | Opcode::CallExtOnly
            | Opcode::SelectVal
            | Opcode::SelectTupleArity
            | Opcode::LoopRecEnd
            | Opcode::Wait
            | Opcode::Badmatch
            | Opcode::CaseEnd
            | Opcode::IfEnd
            | Opcode::TryCaseEnd
            | Opcode::Badrecord
            | Opcode::Raise
            | Opcode::IntCodeEnd => Frame::Unreachable,
            _ => state,
        };
    }
    Ok(())
}

/// Checks that every label number, defined or named, is of the order of
/// the number of labels the code defines (erlc numbers them densely from
/// 1): the checks keep per-label state in vectors indexed by number, which
/// a crafted label of 875889472 would make gigabytes long.
fn check_label_numbers(code: &[Instruction]) -> Result<(), FrameError> {
    let defined = code.iter().filter(|i| i.opcode == Opcode::Label).count();
    let limit = 2 * defined as u64 + 16;
    for (i, ins) in code.iter().enumerate() {
        let mut bad = None;
        if ins.opcode == Opcode::Label {
            bad = label_number(ins).filter(|&n| u64::from(n) > limit);
        }
        scan(&ins.args, &mut |n| {
            if u64::from(n) > limit {
                bad = Some(n);
            }
        });
        if let Some(n) = bad {
            return Err((
                i,
                format!("label {n} out of range (the code defines {defined} labels)"),
            ));
        }
    }
    Ok(())
}

/// Checks that dropping a frame of `n` slots drops no more than the
/// function pushed.
fn drop_frame(state: Frame, n: u32) -> Result<(), String> {
    match state {
        Frame::Slots(s) if n <= s => Ok(()),
        Frame::Unreachable => Ok(()),
        _ => Err(format!(
            "drops a frame of {n} slots where the frame has {}",
            state.slots()
        )),
    }
}

fn unsigned(ins: &Instruction, at: usize, i: usize) -> Result<u32, FrameError> {
    ins.args
        .get(at)
        .and_then(Operand::unsigned)
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| (i, format!("operand {at} is not a frame size")))
}

fn label_number(ins: &Instruction) -> Option<u32> {
    ins.args
        .first()
        .and_then(Operand::unsigned)
        .and_then(|n| u32::try_from(n).ok())
}

/// One look at the operands, lists included: calls `label` with every
/// nonzero label, and returns the highest Y register named.
fn scan(args: &[Operand], label: &mut impl FnMut(u32)) -> Option<u32> {
    let mut max_y = None;
    for op in args {
        let y = match op {
            Operand::Y(n) => Some(*n),
            Operand::TypedReg {
                reg: Register::Y(n),
                ..
            } => Some(*n),
            Operand::Label(n) if *n != 0 => {
                label(*n);
                None
            }
            Operand::List(items) => scan(items, label),
            _ => None,
        };
        max_y = max_y.max(y);
    }
    max_y
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loader::test_code::{function, ins};
    use Operand::{Label, Unsigned, X, Y};

    fn check_code(code: &[Instruction]) -> Result<HandlerFrames, String> {
        check(code, |import| import == 7).map_err(|(i, what)| format!("{i}: {what}"))
    }

    fn mv(from: Operand, to: Operand) -> Instruction {
        ins(Opcode::Move, vec![from, to])
    }

    #[test]
    fn accepts_y_registers_inside_the_frame() {
        let code = function(vec![
            ins(Opcode::Allocate, vec![Unsigned(2), Unsigned(1)]),
            mv(X(0), Y(1)),
            mv(Y(1), X(0)),
            ins(Opcode::Deallocate, vec![Unsigned(2)]),
            ins(Opcode::Return, vec![]),
        ]);
        assert_eq!(check_code(&code), Ok(HashMap::new()));
    }

    #[test]
    fn rejects_a_y_register_past_the_frame_or_without_one() {
        let past = function(vec![
            ins(Opcode::Allocate, vec![Unsigned(2), Unsigned(1)]),
            mv(X(0), Y(2)),
            ins(Opcode::Return, vec![]),
        ]);
        let err = check_code(&past).unwrap_err();
        assert!(
            err.starts_with("4: Y register 2 outside the frame of 2 slots"),
            "{err}"
        );
        let none = function(vec![mv(X(0), Y(0)), ins(Opcode::Return, vec![])]);
        let err = check_code(&none).unwrap_err();
        assert!(
            err.starts_with("3: Y register 0 outside the frame of 0 slots"),
            "{err}"
        );
        // Inside a list operand (put_tuple2's elements), after a trim.
        let trimmed = function(vec![
            ins(Opcode::Allocate, vec![Unsigned(3), Unsigned(1)]),
            ins(Opcode::Trim, vec![Unsigned(2), Unsigned(1)]),
            ins(Opcode::PutTuple2, vec![X(0), Operand::List(vec![Y(1)])]),
        ]);
        let err = check_code(&trimmed).unwrap_err();
        assert!(
            err.contains("Y register 1 outside the frame of 1 slots"),
            "{err}"
        );
    }

    #[test]
    fn a_label_gets_the_smallest_frame_of_its_ways_in() {
        // Label 3 is reached with 3 slots by the test's jump and with 1 by
        // falling through after the trim: y2 is out of its frame there.
        let code = function(vec![
            ins(Opcode::Allocate, vec![Unsigned(3), Unsigned(1)]),
            ins(Opcode::IsNil, vec![Label(3), X(0)]),
            ins(Opcode::Trim, vec![Unsigned(2), Unsigned(1)]),
            ins(Opcode::Label, vec![Unsigned(3)]),
            mv(Y(2), X(0)),
            ins(Opcode::Return, vec![]),
        ]);
        let err = check_code(&code).unwrap_err();
        assert!(
            err.contains("Y register 2 outside the frame of 1 slots"),
            "{err}"
        );
    }

    #[test]
    fn a_jump_back_lowers_a_label_already_passed() {
        // A loop whose jump back comes with a smaller frame than the
        // label's first way in: the second pass must see it.
        let code = function(vec![
            ins(Opcode::Allocate, vec![Unsigned(2), Unsigned(1)]),
            ins(Opcode::Label, vec![Unsigned(3)]),
            mv(Y(1), X(0)),
            ins(Opcode::Deallocate, vec![Unsigned(1)]),
            ins(Opcode::Allocate, vec![Unsigned(1), Unsigned(1)]),
            ins(Opcode::Jump, vec![Label(3)]),
        ]);
        let err = check_code(&code).unwrap_err();
        assert!(
            err.contains("Y register 1 outside the frame of 1 slots"),
            "{err}"
        );
    }

    #[test]
    fn rejects_a_label_number_far_past_the_labels_defined() {
        let code = function(vec![ins(Opcode::Jump, vec![Label(875_889_472)])]);
        let err = check_code(&code).unwrap_err();
        assert_eq!(
            err,
            "3: label 875889472 out of range (the code defines 2 labels)"
        );
        let mut code = function(vec![ins(Opcode::Return, vec![])]);
        code[2] = ins(Opcode::Label, vec![Unsigned(875_889_472)]);
        assert!(check_code(&code).unwrap_err().contains("out of range"));
    }

    #[test]
    fn rejects_dropping_more_than_the_frame() {
        for drop in [
            ins(Opcode::Deallocate, vec![Unsigned(3)]),
            ins(Opcode::CallLast, vec![Unsigned(0), Label(2), Unsigned(3)]),
            ins(
                Opcode::CallExtLast,
                vec![Unsigned(0), Unsigned(1), Unsigned(3)],
            ),
            ins(Opcode::Trim, vec![Unsigned(3), Unsigned(0)]),
        ] {
            let code = function(vec![
                ins(Opcode::Allocate, vec![Unsigned(2), Unsigned(1)]),
                drop,
            ]);
            let err = check_code(&code).unwrap_err();
            assert!(err.starts_with("4: "), "{err}");
        }
        // A frame-dropping call of a BIF that always raises drops nothing.
        let raise = function(vec![
            ins(Opcode::Allocate, vec![Unsigned(2), Unsigned(1)]),
            ins(
                Opcode::CallExtLast,
                vec![Unsigned(1), Unsigned(7), Unsigned(5)],
            ),
        ]);
        assert!(check_code(&raise).is_ok());
    }

    #[test]
    fn code_after_a_raising_call_is_unreachable() {
        // erlc leaves a dead move after erlang:error/3 (import 7 here).
        let code = function(vec![
            ins(Opcode::CallExt, vec![Unsigned(3), Unsigned(7)]),
            mv(X(0), Y(0)),
            ins(Opcode::Return, vec![]),
        ]);
        assert!(check_code(&code).is_ok());
        // Another call returns: the same move is checked.
        let code = function(vec![
            ins(Opcode::CallExt, vec![Unsigned(3), Unsigned(6)]),
            mv(X(0), Y(0)),
            ins(Opcode::Return, vec![]),
        ]);
        assert!(check_code(&code).is_err());
    }

    #[test]
    fn records_each_handlers_frame_and_requires_its_first_instruction() {
        let code = function(vec![
            ins(Opcode::Allocate, vec![Unsigned(3), Unsigned(1)]),
            ins(Opcode::Try, vec![Y(2), Label(3)]),
            ins(Opcode::TryEnd, vec![Y(2)]),
            ins(Opcode::Deallocate, vec![Unsigned(3)]),
            ins(Opcode::Return, vec![]),
            ins(Opcode::Label, vec![Unsigned(3)]),
            ins(Opcode::Line, vec![Unsigned(1)]),
            ins(Opcode::TryCase, vec![Y(2)]),
            ins(Opcode::Deallocate, vec![Unsigned(3)]),
            ins(Opcode::Return, vec![]),
        ]);
        assert_eq!(check_code(&code), Ok(HashMap::from([(10, 3)])));
        let mut wrong = code.clone();
        wrong[10] = ins(Opcode::CatchEnd, vec![Y(2)]);
        wrong[10].offset = 10;
        let err = check_code(&wrong).unwrap_err();
        assert!(
            err.starts_with("10: an exception handler starts with catch_end, not try_case"),
            "{err}"
        );
    }
}
