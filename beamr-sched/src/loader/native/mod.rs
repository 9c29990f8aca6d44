//! Native code for loaded modules: the fast paths of the instructions
//! straight-line Erlang spends its time in, compiled to machine code when a
//! module loads, with the interpreter as the fallback for everything else.
//!
//! The native code of an instruction does exactly what the interpreter's
//! fast path for it does, on the same process state (X registers, the
//! stack, the young heap, CP, the reductions left). Wherever the fast path
//! does not apply (an operand that is not a small integer, a heap or stack
//! that needs to grow, a slice's last reduction, an instruction it has no
//! code for), it stops at the start
//! of that instruction, before changing anything, and hands the
//! instruction pointer back: the interpreter runs that instruction, and
//! every later one, as it always has. Native code never collects garbage
//! and never raises; so stack traces, exceptions and garbage collection
//! see the same state the interpreter would have left.
//!
//! It calls back into the interpreter ([`CallOuts`], which the
//! interpreter passes in: it is a layer above) for tracing, so that traced
//! code runs natively too:
//!
//! - a local call of a function whose trace patterns fire on local calls.
//!   Each module's native code has a byte per function, set while that
//!   function has such patterns (the pattern table sets them,
//!   `NativeCode::set_local_trace`); a call site tests its callee's byte,
//!   so that calls of every other function stay native while some
//!   function is traced;
//! - a return to the return-trace stub ([`RETURN_TRACE_STUB`](super::RETURN_TRACE_STUB)), where a
//!   call traced with `return_trace`, `exception_trace`, `return_to`,
//!   `call_time` or `call_memory` returns.
//!
//! For either, native code writes its registers back to the process, runs
//! the call-out, which sees the process exactly as the interpreter would
//! at that instruction, reloads them (a probe may push a return-trace
//! frame, or run a match specification that collects), and goes on: into
//! the callee, or to the real return address. A panic in a call-out is
//! caught there and resumed once native code has exited.
//!
//! Only the functions whose every instruction has a fast path here (or
//! only raises) are compiled. The interpreter enters native code at a
//! local call of one ([`Instr::NativeCall`], which replaces such calls at
//! load time). Inside native code, calls and returns between them are
//! jumps: the return address is kept in CP and on the stack as the
//! interpreter's instruction pointer, and a return finds the native code
//! of the instruction CP points at through a table indexed by
//! instruction; a call of any other function, and a return to one, hand
//! over to the interpreter.
//!
//! Only x86-64 has a code generator (`x64`); on other targets nothing is
//! compiled and every module runs in the interpreter. `BEAMR_NATIVE=off`
//! in the environment turns native code off, for comparing the two.

#[cfg(target_arch = "x86_64")]
mod x64;

use std::any::Any;
use std::panic::resume_unwind;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::OnceLock;

use super::instr::Instr;
use super::module::FunctionInfo;
use crate::process::Process;

/// What native code calls back into the interpreter for (see the module
/// documentation). Each runs on the process with native code's state
/// written back; native code reloads the state after it.
pub trait CallOuts {
    /// A local call of the code at `callee`, a function traced on local
    /// calls, CP set for the call (or the caller's frame dropped): the
    /// interpreter's call-trace path.
    fn local_call(&mut self, p: &mut Process, callee: *const Instr);

    /// A return to [`RETURN_TRACE_STUB`](super::RETURN_TRACE_STUB): pops the innermost return-trace
    /// frame, reports as it says, and gives the real return address.
    /// `None`, changing nothing, when that frame is not there (the
    /// interpreter then returns to the stub itself, and raises).
    fn traced_return(&mut self, p: &mut Process) -> Option<*const Instr>;
}

