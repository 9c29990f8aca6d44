//! `beamr_core::order` against `erl`: the fixture `tests/erlang/order_table.erl`
//! builds a corpus of a few hundred diverse terms (numbers near and far from
//! each other across integers, bignums and floats, atoms, references, funs,
//! ports, pids, tuples, flat and hashed maps, lists, binaries and
//! bitstrings) and writes each term's `term_to_binary` with OTP's verdict
//! on `A < B`, `A == B` and `A =:= B` for every pair. This test decodes the
//! terms with `beamr_core::etf::decode` and checks beamr's `compare`, `eq`,
//! `exact_eq` and `compare_exact` against every verdict.
//!
//! Needs the compiled fixture: run `cargo xtask fixtures` (or
//! `cargo xtask test-all`) first, or point `BEAMR_FIXTURES_DIR` at the
//! folder holding `beam/order_table.beam`.

use std::cmp::Ordering;

use beamr_core::etf;
use beamr_core::heap::Heap;
use beamr_core::order::{compare, compare_exact, eq, exact_eq};
use beamr_core::term::{Kind, Term};

mod support;

/// The corpus as OTP wrote it: each term's encoding, and the flag table.
struct Table {
    encoded: Vec<Vec<u8>>,
    flags: Vec<u8>,
}

fn run_fixture() -> Table {
    let bytes = support::erl_written("order_table");
    parse(&bytes)
}

/// Parses the layout documented in `order_table.erl`.
fn parse(bytes: &[u8]) -> Table {
    let u32_at = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    let n = u32_at(0);
    let mut at = 4;
    let mut encoded = Vec::with_capacity(n);
    for _ in 0..n {
        let len = u32_at(at);
        encoded.push(bytes[at + 4..at + 4 + len].to_vec());
        at += 4 + len;
    }
    let flags = bytes[at..].to_vec();
    assert_eq!(flags.len(), n * n, "the table holds one flag byte per pair");
    Table { encoded, flags }
}

fn describe(t: Term) -> String {
    format!("{:?} ({:?})", t, t.kind())
}

#[test]
fn order_matches_erl_for_every_pair() {
    let table = run_fixture();
    let n = table.encoded.len();
    assert!(
        n >= 200,
        "the corpus is too small ({n} terms): is the fixture intact?"
    );
    let mut heap = Heap::new();
    let terms: Vec<Term> = table
        .encoded
        .iter()
        .enumerate()
        .map(|(i, bytes)| {
            etf::decode(bytes, &mut heap).unwrap_or_else(|e| panic!("decoding term {i}: {e}"))
        })
        .collect();
    // Every kind of term is in the corpus.
    for kind in [
        Kind::SmallInt,
        Kind::BigInt,
        Kind::Float,
        Kind::Atom,
        Kind::Ref,
        Kind::Fun,
        Kind::Port,
        Kind::Pid,
        Kind::Tuple,
        Kind::Map,
        Kind::Nil,
        Kind::Cons,
        Kind::Binary,
    ] {
        assert!(
            terms.iter().any(|t| t.kind() == kind),
            "no {kind:?} in the corpus"
        );
    }

    let mut failures = Vec::new();
    let mut checked = 0;
    for (i, &a) in terms.iter().enumerate() {
        for (j, &b) in terms.iter().enumerate() {
            let f = table.flags[i * n + j];
            let (lt, equal, exact) = (f & 1 != 0, f & 2 != 0, f & 4 != 0);
            let c = compare(a, b);
            let mut wrong = Vec::new();
            if (c == Ordering::Less) != lt {
                wrong.push(format!("compare = {c:?} but A < B is {lt}"));
            }
            if (c == Ordering::Equal) != equal || eq(a, b) != equal {
                wrong.push(format!(
                    "compare = {c:?}, eq = {} but A == B is {equal}",
                    eq(a, b)
                ));
            }
            if exact_eq(a, b) != exact {
                wrong.push(format!(
                    "exact_eq = {} but A =:= B is {exact}",
                    exact_eq(a, b)
                ));
            }
            // Map-key order: a total order whose equality is `=:=`.
            let ce = compare_exact(a, b);
            if (ce == Ordering::Equal) != exact {
                wrong.push(format!("compare_exact = {ce:?} but A =:= B is {exact}"));
            }
            if ce != compare_exact(b, a).reverse() {
                wrong.push("compare_exact is not antisymmetric".to_string());
            }
            checked += 1;
            if !wrong.is_empty() {
                failures.push(format!(
                    "#{i} {} vs #{j} {}: {}",
                    describe(a),
                    describe(b),
                    wrong.join("; ")
                ));
            }
        }
    }
    assert!(checked >= 40_000);
    assert!(
        failures.is_empty(),
        "{} of {checked} pairs disagree with erl, first ones:\n{}",
        failures.len(),
        failures
            .iter()
            .take(25)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn sorting_the_corpus_matches_erl() {
    // The table's `<` defines OTP's sorted order; beamr's sort must agree
    // on every adjacent pair.
    let table = run_fixture();
    let n = table.encoded.len();
    assert!(n > 0, "empty corpus");
    let mut heap = Heap::new();
    let terms: Vec<Term> = table
        .encoded
        .iter()
        .map(|bytes| etf::decode(bytes, &mut heap).expect("decoding"))
        .collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| compare(terms[i], terms[j]));
    for w in order.windows(2) {
        let (i, j) = (w[0], w[1]);
        let greater = table.flags[j * n + i] & 1 != 0;
        assert!(
            !greater,
            "sorted #{i} before #{j}, but erl says #{j} < #{i}"
        );
    }
}
