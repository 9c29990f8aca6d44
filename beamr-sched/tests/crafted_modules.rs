//! Crafted `.beam` files: a module erlc compiled, its Code chunk mutated
//! as a fuzzer would (an opcode turned into another of the same arity, a
//! register or index operand changed), fails to load with an error naming
//! the function and instruction, or runs into a runtime error: never a
//! panic of the runtime. Each case is one of the panic sites a mutation
//! campaign found (issue 34): `get_tuple_element` on a non-tuple and past
//! a tuple's arity (both its forms), `get_hd` and `get_list` on a
//! non-cons, a `move` from an X register never written, and a `gc_bif`
//! whose import takes more arguments than it passes.
//!
//! Exports are global to the test process: each mutant is a module of its
//! own name, so that no case, run in parallel, calls another's code.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use beamr_core::atom::Atom;
use beamr_core::beam::{BeamFile, Opcode, Operand};
use beamr_core::term::Term;
use beamr_sched::code::{otp_lib_dirs, CodePath};
use beamr_sched::interp::Outcome;
use beamr_sched::loader;
use beamr_sched::process::Process;
use beamr_sched::runtime::Runtime;

const SOURCE: &str = "\
-module(crafted).
-export([second/2, head/2, cons/2, ret/2, arith/2]).
second(A, {_, B}) -> {A, B}.
head(A, [H | _]) -> {A, H}.
cons(A, B) -> [A | B].
ret(_A, B) -> B.
arith(A, B) -> {-A, A + B}.
";

