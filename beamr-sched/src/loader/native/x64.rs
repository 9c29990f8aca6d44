//! The x86-64 code generator of [`super`]: one pass over a module's
//! instructions, each one's fast path in machine code, its way out a jump
//! to a stub that hands its address back to the interpreter.
//!
//! Registers while native code runs (callee-saved ones are saved by the
//! entry sequence; the rest are free, since native code calls only the
//! local-call probe, around which it saves and reloads the state):
//!
//! ```text
//! rdi  *mut State          rsi  CP (an instruction pointer, or null)
//! r12  X registers         rbx  reductions left
//! r14  stack top           r13  stack end (capacity)
//! r15  heap top            rbp  heap limit
//! rax rcx rdx              scratch
//! ```
//!
//! Y register n of the current frame is the word n + 1 below the stack's
//! top, as in the interpreter (`interp::ops::y`).

use std::mem::offset_of;
use std::ops::Range;
use std::sync::atomic::AtomicU8;

use beamr_core::term::tag::{
    IMMED1_MASK, IMMED1_PID, IMMED1_PORT, IMMED1_SMALL, IMMED2_ATOM, IMMED2_MASK, IMMED2_NIL,
    PRIMARY_BOXED, PRIMARY_LIST,
};
use beamr_core::term::{Header, Subtag, Term};
use dynasmrt::x64::{Assembler, Rq};
use dynasmrt::{dynasm, AssemblyOffset, DynamicLabel, DynasmApi, DynasmLabelApi, ExecutableBuffer};

use super::{local_call_probe, traced_return_probe, EnterFn, NativeEntry, State};
use crate::loader::instr::{ArithOp, Compare, Instr, Select, Tail, TypeTest, RETURN_TRACE_STUB};
use crate::loader::module::FunctionInfo;
use crate::loader::operand::{Dst, Src, SrcKind, Target};

/// A module's generated code and its return table, kept alive as long as
/// the module (the code holds the table's address).
pub(super) struct Compiled {
    _buf: ExecutableBuffer,
    /// Per instruction, the address of its native code, or 0 for one of a
    /// function without native code: where a return to that instruction
    /// goes on.
    _table: Box<[usize]>,
}

/// The entry of each function with native code, by the index of its
/// first instruction after `func_info`, in order.
pub(super) type Entries = Vec<(usize, NativeEntry)>;

/// Why an instruction gets no native code of its own.
struct NoCode;

type Gen = Result<(), NoCode>;

const RAX: Rq = Rq::RAX;
const RCX: Rq = Rq::RCX;
const RDX: Rq = Rq::RDX;

/// Bytes of one instruction: a return address maps to a table index by a shift.
const INSTR_SHIFT: u32 = 5;
const _: () = assert!(std::mem::size_of::<Instr>() == 1 << INSTR_SHIFT);

/// The tag bits of a small integer, all set.
const SMALL_TAG: i32 = IMMED1_SMALL as i32;
const NIL: i32 = IMMED2_NIL as i32;

fn off(field: usize) -> i32 {
    field as i32
}

/// Compiles the functions of `code` whose every instruction has a fast
/// path here or only raises ([`has_fast_path`], [`raises`]); the rest of
/// the module gets no native code. `None` when no function qualifies, or
/// if the assembler fails (it does not for code this generator writes,
/// but then the module simply runs interpreted).
pub(super) fn compile(
    code: &[Instr],
    functions: &[FunctionInfo],
    traced: &[AtomicU8],
) -> Option<(Compiled, Entries)> {
    let chosen = native_functions(code, functions);
    if chosen.is_empty() {
        return None;
    }
    let mut g = Generator::new(code, functions, &chosen, traced)?;
    let enter = g.entry_and_exit();
    let mut offsets = Vec::new();
    for range in &chosen {
        for i in range.clone() {
            let label = g.labels[i].expect("a label for each chosen instruction");
            offsets.push((i, g.ops.offset()));
            dynasm!(g.ops ; =>label);
            g.exit = None;
            if g.instr(i, &code[i]).is_err() {
                let exit = g.exit_label(i);
                dynasm!(g.ops ; jmp =>exit);
            }
        }
    }
    g.probe_stubs();
    g.return_stubs();
    g.exit_stubs();
    let Generator { ops, mut table, .. } = g;
    let buf = ops.finalize().ok()?;
    for (i, at) in offsets {
        table[i] = buf.ptr(at) as usize;
    }
    // SAFETY: `enter` is the entry sequence, generated for `EnterFn`'s
    // signature and calling convention.
    let enter: EnterFn = unsafe { std::mem::transmute(buf.ptr(enter)) };
    let entries = chosen
        .iter()
        .map(|range| {
            let body = range.start + 1;
            let code = table[body] as *const u8;
            (body, NativeEntry { code, enter })
        })
        .collect();
    let compiled = Compiled {
        _buf: buf,
        _table: table,
    };
    Some((compiled, entries))
}

/// The instruction ranges (from `func_info` to the next function) of the
/// functions that get native code.
fn native_functions(code: &[Instr], functions: &[FunctionInfo]) -> Vec<Range<usize>> {
    let mut chosen = Vec::new();
    for (f, info) in functions.iter().enumerate() {
        let end = functions.get(f + 1).map_or(code.len(), |next| next.start);
        if end <= info.start + 1 || !matches!(code[info.start], Instr::FuncInfo { .. }) {
            continue;
        }
        if code[info.start..end]
            .iter()
            .all(|ins| has_fast_path(ins) || raises(ins))
        {
            chosen.push(info.start..end);
        }
    }
    chosen
}

