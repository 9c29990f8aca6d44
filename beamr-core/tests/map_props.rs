//! Property tests of `beamr_core::map`: random sequences of puts, updates
//! and removals over a palette of keys of every kind give the same contents
//! as a `BTreeMap` model; the map is flat exactly when it holds at most 32
//! keys; the map built step by step equals (`=:=`) the one `from_pairs`
//! builds from the model's contents; both iteration orders list every
//! entry once; an absent key is never found.

use std::collections::BTreeMap;

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::map::{self, MapError, Order};
use beamr_core::order::{compare, exact_eq};
use beamr_core::term::{Term, FLAT_MAP_LIMIT};
use num_bigint::BigInt;
use proptest::prelude::*;

/// Distinct keys of many kinds; the model keys by index into it.
fn palette(heap: &mut Heap) -> Vec<Term> {
    let mut keys = Vec::new();
    for i in -40..40 {
        keys.push(Term::small_unchecked(i));
    }
    for i in 0..20 {
        keys.push(heap.float(i as f64 + 0.5));
    }
    // 1.0 and 1 are different keys.
    keys.push(heap.float(1.0));
    for i in 0..15 {
        let atom = Atom::new(&format!("map_props_{i}")).unwrap();
        keys.push(Term::atom(atom));
    }
    for i in 0..15u8 {
        keys.push(heap.binary(&[i; 3]));
    }
    for i in 0..15 {
        let big = BigInt::from(1u8) << (64 + i);
        keys.push(heap.bigint(&big));
    }
    for i in 0..15 {
        let t = heap.tuple(&[Term::small_unchecked(i), Term::NIL]);
        keys.push(t);
    }
    for i in 0..15 {
        let s = heap.string(&format!("k{i}"));
        keys.push(s);
    }
    keys.push(Term::NIL);
    keys
}

#[derive(Clone, Debug)]
enum Op {
    Put(usize, i64),
    Update(usize, i64),
    Remove(usize),
}

fn ops(palette_len: usize) -> impl Strategy<Value = Vec<Op>> {
    let op = prop_oneof![
        4 => (0..palette_len, any::<i32>()).prop_map(|(k, v)| Op::Put(k, v as i64)),
        1 => (0..palette_len, any::<i32>()).prop_map(|(k, v)| Op::Update(k, v as i64)),
        2 => (0..palette_len).prop_map(Op::Remove),
    ];
    proptest::collection::vec(op, 0..400)
}

const PALETTE_LEN: usize = 177;

proptest! {
    // Under Miri (`cargo xtask miri`) each case is slow: a few suffice there.
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 64 }))]

    #[test]
    fn map_matches_a_btreemap_model(ops in ops(PALETTE_LEN)) {
        let mut heap = Heap::new();
        let keys = palette(&mut heap);
        prop_assert_eq!(keys.len(), PALETTE_LEN);
        let mut model: BTreeMap<usize, i64> = BTreeMap::new();
        let mut m = map::new(&mut heap);
        for op in &ops {
            match *op {
                Op::Put(k, v) => {
                    m = map::put(&mut heap, m, keys[k], Term::small_unchecked(v)).unwrap();
                    model.insert(k, v);
                }
                Op::Update(k, v) => {
                    let r = map::update(&mut heap, m, keys[k], Term::small_unchecked(v));
                    if let std::collections::btree_map::Entry::Occupied(mut e) = model.entry(k) {
                        m = r.unwrap();
                        e.insert(v);
                    } else {
                        prop_assert_eq!(r, Err(MapError::BadKey(keys[k])));
                    }
                }
                Op::Remove(k) => {
                    m = map::remove(&mut heap, m, keys[k]).unwrap();
                    model.remove(&k);
                }
            }
            prop_assert_eq!(map::size(m), Some(model.len()));
            prop_assert_eq!(m.as_flat_map().is_some(), model.len() <= FLAT_MAP_LIMIT);
        }
        for (i, &k) in keys.iter().enumerate() {
            let got = map::get(m, k).map(|v| v.as_small().unwrap());
            prop_assert_eq!(got, model.get(&i).copied(), "key #{}", i);
        }
        for order in [Order::ToList, Order::Next] {
            let entries: Vec<(Term, Term)> = map::iter_in(m, order).unwrap().collect();
            prop_assert_eq!(entries.len(), model.len());
            let mut seen: Vec<usize> = entries
                .iter()
                .map(|&(k, _)| keys.iter().position(|&p| exact_eq(p, k)).unwrap())
                .collect();
            seen.sort_unstable();
            seen.dedup();
            prop_assert_eq!(seen, model.keys().copied().collect::<Vec<_>>());
        }
        let pairs: Vec<(Term, Term)> = model
            .iter()
            .rev()
            .map(|(&k, &v)| (keys[k], Term::small_unchecked(v)))
            .collect();
        let rebuilt = map::from_pairs(&mut heap, &pairs);
        prop_assert!(exact_eq(m, rebuilt));
        prop_assert_eq!(compare(m, rebuilt), std::cmp::Ordering::Equal);
        let a: Vec<u64> = map::iter(m).unwrap().map(|(k, _)| k.raw()).collect();
        let b: Vec<u64> = map::iter(rebuilt).unwrap().map(|(k, _)| k.raw()).collect();
        prop_assert_eq!(a, b, "the order depends on the keys alone");
    }

    #[test]
    fn from_pairs_keeps_the_last_value(pairs in proptest::collection::vec((0..PALETTE_LEN, any::<i32>()), 0..120)) {
        let mut heap = Heap::new();
        let keys = palette(&mut heap);
        let terms: Vec<(Term, Term)> = pairs
            .iter()
            .map(|&(k, v)| (keys[k], Term::small_unchecked(v as i64)))
            .collect();
        let m = map::from_pairs(&mut heap, &terms);
        let model: BTreeMap<usize, i32> = pairs.iter().copied().collect();
        prop_assert_eq!(map::size(m), Some(model.len()));
        for (&k, &v) in &model {
            prop_assert_eq!(map::get(m, keys[k]).and_then(Term::as_small), Some(v as i64));
        }
    }
}

