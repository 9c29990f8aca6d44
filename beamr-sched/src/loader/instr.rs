//! The executable instruction set: what the loader produces from generic
//! instructions and the interpreter dispatches on.
//!
//! Operands are pre-decoded ([`Src`], [`Dst`], [`Target`]); imports are
//! resolved to export entries or native BIFs; literals point into the
//! module's literal area. Payloads of rare or variable-size instructions are
//! boxed so that every instruction stays within 32 bytes (checked by a test).

use beamr_core::atom::Atom;
use beamr_core::term::{Export, FunEntry, Term};

use super::natives::BifFn;
use super::operand::{Dst, Src, Target};

/// Arithmetic done inline on small integers by [`Instr::Arith`]: `+ - *
/// div rem band bor bxor bsl bsr`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ArithOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `div`
    Div,
    /// `rem`
    Rem,
    /// `band`
    Band,
    /// `bor`
    Bor,
    /// `bxor`
    Bxor,
    /// `bsl`
    Bsl,
    /// `bsr`
    Bsr,
}

impl ArithOp {
    /// Every operation, in declaration order (`op as usize` indexes it).
    pub const ALL: [ArithOp; 10] = [
        ArithOp::Add,
        ArithOp::Sub,
        ArithOp::Mul,
        ArithOp::Div,
        ArithOp::Rem,
        ArithOp::Band,
        ArithOp::Bor,
        ArithOp::Bxor,
        ArithOp::Bsl,
        ArithOp::Bsr,
    ];

    /// The operation for `erlang:Name/2`, if it is one of these.
    pub fn from_name(name: &str) -> Option<ArithOp> {
        Some(match name {
            "+" => ArithOp::Add,
            "-" => ArithOp::Sub,
            "*" => ArithOp::Mul,
            "div" => ArithOp::Div,
            "rem" => ArithOp::Rem,
            "band" => ArithOp::Band,
            "bor" => ArithOp::Bor,
            "bxor" => ArithOp::Bxor,
            "bsl" => ArithOp::Bsl,
            "bsr" => ArithOp::Bsr,
            _ => return None,
        })
    }

    /// The BIF's name.
    pub fn name(self) -> &'static str {
        match self {
            ArithOp::Add => "+",
            ArithOp::Sub => "-",
            ArithOp::Mul => "*",
            ArithOp::Div => "div",
            ArithOp::Rem => "rem",
            ArithOp::Band => "band",
            ArithOp::Bor => "bor",
            ArithOp::Bxor => "bxor",
            ArithOp::Bsl => "bsl",
            ArithOp::Bsr => "bsr",
        }
    }

    /// The result on two small integers, if it needs no bignum and raises nothing.
    #[inline(always)]
    pub fn small(self, a: i64, b: i64) -> Option<i64> {
        match self {
            ArithOp::Add => a.checked_add(b),
            ArithOp::Sub => a.checked_sub(b),
            ArithOp::Mul => a.checked_mul(b),
            ArithOp::Div => a.checked_div(b),
            ArithOp::Rem => a.checked_rem(b),
            ArithOp::Band => Some(a & b),
            ArithOp::Bor => Some(a | b),
            ArithOp::Bxor => Some(a ^ b),
            ArithOp::Bsl => shift_left(a, b),
            ArithOp::Bsr => shift_left(a, b.checked_neg()?),
        }
    }
}

/// `a bsl s` (a right shift for a negative `s`) when no bit of `a` is
/// shifted out of the 64-bit word; `None` otherwise (the caller then checks
/// the small-integer range, and the BIF makes the bignum).
#[inline(always)]
fn shift_left(a: i64, s: i64) -> Option<i64> {
    if s >= 0 {
        if s >= 64 {
            return (a == 0).then_some(0);
        }
        let r = a << s;
        (r >> s == a).then_some(r)
    } else if s > -64 {
        Some(a >> -s)
    } else {
        Some(if a < 0 { -1 } else { 0 })
    }
}

/// How a call continues: as a plain call, or as a tail call.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Tail {
    /// A call; the return address is the next instruction.
    Call,
    /// A tail call after dropping a frame of this many slots.
    Last(u32),
    /// A tail call without a frame.
    Only,
}