/// The machine state native code runs on, loaded into registers on entry
/// and written back on exit (layout fixed: the generated code reads and
/// writes these fields by offset).
#[repr(C)]
pub(crate) struct State<'a> {
    /// X register 0.
    x: *mut u64,
    /// One past the stack's top word.
    stack_top: *mut u64,
    /// One past the stack's last allocated word: a frame fits below it.
    stack_end: *mut u64,
    /// The stack's first word: a frame is never popped below it.
    stack_base: *mut u64,
    /// The young heap's next free word.
    heap_top: *mut u64,
    /// The end of the young heap's words native code may take.
    heap_limit: *mut u64,
    /// The continuation pointer (the interpreter's `Process::cp`).
    cp: *const Instr,
    /// Reductions left in the slice.
    reds: i64,
    /// Out: where the interpreter goes on.
    ip: *const Instr,
    // The fields below are Rust's alone: generated code passes `State` to
    // the call-outs but never reads them.
    /// The process native code runs, for the call-outs.
    process: *mut Process,
    /// The interpreter's call-outs.
    outs: *mut (dyn CallOuts + 'a),
    /// A panic caught in a call-out, resumed once native code has exited.
    panic: Option<Box<dyn Any + Send>>,
}

impl<'a> State<'a> {
    /// The state of `p` (registers, stack, young heap, CP) for native code
    /// with `reds` reductions left, calling back into `outs`.
    fn of(p: &mut Process, reds: i64, outs: &'a mut (dyn CallOuts + 'a)) -> State<'a> {
        let mut state = State {
            x: std::ptr::null_mut(),
            stack_top: std::ptr::null_mut(),
            stack_end: std::ptr::null_mut(),
            stack_base: std::ptr::null_mut(),
            heap_top: std::ptr::null_mut(),
            heap_limit: std::ptr::null_mut(),
            cp: std::ptr::null(),
            reds,
            ip: std::ptr::null(),
            process: std::ptr::null_mut(),
            outs,
            panic: None,
        };
        state.load(p);
        // Taken last: `p` is not used again while native code runs.
        state.process = p;
        state
    }

    /// Reads `p`'s registers, stack, young heap and CP (on entry, and
    /// after a call-out that may have moved any of them).
    fn load(&mut self, p: &mut Process) {
        let base = p.stack.as_mut_ptr().cast::<u64>();
        (self.heap_top, self.heap_limit) = p.heap.young_bump_region();
        // SAFETY: len and capacity are within the stack's allocation.
        (self.stack_top, self.stack_end) =
            unsafe { (base.add(p.stack.len()), base.add(p.stack.capacity())) };
        self.stack_base = base;
        self.x = p.x.as_mut_ptr().cast();
        self.cp = p.cp.cast();
    }

    /// Writes the stack's top, the heap's top and CP back to `p`.
    ///
    /// # Safety
    ///
    /// Native code has run on the state [`State::load`] read from `p`,
    /// keeping the stack's top between its base and its capacity, every
    /// word below it written, and the heap's top within the region it was
    /// given, every word below it written.
    unsafe fn store(&self, p: &mut Process) {
        // SAFETY: as the caller promises.
        unsafe {
            let len = self.stack_top.offset_from(self.stack_base) as usize;
            p.stack.set_len(len);
            p.heap.set_young_bump_top(self.heap_top);
        }
        p.cp = self.cp.cast();
    }
}

/// The generated entry sequence: loads `State` into registers and jumps to
/// the native code of an instruction; its exit stores them back.
type EnterFn = unsafe extern "sysv64" fn(state: *mut State, code: *const u8);

/// A place the interpreter enters native code: the code of a function's
/// first instruction and the entry sequence of its module.
#[derive(Copy, Clone, Debug)]
pub struct NativeEntry {
    code: *const u8,
    enter: EnterFn,
}

// SAFETY: both pointers are into a module's native code, which is never
// freed or changed after loading; any thread may run it.
unsafe impl Send for NativeEntry {}
// SAFETY: as above.
unsafe impl Sync for NativeEntry {}

/// A module's native code, kept alive as long as the module.
pub struct NativeCode {
    #[cfg(target_arch = "x86_64")]
    _code: x64::Compiled,
    /// The functions every instruction of which has native code (or only
    /// raises): the index of each one's first instruction after its
    /// `func_info`, and its entry, sorted by index.
    entries: Vec<(usize, NativeEntry)>,
    /// Per function of the module (in `Module::functions`' order), 1 while
    /// its trace patterns fire on local calls: native call sites test
    /// their callee's byte, at an address fixed when the code was made.
    traced: Box<[AtomicU8]>,
}