/// A fresh directory for this test's files.
fn scratch(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("beamr-crafted-{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `SOURCE` as module `name`, as erlc compiles it.
fn compiled(name: &str) -> Vec<u8> {
    let dir = scratch("src");
    let src = dir.join(format!("{name}.erl"));
    std::fs::write(&src, SOURCE.replace("crafted", name)).unwrap();
    let out = Command::new("erlc")
        .arg("-o")
        .arg(&dir)
        .arg(&src)
        .output()
        .expect("erlc runs");
    assert!(
        out.status.success(),
        "erlc failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(dir.join(format!("{name}.beam"))).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    bytes
}

/// The file offset of the first `opcode` instruction of `function`.
fn offset_of(bytes: &[u8], function: &str, opcode: Opcode) -> usize {
    let file = BeamFile::parse(bytes).expect("erlc's file parses");
    let names = file.atoms.names();
    let mut inside = false;
    for ins in &file.instructions {
        if ins.opcode == Opcode::FuncInfo {
            inside = matches!(ins.args.get(1), Some(Operand::Atom(a)) if names[*a as usize - 1] == function);
        } else if inside && ins.opcode == opcode {
            return ins.offset;
        }
    }
    panic!("no {} in {function}", opcode.name())
}

/// Module `name` with the byte `at` past the first `opcode` of
/// `function` changed from `from` to `to`.
fn mutated(name: &str, function: &str, opcode: Opcode, at: usize, from: u8, to: u8) -> Vec<u8> {
    let mut bytes = compiled(name);
    let offset = offset_of(&bytes, function, opcode) + at;
    assert_eq!(
        bytes[offset],
        from,
        "erlc encoded {function}'s {} differently",
        opcode.name()
    );
    bytes[offset] = to;
    bytes
}

/// What loading `bytes` (module `name`) and calling `name:function(args)` ends in: the
/// load error's text, or the outcome of the call.
enum Ends {
    LoadError(String),
    Ran(Outcome),
}

fn run(bytes: &[u8], name: &str, function: &str, args: impl Fn(&mut Process) -> Vec<Term>) -> Ends {
    let file = BeamFile::parse(bytes).expect("the mutant still parses");
    if let Err(e) = loader::load(&file, &beamr_sched::bif::natives()) {
        return Ends::LoadError(e.to_string());
    }
    let dir = scratch(name);
    std::fs::write(dir.join(format!("{name}.beam")), bytes).unwrap();
    let rt = Runtime::new(code_path(&dir));
    let mut p = Process::new(Term::pid(1));
    let args = args(&mut p);
    let outcome = rt
        .call_in(
            &mut p,
            Atom::new(name).unwrap(),
            Atom::new(function).unwrap(),
            &args,
        )
        .expect("the module loads");
    let _ = std::fs::remove_dir_all(&dir);
    Ends::Ran(outcome)
}

fn code_path(dir: &Path) -> CodePath {
    let mut path = CodePath::new();
    path.push(dir);
    for d in otp_lib_dirs() {
        path.push(d);
    }
    path
}

/// Asserts that the run ended in a `badarg` error.
fn assert_badarg(ends: Ends, what: &str) {
    match ends {
        Ends::Ran(Outcome::Crashed { exception, .. }) => {
            assert_eq!(
                exception.reason,
                Term::atom(Atom::new("badarg").unwrap()),
                "{what}"
            );
        }
        Ends::Ran(Outcome::Returned) => panic!("{what}: returned, not an error"),
        Ends::Ran(other) => panic!("{what}: ran to {other:?}, not an error"),
        Ends::LoadError(e) => panic!("{what}: the loader refused it ({e}), not the run"),
    }
}

fn ints(values: &'static [i64]) -> impl Fn(&mut Process) -> Vec<Term> {
    move |p| values.iter().map(|&v| p.heap.int(v)).collect()
}

fn pair_arg(p: &mut Process) -> Vec<Term> {
    let (a, b) = (Term::small_unchecked(1), Term::small_unchecked(2));
    vec![Term::small_unchecked(0), p.heap.tuple(&[a, b])]
}

#[test]
fn get_tuple_element_on_a_non_tuple_raises() {
    // get_tuple_element {x,1} 1 {x,1}: its source becomes x0 (an integer),
    // the X-to-X form; then the atom 'crafted' (a constant source, the
    // general form).
    for (name, to, what) in [
        ("crafted_gte_x", 0x03, "x0"),
        ("crafted_gte_a", 0x12, "an atom"),
    ] {
        let bytes = mutated(name, "second", Opcode::GetTupleElement, 1, 0x13, to);
        assert_badarg(run(&bytes, name, "second", pair_arg), what);
    }
}

#[test]
fn get_tuple_element_past_the_arity_raises() {
    // Index 1 becomes 5, past the pair's arity of 2.
    let bytes = mutated(
        "crafted_gte_i",
        "second",
        Opcode::GetTupleElement,
        2,
        0x10,
        0x50,
    );
    assert_badarg(run(&bytes, "crafted_gte_i", "second", pair_arg), "index 5");
}

#[test]
fn get_hd_on_a_non_cons_raises() {
    // get_hd {x,1} {x,1} reads x0 (an integer) instead.
    let bytes = mutated("crafted_hd", "head", Opcode::GetHd, 1, 0x13, 0x03);
    let list = |p: &mut Process| {
        let l = p.heap.list(&[Term::small_unchecked(7)]);
        vec![Term::small_unchecked(0), l]
    };
    assert_badarg(run(&bytes, "crafted_hd", "head", list), "get_hd on x0");
}

#[test]
fn put_list_turned_into_get_list_raises_on_a_non_cons() {
    // put_list {x,0} {x,1} {x,0} becomes get_list {x,0} {x,1} {x,0}.
    let bytes = mutated(
        "crafted_gl",
        "cons",
        Opcode::PutList,
        0,
        Opcode::PutList as u8,
        Opcode::GetList as u8,
    );
    assert_badarg(
        run(&bytes, "crafted_gl", "cons", ints(&[1, 2])),
        "get_list on 1",
    );
}

#[test]
fn a_move_from_a_register_never_written_is_a_load_error() {
    // move {x,1} {x,0} of ret/2 reads x7 instead.
    let bytes = mutated("crafted_mv", "ret", Opcode::Move, 1, 0x13, 0x73);
    match run(&bytes, "crafted_mv", "ret", ints(&[1, 2])) {
        Ends::LoadError(e) => assert!(
            e.contains("malformed move instruction")
                && e.contains("in function ret/2")
                && e.contains("X register 7 is read where it may never have been written"),
            "{e}"
        ),
        Ends::Ran(outcome) => panic!("the mutant loaded and ran to {outcome:?}"),
    }
}

#[test]
fn a_bif_call_with_fewer_arguments_than_its_bif_takes_is_a_load_error() {
    // gc_bif1 '-'/1 of arith/2 calls '+'/2 instead (its import operand,
    // the instruction's fourth byte, names the import of erlang:'+'/2).
    let mut bytes = compiled("crafted_bif");
    let file = BeamFile::parse(&bytes).expect("erlc's file parses");
    let names = file.atoms.names();
    let plus = file
        .imports
        .iter()
        .position(|i| names[i.function as usize - 1] == "+" && i.arity == 2)
        .expect("arith/2 imports erlang:'+'/2");
    assert!(plus < 16, "a one-byte u operand");
    let at = offset_of(&bytes, "arith", Opcode::GcBif1) + 3;
    bytes[at] = (plus as u8) << 4;
    match run(&bytes, "crafted_bif", "arith", ints(&[1, 2])) {
        Ends::LoadError(e) => assert!(
            e.contains("malformed gc_bif1 instruction")
                && e.contains("calls erlang:+/2 with 1 arguments"),
            "{e}"
        ),
        Ends::Ran(outcome) => panic!("the mutant loaded and ran to {outcome:?}"),
    }
}

#[test]
fn a_test_with_no_fail_label_is_a_load_error() {
    // is_tuple {f,1} {x,1} of second/2 gets {f,0}: offset 0 would send the
    // failing test back to itself, forever and with no reduction counted
    // (found by the load_and_run fuzz target).
    let bytes = mutated("crafted_f0", "second", Opcode::IsTuple, 1, 0x15, 0x05);
    match run(&bytes, "crafted_f0", "second", ints(&[1, 2])) {
        Ends::LoadError(e) => assert!(
            e.contains("malformed is_tuple instruction") && e.contains("no label"),
            "{e}"
        ),
        Ends::Ran(outcome) => panic!("the mutant loaded and ran to {outcome:?}"),
    }
}