#[test]
fn non_maps_are_refused() {
    let mut heap = Heap::new();
    let t = Term::small_unchecked(1);
    assert_eq!(map::get(t, t), None);
    assert_eq!(map::size(t), None);
    assert!(map::iter(t).is_none());
    assert_eq!(map::put(&mut heap, t, t, t), Err(MapError::BadMap(t)));
    assert_eq!(map::remove(&mut heap, t, t), Err(MapError::BadMap(t)));
    assert_eq!(map::update(&mut heap, t, t, t), Err(MapError::BadMap(t)));
    assert_eq!(map::keys(&mut heap, t), Err(MapError::BadMap(t)));
}

#[test]
fn put_of_the_same_value_returns_the_same_map() {
    let mut heap = Heap::new();
    let pairs: Vec<(Term, Term)> = (0..100)
        .map(|i| (Term::small_unchecked(i), Term::small_unchecked(i)))
        .collect();
    for n in [5, 100] {
        let m = map::from_pairs(&mut heap, &pairs[..n]);
        let k = Term::small_unchecked(3);
        assert_eq!(map::put(&mut heap, m, k, k).unwrap().raw(), m.raw());
        let absent = Term::small_unchecked(1000);
        assert_eq!(map::remove(&mut heap, m, absent).unwrap().raw(), m.raw());
        let list = map::keys(&mut heap, m).unwrap();
        assert_eq!(list.list_len(), Some(n));
    }
}

#[test]
fn zero_and_negative_zero_are_one_key_as_in_otp_25() {
    // OTP 25: maps:from_list keeps the last pair whole; a flat map's put
    // keeps the old key term, a trie's put takes the new one.
    let mut heap = Heap::new();
    let (pos, neg) = (heap.float(0.0), heap.float(-0.0));
    let (a, b) = (Term::small_unchecked(1), Term::small_unchecked(2));
    let key_bits = |m: Term| {
        let (k, _) = map::iter(m).unwrap().find(|(k, _)| k.is_float()).unwrap();
        k.as_float().unwrap().to_bits()
    };
    let flat = map::from_pairs(&mut heap, &[(pos, a), (neg, b)]);
    assert_eq!(map::size(flat), Some(1));
    assert_eq!(key_bits(flat), (-0.0f64).to_bits());
    assert_eq!(map::get(flat, pos), Some(b));
    let flat = map::put(&mut heap, flat, pos, a).unwrap();
    assert_eq!(key_bits(flat), (-0.0f64).to_bits());
    let mut pairs: Vec<(Term, Term)> = vec![(neg, a)];
    pairs.extend((0..40).map(|i| (Term::small_unchecked(i), a)));
    pairs.push((pos, b));
    let trie = map::from_pairs(&mut heap, &pairs);
    assert_eq!(key_bits(trie), 0.0f64.to_bits());
    let trie = map::put(&mut heap, trie, neg, a).unwrap();
    assert_eq!(key_bits(trie), (-0.0f64).to_bits());
    assert_eq!(map::get(trie, pos), Some(a));
}
