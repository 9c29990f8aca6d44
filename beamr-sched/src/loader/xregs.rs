//! The X register check: every X register an instruction reads holds a
//! term written on every way to that instruction, and every call passes
//! the arguments its callee takes.
//!
//! X registers belong to the scheduler thread, not the process
//! (`process::RegisterFile`): one never written by this process holds a
//! word another process left, or one a garbage collection since has
//! moved, so that reading it reads a stale pointer (`corrupt header
//! word`, or a size of terabytes). erlc never writes such a read (OTP's
//! `beam_validator` rejects it before the file is written); a `.beam` from
//! anywhere else may, so beamr checks again at load time.
//!
//! Like [`super::frames`], this is a forward dataflow over each
//! function's instructions, to a fixed point over the labels. The state
//! before an instruction is the set of X registers certainly written
//! there (or unreachable). A function's entry has its arguments; a call
//! leaves only `x0` (the callee clobbers the rest); an instruction that
//! may collect garbage with a live count keeps only the registers below
//! it (the collector roots only those); suspending in `wait` keeps none
//! (and in `wait_timeout` those up to its timeout's, as `interp::slice`
//! saves them);
//! an exception handler starts with the registers its first instruction
//! (`try_case`, `catch_end`) receives. A label's state is what all its
//! ways in have in common. Where an instruction's meaning for registers is
//! not modelled here, every X register it names counts as written and
//! none as read: the check then accepts more than it should, never less
//! than erlc writes.
//!
//! It also checks that a local call's target is a function's entry of the
//! call's arity, and that the code never falls through into
//! `int_code_end`.

use std::collections::HashMap;

use beamr_core::beam::{Instruction, Opcode, Operand, Register};

use crate::process::MAX_X_REGS;

/// Bit `n` set: X register `n` holds a term written on every way here.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Regs([u64; MAX_X_REGS / 64]);

impl Regs {
    const NONE: Regs = Regs([0; MAX_X_REGS / 64]);

    /// X registers `0..n`.
    fn first(n: usize) -> Regs {
        let mut r = Regs::NONE;
        for i in 0..n.min(MAX_X_REGS) {
            r.set(i);
        }
        r
    }

    fn has(&self, n: usize) -> bool {
        n < MAX_X_REGS && self.0[n / 64] & (1 << (n % 64)) != 0
    }

    fn set(&mut self, n: usize) {
        if n < MAX_X_REGS {
            self.0[n / 64] |= 1 << (n % 64);
        }
    }

    /// Forgets registers `live..`.
    fn keep_below(&mut self, live: usize) {
        for n in live..MAX_X_REGS {
            self.0[n / 64] &= !(1 << (n % 64));
        }
    }

    fn meet(self, other: Regs) -> Regs {
        let mut r = self;
        for (a, b) in r.0.iter_mut().zip(other.0) {
            *a &= b;
        }
        r
    }
}

/// The state before an instruction: `None` where no way in is known (yet).
type State = Option<Regs>;

fn meet(a: State, b: State) -> State {
    match (a, b) {
        (None, s) | (s, None) => s,
        (Some(a), Some(b)) => Some(a.meet(b)),
    }
}

/// Why a module fails the check: the index of the instruction and what is
/// wrong.
pub(super) type XregError = (usize, String);

#[derive(Default)]
struct Labels {
    state: HashMap<u32, State>,
    passed: HashMap<u32, bool>,
    again: bool,
}

impl Labels {
    fn enter(&mut self, n: u32, s: State) {
        let was = self.state.get(&n).copied().flatten();
        let met = meet(was, s);
        if met != was {
            self.state.insert(n, met);
            self.again |= self.passed.get(&n).copied().unwrap_or(false);
        }
    }
}