/// Instructions [`Generator::instr`] has code for (which may still find
/// an operand it cannot handle, and then hands the instruction over).
fn has_fast_path(ins: &Instr) -> bool {
    matches!(
        ins,
        Instr::Move { .. }
            | Instr::MoveXX { .. }
            | Instr::MoveXX2 { .. }
            | Instr::MoveXY { .. }
            | Instr::MoveXY2 { .. }
            | Instr::MoveXYThenXX { .. }
            | Instr::MoveYX { .. }
            | Instr::MoveYX2 { .. }
            | Instr::MoveCX { .. }
            | Instr::Swap { .. }
            | Instr::Jump { .. }
            | Instr::Allocate { .. }
            | Instr::TestHeap { .. }
            | Instr::TestHeapPutList { .. }
            | Instr::TestHeapPutListReturn { .. }
            | Instr::Deallocate { .. }
            | Instr::DeallocateReturn { .. }
            | Instr::Trim { .. }
            | Instr::InitYregs(_)
            | Instr::Return
            | Instr::Call { .. }
            | Instr::CallLast { .. }
            | Instr::CallOnly { .. }
            | Instr::PutList { .. }
            | Instr::GetList { .. }
            | Instr::GetHd { .. }
            | Instr::GetTl { .. }
            | Instr::GetTupleElement { .. }
            | Instr::GetTupleElementXX { .. }
            | Instr::IsNonemptyList { .. }
            | Instr::IsNonemptyGetList { .. }
            | Instr::IsNonemptyListX { .. }
            | Instr::IsNonemptyGetListX { .. }
            | Instr::IsNil { .. }
            | Instr::IsNilX { .. }
            | Instr::IsTuple { .. }
            | Instr::TypeTest { .. }
            | Instr::IsTaggedTuple { .. }
            | Instr::PutTuple2 { .. }
            | Instr::TestArity { .. }
            | Instr::IsEqExactXC { .. }
            | Instr::IsEqExact { .. }
            | Instr::IsEqExactXX { .. }
            | Instr::IsNeExact { .. }
            | Instr::IsLt { .. }
            | Instr::IsLtXX { .. }
            | Instr::IsGe { .. }
            | Instr::Compare { .. }
            | Instr::SelectVal2X { .. }
            | Instr::SelectVal2 { .. }
            | Instr::SelectVal3X { .. }
            | Instr::SelectVal(_)
            | Instr::SelectTupleArity(_)
            | Instr::Add { .. }
            | Instr::Sub { .. }
            | Instr::AddC { .. }
            | Instr::SubC { .. }
            | Instr::AddXX { .. }
            | Instr::Arith {
                op: ArithOp::Add | ArithOp::Sub,
                ..
            }
    )
}

/// Instructions that only raise an error: a function that has them still
/// runs natively up to the error.
fn raises(ins: &Instr) -> bool {
    matches!(
        ins,
        Instr::FuncInfo { .. }
            | Instr::IntCodeEnd
            | Instr::Badmatch { .. }
            | Instr::CaseEnd { .. }
            | Instr::TryCaseEnd { .. }
            | Instr::Badrecord { .. }
            | Instr::IfEnd
    )
}

struct Generator<'a> {
    ops: Assembler,
    code: &'a [Instr],
    /// Per instruction of a function with native code, the label of its code.
    labels: Vec<Option<DynamicLabel>>,
    /// Exit stubs to write after the code: label and instruction index.
    exits: Vec<(DynamicLabel, usize)>,
    /// The current instruction's exit stub, once it has one.
    exit: Option<DynamicLabel>,
    /// Probe stubs to write after the code: per traced local call, the
    /// stub's label, the label to go on at, and the callee's index.
    probes: Vec<(DynamicLabel, DynamicLabel, usize)>,
    /// Per `return`, the code for a return address outside the module:
    /// its label, the return's label to start again at, and its exit.
    returns: Vec<(DynamicLabel, DynamicLabel, DynamicLabel)>,
    table: Box<[usize]>,
    functions: &'a [FunctionInfo],
    /// Per function, its traced-on-local-calls byte (`NativeCode::traced`).
    traced: &'a [AtomicU8],
}

