//! From a `.beam` file to execution: the bytes are loaded as a module and,
//! if the loader accepts them, each exported function of arity 3 or less
//! is called (with an integer, an atom, a list and a tuple for arguments)
//! under a budget of reductions. Whatever the bytes, the runtime must not
//! panic or abort: the loader refuses them with an error, or each call
//! returns, raises, waits for a message or runs out of its budget. The
//! module is deleted and purged after each input, so that inputs do not
//! see each other's code.
//!
//! No OTP library is on the code path: a call into another module raises
//! `undef`, which keeps each input's run to its own code and the BIFs.

#![no_main]

use std::sync::LazyLock;

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use beamr_sched::code::{CodePath, CodeServer};
use beamr_sched::interp::{self, Outcome};
use beamr_sched::process::{Process, RegisterFile};
use beamr_sched::runtime::Runtime;
use libfuzzer_sys::fuzz_target;

/// Time slices a call may take before it counts as running out of budget.
const SLICES: usize = 20;

/// Reductions in a slice.
const REDUCTIONS: u32 = 2000;

/// The functions called: those of at most this arity.
const MAX_ARITY: u32 = 3;

static RUNTIME: LazyLock<Runtime> = LazyLock::new(|| Runtime::new(CodePath::new()));

fuzz_target!(|data: &[u8]| {
    let rt = &*RUNTIME;
    let code = CodeServer::global();
    let Ok(name) = code.load_binary(data) else {
        return;
    };
    if let Some(module) = code.current(name) {
        for &(_, arity, index) in module.exports.iter().filter(|e| e.1 <= MAX_ARITY) {
            let Some(entry) = module.code.get(index) else {
                continue;
            };
            let mut p = Process::new(rt.processes.new_pid());
            let args = arguments(&mut p, arity);
            p.prepare_call(entry as *const _, &args);
            let mut registers = RegisterFile::new();
            for _ in 0..SLICES {
                match interp::run(rt, &mut p, &mut registers, REDUCTIONS) {
                    Outcome::Yielded => continue,
                    Outcome::Returned | Outcome::Waiting | Outcome::Crashed { .. } => break,
                }
            }
        }
    }
    code.delete(name);
    code.purge(name);
});

/// `arity` arguments, in turn an integer, an atom, a list and a tuple.
fn arguments(p: &mut Process, arity: u32) -> Vec<Term> {
    (0..arity)
        .map(|i| match i % 4 {
            0 => Term::small_unchecked(42),
            1 => Term::atom(Atom::new("fuzz").unwrap_or(Atom::TRUE)),
            2 => {
                let items = [Term::small_unchecked(1), Term::small_unchecked(2)];
                p.heap.list(&items)
            }
            _ => {
                let items = [Term::small_unchecked(3), Term::NIL];
                p.heap.tuple(&items)
            }
        })
        .collect()
}