/// Checks a module's instructions; `atom` names the atom with a given
/// index (for the function names in errors and `bs_match`'s commands).
pub(super) fn check(code: &[Instruction], atom: impl Fn(u32) -> String) -> Result<(), XregError> {
    // Each function's entry label and arity.
    let mut entries: HashMap<u32, u32> = HashMap::new();
    let mut pending: Option<u32> = None;
    for ins in code {
        match ins.opcode {
            Opcode::FuncInfo => pending = Some(unsigned(ins, 2).unwrap_or(0) as u32),
            Opcode::Label => {
                if let (Some(arity), Some(n)) = (pending.take(), label_number(ins)) {
                    entries.insert(n, arity);
                }
            }
            _ => pending = None,
        }
    }
    let mut labels = Labels::default();
    for (&n, &arity) in &entries {
        labels.enter(n, Some(Regs::first(arity as usize)));
    }
    loop {
        labels.again = false;
        labels.passed.clear();
        walk(code, &mut labels, &entries, &atom)?;
        if !labels.again {
            return Ok(());
        }
    }
}

fn walk(
    code: &[Instruction],
    labels: &mut Labels,
    entries: &HashMap<u32, u32>,
    atom: &impl Fn(u32) -> String,
) -> Result<(), XregError> {
    let mut state: State = None;
    let mut function = String::from("?");
    let mut last_label = 0;
    for (i, ins) in code.iter().enumerate() {
        let fail = |function: &str, last_label: u32, what: String| {
            Err((
                i,
                format!("in function {function}, block of label {last_label}: {what}"),
            ))
        };
        match ins.opcode {
            Opcode::Label => {
                let Some(n) = label_number(ins) else {
                    return fail(&function, last_label, "a label without a number".into());
                };
                labels.enter(n, state);
                labels.passed.insert(n, true);
                state = labels.state.get(&n).copied().flatten();
                last_label = n;
                continue;
            }
            Opcode::FuncInfo => {
                let name = match ins.args.get(1) {
                    Some(Operand::Atom(a)) => atom(*a),
                    _ => "?".into(),
                };
                let arity = unsigned(ins, 2).unwrap_or(0);
                function = format!("{name}/{arity}");
                // A clause that jumps here raises function_clause with the
                // arguments.
                if let Some(r) = (0..arity).find(|&r| state.is_some_and(|s| !s.has(r as usize))) {
                    return fail(
                        &function,
                        last_label,
                        format!("a jump to func_info without argument X register {r} written"),
                    );
                }
                state = None;
                continue;
            }
            Opcode::IntCodeEnd => {
                if state.is_some() {
                    return fail(
                        &function,
                        last_label,
                        "the code falls through into int_code_end".into(),
                    );
                }
                continue;
            }
            _ => {}
        }
        let Some(mut regs) = state else {
            // Code no way reaches never runs; its labels are still ways in.
            continue;
        };
        let mut step = Step {
            regs: &mut regs,
            labels,
            ins,
        };
        match step.run(entries, atom) {
            Ok(next) => state = next.then_some(regs),
            Err(what) => return fail(&function, last_label, what),
        }
    }
    Ok(())
}

/// One instruction's effect on the state.
struct Step<'a> {
    regs: &'a mut Regs,
    labels: &'a mut Labels,
    ins: &'a Instruction,
}

