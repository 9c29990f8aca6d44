//! Native code for loaded modules: the fast paths of the instructions
//! straight-line Erlang spends its time in, compiled to machine code when a
//! module loads, with the interpreter as the fallback for everything else.
//!
//! The native code of an instruction does exactly what the interpreter's
//! fast path for it does, on the same process state (X registers, the
//! stack, the young heap, CP, the reductions left). Wherever the fast path
//! does not apply (an operand that is not a small integer, a heap or stack
//! that needs to grow, a call the tracer watches, a slice's last
//! reduction, an instruction it has no code for), it stops at the start
//! of that instruction, before changing anything, and hands the
//! instruction pointer back: the interpreter runs that instruction, and
//! every later one, as it always has. Native code never calls back into
//! Rust, never collects garbage and never raises; so stack traces,
//! exceptions, tracing and garbage collection see the same state the
//! interpreter would have left.
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

use std::sync::OnceLock;

use super::instr::Instr;
use super::module::FunctionInfo;
use crate::process::Process;

/// The machine state native code runs on, loaded into registers on entry
/// and written back on exit (layout fixed: the generated code reads and
/// writes these fields by offset).
#[repr(C)]
pub(crate) struct State {
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
}

impl NativeCode {
    /// The native entry of the function starting (after its `func_info`)
    /// at instruction `index`, when that function runs natively.
    pub fn entry_at(&self, index: usize) -> Option<NativeEntry> {
        let at = self.entries.binary_search_by_key(&index, |&(i, _)| i);
        at.ok().map(|at| self.entries[at].1)
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
        let (compiled, entries) = x64::compile(code, functions)?;
        Some(NativeCode {
            _code: compiled,
            entries,
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (code, functions);
        None
    }
}

/// Runs native code from `entry` with `reds` reductions left; returns the
/// instruction where the interpreter goes on and the reductions left.
pub fn enter(p: &mut Process, entry: NativeEntry, reds: i64) -> (*const Instr, i64) {
    let base = p.stack.as_mut_ptr().cast::<u64>();
    let (heap_top, heap_limit) = p.heap.young_bump_region();
    // SAFETY: len and capacity are within the stack's allocation.
    let (stack_top, stack_end) = unsafe { (base.add(p.stack.len()), base.add(p.stack.capacity())) };
    let mut state = State {
        x: p.x.as_mut_ptr().cast(),
        stack_top,
        stack_end,
        stack_base: base,
        heap_top,
        heap_limit,
        cp: p.cp.cast(),
        reds,
        ip: std::ptr::null(),
    };
    // SAFETY: the entry is the code generated for this layout of `State`;
    // it reads and writes only X registers below the loader's limit (the
    // lent register file's length), the stack below its capacity, and the
    // young heap below `heap_limit`, and stops before anything else.
    unsafe { (entry.enter)(&mut state, entry.code) };
    // SAFETY: native code keeps the stack's top between its base and its
    // capacity, every word below it written, and the heap's top within the
    // region it was given, every word below it written.
    unsafe {
        let len = state.stack_top.offset_from(base) as usize;
        p.stack.set_len(len);
        p.heap.set_young_bump_top(state.heap_top);
    }
    p.cp = state.cp.cast();
    (state.ip, state.reds)
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use beamr_core::atom::Atom;
    use beamr_core::term::Term;

    use super::*;
    use crate::loader::{Dst, Src, Target};

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

    /// `inc(X) -> X + 1.`, `wrap(X) -> [X].`, and a function with a fun
    /// call, which has no native code.
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
            Instr::IntCodeEnd,
        ];
        let functions = vec![info("inc", 0), info("wrap", 3), info("apply", 7)];
        (code, functions)
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
        let (ip, reds) = enter(&mut p, native.entry_at(1).expect("inc"), 100);
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
        let (ip, _) = enter(&mut p, native.entry_at(1).expect("inc"), 100);
        assert!(std::ptr::eq(ip, &code[1]), "hands back the addition");
        assert_eq!(p.x[0], max);
        let mut p = process(Term::atom(Atom::OK));
        let (ip, _) = enter(&mut p, native.entry_at(1).expect("inc"), 100);
        assert!(std::ptr::eq(ip, &code[1]));
    }

    #[test]
    fn a_cell_built_natively_is_on_the_process_heap() {
        let (code, functions) = module();
        let native = compile(&code, &functions).expect("native code");
        let mut p = process(Term::small_unchecked(7));
        let used = p.heap.young_used();
        let (ip, _) = enter(&mut p, native.entry_at(4).expect("wrap"), 100);
        assert!(std::ptr::eq(ip, &code[6]));
        assert_eq!(p.heap.young_used(), used + 2);
        assert_eq!(
            p.x[0].as_cons(),
            Some((Term::small_unchecked(7), Term::NIL))
        );
    }
}