/// Type tests that take one argument and a fail label.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TypeTest {
    /// `is_integer`
    Integer,
    /// `is_float`
    Float,
    /// `is_number`
    Number,
    /// `is_atom`
    Atom,
    /// `is_pid`
    Pid,
    /// `is_reference`
    Reference,
    /// `is_port`
    Port,
    /// `is_nil`
    Nil,
    /// `is_binary`
    Binary,
    /// `is_bitstr`
    Bitstring,
    /// `is_list`
    List,
    /// `is_nonempty_list`
    NonemptyList,
    /// `is_tuple`
    Tuple,
    /// `is_function`
    Function,
    /// `is_boolean`
    Boolean,
    /// `is_map`
    Map,
}

/// Comparison tests.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Compare {
    /// `is_lt`: a < b
    Lt,
    /// `is_ge`: a >= b
    Ge,
    /// `is_eq`: a == b
    Eq,
    /// `is_ne`: a /= b
    Ne,
    /// `is_eq_exact`: a =:= b
    EqExact,
    /// `is_ne_exact`: a =/= b
    NeExact,
}

/// A call to a native BIF with operands from registers or constants.
#[derive(Debug)]
pub struct BifCall {
    /// The function.
    pub bif: BifFn,
    /// `{M, F, A}` for error reports.
    pub mfa: (Atom, Atom, u8),
    /// Where to jump when the BIF fails; NONE raises instead.
    pub fail: Target,
    /// Arguments.
    pub args: Box<[Src]>,
    /// Result register.
    pub dst: Dst,
}

/// A jump table on a value (`select_val`) or a tuple's arity
/// (`select_tuple_arity`).
#[derive(Debug)]
pub struct Select {
    /// The value examined.
    pub arg: Src,
    /// Where to go when nothing matches.
    pub fail: Target,
    /// Values (or arities as small integers) and their targets, sorted by
    /// value's raw word when all are immediates, for binary search.
    pub cases: Box<[(Term, Target)]>,
    /// True when every value is an immediate (compare raw words).
    pub immediates: bool,
}

/// A closure creation.
#[derive(Debug)]
pub struct MakeFun {
    /// The fun's interned entry.
    pub entry: &'static FunEntry,
    /// The captured values.
    pub free: Box<[Src]>,
    /// The result register.
    pub dst: Dst,
}

/// The return-trace stub: the one [`Instr::ReturnTrace`], at a fixed
/// address for the whole run. A call traced with `return_trace` (or
/// `exception_trace`, `return_to`, `call_time`...) returns here
/// (`interp::return_trace`); native code knows such a return by this
/// address.
pub static RETURN_TRACE_STUB: Instr = Instr::ReturnTrace;