impl Step<'_> {
    fn arg(&self, i: usize) -> Result<&Operand, String> {
        self.ins
            .args
            .get(i)
            .ok_or_else(|| format!("missing operand {i}"))
    }

    /// A read of operand `op` (lists included).
    fn read(&self, op: &Operand) -> Result<(), String> {
        match op {
            Operand::List(items) => items.iter().try_for_each(|o| self.read(o)),
            _ => match op.register() {
                Some(Register::X(n)) if !self.regs.has(n as usize) => {
                    Err(if n as usize >= MAX_X_REGS {
                        format!("X register {n} out of range")
                    } else {
                        format!("X register {n} is read where it may never have been written")
                    })
                }
                _ => Ok(()),
            },
        }
    }

    fn read_at(&self, i: usize) -> Result<(), String> {
        self.read(self.arg(i)?)
    }

    /// Reads of X registers `0..n` (a call's arguments).
    fn read_first(&self, n: u64) -> Result<(), String> {
        if n > MAX_X_REGS as u64 {
            return Err(format!("{n} arguments, more than there are X registers"));
        }
        match (0..n as usize).find(|&r| !self.regs.has(r)) {
            Some(r) => Err(format!(
                "argument X register {r} of {n} may never have been written"
            )),
            None => Ok(()),
        }
    }

    fn write(&mut self, op: &Operand) {
        match op {
            Operand::List(items) => items.iter().for_each(|o| self.write(o)),
            _ => {
                if let Some(Register::X(n)) = op.register() {
                    self.regs.set(n as usize);
                }
            }
        }
    }

    fn write_at(&mut self, i: usize) -> Result<(), String> {
        let op = self.arg(i)?.clone();
        self.write(&op);
        Ok(())
    }

    /// A collection may run keeping registers `0..live` (operand `i`).
    fn live_at(&mut self, i: usize) -> Result<(), String> {
        let live =
            unsigned_op(self.arg(i)?).ok_or_else(|| format!("operand {i} is not a live count"))?;
        if live > MAX_X_REGS as u64 {
            return Err(format!("{live} live X registers, more than exist"));
        }
        self.read_first(live)?;
        self.regs.keep_below(live as usize);
        Ok(())
    }

    /// Every label operand is a way in with the current state.
    fn branch(&mut self) {
        let regs = *self.regs;
        branch_all(&self.ins.args, &mut |n| self.labels.enter(n, Some(regs)));
    }

    /// All but the last operand are read, the last written.
    fn last_is_dst(&mut self) -> Result<(), String> {
        let n = self.ins.args.len();
        for i in 0..n.saturating_sub(1) {
            self.read_at(i)?;
        }
        self.branch();
        if n > 0 {
            self.write_at(n - 1)?;
        }
        Ok(())
    }

    /// A local call of `arity` arguments to the label in operand 1.
    fn local_call(&self, entries: &HashMap<u32, u32>) -> Result<u64, String> {
        let arity = unsigned_op(self.arg(0)?).ok_or("operand 0 is not an arity")?;
        match self.arg(1)? {
            Operand::Label(n) => match entries.get(n) {
                Some(&a) if u64::from(a) == arity => {}
                Some(&a) => {
                    return Err(format!(
                        "a call with {arity} arguments of label {n}, a function of arity {a}"
                    ))
                }
                None => return Err(format!("a call of label {n}, which starts no function")),
            },
            other => return Err(format!("a call of {other:?}, not a label")),
        }
        self.read_first(arity)?;
        Ok(arity)
    }

    fn arity_at(&self, i: usize) -> Result<u64, String> {
        unsigned_op(self.arg(i)?).ok_or_else(|| format!("operand {i} is not an arity"))
    }

    /// Applies the instruction; false when nothing falls through to the
    /// next one.
    fn run(
        &mut self,
        entries: &HashMap<u32, u32>,
        atom: &impl Fn(u32) -> String,
    ) -> Result<bool, String> {
        use Opcode as O;
        let after_call = |s: &mut Self| *s.regs = Regs::first(1);
        match self.ins.opcode {
            O::Line | O::ExecutableLine | O::DebugLine | O::NifStart | O::OnLoad => {}
            O::Call => {
                self.local_call(entries)?;
                after_call(self);
            }
            O::CallLast | O::CallOnly => {
                self.local_call(entries)?;
                return Ok(false);
            }
            O::CallExt => {
                self.read_first(self.arity_at(0)?)?;
                after_call(self);
            }
            O::CallExtLast | O::CallExtOnly => {
                self.read_first(self.arity_at(0)?)?;
                return Ok(false);
            }
            O::Apply => {
                self.read_first(self.arity_at(0)?.saturating_add(2))?;
                after_call(self);
            }
            O::ApplyLast => {
                self.read_first(self.arity_at(0)?.saturating_add(2))?;
                return Ok(false);
            }
            O::CallFun => {
                self.read_first(self.arity_at(0)?.saturating_add(1))?;
                after_call(self);
            }
            O::CallFun2 => {
                self.read_first(self.arity_at(1)?)?;
                self.read_at(2)?;
                after_call(self);
            }
            O::MakeFun2 | O::BsInitWritable | O::BuildStacktrace | O::Send => {
                let reads = match self.ins.opcode {
                    O::Send => 2,
                    O::MakeFun2 => 0,
                    _ => 1,
                };
                self.read_first(reads)?;
                after_call(self);
            }
            O::Return => {
                self.read_first(1)?;
                return Ok(false);
            }
            O::RawRaise => {
                self.read_first(3)?;
                return Ok(false);
            }
            O::Raise | O::Badmatch | O::CaseEnd | O::TryCaseEnd | O::Badrecord => {
                for i in 0..self.ins.args.len() {
                    self.read_at(i)?;
                }
                return Ok(false);
            }
            O::IfEnd => return Ok(false),
            O::Jump | O::SelectVal | O::SelectTupleArity | O::LoopRecEnd => {
                if matches!(self.ins.opcode, O::SelectVal | O::SelectTupleArity) {
                    self.read_at(0)?;
                }
                self.branch();
                return Ok(false);
            }
            O::Wait => {
                // The process suspends: the scheduler's registers go to
                // other processes meanwhile.
                branch_all(&self.ins.args, &mut |n| {
                    self.labels.enter(n, Some(Regs::NONE))
                });
                return Ok(false);
            }
            O::WaitTimeout => {
                // Suspended here, the process keeps X registers up to the
                // timeout's (`interp::slice`), to read it again.
                self.read_at(1)?;
                let keep = match self.arg(1)?.register() {
                    Some(Register::X(t)) => t as usize + 1,
                    _ => 0,
                };
                self.regs.keep_below(keep);
                let regs = *self.regs;
                branch_all(&self.ins.args, &mut |n| self.labels.enter(n, Some(regs)));
            }
            O::Timeout => *self.regs = Regs::NONE,
            O::LoopRec => {
                self.branch();
                self.write_at(1)?;
            }
            O::Try | O::Catch => self.branch(),
            O::TryCase => *self.regs = Regs::first(3),
            O::CatchEnd => *self.regs = Regs::first(1),
            O::TryEnd
            | O::RemoveMessage
            | O::RecvMark
            | O::RecvSet
            | O::Fclearerror
            | O::Fcheckerror
            | O::Init
            | O::InitYregs
            | O::Deallocate
            | O::Trim => {}
            O::Allocate | O::AllocateZero | O::TestHeap => self.live_at(1)?,
            O::AllocateHeap | O::AllocateHeapZero => self.live_at(2)?,
            O::GcBif1 | O::GcBif2 | O::GcBif3 => {
                let n = self.ins.args.len();
                for i in 3..n - 1 {
                    self.read_at(i)?;
                }
                self.live_at(1)?;
                self.branch();
                self.write_at(n - 1)?;
            }
            O::Move
            | O::GetHd
            | O::GetTl
            | O::GetTupleElement
            | O::PutList
            | O::Bif0
            | O::Bif1
            | O::Bif2
            | O::Bif3
            | O::MPlus
            | O::MMinus
            | O::MTimes
            | O::MDiv
            | O::IntDiv
            | O::IntRem
            | O::IntBand
            | O::IntBor
            | O::IntBxor
            | O::IntBsl
            | O::IntBsr
            | O::IntBnot
            | O::BsAdd
            | O::BsUtf8Size
            | O::BsUtf16Size
            | O::BsBitsToBytes
            | O::BsBitsToBytes2
            | O::BsPrivateAppend
            | O::Fmove
            | O::Fconv
            | O::Fadd
            | O::Fsub
            | O::Fmul
            | O::Fdiv
            | O::Fnegate
            | O::PutLiteral
            | O::PutString
            | O::PutTuple
            | O::RecvMarkerReserve => self.last_is_dst()?,
            O::GetList => {
                self.read_at(0)?;
                self.write_at(1)?;
                self.write_at(2)?;
            }
            O::Swap => {
                self.read_at(0)?;
                self.read_at(1)?;
            }
            O::PutTuple2 => {
                self.read_at(1)?;
                self.write_at(0)?;
            }
            O::MakeFun3 => {
                self.read_at(2)?;
                self.write_at(1)?;
            }
            O::SetTupleElement
            | O::Put
            | O::IsLt
            | O::IsGe
            | O::IsEq
            | O::IsNe
            | O::IsEqExact
            | O::IsNeExact
            | O::IsInteger
            | O::IsFloat
            | O::IsNumber
            | O::IsAtom
            | O::IsPid
            | O::IsReference
            | O::IsPort
            | O::IsNil
            | O::IsBinary
            | O::IsConstant
            | O::IsList
            | O::IsNonemptyList
            | O::IsTuple
            | O::TestArity
            | O::IsFunction
            | O::IsFunction2
            | O::IsBoolean
            | O::IsBitstr
            | O::IsMap
            | O::IsTaggedTuple
            | O::HasMapFields
            | O::BsSkipBits2
            | O::BsTestTail2
            | O::BsTestUnit
            | O::BsMatchString
            | O::BsSkipUtf8
            | O::BsSkipUtf16
            | O::BsSkipUtf32
            | O::BsSave2
            | O::BsRestore2
            | O::BsSetPosition
            | O::BsContextToBinary
            | O::BsPutInteger
            | O::BsPutBinary
            | O::BsPutFloat
            | O::BsPutUtf8
            | O::BsPutUtf16
            | O::BsPutUtf32
            | O::RecvMarkerBind
            | O::RecvMarkerClear
            | O::RecvMarkerUse => {
                for i in 0..self.ins.args.len() {
                    self.read_at(i)?;
                }
                self.branch();
            }
            O::BsStartMatch2 | O::BsStartMatch3 => {
                self.read_at(1)?;
                self.branch();
                self.live_at(2)?;
                self.write_at(self.ins.args.len() - 1)?;
            }
            O::BsStartMatch4 => {
                self.read_at(2)?;
                self.branch();
                self.live_at(1)?;
                self.write_at(3)?;
            }
            O::BsGetInteger2 | O::BsGetFloat2 | O::BsGetBinary2 => {
                self.read_at(1)?;
                self.read_at(3)?;
                self.branch();
                self.live_at(2)?;
                self.write_at(6)?;
            }
            O::BsGetUtf8 | O::BsGetUtf16 | O::BsGetUtf32 => {
                self.read_at(1)?;
                self.branch();
                self.live_at(2)?;
                self.write_at(4)?;
            }
            O::BsGetTail | O::BsGetPosition => {
                self.read_at(0)?;
                self.live_at(2)?;
                self.write_at(1)?;
            }
            O::BsCreateBin => {
                self.read_at(5)?;
                self.live_at(2)?;
                self.branch();
                self.write_at(4)?;
            }
            O::BsInit2 | O::BsInitBits => {
                self.read_at(1)?;
                self.live_at(3)?;
                self.branch();
                self.write_at(5)?;
            }
            O::BsAppend => {
                self.read_at(1)?;
                self.read_at(5)?;
                self.live_at(3)?;
                self.branch();
                self.write_at(7)?;
            }
            O::PutMapAssoc | O::PutMapExact => {
                self.read_at(1)?;
                self.read_at(4)?;
                self.branch();
                self.live_at(3)?;
                self.write_at(2)?;
            }
            O::GetMapElements => {
                self.read_at(1)?;
                self.branch();
                if let Operand::List(pairs) = self.arg(2)?.clone() {
                    for pair in pairs.chunks(2) {
                        self.read(&pair[0])?;
                        if let Some(dst) = pair.get(1) {
                            self.write(dst);
                        }
                    }
                }
            }
            O::BsMatch => {
                self.read_at(1)?;
                self.branch();
                self.bs_match(atom)?;
            }
            // Not modelled: every X register named counts as written.
            _ => {
                self.branch();
                let args = self.ins.args.clone();
                for op in &args {
                    self.write(op);
                }
            }
        }
        Ok(true)
    }

    /// `bs_match`'s commands: each `integer`, `binary` and `get_tail` may
    /// collect keeping its live count, then writes its destination.
    fn bs_match(&mut self, atom: &impl Fn(u32) -> String) -> Result<(), String> {
        let Operand::List(cmds) = self.arg(2)?.clone() else {
            return Ok(());
        };
        let mut rest = &cmds[..];
        while let Some((Operand::Atom(a), tail)) = rest.split_first() {
            let name = atom(*a);
            let (n, dst) = match name.as_str() {
                "ensure_at_least" => (2, None),
                "ensure_exactly" | "skip" => (1, None),
                "integer" | "binary" => (5, Some(4)),
                "get_tail" => (3, Some(2)),
                "=:=" => (3, None),
                _ => return Ok(()),
            };
            let Some(ops) = tail.get(..n) else {
                return Ok(());
            };
            if let Some(d) = dst {
                let live = unsigned_op(&ops[0]).ok_or("a bs_match live count is not a number")?;
                if live > MAX_X_REGS as u64 {
                    return Err(format!("{live} live X registers, more than exist"));
                }
                self.read_first(live)?;
                self.regs.keep_below(live as usize);
                self.write(&ops[d]);
            }
            rest = &tail[n..];
        }
        Ok(())
    }
}