impl NativeCode {
    /// The native entry of the function starting (after its `func_info`)
    /// at instruction `index`, when that function runs natively.
    pub fn entry_at(&self, index: usize) -> Option<NativeEntry> {
        let at = self.entries.binary_search_by_key(&index, |&(i, _)| i);
        at.ok().map(|at| self.entries[at].1)
    }

    /// Marks function `function` (its index in `Module::functions`) as
    /// traced on local calls or not: native calls of it run the local-call
    /// probe while it is. Out of range does nothing.
    pub fn set_local_trace(&self, function: usize, on: bool) {
        if let Some(byte) = self.traced.get(function) {
            byte.store(u8::from(on), Ordering::Relaxed);
        }
    }
}

/// True unless `BEAMR_NATIVE=off` turned native code off.
pub fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| {
        cfg!(target_arch = "x86_64") && std::env::var("BEAMR_NATIVE").map_or(true, |v| v != "off")
    })
}

/// Compiles `code` (the finished, never again moved instructions of a
/// module whose functions are `functions`) to native code; `None` where
/// there is no code generator or it is turned off.
pub fn compile(code: &[Instr], functions: &[FunctionInfo]) -> Option<NativeCode> {
    if !enabled() {
        return None;
    }
    #[cfg(target_arch = "x86_64")]
    {
        let traced: Box<[AtomicU8]> = functions.iter().map(|_| AtomicU8::new(0)).collect();
        let (compiled, entries) = x64::compile(code, functions, &traced)?;
        Some(NativeCode {
            _code: compiled,
            entries,
            traced,
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (code, functions);
        None
    }
}

/// Runs native code from `entry` with `reds` reductions left, calling
/// back into `outs` for tracing; returns the instruction where the
/// interpreter goes on and the reductions left.
pub fn enter(
    p: &mut Process,
    entry: NativeEntry,
    reds: i64,
    outs: &mut dyn CallOuts,
) -> (*const Instr, i64) {
    let mut state = State::of(p, reds, outs);
    // SAFETY: the entry is the code generated for this layout of `State`;
    // it reads and writes only X registers below the loader's limit (the
    // lent register file's length), the stack below its capacity, and the
    // young heap below `heap_limit`, and stops before anything else. Its
    // call-outs (`call_out`) write the state back before they touch the
    // process and reload it after.
    unsafe { (entry.enter)(&mut state, entry.code) };
    // SAFETY: native code keeps the stack and heap as `store` requires.
    unsafe { state.store(p) };
    if let Some(panic) = state.panic.take() {
        resume_unwind(panic);
    }
    (state.ip, state.reds)
}

/// A call-out's answer: native code goes on.
#[cfg(target_arch = "x86_64")]
const GO_ON: u64 = 0;
/// A call-out's answer: native code hands its instruction to the
/// interpreter (the interpreter is to run it, or the call-out panicked and
/// [`enter`] resumes the panic).
#[cfg(target_arch = "x86_64")]
const HAND_OVER: u64 = 1;

/// Native code's call-out at a local call of the code at `callee`, a
/// function traced on local calls ([`CallOuts::local_call`]).
#[cfg(target_arch = "x86_64")]
extern "sysv64" fn local_call_probe(state: *mut State<'_>, callee: *const Instr) -> u64 {
    call_out(state, |outs, p| {
        outs.local_call(p, callee);
        true
    })
}

/// Native code's call-out at a return to [`RETURN_TRACE_STUB`](super::RETURN_TRACE_STUB)
/// ([`CallOuts::traced_return`]): on success CP is the real return
/// address, which native code returns to next.
#[cfg(target_arch = "x86_64")]
extern "sysv64" fn traced_return_probe(state: *mut State<'_>) -> u64 {
    call_out(state, |outs, p| match outs.traced_return(p) {
        Some(back) => {
            p.cp = back.cast();
            true
        }
        None => false,
    })
}

/// Runs `f` on the process of `state`, its state written back first and
/// read again after; a panic is kept in `state` for [`enter`]. `f` says
/// whether native code goes on.
#[cfg(target_arch = "x86_64")]
fn call_out(state: *mut State<'_>, f: impl FnOnce(&mut dyn CallOuts, &mut Process) -> bool) -> u64 {
    use std::panic::{catch_unwind, AssertUnwindSafe};
    // SAFETY: generated code passes the `State` it runs on, made by
    // `enter` from a live process and call-outs that `enter` does not
    // touch while native code runs.
    let state = unsafe { &mut *state };
    // SAFETY: as above.
    let (p, outs) = unsafe { (&mut *state.process, &mut *state.outs) };
    // SAFETY: native code keeps the stack and heap as `store` requires.
    unsafe { state.store(p) };
    let run = catch_unwind(AssertUnwindSafe(|| f(outs, p)));
    state.load(p);
    match run {
        Ok(true) => GO_ON,
        Ok(false) => HAND_OVER,
        Err(panic) => {
            state.panic = Some(panic);
            HAND_OVER
        }
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use beamr_core::atom::Atom;
    use beamr_core::term::Term;

    use super::*;
    use crate::loader::{Dst, Src, Target, RETURN_TRACE_STUB};

    fn info(name: &str, start: usize) -> FunctionInfo {
        FunctionInfo {
            name: Atom::new(name).expect("an atom"),
            arity: 1,
            start,
        }
    }

    fn func_info(name: &str) -> Instr {
        Instr::FuncInfo {
            module: Atom::new("m").expect("an atom"),
            function: Atom::new(name).expect("an atom"),
            arity: 1,
        }
    }

    /// `inc(X) -> X + 1.`, `wrap(X) -> [X].`, a function with a fun
    /// call, which has no native code, and `outer(X) -> inc(X).` with a
    /// frame (as a body call).
    fn module() -> (Vec<Instr>, Vec<FunctionInfo>) {
        let code = vec![
            func_info("inc"),
            Instr::AddC {
                fail: Target::NONE,
                a: Src::x(0),
                b: Term::small_unchecked(1),
                dst: Dst::x(0),
                live: 1,
            },
            Instr::Return,
            func_info("wrap"),
            Instr::TestHeap { heap: 2, live: 1 },
            Instr::PutList {
                head: Src::x(0),
                tail: Src::constant(Term::NIL),
                dst: Dst::x(0),
            },
            Instr::Return,
            func_info("apply"),
            Instr::CallFun { arity: 0 },
            Instr::Return,
            func_info("outer"),
            Instr::Allocate {
                slots: 1,
                heap: 0,
                live: 1,
            },
            Instr::Call {
                target: Target(-11),
            },
            Instr::Deallocate { slots: 1 },
            Instr::Return,
            Instr::IntCodeEnd,
        ];
        let functions = vec![
            info("inc", 0),
            info("wrap", 3),
            info("apply", 7),
            info("outer", 10),
        ];
        (code, functions)
    }

    /// Call-outs of a run with nothing traced: none may come.
    struct NotTraced;

    impl CallOuts for NotTraced {
        fn local_call(&mut self, _: &mut Process, _: *const Instr) {
            panic!("a local call of a function not traced was probed");
        }

        fn traced_return(&mut self, _: &mut Process) -> Option<*const Instr> {
            panic!("a return to the return-trace stub with no traced call");
        }
    }

    /// Call-outs made of two closures.
    struct Outs<L, R> {
        local: L,
        ret: R,
    }

    impl<L, R> CallOuts for Outs<L, R>
    where
        L: FnMut(&mut Process, *const Instr),
        R: FnMut(&mut Process) -> Option<*const Instr>,
    {
        fn local_call(&mut self, p: &mut Process, callee: *const Instr) {
            (self.local)(p, callee)
        }

        fn traced_return(&mut self, p: &mut Process) -> Option<*const Instr> {
            (self.ret)(p)
        }
    }

    /// A probe that pushes a return-trace frame, as `return_trace` does:
    /// the real return address on the stack, CP at the stub.
    fn push_return_frame(p: &mut Process, _: *const Instr) {
        p.stack.push(Term::code_pointer(p.cp.cast()));
        p.cp = (&RETURN_TRACE_STUB as *const Instr).cast();
    }

    /// A process about to run `outer` as a body call from outside the
    /// module (its return address `caller`), with room for its frame.
    fn outer_process(caller: &[Instr; 1]) -> Process {
        let mut p = process(Term::small_unchecked(1));
        p.stack.reserve(16);
        p.cp = caller.as_ptr().cast();
        p
    }

    /// The module's native code with `inc` traced on local calls.
    fn inc_traced(code: &[Instr], functions: &[FunctionInfo]) -> NativeCode {
        let native = compile(code, functions).expect("native code");
        native.set_local_trace(0, true);
        native
    }

    fn process(x0: Term) -> Process {
        let mut p = Process::new(Term::pid(1));
        p.x = vec![Term::NIL; 16].into_boxed_slice();
        p.x[0] = x0;
        p
    }

    #[test]
    fn only_functions_of_fast_paths_get_an_entry() {
        let (code, functions) = module();
        let native = compile(&code, &functions).expect("native code");
        assert!(native.entry_at(1).is_some());
        assert!(native.entry_at(4).is_some());
        assert!(
            native.entry_at(8).is_none(),
            "a fun call has no native code"
        );
        assert!(native.entry_at(2).is_none(), "only function entries");
    }

    #[test]
    fn native_code_runs_to_a_return_with_no_caller_and_hands_it_back() {
        let (code, functions) = module();
        let native = compile(&code, &functions).expect("native code");
        let mut p = process(Term::small_unchecked(41));
        let (ip, reds) = enter(
            &mut p,
            native.entry_at(1).expect("inc"),
            100,
            &mut NotTraced,
        );
        assert_eq!(p.x[0], Term::small_unchecked(42));
        assert!(
            std::ptr::eq(ip, &code[2]),
            "stops at the return: CP is null"
        );
        assert_eq!(reds, 100);
    }

    #[test]
    fn an_overflow_leaves_the_instruction_to_the_interpreter_untouched() {
        let (code, functions) = module();
        let native = compile(&code, &functions).expect("native code");
        let max = Term::small((1 << 59) - 1).expect("the largest small");
        let mut p = process(max);
        let (ip, _) = enter(
            &mut p,
            native.entry_at(1).expect("inc"),
            100,
            &mut NotTraced,
        );
        assert!(std::ptr::eq(ip, &code[1]), "hands back the addition");
        assert_eq!(p.x[0], max);
        let mut p = process(Term::atom(Atom::OK));
        let (ip, _) = enter(
            &mut p,
            native.entry_at(1).expect("inc"),
            100,
            &mut NotTraced,
        );
        assert!(std::ptr::eq(ip, &code[1]));
    }

    #[test]
    fn a_cell_built_natively_is_on_the_process_heap() {
        let (code, functions) = module();
        let native = compile(&code, &functions).expect("native code");
        let mut p = process(Term::small_unchecked(7));
        let used = p.heap.young_used();
        let (ip, _) = enter(
            &mut p,
            native.entry_at(4).expect("wrap"),
            100,
            &mut NotTraced,
        );
        assert!(std::ptr::eq(ip, &code[6]));
        assert_eq!(p.heap.young_used(), used + 2);
        assert_eq!(
            p.x[0].as_cons(),
            Some((Term::small_unchecked(7), Term::NIL))
        );
    }

    #[test]
    fn a_traced_call_probes_the_written_back_state_and_goes_on_with_what_it_left() {
        let (code, functions) = module();
        let native = inc_traced(&code, &functions);
        // A return address outside the module: the final return hands over.
        let caller = [Instr::Return];
        let mut p = outer_process(&caller);
        let depth = p.stack.len();
        let mut probed = Vec::new();
        let mut probe = |p: &mut Process, callee: *const Instr| {
            probed.push((callee, p.cp.cast::<Instr>(), p.stack.len()));
            // Move the stack, frame and all: native code must reload it.
            let base = p.stack.as_ptr();
            p.stack.reserve(p.stack.capacity() * 64);
            assert_ne!(base, p.stack.as_ptr(), "the stack moved");
        };
        let mut outs = Outs {
            local: &mut probe,
            ret: |_: &mut Process| panic!("no return-trace frame"),
        };
        let (ip, _) = enter(&mut p, native.entry_at(11).expect("outer"), 100, &mut outs);
        assert_eq!(probed.len(), 1, "one traced call");
        let (callee, cp, at_call) = probed[0];
        assert!(
            std::ptr::eq(callee, &code[1]),
            "the callee's first instruction"
        );
        assert!(std::ptr::eq(cp, &code[13]), "CP set for the call");
        assert!(at_call > depth, "the caller's frame is on the stack");
        assert_eq!(p.x[0], Term::small_unchecked(2));
        assert!(
            std::ptr::eq(ip, &code[14]),
            "the return to the caller is handed over"
        );
        assert!(std::ptr::eq(p.cp.cast::<Instr>(), caller.as_ptr()));
        assert_eq!(
            p.stack.len(),
            depth,
            "the frame popped from the moved stack"
        );
    }

    #[test]
    fn a_panic_in_the_probe_comes_out_of_enter_with_the_state_written_back() {
        let (code, functions) = module();
        let native = inc_traced(&code, &functions);
        let caller = [Instr::Return];
        let mut p = outer_process(&caller);
        let depth = p.stack.len();
        let entry = native.entry_at(11).expect("outer");
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut outs = Outs {
                local: |_: &mut Process, _: *const Instr| panic!("the probe failed"),
                ret: |_: &mut Process| None,
            };
            enter(&mut p, entry, 100, &mut outs)
        }));
        let panic = outcome.expect_err("the probe's panic");
        assert_eq!(panic.downcast_ref::<&str>(), Some(&"the probe failed"));
        assert_eq!(
            p.stack.len(),
            depth + 2,
            "outer's frame, as the probe saw it"
        );
        assert!(std::ptr::eq(p.cp.cast::<Instr>(), &code[13]));
    }

    #[test]
    fn a_return_to_the_stub_pops_the_frame_through_the_call_out_and_returns_on() {
        let (code, functions) = module();
        let native = inc_traced(&code, &functions);
        let caller = [Instr::Return];
        let mut p = outer_process(&caller);
        let depth = p.stack.len();
        let mut returns = 0;
        let mut outs = Outs {
            local: push_return_frame,
            ret: |p: &mut Process| {
                returns += 1;
                let back = p.stack.pop()?.as_code_pointer()?;
                Some(back.cast())
            },
        };
        let (ip, _) = enter(&mut p, native.entry_at(11).expect("outer"), 100, &mut outs);
        assert_eq!(returns, 1, "inc returned to the stub once");
        assert_eq!(p.x[0], Term::small_unchecked(2));
        assert!(
            std::ptr::eq(ip, &code[14]),
            "outer's own return is handed over"
        );
        assert!(std::ptr::eq(p.cp.cast::<Instr>(), caller.as_ptr()));
        assert_eq!(p.stack.len(), depth);
    }

    #[test]
    fn a_return_the_call_out_refuses_is_handed_to_the_interpreter_untouched() {
        let (code, functions) = module();
        let native = inc_traced(&code, &functions);
        let caller = [Instr::Return];
        let mut p = outer_process(&caller);
        let depth = p.stack.len();
        let mut outs = Outs {
            local: push_return_frame,
            ret: |_: &mut Process| None,
        };
        let (ip, _) = enter(&mut p, native.entry_at(11).expect("outer"), 100, &mut outs);
        assert!(
            std::ptr::eq(ip, &code[2]),
            "inc's return, for the interpreter"
        );
        assert!(std::ptr::eq(p.cp.cast::<Instr>(), &RETURN_TRACE_STUB));
        assert_eq!(
            p.stack.len(),
            depth + 3,
            "outer's frame and the return-trace word"
        );
        assert_eq!(p.x[0], Term::small_unchecked(2));
    }
}