/// One executable instruction.
#[derive(Debug)]
pub enum Instr {
    // ----- functions and calls -----------------------------------------
    /// Function header: reached only when no clause matched; raises `function_clause`.
    FuncInfo {
        /// Module.
        module: Atom,
        /// Function.
        function: Atom,
        /// Arity.
        arity: u8,
    },
    /// End of the module's code; never executed.
    IntCodeEnd,
    /// Local call; the return address goes to CP.
    Call {
        /// Target function entry.
        target: Target,
    },
    /// Local tail call after dropping a frame of `dealloc` slots.
    CallLast {
        /// Target function entry.
        target: Target,
        /// Frame size to drop.
        dealloc: u32,
    },
    /// Local tail call without a frame.
    CallOnly {
        /// Target function entry.
        target: Target,
    },
    /// External call through an export entry.
    CallExt {
        /// The callee.
        export: &'static Export,
    },
    /// External tail call after dropping a frame.
    CallExtLast {
        /// The callee.
        export: &'static Export,
        /// Frame size to drop.
        dealloc: u32,
    },
    /// External tail call without a frame.
    CallExtOnly {
        /// The callee.
        export: &'static Export,
    },
    /// A call to a native BIF with arguments in x0..; the result goes to x0.
    CallBif {
        /// The function.
        bif: BifFn,
        /// The callee's export entry, for errors.
        export: &'static Export,
    },
    /// `call_ext_last` to a BIF: call, drop the frame, return.
    CallBifLast {
        /// The function.
        bif: BifFn,
        /// The callee's export entry, for errors.
        export: &'static Export,
        /// Frame size to drop.
        dealloc: u32,
    },
    /// `call_ext_only` to a BIF: call, then return.
    CallBifOnly {
        /// The function.
        bif: BifFn,
        /// The callee's export entry, for errors.
        export: &'static Export,
    },
    /// A BIF call in a guard or body (`bif0..2`, `gc_bif1..3`).
    Bif(Box<BifCall>),
    /// Integer arithmetic on two operands (`gc_bif` of `+ - * div rem band
    /// bor bxor`), done inline when both are small integers and the result
    /// fits; otherwise the BIF runs (bignums, floats, errors).
    Arith {
        /// The operation.
        op: ArithOp,
        /// Where to jump when the BIF fails in a guard; NONE raises.
        fail: Target,
        /// Left operand.
        a: Src,
        /// Right operand.
        b: Src,
        /// Result register.
        dst: Dst,
        /// X registers live across it: the roots of the collection its
        /// slow path makes before a bignum result (read only there).
        live: u16,
    },
    /// `apply/3` with arity args in x0.., module and function after them.
    Apply {
        /// Number of arguments.
        arity: u32,
    },
    /// `apply_last`.
    ApplyLast {
        /// Number of arguments.
        arity: u32,
        /// Frame size to drop.
        dealloc: u32,
    },
    /// `erlang:apply/3` called directly: module, function and the argument
    /// list in x0..x2.
    ApplyList {
        /// Call, tail call after dropping a frame, or tail call.
        tail: Tail,
    },
    /// `erlang:apply/2` called directly: the fun and the argument list in x0, x1.
    ApplyFunList {
        /// Call, tail call after dropping a frame, or tail call.
        tail: Tail,
    },
    /// Calls the fun in x(arity) with args in x0...
    CallFun {
        /// Number of arguments.
        arity: u32,
    },
    /// Calls the fun `func` with args in x0.. (`call_fun2`).
    CallFun2 {
        /// The fun.
        func: Src,
        /// Number of arguments.
        arity: u32,
    },
    /// Creates a closure.
    MakeFun(Box<MakeFun>),

    // ----- stack frames and heap ----------------------------------------
    /// Pushes CP and a frame of `slots` words; ensures `heap` free words.
    Allocate {
        /// Frame slots.
        slots: u32,
        /// Heap words needed.
        heap: u32,
        /// Live X registers (GC roots).
        live: u32,
    },
    /// Ensures `heap` free heap words, collecting with `live` X registers as roots.
    TestHeap {
        /// Heap words needed.
        heap: u32,
        /// Live X registers.
        live: u32,
    },
    /// Pops a frame of `slots` words and restores CP.
    Deallocate {
        /// Frame slots.
        slots: u32,
    },
    /// Returns to CP.
    Return,
    /// Never loaded from a module: the one instruction of the return-trace
    /// stub ([`RETURN_TRACE_STUB`], `interp::return_trace`). A function called with a
    /// `return_trace` pattern returns here; it pops the frame the call
    /// pushed (the real return address on the stack, the function in the
    /// process's `return_traces`), fires `return_from` and returns on.
    ReturnTrace,
    /// Drops the `n` innermost slots of the frame, keeping `remaining`.
    Trim {
        /// Slots dropped.
        n: u32,
    },
    /// Sets Y registers to `[]`.
    InitYregs(Box<[u32]>),

    // ----- tests and jumps -------------------------------------------------
    /// Jumps to `fail` unless the comparison holds.
    Compare {
        /// Which comparison.
        op: Compare,
        /// Where to go when it does not hold.
        fail: Target,
        /// Left operand.
        a: Src,
        /// Right operand.
        b: Src,
    },
    /// Jumps to `fail` unless `arg` has the type.
    TypeTest {
        /// Which test.
        test: TypeTest,
        /// Where to go when it fails.
        fail: Target,
        /// The value tested.
        arg: Src,
    },
    /// Jumps to `fail` unless `arg` is a fun of the given arity.
    IsFunction2 {
        /// Where to go when it fails.
        fail: Target,
        /// The value tested.
        arg: Src,
        /// The arity.
        arity: Src,
    },
    /// Jumps to `fail` unless `arg` is a tuple of `arity` elements.
    TestArity {
        /// Where to go when it fails.
        fail: Target,
        /// The value tested.
        arg: Src,
        /// The arity.
        arity: u32,
    },
    /// Jumps to `fail` unless `arg` is a tuple of `arity` whose first element is `tag`.
    IsTaggedTuple {
        /// Where to go when it fails.
        fail: Target,
        /// The value tested.
        arg: Src,
        /// The arity.
        arity: u32,
        /// The first element.
        tag: Atom,
    },
    /// Jump table on a value.
    SelectVal(Box<Select>),
    /// Jump table on a tuple's arity.
    SelectTupleArity(Box<Select>),
    /// Unconditional jump.
    Jump {
        /// Where.
        target: Target,
    },

