//! Property tests of the ETF decoder and encoder: no byte string makes the
//! decoder panic, and any term beamr builds survives encode then decode.

use beamr_core::atom::Atom;
use beamr_core::etf;
use beamr_core::heap::Heap;
use beamr_core::order;
use beamr_core::term::Term;
use num_bigint::BigInt;
use proptest::prelude::*;

/// A term to build.
#[derive(Clone, Debug)]
enum Value {
    Int(i64),
    Big(i64, i64),
    Float(f64),
    Atom(String),
    Bin(Vec<u8>),
    Bits(Vec<u8>, u8),
    List(Vec<Value>),
    Improper(Vec<Value>, Box<Value>),
    Tuple(Vec<Value>),
    Map(Vec<(Value, Value)>),
    Pid(u32, u16),
    Ref(u32, u32, u32),
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        any::<i64>().prop_map(Value::Int),
        (0i64..300).prop_map(Value::Int),
        (any::<i64>(), any::<i64>()).prop_map(|(a, b)| Value::Big(a, b)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::Float),
        "[a-zé]{0,8}|\\PC{0,4}".prop_map(Value::Atom),
        prop::collection::vec(any::<u8>(), 0..100).prop_map(Value::Bin),
        (prop::collection::vec(any::<u8>(), 1..10), 1u8..8).prop_map(|(b, n)| Value::Bits(b, n)),
        (any::<u32>(), 0u16..8192).prop_map(|(i, s)| Value::Pid(i, s)),
        (any::<u32>(), any::<u32>(), any::<u32>()).prop_map(|(a, b, c)| Value::Ref(a, b, c)),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::List),
            (prop::collection::vec(inner.clone(), 1..4), inner.clone())
                .prop_map(|(l, t)| Value::Improper(l, Box::new(t))),
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Tuple),
            prop::collection::vec((inner.clone(), inner), 0..40).prop_map(Value::Map),
        ]
    })
}

fn build(heap: &mut Heap, v: &Value) -> Term {
    match v {
        Value::Int(i) => heap.int(*i),
        Value::Big(a, b) => heap.bigint(&(BigInt::from(*a) * BigInt::from(*b) * 977)),
        Value::Float(f) => heap.float(*f),
        Value::Atom(s) => Term::atom(Atom::new(s).unwrap()),
        Value::Bin(b) => heap.binary(b),
        Value::Bits(b, n) => heap.bitstring(b, (b.len() - 1) * 8 + *n as usize),
        Value::List(items) => {
            let items: Vec<Term> = items.iter().map(|i| build(heap, i)).collect();
            heap.list(&items)
        }
        Value::Improper(items, tail) => {
            let items: Vec<Term> = items.iter().map(|i| build(heap, i)).collect();
            let tail = build(heap, tail);
            heap.list_with_tail(&items, tail)
        }
        Value::Tuple(items) => {
            let items: Vec<Term> = items.iter().map(|i| build(heap, i)).collect();
            heap.tuple(&items)
        }
        Value::Map(pairs) => {
            let pairs: Vec<(Term, Term)> = pairs
                .iter()
                .map(|(k, v)| (build(heap, k), build(heap, v)))
                .collect();
            beamr_core::map::from_pairs(heap, &pairs)
        }
        Value::Pid(id, serial) => {
            Term::pid(etf::local::local_pid_number(*id, *serial as u32).unwrap())
        }
        Value::Ref(a, b, c) => heap.local_ref([*a, *b, *c]),
    }
}

proptest! {
    // Under Miri (`cargo xtask miri`) each case is slow: a few suffice there.
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 3 } else { 1000 }))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let mut heap = Heap::new();
        let _ = etf::decode(&bytes, &mut heap);
        let mut versioned = vec![131];
        versioned.extend_from_slice(&bytes);
        if let Ok((_, used)) = etf::decode_used(&versioned, &mut heap) {
            prop_assert!(used <= versioned.len());
        }
    }

    #[test]
    fn corrupted_encodings_never_panic(v in value(), flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4), cut in any::<prop::sample::Index>()) {
        let mut heap = Heap::new();
        let t = build(&mut heap, &v);
        let mut bytes = etf::encode(t);
        for (at, b) in &flips {
            let i = at.index(bytes.len());
            bytes[i] = *b;
        }
        let _ = etf::decode(&bytes, &mut heap);
        let _ = etf::decode(&bytes[..cut.index(bytes.len() + 1)], &mut heap);
        // zlib is C, which Miri cannot run.
        if !cfg!(miri) {
            let z = etf::encode_compressed(t, 6).unwrap();
            let _ = etf::decode(&z[..cut.index(z.len() + 1)], &mut heap);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 3 } else { 500 }))]

    #[test]
    fn encode_then_decode_gives_the_same_term(v in value()) {
        let mut heap = Heap::new();
        let t = build(&mut heap, &v);
        let bytes = etf::encode(t);
        let mut other = Heap::new();
        let (back, used) = etf::decode_used(&bytes, &mut other).unwrap();
        prop_assert_eq!(used, bytes.len());
        prop_assert!(order::exact_eq(t, back), "{:?} came back as {:?}", t, back);
        prop_assert_eq!(etf::encode(back), bytes.clone());
        // zlib is C, which Miri cannot run.
        if !cfg!(miri) {
            let z = etf::encode_compressed(t, 9).unwrap();
            let back = etf::decode(&z, &mut other).unwrap();
            prop_assert_eq!(etf::encode(back), bytes);
        }
    }
}