impl<'a> Generator<'a> {
    fn new(
        code: &'a [Instr],
        functions: &'a [FunctionInfo],
        chosen: &[Range<usize>],
        traced: &'a [AtomicU8],
    ) -> Option<Generator<'a>> {
        let mut ops = Assembler::new().ok()?;
        let mut labels = vec![None; code.len()];
        for i in chosen.iter().flat_map(Range::clone) {
            labels[i] = Some(ops.new_dynamic_label());
        }
        Some(Generator {
            ops,
            code,
            labels,
            exits: Vec::new(),
            exit: None,
            probes: Vec::new(),
            returns: Vec::new(),
            table: vec![0; code.len()].into_boxed_slice(),
            functions,
            traced,
        })
    }

    /// The address of instruction `i`, as the interpreter's instruction pointer.
    fn ip(&self, i: usize) -> i64 {
        (&self.code[i]) as *const Instr as i64
    }

    /// The entry sequence (loads `State`, jumps to the code in rsi), whose
    /// offset it returns, and the exit (rax: the instruction where the
    /// interpreter goes on).
    fn entry_and_exit(&mut self) -> AssemblyOffset {
        let top = off(offset_of!(State, stack_top));
        let heap = off(offset_of!(State, heap_top));
        let cp = off(offset_of!(State, cp));
        let reds = off(offset_of!(State, reds));
        let ip = off(offset_of!(State, ip));
        let enter = self.ops.offset();
        dynasm!(self.ops
            ; push rbx
            ; push rbp
            ; push r12
            ; push r13
            ; push r14
            ; push r15
            ; mov rax, rsi
            ; mov rbx, [rdi + reds]
        );
        self.load_state();
        dynasm!(self.ops
            ; jmp rax
            ; ->exit:
            ; mov [rdi + ip], rax
            ; mov [rdi + top], r14
            ; mov [rdi + heap], r15
            ; mov [rdi + cp], rsi
            ; mov [rdi + reds], rbx
            ; pop r15
            ; pop r14
            ; pop r13
            ; pop r12
            ; pop rbp
            ; pop rbx
            ; ret
        );
        enter
    }

    /// The call-outs of traced local calls: `local_call_probe(state,
    /// callee)` (see `call_out`), and on into the callee; or out to the
    /// interpreter if the probe panicked (`enter` resumes the panic).
    fn probe_stubs(&mut self) {
        type Probe = extern "sysv64" fn(*mut State<'static>, *const Instr) -> u64;
        let probe = local_call_probe as Probe as usize as i64;
        for (label, back, callee) in std::mem::take(&mut self.probes) {
            let callee = self.ip(callee);
            dynasm!(self.ops
                ; =>label
                ; mov rdx, QWORD callee
            );
            self.call_out(probe);
            dynasm!(self.ops
                ; test rax, rax
                ; jz =>back
                ; mov rax, QWORD callee
                ; jmp ->exit
            );
        }
    }

    /// The returns to an address outside the module: one to the
    /// return-trace stub runs `traced_return_probe(state)` (see
    /// `call_out`), which pops the frame, reports and sets CP to the real
    /// return address, and the return starts again; any other (or a
    /// frame the interpreter must raise for) hands the return over.
    fn return_stubs(&mut self) {
        type Probe = extern "sysv64" fn(*mut State<'static>) -> u64;
        let probe = traced_return_probe as Probe as usize as i64;
        let stub = &RETURN_TRACE_STUB as *const Instr as i64;
        for (label, again, exit) in std::mem::take(&mut self.returns) {
            dynasm!(self.ops
                ; =>label
                ; mov rcx, QWORD stub
                ; cmp rsi, rcx
                ; jne =>exit
            );
            self.call_out(probe);
            dynasm!(self.ops
                ; test rax, rax
                ; jz =>again
                ; jmp =>exit
            );
        }
    }

    /// Calls `function(state, rdx)`, a call-out, with the state written
    /// back before and read again after; its answer is in rax.
    fn call_out(&mut self, function: i64) {
        let top = off(offset_of!(State, stack_top));
        let heap = off(offset_of!(State, heap_top));
        let cp = off(offset_of!(State, cp));
        // rsp is 8 below a multiple of 16 in native code (a call's return
        // address and six pushes): one push aligns the call.
        dynasm!(self.ops
            ; mov [rdi + top], r14
            ; mov [rdi + heap], r15
            ; mov [rdi + cp], rsi
            ; push rdi
            ; mov rsi, rdx
            ; mov rax, QWORD function
            ; call rax
            ; pop rdi
        );
        self.load_state();
    }

    /// Loads the registers native code keeps the process state in (all
    /// but the reductions left) from `State` at rdi: on entry, and after a
    /// call-out, which may have moved any of it.
    fn load_state(&mut self) {
        let x = off(offset_of!(State, x));
        let top = off(offset_of!(State, stack_top));
        let end = off(offset_of!(State, stack_end));
        let heap = off(offset_of!(State, heap_top));
        let limit = off(offset_of!(State, heap_limit));
        let cp = off(offset_of!(State, cp));
        dynasm!(self.ops
            ; mov r12, [rdi + x]
            ; mov r14, [rdi + top]
            ; mov r13, [rdi + end]
            ; mov r15, [rdi + heap]
            ; mov rbp, [rdi + limit]
            ; mov rsi, [rdi + cp]
        );
    }

    fn exit_stubs(&mut self) {
        for (label, i) in std::mem::take(&mut self.exits) {
            let ip = self.ip(i);
            dynasm!(self.ops
                ; =>label
                ; mov rax, QWORD ip
                ; jmp ->exit
            );
        }
    }

    /// The stub that hands instruction `i` to the interpreter.
    fn exit_label(&mut self, i: usize) -> DynamicLabel {
        if let Some(l) = self.exit {
            return l;
        }
        let l = self.ops.new_dynamic_label();
        self.exits.push((l, i));
        self.exit = Some(l);
        l
    }

    /// The label of the instruction `t` is relative to `i`, when it has
    /// native code.
    fn target(&self, i: usize, t: Target) -> Result<DynamicLabel, NoCode> {
        self.target_index(i, t).map(|(_, label)| label)
    }

    /// The index of the instruction `t` is relative to `i`, and its label,
    /// when it has native code.
    fn target_index(&self, i: usize, t: Target) -> Result<(usize, DynamicLabel), NoCode> {
        if !t.is_some() {
            return Err(NoCode);
        }
        let j = i as i64 + i64::from(t.0);
        let j = usize::try_from(j).map_err(|_| NoCode)?;
        // A label outside the functions with native code (a call of one
        // without) hands the instruction over.
        let label = self.labels.get(j).copied().flatten().ok_or(NoCode)?;
        Ok((j, label))
    }

    // ----- operands --------------------------------------------------

    fn load(&mut self, r: Rq, s: Src) -> Gen {
        match s.kind() {
            SrcKind::X(n) => self.load_x(r, n as u32),
            SrcKind::Y(n) => self.load_y(r, n as u32),
            SrcKind::Const(t) => {
                let raw = t.raw() as i64;
                dynasm!(self.ops ; mov Rq(r), QWORD raw);
            }
            SrcKind::Fr(_) => return Err(NoCode),
        }
        Ok(())
    }

    fn load_x(&mut self, r: Rq, n: u32) {
        let d = (n * 8) as i32;
        dynasm!(self.ops ; mov Rq(r), [r12 + d]);
    }

    fn load_y(&mut self, r: Rq, n: u32) {
        let d = -(((n + 1) * 8) as i32);
        dynasm!(self.ops ; mov Rq(r), [r14 + d]);
    }

    fn store(&mut self, d: Dst, r: Rq) {
        if d.is_y() {
            self.store_y(d.index() as u32, r);
        } else {
            self.store_x(d.index() as u32, r);
        }
    }

    fn store_x(&mut self, n: u32, r: Rq) {
        let d = (n * 8) as i32;
        dynasm!(self.ops ; mov [r12 + d], Rq(r));
    }

    fn store_y(&mut self, n: u32, r: Rq) {
        let d = -(((n + 1) * 8) as i32);
        dynasm!(self.ops ; mov [r14 + d], Rq(r));
    }

    /// Jumps to `to` unless the term in `r` is a cons cell.
    fn unless_cons(&mut self, r: Rq, to: DynamicLabel) {
        dynasm!(self.ops
            ; mov edx, Rd(r)
            ; and edx, 3
            ; cmp edx, PRIMARY_LIST as i32
            ; jne =>to
        );
    }

    /// Jumps to `to` unless the term in `r` is a tuple; leaves its
    /// header word in rdx.
    fn unless_tuple(&mut self, r: Rq, to: DynamicLabel) {
        let header = -(PRIMARY_BOXED as i32);
        dynasm!(self.ops
            ; mov edx, Rd(r)
            ; and edx, 3
            ; cmp edx, PRIMARY_BOXED as i32
            ; jne =>to
            ; mov rdx, [Rq(r) + header]
            ; test dl, dl
            ; jne =>to
        );
    }

    // ----- instructions ------------------------------------------------

    /// `dst = src`.
    fn mov(&mut self, src: Src, dst: Dst) -> Gen {
        self.load(RAX, src)?;
        self.store(dst, RAX);
        Ok(())
    }

    fn instr(&mut self, i: usize, ins: &Instr) -> Gen {
        match ins {
            Instr::Move { src, dst } => self.mov(*src, *dst)?,
            // A fused pair of moves: the first here, the second (which
            // stays in place after it) is the next instruction's code.
            Instr::MoveXX { from, to }
            | Instr::MoveXX2 {
                from_a: from,
                to_a: to,
                ..
            } => self.mov(x_src(*from), Dst::x(*to as usize))?,
            Instr::MoveXY { from, to }
            | Instr::MoveXY2 {
                from_a: from,
                to_a: to,
                ..
            }
            | Instr::MoveXYThenXX {
                from_x: from,
                to_y: to,
                ..
            } => self.mov(x_src(*from), Dst::y(*to as usize))?,
            Instr::MoveYX { from, to }
            | Instr::MoveYX2 {
                from_a: from,
                to_a: to,
                ..
            } => self.mov(Src::y(*from as usize), Dst::x(*to as usize))?,
            Instr::MoveCX { value, to } => self.mov(*value, Dst::x(*to as usize))?,
            Instr::Swap { a, b } => {
                self.load(RAX, a.as_src())?;
                self.load(RCX, b.as_src())?;
                self.store(*a, RCX);
                self.store(*b, RAX);
            }
            Instr::Jump { target } => {
                let to = self.target(i, *target)?;
                dynasm!(self.ops ; jmp =>to);
            }

            // ----- frames, heap, calls and returns -----
            Instr::Allocate { slots, heap, .. } => self.allocate(i, *slots, *heap)?,
            Instr::TestHeap { heap, .. } => self.test_heap(i, *heap)?,
            Instr::TestHeapPutList { need, .. } | Instr::TestHeapPutListReturn { need, .. } => {
                self.test_heap(i, u32::from(*need))?
            }
            Instr::Deallocate { slots } | Instr::DeallocateReturn { slots } => {
                self.deallocate(i, *slots)?;
                dynasm!(self.ops ; mov rsi, rcx ; mov r14, rax);
            }
            Instr::Trim { n } => {
                let d = frame_bytes(*n, 0)?;
                let base = off(offset_of!(State, stack_base));
                let exit = self.exit_label(i);
                dynasm!(self.ops
                    ; lea rax, [r14 - d]
                    ; cmp rax, [rdi + base]
                    ; jb =>exit
                    ; mov r14, rax
                );
            }
            Instr::InitYregs(ys) => {
                for &y in ys.iter() {
                    let d = -(frame_bytes(y, 1)?);
                    dynasm!(self.ops ; mov QWORD [r14 + d], NIL);
                }
            }
            Instr::Return => self.ret(i)?,
            Instr::Call { target } => self.call(i, *target, Tail::Call)?,
            Instr::CallLast { target, dealloc } => self.call(i, *target, Tail::Last(*dealloc))?,
            Instr::CallOnly { target } => self.call(i, *target, Tail::Only)?,

            // ----- lists and tuples -----
            Instr::PutList { head, tail, dst } => {
                let exit = self.exit_label(i);
                dynasm!(self.ops
                    ; lea rax, [r15 + 16]
                    ; cmp rax, rbp
                    ; ja =>exit
                );
                self.load(RCX, *head)?;
                self.load(RDX, *tail)?;
                dynasm!(self.ops
                    ; mov [r15], rcx
                    ; mov [r15 + 8], rdx
                    ; lea rcx, [r15 + PRIMARY_LIST as i32]
                    ; mov r15, rax
                );
                self.store(*dst, RCX);
            }
            Instr::GetList { src, head, tail } => {
                let exit = self.exit_label(i);
                self.load(RAX, *src)?;
                self.unless_cons(RAX, exit);
                let (h, t) = (-(PRIMARY_LIST as i32), 8 - PRIMARY_LIST as i32);
                dynasm!(self.ops
                    ; mov rcx, [rax + h]
                    ; mov rax, [rax + t]
                );
                self.store(*head, RCX);
                self.store(*tail, RAX);
            }
            Instr::GetHd { src, dst } | Instr::GetTl { src, dst } => {
                let exit = self.exit_label(i);
                self.load(RAX, *src)?;
                self.unless_cons(RAX, exit);
                let word = if matches!(ins, Instr::GetHd { .. }) {
                    0
                } else {
                    8
                };
                let d = word - PRIMARY_LIST as i32;
                dynasm!(self.ops ; mov rax, [rax + d]);
                self.store(*dst, RAX);
            }
            Instr::GetTupleElement { src, index, dst } => {
                self.load(RAX, *src)?;
                self.tuple_element(i, *index)?;
                self.store(*dst, RAX);
            }
            Instr::GetTupleElementXX { from, index, to } => {
                self.load_x(RAX, *from);
                self.tuple_element(i, *index)?;
                self.store_x(*to, RAX);
            }

            // ----- tests -----
            Instr::IsNonemptyList { fail, arg }
            | Instr::IsNonemptyGetList { fail, src: arg, .. } => {
                let to = self.target(i, *fail)?;
                self.load(RAX, *arg)?;
                self.unless_cons(RAX, to);
            }
            Instr::IsNonemptyListX { fail, x } | Instr::IsNonemptyGetListX { fail, x, .. } => {
                let to = self.target(i, *fail)?;
                self.load_x(RAX, *x);
                self.unless_cons(RAX, to);
            }
            Instr::IsNil { fail, arg } => {
                let to = self.target(i, *fail)?;
                self.load(RAX, *arg)?;
                dynasm!(self.ops ; cmp rax, NIL ; jne =>to);
            }
            Instr::IsNilX { fail, x } => {
                let to = self.target(i, *fail)?;
                self.load_x(RAX, *x);
                dynasm!(self.ops ; cmp rax, NIL ; jne =>to);
            }
            Instr::IsTuple { fail, arg } => {
                let to = self.target(i, *fail)?;
                self.load(RAX, *arg)?;
                self.unless_tuple(RAX, to);
            }
            Instr::TypeTest { test, fail, arg } => self.type_test(i, *test, *fail, *arg)?,
            Instr::IsTaggedTuple {
                fail,
                arg,
                arity,
                tag,
            } => {
                let to = self.target(i, *fail)?;
                let arity = i32::try_from(*arity)
                    .ok()
                    .filter(|&a| a > 0)
                    .ok_or(NoCode)?;
                let tag = Term::atom(*tag).raw() as i64;
                let first = 8 - PRIMARY_BOXED as i32;
                self.load(RAX, *arg)?;
                self.unless_tuple(RAX, to);
                dynasm!(self.ops
                    ; shr rdx, 8
                    ; cmp rdx, arity
                    ; jne =>to
                    ; mov rcx, QWORD tag
                    ; cmp [rax + first], rcx
                    ; jne =>to
                );
            }
            Instr::PutTuple2 { dst, elements } => self.put_tuple(i, *dst, elements)?,
            Instr::TestArity { fail, arg, arity } => {
                let to = self.target(i, *fail)?;
                let arity = i32::try_from(*arity).map_err(|_| NoCode)?;
                self.load(RAX, *arg)?;
                self.unless_tuple(RAX, to);
                dynasm!(self.ops
                    ; shr rdx, 8
                    ; cmp rdx, arity
                    ; jne =>to
                );
            }
            Instr::IsEqExactXC { fail, x, c } => {
                let to = self.target(i, *fail)?;
                self.load_x(RAX, *x);
                let raw = c.raw() as i64;
                dynasm!(self.ops
                    ; mov rcx, QWORD raw
                    ; cmp rax, rcx
                    ; jne =>to
                );
            }
            Instr::IsEqExact { fail, a, b } => self.compare(i, *fail, Compare::EqExact, *a, *b)?,
            Instr::IsEqExactXX { fail, a, b } => {
                self.compare(i, *fail, Compare::EqExact, x_src(*a), x_src(*b))?
            }
            Instr::IsNeExact { fail, a, b } => self.compare(i, *fail, Compare::NeExact, *a, *b)?,
            Instr::IsLt { fail, a, b } => self.compare(i, *fail, Compare::Lt, *a, *b)?,
            Instr::IsLtXX { fail, a, b } => {
                self.compare(i, *fail, Compare::Lt, x_src(*a), x_src(*b))?
            }
            Instr::IsGe { fail, a, b } => self.compare(i, *fail, Compare::Ge, *a, *b)?,
            Instr::Compare { op, fail, a, b } => self.compare(i, *fail, *op, *a, *b)?,
            Instr::SelectVal2X {
                x: arg,
                fail,
                a,
                to_a,
                b,
                to_b,
            } => self.select_small(
                i,
                x_src(u32::from(*arg)),
                &[(*a, *to_a), (*b, *to_b)],
                *fail,
            )?,
            Instr::SelectVal2 {
                arg,
                fail,
                a,
                to_a,
                b,
                to_b,
            } => self.select_small(i, *arg, &[(*a, *to_a), (*b, *to_b)], *fail)?,
            Instr::SelectVal3X {
                x: arg,
                fail,
                a,
                to_a,
                b,
                to_b,
                c,
                to_c,
            } => self.select_small(
                i,
                x_src(u32::from(*arg)),
                &[(*a, *to_a), (*b, *to_b), (*c, *to_c)],
                *fail,
            )?,
            Instr::SelectVal(sel) => self.select_val(i, sel)?,
            Instr::SelectTupleArity(sel) => self.select_arity(i, sel)?,

            // ----- small-integer arithmetic -----
            Instr::Add { a, b, dst, .. } => self.arith(i, ArithOp::Add, *a, *b, *dst)?,
            Instr::Sub { a, b, dst, .. } => self.arith(i, ArithOp::Sub, *a, *b, *dst)?,
            Instr::AddC { a, b, dst, .. } => {
                self.arith(i, ArithOp::Add, *a, Src::constant(*b), *dst)?
            }
            Instr::SubC { a, b, dst, .. } => {
                self.arith(i, ArithOp::Sub, *a, Src::constant(*b), *dst)?
            }
            Instr::AddXX { a, b, dst, .. } => self.arith(
                i,
                ArithOp::Add,
                Src::x(*a as usize),
                Src::x(*b as usize),
                Dst::x(usize::from(*dst)),
            )?,
            Instr::Arith {
                op: op @ (ArithOp::Add | ArithOp::Sub),
                a,
                b,
                dst,
                ..
            } => self.arith(i, *op, *a, *b, *dst)?,
            _ => return Err(NoCode),
        }
        Ok(())
    }

    /// `allocate`: a frame of `slots` Y registers, each `[]`, under the
    /// saved CP, when it fits the stack's capacity and `heap` words fit
    /// the heap (else the interpreter grows the one or collects the other).
    fn allocate(&mut self, i: usize, slots: u32, heap: u32) -> Gen {
        let frame = frame_bytes(slots, 1)?;
        let need = frame_bytes(heap, 0)?;
        let exit = self.exit_label(i);
        dynasm!(self.ops
            ; lea rax, [r14 + frame]
            ; cmp rax, r13
            ; ja =>exit
        );
        if heap > 0 {
            dynasm!(self.ops
                ; lea rcx, [r15 + need]
                ; cmp rcx, rbp
                ; ja =>exit
            );
        }
        dynasm!(self.ops ; mov [r14], rsi);
        for k in 1..=slots {
            let d = (k * 8) as i32;
            dynasm!(self.ops ; mov QWORD [r14 + d], NIL);
        }
        dynasm!(self.ops ; mov r14, rax);
        Ok(())
    }

    /// A tuple of `elements` built on the heap into `dst`, when its words
    /// fit (else the interpreter's, which takes them as a fragment).
    fn put_tuple(&mut self, i: usize, dst: Dst, elements: &[Src]) -> Gen {
        let arity = u32::try_from(elements.len()).map_err(|_| NoCode)?;
        let words = frame_bytes(arity, 1)?;
        let header = Header::new(Subtag::Tuple, elements.len()).0 as i64;
        let exit = self.exit_label(i);
        dynasm!(self.ops
            ; lea rax, [r15 + words]
            ; cmp rax, rbp
            ; ja =>exit
            ; mov rcx, QWORD header
            ; mov [r15], rcx
        );
        for (k, &e) in elements.iter().enumerate() {
            self.load(RCX, e)?;
            let d = ((k + 1) * 8) as i32;
            dynasm!(self.ops ; mov [r15 + d], rcx);
        }
        dynasm!(self.ops
            ; lea rcx, [r15 + PRIMARY_BOXED as i32]
            ; mov r15, rax
        );
        self.store(dst, RCX);
        Ok(())
    }

    /// A type test on `arg`, decided from its tag where that is enough:
    /// an immediate, a cons cell, a tuple; another boxed term (a bignum,
    /// a float, a binary, a fun, a map, an external pid) is the
    /// interpreter's, unless no boxed term passes the test.
    fn type_test(&mut self, i: usize, test: TypeTest, fail: Target, arg: Src) -> Gen {
        let to = self.target(i, fail)?;
        let exit = self.exit_label(i);
        let holds = self.ops.new_dynamic_label();
        let immediate = self.ops.new_dynamic_label();
        let not_list = self.ops.new_dynamic_label();
        self.load(RAX, arg)?;
        dynasm!(self.ops
            ; mov edx, eax
            ; and edx, 3
            ; cmp edx, 3
            ; je =>immediate
            ; cmp edx, PRIMARY_LIST as i32
            ; jne =>not_list
        );
        // A cons cell.
        let on_list = if matches!(test, TypeTest::List | TypeTest::NonemptyList) {
            holds
        } else {
            to
        };
        dynasm!(self.ops ; jmp =>on_list ; =>not_list);
        // A boxed term.
        match test {
            TypeTest::Tuple => {
                let header = -(PRIMARY_BOXED as i32);
                dynasm!(self.ops
                    ; cmp edx, PRIMARY_BOXED as i32
                    ; jne =>exit
                    ; cmp BYTE [rax + header], 0
                    ; jne =>to
                    ; jmp =>holds
                );
            }
            TypeTest::Atom
            | TypeTest::Nil
            | TypeTest::List
            | TypeTest::NonemptyList
            | TypeTest::Boolean => dynasm!(self.ops ; jmp =>to),
            _ => dynasm!(self.ops ; jmp =>exit),
        }
        dynasm!(self.ops ; =>immediate);
        let tag = |mask: u64, value: u64| (mask as i32, value as i32);
        let immediate_tag = match test {
            TypeTest::Integer | TypeTest::Number => Some(tag(IMMED1_MASK, IMMED1_SMALL)),
            TypeTest::Atom => Some(tag(IMMED2_MASK, IMMED2_ATOM)),
            TypeTest::Pid => Some(tag(IMMED1_MASK, IMMED1_PID)),
            TypeTest::Port => Some(tag(IMMED1_MASK, IMMED1_PORT)),
            _ => None,
        };
        match (test, immediate_tag) {
            (_, Some((mask, value))) => dynasm!(self.ops
                ; and eax, mask
                ; cmp eax, value
                ; jne =>to
            ),
            (TypeTest::Nil | TypeTest::List, _) => dynasm!(self.ops
                ; cmp rax, NIL
                ; jne =>to
            ),
            (TypeTest::Boolean, _) => {
                let (t, f) = (Term::TRUE.raw() as i64, Term::FALSE.raw() as i64);
                dynasm!(self.ops
                    ; mov rcx, QWORD t
                    ; cmp rax, rcx
                    ; je =>holds
                    ; mov rcx, QWORD f
                    ; cmp rax, rcx
                    ; jne =>to
                );
            }
            _ => dynasm!(self.ops ; jmp =>to),
        }
        dynasm!(self.ops ; =>holds);
        Ok(())
    }

    /// `test_heap`: on when `heap` words fit, else the interpreter collects.
    fn test_heap(&mut self, i: usize, heap: u32) -> Gen {
        let need = frame_bytes(heap, 0)?;
        let exit = self.exit_label(i);
        dynasm!(self.ops
            ; lea rax, [r15 + need]
            ; cmp rax, rbp
            ; ja =>exit
        );
        Ok(())
    }

    /// The checks of dropping a frame of `slots`: leaves the new stack top
    /// in rax and the saved CP in rcx, changing nothing yet. A frame that
    /// is not there, or a saved word that is not a code pointer, is the
    /// interpreter's to deal with.
    fn deallocate(&mut self, i: usize, slots: u32) -> Gen {
        let frame = frame_bytes(slots, 1)?;
        let base = off(offset_of!(State, stack_base));
        let exit = self.exit_label(i);
        dynasm!(self.ops
            ; lea rax, [r14 - frame]
            ; cmp rax, [rdi + base]
            ; jb =>exit
            ; mov rcx, [rax]
            ; test rcx, rcx
            ; jz =>exit
            ; test cl, 7
            ; jnz =>exit
        );
        Ok(())
    }

    /// `return`: to the native code of the instruction CP points at when it
    /// is in this module; through the return-trace call-out when CP is the
    /// return-trace stub (`return_stubs`); else (another module, the
    /// initial call's end) the interpreter returns.
    fn ret(&mut self, i: usize) -> Gen {
        let base = self.ip(0);
        let bytes = i32::try_from(self.code.len() << INSTR_SHIFT).map_err(|_| NoCode)?;
        let table = self.table.as_ptr() as i64;
        let exit = self.exit_label(i);
        let (again, outside) = (self.ops.new_dynamic_label(), self.ops.new_dynamic_label());
        self.returns.push((outside, again, exit));
        dynasm!(self.ops
            ; =>again
            ; mov rax, rsi
            ; mov rcx, QWORD base
            ; sub rax, rcx
            ; cmp rax, bytes
            ; jae =>outside
            ; shr rax, INSTR_SHIFT as i8
            ; mov rcx, QWORD table
            ; mov rax, [rcx + rax * 8]
            ; test rax, rax
            ; jz =>exit
            ; xor esi, esi
            ; jmp rax
        );
        Ok(())
    }

    /// A local call: CP set (or the frame dropped first), the call-trace
    /// probe while the callee is traced on local calls (where the
    /// interpreter's call runs it), one reduction, then on at the callee.
    /// The slice's last reduction is the interpreter's.
    fn call(&mut self, i: usize, target: Target, tail: Tail) -> Gen {
        let (callee, to) = self.target_index(i, target)?;
        // Found before any code is written: past the frame's drop, the
        // call can no longer be handed over.
        let function = self.functions.partition_point(|f| f.start <= callee);
        let traced = self.traced.get(function.wrapping_sub(1)).ok_or(NoCode)?;
        let exit = self.exit_label(i);
        dynasm!(self.ops
            ; cmp rbx, 1
            ; jle =>exit
        );
        match tail {
            Tail::Call => {
                let next = self.ip(i + 1);
                dynasm!(self.ops ; mov rsi, QWORD next);
            }
            Tail::Last(slots) => {
                self.deallocate(i, slots)?;
                dynasm!(self.ops ; mov rsi, rcx ; mov r14, rax);
            }
            Tail::Only => {}
        }
        if crate::trace::PROBES {
            let flag = traced.as_ptr() as i64;
            let (probe, back) = (self.ops.new_dynamic_label(), self.ops.new_dynamic_label());
            self.probes.push((probe, back, callee));
            dynasm!(self.ops
                ; mov rax, QWORD flag
                ; cmp BYTE [rax], 0
                ; jne =>probe
                ; =>back
            );
        }
        dynasm!(self.ops
            ; dec rbx
            ; jmp =>to
        );
        Ok(())
    }

    /// `+` or `-` of two small integers whose result is small; else the
    /// interpreter's arithmetic.
    fn arith(&mut self, i: usize, op: ArithOp, a: Src, b: Src, dst: Dst) -> Gen {
        let exit = self.exit_label(i);
        self.load(RAX, a)?;
        let small_constant = match b.kind() {
            SrcKind::Const(t) => match t.as_small() {
                Some(_) => i32::try_from(t.raw() as i64 & !0xf).ok(),
                None => return Err(NoCode),
            },
            _ => None,
        };
        match small_constant {
            Some(k) => {
                dynasm!(self.ops
                    ; mov edx, eax
                    ; and edx, SMALL_TAG
                    ; cmp edx, SMALL_TAG
                    ; jne =>exit
                );
                match op {
                    ArithOp::Add => dynasm!(self.ops ; add rax, k ; jo =>exit),
                    _ => dynasm!(self.ops ; sub rax, k ; jo =>exit),
                }
            }
            None => {
                self.load(RCX, b)?;
                dynasm!(self.ops
                    ; mov edx, eax
                    ; and edx, ecx
                    ; and edx, SMALL_TAG
                    ; cmp edx, SMALL_TAG
                    ; jne =>exit
                    ; and rcx, -16
                );
                match op {
                    ArithOp::Add => dynasm!(self.ops ; add rax, rcx ; jo =>exit),
                    _ => dynasm!(self.ops ; sub rax, rcx ; jo =>exit),
                }
            }
        }
        self.store(dst, RAX);
        Ok(())
    }

    /// A guard comparison of `a` and `b`: on when `op` holds, else to `fail`.
    fn compare(&mut self, i: usize, fail: Target, op: Compare, a: Src, b: Src) -> Gen {
        self.load(RAX, a)?;
        self.load(RCX, b)?;
        match op {
            Compare::Lt | Compare::Ge => self.order(i, fail, op),
            _ => self.equality(i, fail, op),
        }
    }

    /// `=:=`, `=/=`, `==`, `/=` of rax and rcx: decided when the words
    /// are equal, or when they differ and one (for `==` both) is an
    /// immediate; compound terms are the interpreter's.
    fn equality(&mut self, i: usize, fail: Target, op: Compare) -> Gen {
        let to = self.target(i, fail)?;
        let exit = self.exit_label(i);
        let holds = self.ops.new_dynamic_label();
        let differ = self.ops.new_dynamic_label();
        let equal_holds = matches!(op, Compare::EqExact | Compare::Eq);
        let exact = matches!(op, Compare::EqExact | Compare::NeExact);
        if !matches!(
            op,
            Compare::EqExact | Compare::NeExact | Compare::Eq | Compare::Ne
        ) {
            return Err(NoCode);
        }
        let (on_equal, on_differ) = if equal_holds {
            (holds, to)
        } else {
            (to, holds)
        };
        dynasm!(self.ops
            ; cmp rax, rcx
            ; je =>on_equal
            ; mov edx, eax
            ; and edx, 3
            ; mov r8d, ecx
            ; and r8d, 3
        );
        if exact {
            // Either an immediate: they differ.
            dynasm!(self.ops
                ; cmp edx, 3
                ; je =>differ
                ; cmp r8d, 3
                ; je =>differ
                ; jmp =>exit
            );
        } else {
            // Both immediates: they differ.
            dynasm!(self.ops
                ; and edx, r8d
                ; cmp edx, 3
                ; jne =>exit
            );
        }
        dynasm!(self.ops
            ; =>differ
            ; jmp =>on_differ
            ; =>holds
        );
        Ok(())
    }

    /// `<` or `>=` of rax and rcx when both are small integers (their
    /// words order as their values); else the interpreter's term order.
    fn order(&mut self, i: usize, fail: Target, op: Compare) -> Gen {
        let to = self.target(i, fail)?;
        let exit = self.exit_label(i);
        dynasm!(self.ops
            ; mov edx, eax
            ; and edx, ecx
            ; and edx, SMALL_TAG
            ; cmp edx, SMALL_TAG
            ; jne =>exit
            ; cmp rax, rcx
        );
        match op {
            Compare::Lt => dynasm!(self.ops ; jge =>to),
            Compare::Ge => dynasm!(self.ops ; jl =>to),
            _ => return Err(NoCode),
        }
        Ok(())
    }

    /// A jump on the word of `arg` among `cases` (raw words that fit 32
    /// bits, each with its target), else to `fail`.
    fn select_small(&mut self, i: usize, arg: Src, cases: &[(i32, Target)], fail: Target) -> Gen {
        let fail = self.target(i, fail)?;
        let cases = cases
            .iter()
            .map(|&(v, t)| Ok((v, self.target(i, t)?)))
            .collect::<Result<Vec<_>, NoCode>>()?;
        self.load(RAX, arg)?;
        for (v, to) in cases {
            dynasm!(self.ops ; cmp rax, v ; je =>to);
        }
        dynasm!(self.ops ; jmp =>fail);
        Ok(())
    }

    /// `select_val` over immediates: a compare chain (for tables of up to
    /// 32 values); others are the interpreter's.
    fn select_val(&mut self, i: usize, sel: &Select) -> Gen {
        if !sel.immediates || sel.cases.len() > 32 {
            return Err(NoCode);
        }
        let fail = self.target(i, sel.fail)?;
        let cases = sel
            .cases
            .iter()
            .map(|&(v, t)| Ok((v.raw() as i64, self.target(i, t)?)))
            .collect::<Result<Vec<_>, NoCode>>()?;
        self.load(RAX, sel.arg)?;
        for (v, to) in cases {
            dynasm!(self.ops
                ; mov rcx, QWORD v
                ; cmp rax, rcx
                ; je =>to
            );
        }
        dynasm!(self.ops ; jmp =>fail);
        Ok(())
    }

    /// `select_tuple_arity`: the fail label for anything but a tuple, else
    /// a compare chain on the arity.
    fn select_arity(&mut self, i: usize, sel: &Select) -> Gen {
        if sel.cases.len() > 32 {
            return Err(NoCode);
        }
        let fail = self.target(i, sel.fail)?;
        let cases = sel
            .cases
            .iter()
            .map(|&(v, t)| {
                let arity = v
                    .as_small()
                    .and_then(|a| i32::try_from(a).ok())
                    .ok_or(NoCode)?;
                Ok((arity, self.target(i, t)?))
            })
            .collect::<Result<Vec<_>, NoCode>>()?;
        self.load(RAX, sel.arg)?;
        self.unless_tuple(RAX, fail);
        dynasm!(self.ops ; shr rdx, 8);
        for (arity, to) in cases {
            dynasm!(self.ops ; cmp rdx, arity ; je =>to);
        }
        dynasm!(self.ops ; jmp =>fail);
        Ok(())
    }

    /// Element `index` (0-based) of the tuple in rax, into rax; anything
    /// but a tuple that long is the interpreter's.
    fn tuple_element(&mut self, i: usize, index: u32) -> Gen {
        let exit = self.exit_label(i);
        let at = i32::try_from(index).map_err(|_| NoCode)?;
        let d = frame_bytes(index, 1)? - PRIMARY_BOXED as i32;
        self.unless_tuple(RAX, exit);
        dynasm!(self.ops
            ; shr rdx, 8
            ; cmp rdx, at
            ; jbe =>exit
            ; mov rax, [rax + d]
        );
        Ok(())
    }
}

/// X register `n` as a source.
fn x_src(n: u32) -> Src {
    Src::x(n as usize)
}

/// The bytes of `words + extra` stack or heap words, when that is a
/// displacement an instruction can hold.
fn frame_bytes(words: u32, extra: u32) -> Result<i32, NoCode> {
    words
        .checked_add(extra)
        .and_then(|n| n.checked_mul(8))
        .and_then(|b| i32::try_from(b).ok())
        .filter(|&b| b < 1 << 24)
        .ok_or(NoCode)
}