    // ----- data ------------------------------------------------------------
    /// `dst = src`.
    Move {
        /// Source.
        src: Src,
        /// Destination.
        dst: Dst,
    },
    /// Splits a cons cell.
    GetList {
        /// The list.
        src: Src,
        /// Head destination.
        head: Dst,
        /// Tail destination.
        tail: Dst,
    },
    /// The head of a cons cell.
    GetHd {
        /// The list.
        src: Src,
        /// Destination.
        dst: Dst,
    },
    /// The tail of a cons cell.
    GetTl {
        /// The list.
        src: Src,
        /// Destination.
        dst: Dst,
    },
    /// The element at 0-based `index` of a tuple.
    GetTupleElement {
        /// The tuple.
        src: Src,
        /// 0-based index.
        index: u32,
        /// Destination.
        dst: Dst,
    },
    /// A term comparison whose value is wanted as a boolean (`bif` of
    /// `erlang:'<'/2` and its kin, as a fun body or a `case` argument
    /// computes it, rather than the test a guard makes): `true` in `dst`
    /// when `op` holds of `a` and `b`, else `false`. `>` and `=<` are `<`
    /// and `>=` with the operands swapped; a comparison never fails.
    CompareBool {
        /// Which comparison.
        op: Compare,
        /// Left operand.
        a: Src,
        /// Right operand.
        b: Src,
        /// Result register.
        dst: Dst,
    },
    /// `erlang:element/2` with a constant index (a `bif2` with a literal
    /// first argument, how erlc compiles `element(N, T)` and how Gleam
    /// reads a record's field): the element at 0-based `index` of `tuple`,
    /// else a jump to `fail` or, without one, `badarg` from element/2.
    Element {
        /// The tuple (any term: it is checked).
        tuple: Src,
        /// 0-based index (the literal minus one).
        index: u32,
        /// Destination.
        dst: Dst,
        /// Where to jump when it is not a tuple that long; NONE raises.
        fail: Target,
    },
    /// Destructively sets element `index` of a tuple just built.
    SetTupleElement {
        /// The new element.
        value: Src,
        /// The tuple.
        tuple: Src,
        /// 0-based index.
        index: u32,
    },
    /// Builds `[head | tail]`.
    PutList {
        /// Head.
        head: Src,
        /// Tail.
        tail: Src,
        /// Destination.
        dst: Dst,
    },
    /// Builds a tuple.
    PutTuple2 {
        /// Destination.
        dst: Dst,
        /// Elements.
        elements: Box<[Src]>,
    },
    /// Exchanges two registers.
    Swap {
        /// One register.
        a: Dst,
        /// The other.
        b: Dst,
    },

    // ----- errors and exceptions ---------------------------------------------
    /// Raises `{badmatch, arg}`.
    Badmatch {
        /// The value that did not match.
        arg: Src,
    },
    /// Raises `if_clause`.
    IfEnd,
    /// Raises `{case_clause, arg}`.
    CaseEnd {
        /// The value.
        arg: Src,
    },
    /// Raises `{try_clause, arg}`.
    TryCaseEnd {
        /// The value.
        arg: Src,
    },
    /// Raises `{badrecord, arg}`.
    Badrecord {
        /// The value.
        arg: Src,
    },
    /// Installs a catch (`catch` or `try`) in Y register `y` with its handler.
    Catch {
        /// The Y register holding the catch.
        y: u32,
        /// The handler.
        handler: Target,
    },
    /// Leaves a `catch`: x0 becomes the caught value's `catch` form.
    CatchEnd {
        /// The Y register holding the catch.
        y: u32,
        /// Y slots of the frame this runs in, as the loader's frame check
        /// found them (`loader::frames`): an exception caught here must
        /// leave at least that many words on the stack.
        frame: u32,
    },
    /// Leaves a `try` normally.
    TryEnd {
        /// The Y register holding the catch.
        y: u32,
    },
    /// Enters a `try`'s handler: x0..x2 become class, reason, stacktrace.
    TryCase {
        /// The Y register holding the catch.
        y: u32,
        /// Y slots of the frame this runs in (as in `CatchEnd`).
        frame: u32,
    },
    /// `erlang:raise/3`-like re-raise of a caught exception (old form).
    Raise {
        /// The stacktrace.
        trace: Src,
        /// The reason.
        value: Src,
    },
    /// x0 = the stacktrace of the exception in x0 (as a list).
    BuildStacktrace,
    /// Raises x0:x1 with stacktrace x2 (class, reason, trace).
    RawRaise,