/// Calls `f` with every nonzero label among `args`, lists included.
fn branch_all(args: &[Operand], f: &mut impl FnMut(u32)) {
    for op in args {
        match op {
            Operand::Label(n) if *n != 0 => f(*n),
            Operand::List(items) => branch_all(items, f),
            _ => {}
        }
    }
}

fn unsigned_op(op: &Operand) -> Option<u64> {
    op.unsigned()
}

fn unsigned(ins: &Instruction, at: usize) -> Option<u64> {
    ins.args.get(at).and_then(Operand::unsigned)
}

fn label_number(ins: &Instruction) -> Option<u32> {
    unsigned(ins, 0).and_then(|n| u32::try_from(n).ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loader::test_code::{self, ins};
    use Operand::{Label, Unsigned, X};

    /// `f/1` with `body` after its entry, then `int_code_end`.
    fn function(mut body: Vec<Instruction>) -> Vec<Instruction> {
        body.push(ins(Opcode::IntCodeEnd, vec![]));
        test_code::function(body)
    }

    fn check_code(code: &[Instruction]) -> Result<(), String> {
        check(code, |a| format!("a{a}")).map_err(|(i, what)| format!("{i}: {what}"))
    }

    fn mv(from: Operand, to: Operand) -> Instruction {
        ins(Opcode::Move, vec![from, to])
    }

    #[test]
    fn accepts_reads_of_arguments_and_written_registers() {
        let code = function(vec![
            mv(X(0), X(1)),
            mv(X(1), X(0)),
            ins(Opcode::Return, vec![]),
        ]);
        assert_eq!(check_code(&code), Ok(()));
    }

    #[test]
    fn rejects_a_read_of_a_register_never_written() {
        let code = function(vec![mv(X(1), X(0)), ins(Opcode::Return, vec![])]);
        let err = check_code(&code).unwrap_err();
        assert_eq!(
            err,
            "3: in function a2/1, block of label 2: X register 1 is read where it may never have been written"
        );
    }

    #[test]
    fn a_call_leaves_only_x0_and_a_label_keeps_what_all_ways_in_share() {
        let after_call = function(vec![
            ins(Opcode::CallExt, vec![Unsigned(1), Unsigned(0)]),
            mv(X(0), X(2)),
            ins(Opcode::GetTl, vec![X(1), X(0)]),
            ins(Opcode::Return, vec![]),
        ]);
        assert!(check_code(&after_call)
            .unwrap_err()
            .contains("X register 1"));
        // x1 is written on the way through the test, not on its jump.
        let label = function(vec![
            ins(Opcode::IsNil, vec![Label(3), X(0)]),
            mv(X(0), X(1)),
            ins(Opcode::Label, vec![Unsigned(3)]),
            mv(X(1), X(0)),
            ins(Opcode::Return, vec![]),
        ]);
        assert!(check_code(&label)
            .unwrap_err()
            .contains("label 3: X register 1"));
    }

    #[test]
    fn a_live_count_forgets_the_registers_above_it() {
        let code = function(vec![
            mv(X(0), X(1)),
            ins(Opcode::TestHeap, vec![Unsigned(2), Unsigned(1)]),
            mv(X(1), X(0)),
            ins(Opcode::Return, vec![]),
        ]);
        assert!(check_code(&code).unwrap_err().contains("X register 1"));
    }

    #[test]
    fn a_call_must_pass_its_callees_arity_and_code_must_not_fall_off_the_end() {
        let code = function(vec![ins(Opcode::CallOnly, vec![Unsigned(2), Label(2)])]);
        assert!(check_code(&code)
            .unwrap_err()
            .contains("a call with 2 arguments of label 2, a function of arity 1"));
        let code = function(vec![mv(X(0), X(1))]);
        assert!(check_code(&code)
            .unwrap_err()
            .contains("falls through into int_code_end"));
    }
}
