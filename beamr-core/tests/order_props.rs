//! Property tests of `beamr_core::order` on random terms (integers small
//! and big, floats including integral ones and -0.0, atoms, binaries and
//! bitstrings, tuples, proper and improper lists, flat and hashed maps):
//! `compare` and `compare_exact` are total orders (antisymmetric,
//! transitive); `compare_exact` is `Equal` exactly when `exact_eq` holds,
//! and `compare` exactly when `eq` holds; `exact_eq` implies `eq`; equal
//! terms hash alike; a copy of a term is `=:=` to it.

use std::cmp::Ordering;

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::map;
use beamr_core::map::hash::internal_hash;
use beamr_core::order::{compare, compare_exact, eq, exact_eq};
use beamr_core::term::Term;
use num_bigint::BigInt;
use proptest::prelude::*;

/// A term to build.
#[derive(Clone, Debug)]
enum Spec {
    Int(i64),
    Big(i128),
    Float(f64),
    Atom(u8),
    Bits(Vec<u8>, u8),
    Tuple(Vec<Spec>),
    List(Vec<Spec>, Option<Box<Spec>>),
    Map(Vec<(Spec, Spec)>),
}

fn leaf() -> impl Strategy<Value = Spec> {
    prop_oneof![
        (-3i64..4).prop_map(Spec::Int),
        any::<i64>().prop_map(Spec::Int),
        prop_oneof![Just(1i128 << 60), Just(-(1i128 << 70)), any::<i128>()].prop_map(Spec::Big),
        prop_oneof![
            Just(0.0),
            Just(-0.0),
            Just(1.0),
            Just(2.0),
            Just(-3.0),
            Just(1.5),
            Just(1152921504606846976.0),
            any::<f64>().prop_filter("finite", |f| f.is_finite()),
        ]
        .prop_map(Spec::Float),
        (0u8..5).prop_map(Spec::Atom),
        (proptest::collection::vec(0u8..3, 0..3), 0u8..8).prop_map(|(b, r)| Spec::Bits(b, r)),
    ]
}

fn spec() -> impl Strategy<Value = Spec> {
    leaf().prop_recursive(3, 40, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Spec::Tuple),
            (
                proptest::collection::vec(inner.clone(), 0..4),
                proptest::option::of(inner.clone().prop_map(Box::new))
            )
                .prop_map(|(items, tail)| Spec::List(items, tail)),
            proptest::collection::vec((inner.clone(), inner.clone()), 0..4).prop_map(Spec::Map),
            // Occasionally a map above the flat limit.
            proptest::collection::vec((inner.clone(), inner), 33..36).prop_map(Spec::Map),
        ]
    })
}

fn build(heap: &mut Heap, s: &Spec) -> Term {
    match s {
        Spec::Int(i) => heap.int(*i),
        Spec::Big(i) => heap.bigint(&BigInt::from(*i)),
        Spec::Float(f) => heap.float(*f),
        Spec::Atom(i) => Term::atom(Atom::new(&format!("p{i}")).unwrap()),
        Spec::Bits(bytes, extra) => {
            let mut data = bytes.clone();
            data.push(0b1010_1010);
            heap.bitstring(&data, bytes.len() * 8 + *extra as usize)
        }
        Spec::Tuple(items) => {
            let ts: Vec<Term> = items.iter().map(|i| build(heap, i)).collect();
            heap.tuple(&ts)
        }
        Spec::List(items, tail) => {
            let ts: Vec<Term> = items.iter().map(|i| build(heap, i)).collect();
            let tail = match tail {
                Some(t) => build(heap, t),
                None => Term::NIL,
            };
            heap.list_with_tail(&ts, tail)
        }
        Spec::Map(pairs) => {
            let ps: Vec<(Term, Term)> = pairs
                .iter()
                .map(|(k, v)| (build(heap, k), build(heap, v)))
                .collect();
            map::from_pairs(heap, &ps)
        }
    }
}

proptest! {
    // Under Miri (`cargo xtask miri`) each case is slow: a few suffice there.
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 200 }))]

    #[test]
    fn orders_are_total_and_agree_with_equality(a in spec(), b in spec(), c in spec()) {
        let mut heap = Heap::new();
        let (a, b, c) = (build(&mut heap, &a), build(&mut heap, &b), build(&mut heap, &c));
        for cmp in [compare, compare_exact] {
            prop_assert_eq!(cmp(a, a), Ordering::Equal);
            prop_assert_eq!(cmp(a, b), cmp(b, a).reverse());
            let (ab, bc, ac) = (cmp(a, b), cmp(b, c), cmp(a, c));
            if ab != Ordering::Greater && bc != Ordering::Greater {
                prop_assert_ne!(ac, Ordering::Greater, "not transitive");
            }
            if ab == Ordering::Equal && bc == Ordering::Equal {
                prop_assert_eq!(ac, Ordering::Equal);
            }
        }
        for (x, y) in [(a, b), (b, c), (a, c)] {
            let exact = exact_eq(x, y);
            prop_assert_eq!(compare_exact(x, y) == Ordering::Equal, exact);
            prop_assert_eq!(compare(x, y) == Ordering::Equal, eq(x, y));
            if exact {
                prop_assert!(eq(x, y));
                prop_assert_eq!(internal_hash(x, 0), internal_hash(y, 0));
            }
        }
    }

    #[test]
    fn copies_are_exactly_equal(a in spec()) {
        let mut heap = Heap::new();
        let t = build(&mut heap, &a);
        let mut other = Heap::new();
        let copy = other.copy_term(t);
        prop_assert!(exact_eq(t, copy));
        prop_assert_eq!(compare_exact(t, copy), Ordering::Equal);
        prop_assert_eq!(internal_hash(t, 0), internal_hash(copy, 0));
    }

    #[test]
    fn rebuilt_terms_are_equal(a in spec()) {
        // Two independent builds of the same spec (different addresses,
        // maps built separately) are =:=.
        let mut heap = Heap::new();
        let (x, y) = (build(&mut heap, &a), build(&mut heap, &a));
        prop_assert!(exact_eq(x, y));
        prop_assert_eq!(compare(x, y), Ordering::Equal);
    }
}
