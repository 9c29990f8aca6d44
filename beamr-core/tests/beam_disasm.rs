//! The disassembler against `erlc -S`: for every Erlang fixture
//! (`tests/erlang/*.erl`), beamr's listing of the `.beam` must equal the
//! compiler's own `.S` listing, form for form and operand for operand.
//!
//! One named test per fixture (libtest-mimic), so a failure names its
//! program. The reference side is `beam_support/normalize.escript`, which
//! reads the `.S` with `file:consult` and also decodes the literal table with
//! Erlang's own `binary_to_term`, so literals are compared exactly too.
//! The only normalizations (each explained there and below) remove what the
//! `.beam` cannot hold or what the compiler leaves as a placeholder.

#[path = "beam_support/mod.rs"]
mod beam_support;

use std::collections::HashMap;

use beam_support::{fixtures, reference, Fixture};
use beamr_core::beam::{BeamFile, Disassembler, Operand};
use libtest_mimic::{Arguments, Failed, Trial};

/// Typed registers become plain registers: the `.S` writes the full type,
/// the `.beam` only an index into the Type chunk (and the assembler drops
/// types it cannot encode), so the reference drops types too.
fn untype(op: &mut Operand) {
    match op {
        Operand::TypedReg { reg, .. } => {
            *op = match *reg {
                beamr_core::beam::Register::X(n) => Operand::X(n),
                beamr_core::beam::Register::Y(n) => Operand::Y(n),
            }
        }
        Operand::List(items) => items.iter_mut().for_each(untype),
        _ => {}
    }
}

fn check(fixture: &Fixture) -> Result<(), Failed> {
    let bytes =
        std::fs::read(&fixture.beam).map_err(|e| format!("{}: {e}", fixture.beam.display()))?;
    let mut file = BeamFile::parse(&bytes).map_err(|e| e.to_string())?;
    let reference = reference(fixture)?;
    if reference.literals.len() != file.literals.len() {
        return Err(format!(
            "{} literals, Erlang decodes {}",
            file.literals.len(),
            reference.literals.len()
        )
        .into());
    }
    for instr in &mut file.instructions {
        instr.args.iter_mut().for_each(untype);
    }
    // The compiler writes `{make_fun3,{f,L},0,0,...}`: index and old_uniq
    // are filled in by the assembler, so the `.S` only has placeholders.
    for lambda in &mut file.funs {
        lambda.index = 0;
        lambda.old_uniq = 0;
    }
    let texts: HashMap<&[u8], &str> = file
        .literals
        .literals
        .iter()
        .map(Vec::as_slice)
        .zip(reference.literals.iter().map(String::as_str))
        .collect();
    let literal = |etf: &[u8]| {
        texts
            .get(etf)
            .map_or_else(|| "<unknown literal>".to_owned(), |t| (*t).to_owned())
    };
    let listing = Disassembler::new(&file, &literal).listing();
    let ours: Vec<&str> = listing
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| l.strip_suffix('.').unwrap_or(l))
        .collect();
    let theirs: Vec<&str> = reference.forms.iter().map(String::as_str).collect();
    for (k, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        if a != b {
            let context = theirs[k.saturating_sub(3)..k].join("\n    ");
            return Err(format!(
                "form {k} differs\n  after:\n    {context}\n  beamr: {a}\n  erlc:  {b}"
            )
            .into());
        }
    }
    if ours.len() != theirs.len() {
        return Err(format!(
            "beamr printed {} forms, erlc -S has {}",
            ours.len(),
            theirs.len()
        )
        .into());
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let all = fixtures();
    assert!(!all.is_empty(), "no tests/erlang/*.erl fixtures");
    let trials = all
        .into_iter()
        .map(|f| Trial::test(format!("disasm::{}", f.name), move || check(&f)))
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