    // ----- floats ----------------------------------------------------------
    /// Loads a float term into a float register.
    FLoad {
        /// The float term.
        src: Src,
        /// Float register.
        fr: u32,
    },
    /// Boxes a float register into a term register.
    FStore {
        /// Float register.
        fr: u32,
        /// Destination.
        dst: Dst,
    },
    /// Copies one float register to another.
    FMove {
        /// Source float register.
        from: u32,
        /// Destination float register.
        to: u32,
    },
    /// Converts a number to a float register (`badarith` for a non-number).
    FConv {
        /// The number.
        src: Src,
        /// Float register.
        fr: u32,
    },
    /// A binary construction or matching instruction (see [`bs`](super::bs)).
    Bs(Box<super::bs::BsInstr>),
    /// A map instruction (see [`maps`](super::maps)).
    Map(Box<super::maps::MapInstr>),
    /// A message-passing instruction (see [`recv`](super::recv)).
    Recv(super::recv::RecvInstr),
    /// A record instruction (see [`record`](super::record)).
    Record(Box<super::record::RecordInstr>),

    // ----- specialised forms (made by `specialise`, never by lowering) -----
    /// `move` from X register `from` to X register `to`.
    MoveXX {
        /// Source X register.
        from: u32,
        /// Destination X register.
        to: u32,
    },
    /// `move` from X register `from` to Y register `to`.
    MoveXY {
        /// Source X register.
        from: u32,
        /// Destination Y register.
        to: u32,
    },
    /// `move` from Y register `from` to X register `to`.
    MoveYX {
        /// Source Y register.
        from: u32,
        /// Destination X register.
        to: u32,
    },
    /// `move` of a constant to X register `to`.
    MoveCX {
        /// The constant (a [`Src`] that is not a register).
        value: Src,
        /// Destination X register.
        to: u32,
    },
    /// `get_tuple_element` from a tuple in X register `from` to X register
    /// `to`.
    GetTupleElementXX {
        /// The tuple's X register.
        from: u32,
        /// 0-based index.
        index: u32,
        /// Destination X register.
        to: u32,
    },
    /// `is_nonempty_list`.
    IsNonemptyList {
        /// Where to go when it fails.
        fail: Target,
        /// The value tested.
        arg: Src,
    },
    /// `is_nil`.
    IsNil {
        /// Where to go when it fails.
        fail: Target,
        /// The value tested.
        arg: Src,
    },
    /// `is_nonempty_list` of X register `x`.
    IsNonemptyListX {
        /// Where to go when it fails.
        fail: Target,
        /// The X register tested.
        x: u32,
    },
    /// `is_nil` of X register `x`.
    IsNilX {
        /// Where to go when it fails.
        fail: Target,
        /// The X register tested.
        x: u32,
    },
    /// `is_tuple`.
    IsTuple {
        /// Where to go when it fails.
        fail: Target,
        /// The value tested.
        arg: Src,
    },
    /// `is_eq_exact`.
    IsEqExact {
        /// Where to go when it does not hold.
        fail: Target,
        /// Left operand.
        a: Src,
        /// Right operand.
        b: Src,
    },
    /// `is_eq_exact` of two X registers.
    IsEqExactXX {
        /// Where to go when it does not hold.
        fail: Target,
        /// Left operand's X register.
        a: u32,
        /// Right operand's X register.
        b: u32,
    },
    /// `is_lt` of two X registers.
    IsLtXX {
        /// Where to go when it does not hold.
        fail: Target,
        /// Left operand's X register.
        a: u32,
        /// Right operand's X register.
        b: u32,
    },
    /// `is_ne_exact`.
    IsNeExact {
        /// Where to go when it does not hold.
        fail: Target,
        /// Left operand.
        a: Src,
        /// Right operand.
        b: Src,
    },
    /// `is_lt`.
    IsLt {
        /// Where to go when it does not hold.
        fail: Target,
        /// Left operand.
        a: Src,
        /// Right operand.
        b: Src,
    },
    /// `is_ge`.
    IsGe {
        /// Where to go when it does not hold.
        fail: Target,
        /// Left operand.
        a: Src,
        /// Right operand.
        b: Src,
    },
    /// [`Instr::Arith`] of `+`.
    Add {
        /// Where to jump when the BIF fails in a guard; NONE raises.
        fail: Target,
        /// Left operand.
        a: Src,
        /// Right operand.
        b: Src,
        /// Result register.
        dst: Dst,
        /// X registers live across it: the roots of the collection its
        /// slow path makes before a bignum result (read only there).
        live: u16,
    },
    /// [`Instr::Arith`] of `-`.
    Sub {
        /// Where to jump when the BIF fails in a guard; NONE raises.
        fail: Target,
        /// Left operand.
        a: Src,
        /// Right operand.
        b: Src,
        /// Result register.
        dst: Dst,
        /// X registers live across it: the roots of the collection its
        /// slow path makes before a bignum result (read only there).
        live: u16,
    },
    /// [`Instr::Add`] of a small-integer constant `b` (`N + 1`): one
    /// operand to decode, the constant's tag test folded into the other's.
    AddC {
        /// Where to jump when the BIF fails in a guard; NONE raises.
        fail: Target,
        /// Left operand.
        a: Src,
        /// Right operand: a small integer.
        b: Term,
        /// Result register.
        dst: Dst,
        /// X registers live across it: the roots of the collection its
        /// slow path makes before a bignum result (read only there).
        live: u16,
    },
    /// [`Instr::Sub`] of a small-integer constant `b` (`N - 1`), as
    /// [`Instr::AddC`].
    SubC {
        /// Where to jump when the BIF fails in a guard; NONE raises.
        fail: Target,
        /// Left operand.
        a: Src,
        /// Right operand: a small integer.
        b: Term,
        /// Result register.
        dst: Dst,
        /// X registers live across it: the roots of the collection its
        /// slow path makes before a bignum result (read only there).
        live: u16,
    },
    /// [`Instr::SelectVal2`] of X register `x`.
    SelectVal2X {
        /// The X register examined.
        x: u16,
        /// Where to go when neither matches.
        fail: Target,
        /// The first value's word.
        a: i32,
        /// Where to go on the first value.
        to_a: Target,
        /// The second value's word (the first again for a one-value table).
        b: i32,
        /// Where to go on the second value.
        to_b: Target,
    },
    /// [`Instr::SelectVal`] on at most two immediate values whose words
    /// fit in 32 bits (booleans, small integers, most atoms): compared in
    /// place, without the boxed table.
    SelectVal2 {
        /// The value examined.
        arg: Src,
        /// Where to go when neither matches.
        fail: Target,
        /// The first value's word.
        a: i32,
        /// Where to go on the first value.
        to_a: Target,
        /// The second value's word (the first again for a one-value table).
        b: i32,
        /// Where to go on the second value.
        to_b: Target,
    },
    /// [`Instr::SelectVal`] of X register `x` on exactly three immediate
    /// values whose words fit in 32 bits (an `order` result: `lt`, `eq`,
    /// `gt`): compared in place, without the boxed table.
    SelectVal3X {
        /// The X register examined.
        x: u16,
        /// Where to go when none matches.
        fail: Target,
        /// The first value's word.
        a: i32,
        /// Where to go on the first value.
        to_a: Target,
        /// The second value's word.
        b: i32,
        /// Where to go on the second value.
        to_b: Target,
        /// The third value's word.
        c: i32,
        /// Where to go on the third value.
        to_c: Target,
    },
    /// `is_nonempty_list` fused with the `get_list` of the same value that
    /// follows it (which stays in place after it).
    IsNonemptyGetList {
        /// Where to go when the value is not a cons cell.
        fail: Target,
        /// The list.
        src: Src,
        /// Head destination.
        head: Dst,
        /// Tail destination.
        tail: Dst,
    },
    /// [`Instr::IsNonemptyGetList`] of a list in X register `x`.
    IsNonemptyGetListX {
        /// Where to go when the value is not a cons cell.
        fail: Target,
        /// The list's X register.
        x: u32,
        /// Head destination.
        head: Dst,
        /// Tail destination.
        tail: Dst,
    },
    /// [`BsInstr::StartMatch`](super::bs::BsInstr::StartMatch), out of its
    /// box: the head of every matching loop.
    BsStartMatch {
        /// Where to go when `src` is not a bitstring; NONE raises `badarg`.
        fail: Target,
        /// Live X registers.
        live: u32,
        /// The binary or context.
        src: Src,
        /// The context register.
        dst: Dst,
    },
    /// [`Instr::BsStartMatch`] fused with the `bs_get_position` of its
    /// context that follows it (which stays in place after it): the head
    /// of an OTP 25 matching loop.
    BsStartMatchGetPosition {
        /// Where to go when `src` is not a bitstring; NONE raises `badarg`.
        fail: Target,
        /// Live X registers.
        live: u32,
        /// The binary or context.
        src: Src,
        /// The context register.
        ctx: Dst,
        /// Where the position goes.
        pos: Dst,
    },
    /// [`BsInstr::GetPosition`](super::bs::BsInstr::GetPosition), out of
    /// its box.
    BsGetPosition {
        /// The context.
        ctx: Src,
        /// Destination.
        dst: Dst,
    },
    /// `bs_get_integer2` of a constant size of at most 64 bits (the BEAM's
    /// `i_bs_get_integer_8`/`_16`/`_32` and `i_bs_get_integer_imm`).
    BsGetInt {
        /// Where to go when it does not match.
        fail: Target,
        /// The context.
        ctx: Src,
        /// Destination.
        dst: Dst,
        /// Size in bits, at most 64.
        bits: u8,
        /// [`LITTLE`](super::bs::LITTLE), [`SIGNED`](super::bs::SIGNED).
        flags: u8,
    },
    /// [`BsInstr::TestUnit`](super::bs::BsInstr::TestUnit), out of its box.
    BsTestUnit {
        /// Where to go otherwise.
        fail: Target,
        /// The context.
        ctx: Src,
        /// The unit (at least 1).
        unit: u32,
    },
    /// A `bs_create_bin` with an [`AppendInts`](super::bs::AppendInts)
    /// form, tried before the generic construction.
    BsAppendInts(Box<super::bs::CreateBin>),
    /// The head of a matching loop fused into one instruction: start,
    /// position, integers and unit test (see
    /// [`MatchInts`](super::bs::MatchInts)); the instructions it stands
    /// for stay in place after it.
    BsMatchInts(Box<super::bs::MatchInts>),
    /// `is_eq_exact` of X register `x` and an immediate constant (a
    /// counter's `N =:= 0`): equal exactly when the words are.
    IsEqExactXC {
        /// Where to go when it does not hold.
        fail: Target,
        /// The X register compared.
        x: u32,
        /// The constant: an immediate.
        c: Term,
    },
    /// [`Instr::Arith`] of `rem` by a small-integer constant other than 0
    /// (`N rem 256`): by a mask for a power of two, which a division
    /// would take tens of cycles for.
    RemC {
        /// Where to jump when the BIF fails in a guard; NONE raises.
        fail: Target,
        /// Left operand.
        a: Src,
        /// Right operand: a small integer, not 0.
        b: Term,
        /// Result register.
        dst: Dst,
        /// Live X registers, the roots of a collection in the slow path.
        live: u16,
    },
    /// [`Instr::Add`] of two X registers into an X register (an
    /// accumulator's `Acc + X`).
    AddXX {
        /// Where to jump when the BIF fails in a guard; NONE raises.
        fail: Target,
        /// Left operand's X register.
        a: u32,
        /// Right operand's X register.
        b: u32,
        /// Result X register.
        dst: u16,
        /// Live X registers, the roots of a collection in the slow path.
        live: u16,
    },
    /// `test_heap` fused with the `put_list` that follows it (which stays
    /// in place after it).
    TestHeapPutList {
        /// Heap words needed.
        need: u16,
        /// Live X registers.
        live: u16,
        /// Head.
        head: Src,
        /// Tail.
        tail: Src,
        /// Destination.
        dst: Dst,
    },
    /// `test_heap`, `put_list` into x0, `deallocate` and `return` (which
    /// stay in place after it): a body-recursive function that builds a
    /// list (`[F(H) | map(T)]`) returning the cell it made.
    TestHeapPutListReturn {
        /// Heap words needed.
        need: u16,
        /// Live X registers.
        live: u16,
        /// Head.
        head: Src,
        /// Tail.
        tail: Src,
        /// Y slots of the frame dropped.
        slots: u32,
    },
    /// `move` X to Y fused with a `move` X to X that follows it (which
    /// stays in place after it): saving an argument and placing the next.
    MoveXYThenXX {
        /// Source X register of the first move.
        from_x: u32,
        /// Destination Y register of the first move.
        to_y: u32,
        /// Source X register of the second move.
        from: u32,
        /// Destination X register of the second move.
        to: u32,
    },
    /// Two `move`s X to X, the second following the first (and staying in
    /// place after it): argument shuffles before a call.
    MoveXX2 {
        /// Source of the first move.
        from_a: u32,
        /// Destination of the first move.
        to_a: u32,
        /// Source of the second move.
        from_b: u32,
        /// Destination of the second move.
        to_b: u32,
    },
    /// Two `move`s X to Y (as [`Instr::MoveXX2`]): saving values across
    /// a call.
    MoveXY2 {
        /// Source X register of the first move.
        from_a: u32,
        /// Destination Y register of the first move.
        to_a: u32,
        /// Source X register of the second move.
        from_b: u32,
        /// Destination Y register of the second move.
        to_b: u32,
    },
    /// Two `move`s Y to X (as [`Instr::MoveXX2`]): restoring values after
    /// a call.
    MoveYX2 {
        /// Source Y register of the first move.
        from_a: u32,
        /// Destination X register of the first move.
        to_a: u32,
        /// Source Y register of the second move.
        from_b: u32,
        /// Destination X register of the second move.
        to_b: u32,
    },
    /// A local call (as [`Instr::Call`], [`Instr::CallLast`] or
    /// [`Instr::CallOnly`]) of a function that runs as native code
    /// (`loader::native`): the interpreter enters it there.
    NativeCall {
        /// Target function entry.
        target: Target,
        /// Call, tail call after dropping a frame, or tail call.
        tail: Tail,
        /// The callee's native code.
        entry: super::native::NativeEntry,
    },
    /// `deallocate` fused with the `return` that follows it (which stays
    /// in place after it, for jumps that land there).
    DeallocateReturn {
        /// Frame slots.
        slots: u32,
    },

    /// Float arithmetic; `badarith` when the result is not finite.
    FArith {
        /// Which operation.
        op: FloatOp,
        /// Left operand register.
        a: u32,
        /// Right operand register (ignored for negation).
        b: u32,
        /// Result register.
        dst: u32,
    },
}

/// Float register operations.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FloatOp {
    /// `fadd`
    Add,
    /// `fsub`
    Sub,
    /// `fmul`
    Mul,
    /// `fdiv`
    Div,
    /// `fnegate`
    Negate,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_on_small_integers_match_erlang() {
        let bsl = |a, b| ArithOp::Bsl.small(a, b);
        let bsr = |a, b| ArithOp::Bsr.small(a, b);
        assert_eq!(bsl(1, 10), Some(1024));
        assert_eq!(bsl(-3, 2), Some(-12));
        assert_eq!(bsl(1024, -3), Some(128));
        assert_eq!(bsl(-1, -200), Some(-1));
        assert_eq!(bsl(5, -64), Some(0));
        assert_eq!(bsl(0, 1000), Some(0));
        // A bit shifted out: the BIF's bignum.
        assert_eq!(bsl(3, 62), None);
        assert_eq!(bsl(1, 64), None);
        assert_eq!(bsl(-1, 63), Some(i64::MIN));
        assert_eq!(bsr(1024, 3), Some(128));
        assert_eq!(bsr(-1024, 3), Some(-128));
        assert_eq!(bsr(-5, 1), Some(-3));
        assert_eq!(bsr(7, 100), Some(0));
        assert_eq!(bsr(-7, 100), Some(-1));
        assert_eq!(bsr(3, -4), Some(48));
        // Results past the small range are left to the caller's check.
        assert!(bsl(1, 62).and_then(Term::small).is_none());
    }

    #[test]
    fn instructions_are_at_most_32_bytes() {
        assert!(
            std::mem::size_of::<Instr>() <= 32,
            "{}",
            std::mem::size_of::<Instr>()
        );
    }
}
