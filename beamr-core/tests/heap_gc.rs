//! Property tests of the collector: after any sequence of allocations and
//! collections, every term reachable from the roots is what it was, and no
//! off-heap binary leaks or is freed early.

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::{OffHeapBinary, Term};
use num_bigint::BigInt;
use proptest::prelude::*;

/// A model of a term, built on the heap and compared after collections.
#[derive(Clone, Debug, PartialEq)]
enum Value {
    Int(i64),
    Big(BigInt),
    Float(f64),
    Atom(String),
    List(Vec<Value>),
    Improper(Vec<Value>, Box<Value>),
    Tuple(Vec<Value>),
    Bin(Vec<u8>),
    /// A large binary: an index into the test's table of off-heap binaries.
    BigBin(usize),
    /// A slice of a binary: bit offset and bit size.
    Sub(Box<Value>, usize, usize),
    /// A bitstring as read back: its bytes (last one partial) and bit size.
    Bits(Vec<u8>, usize),
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        any::<i64>().prop_map(Value::Int),
        (any::<i64>(), any::<i64>())
            .prop_map(|(a, b)| Value::Big(BigInt::from(a) * BigInt::from(b) * 1000)),
        any::<f64>()
            .prop_filter("no NaN", |f| !f.is_nan())
            .prop_map(Value::Float),
        "[a-z]{1,8}".prop_map(Value::Atom),
        prop::collection::vec(any::<u8>(), 0..80).prop_map(Value::Bin),
        (0usize..4).prop_map(Value::BigBin),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::List),
            (prop::collection::vec(inner.clone(), 1..4), inner.clone())
                .prop_map(|(items, tail)| Value::Improper(items, Box::new(tail))),
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Tuple),
            (
                prop::collection::vec(any::<u8>(), 1..40),
                0usize..8,
                0usize..40
            )
                .prop_map(|(bytes, off, len)| {
                    let bits = bytes.len() * 8;
                    let off = off.min(bits);
                    Value::Sub(Box::new(Value::Bin(bytes)), off, len.min(bits - off))
                }),
        ]
    })
}

struct World {
    bins: Vec<*const OffHeapBinary>,
}

impl Drop for World {
    /// Drops the world's own reference to each binary (the last, once every
    /// heap that held one has released it), so that none leaks: Miri
    /// (`cargo xtask miri`) reports a leak as an error.
    fn drop(&mut self) {
        for &bin in &self.bins {
            // SAFETY: the world holds one reference to each binary, taken
            // by `OffHeapBinary::new`; this gives it back, once.
            unsafe { OffHeapBinary::release(bin) };
        }
    }
}

impl World {
    fn new() -> World {
        let bins = (0..4)
            .map(|i| OffHeapBinary::new(vec![i as u8; 100 + i].into()))
            .collect();
        World { bins }
    }

    fn build(&self, heap: &mut Heap, v: &Value) -> Term {
        match v {
            Value::Int(i) => heap.int(*i),
            Value::Big(b) => heap.bigint(b),
            Value::Float(f) => heap.float(*f),
            Value::Atom(a) => Term::atom(Atom::new(a).unwrap()),
            Value::List(items) => {
                let terms: Vec<Term> = items.iter().map(|i| self.build(heap, i)).collect();
                heap.list(&terms)
            }
            Value::Improper(items, tail) => {
                let terms: Vec<Term> = items.iter().map(|i| self.build(heap, i)).collect();
                let tail = self.build(heap, tail);
                heap.list_with_tail(&terms, tail)
            }
            Value::Tuple(items) => {
                let terms: Vec<Term> = items.iter().map(|i| self.build(heap, i)).collect();
                heap.tuple(&terms)
            }
            Value::Bin(bytes) => heap.binary(bytes),
            Value::BigBin(i) => {
                let bin = self.bins[*i];
                // SAFETY: the world holds a reference for the whole test.
                unsafe { (*bin).retain() };
                // SAFETY: as above; the binary is alive.
                let size = unsafe { (*bin).bytes().len() };
                heap.refc_binary(bin, size)
            }
            Value::Sub(orig, off, len) => {
                let orig = self.build(heap, orig);
                heap.sub_binary(orig, *off, *len)
            }
            Value::Bits(bytes, bits) => heap.bitstring(bytes, *bits),
        }
    }

    fn read(&self, t: Term) -> Value {
        if let Some(i) = t.as_small() {
            return Value::Int(i);
        }
        if let Some(b) = t.as_big() {
            let b = b.to_bigint();
            return match i64::try_from(&b) {
                Ok(i) => Value::Int(i),
                Err(_) => Value::Big(b),
            };
        }
        if let Some(f) = t.as_float() {
            return Value::Float(f);
        }
        if let Some(a) = t.as_atom() {
            return Value::Atom(a.name().to_string());
        }
        if t.is_list() {
            let mut iter = t.iter_list();
            let items: Vec<Value> = iter.by_ref().map(|x| self.read(x)).collect();
            let tail = iter.tail();
            return if tail.is_nil() {
                Value::List(items)
            } else {
                Value::Improper(items, Box::new(self.read(tail)))
            };
        }
        if let Some(elems) = t.as_tuple() {
            return Value::Tuple(elems.iter().map(|&x| self.read(x)).collect());
        }
        if let Some(i) = t
            .as_off_heap_binary()
            .and_then(|bin| self.bins.iter().position(|&b| b == bin))
        {
            return Value::BigBin(i);
        }
        if let Some(view) = t.as_binary() {
            return if view.is_binary() {
                Value::Bin(view.to_vec())
            } else {
                Value::Bits(view.to_vec(), view.bit_size)
            };
        }
        panic!("unexpected term {t:?}")
    }

    /// Refc-binary objects per binary reachable from `v`.
    fn count_bins(v: &Value, counts: &mut [usize]) {
        match v {
            Value::BigBin(i) => counts[*i] += 1,
            Value::List(items) | Value::Tuple(items) => {
                items.iter().for_each(|i| World::count_bins(i, counts))
            }
            Value::Improper(items, tail) => {
                items.iter().for_each(|i| World::count_bins(i, counts));
                World::count_bins(tail, counts)
            }
            Value::Sub(orig, _, _) => World::count_bins(orig, counts),
            _ => {}
        }
    }
}

/// Normalises a model the way reading back does (sub-binaries become their bits).
fn normal(v: &Value) -> Value {
    match v {
        Value::List(items) => Value::List(items.iter().map(normal).collect()),
        Value::Tuple(items) => Value::Tuple(items.iter().map(normal).collect()),
        Value::Improper(items, tail) => {
            let mut items: Vec<Value> = items.iter().map(normal).collect();
            match normal(tail) {
                Value::List(rest) => {
                    items.extend(rest);
                    Value::List(items)
                }
                Value::Improper(rest, tail) => {
                    items.extend(rest);
                    Value::Improper(items, tail)
                }
                tail => Value::Improper(items, Box::new(tail)),
            }
        }
        Value::Big(b) => match i64::try_from(b) {
            Ok(i) => Value::Int(i),
            Err(_) => v.clone(),
        },
        Value::Sub(orig, off, len) => {
            let Value::Bin(bytes) = &**orig else {
                unreachable!("generated over a binary")
            };
            let bit = |i: usize| (bytes[i / 8] >> (7 - i % 8)) & 1;
            let mut out = vec![0u8; len.div_ceil(8)];
            for i in 0..*len {
                out[i / 8] |= bit(off + i) << (7 - i % 8);
            }
            if len % 8 == 0 {
                Value::Bin(out)
            } else {
                Value::Bits(out, *len)
            }
        }
        _ => v.clone(),
    }
}

#[derive(Clone, Debug)]
enum Op {
    Push(Value),
    Drop(usize),
    Garbage(usize),
    Minor,
    Major,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => value().prop_map(Op::Push),
        1 => (0usize..8).prop_map(Op::Drop),
        1 => (1usize..500).prop_map(Op::Garbage),
        2 => Just(Op::Minor),
        1 => Just(Op::Major),
    ]
}

proptest! {
    // Under Miri (`cargo xtask miri`) each case takes seconds: a few suffice there.
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 200 }))]

    #[test]
    fn collections_preserve_roots_and_binary_counts(ops in prop::collection::vec(op(), 1..40)) {
        let world = World::new();
        let mut heap = Heap::new();
        let mut roots: Vec<Term> = Vec::new();
        let mut models: Vec<Value> = Vec::new();
        for op in ops {
            match op {
                Op::Push(v) => {
                    let t = world.build(&mut heap, &v);
                    roots.push(t);
                    models.push(normal(&v));
                }
                Op::Drop(i) => {
                    if !roots.is_empty() {
                        let i = i % roots.len();
                        roots.remove(i);
                        models.remove(i);
                    }
                }
                Op::Garbage(n) => {
                    for i in 0..n {
                        let t = heap.int(i as i64);
                        heap.cons(t, Term::NIL);
                    }
                }
                Op::Minor | Op::Major => {
                    if matches!(op, Op::Major) {
                        heap.collect_major(0, &mut [&mut roots]);
                    } else {
                        heap.collect(0, &mut [&mut roots]);
                    }
                    prop_assert!(!heap.needs_gc());
                    for (t, m) in roots.iter().zip(&models) {
                        prop_assert_eq!(&world.read(*t), m);
                    }
                    let mut expected = vec![0usize; 4];
                    for m in &models {
                        World::count_bins(m, &mut expected);
                    }
                    for (i, &bin) in world.bins.iter().enumerate() {
                        // Our own reference and the live objects'.
                        let floor = 1 + expected[i];
                        // SAFETY: the world's own reference keeps it alive.
                        let count = unsafe { (*bin).ref_count() };
                        if matches!(op, Op::Major) {
                            prop_assert_eq!(count, floor, "binary {} after a major collection", i);
                        } else {
                            prop_assert!(count >= floor, "binary {} freed early", i);
                        }
                    }
                }
            }
        }
        for (t, m) in roots.iter().zip(&models) {
            prop_assert_eq!(&world.read(*t), m);
        }
        drop(heap);
        for &bin in &world.bins {
            // SAFETY: the world's own reference keeps it alive.
            let count = unsafe { (*bin).ref_count() };
            prop_assert_eq!(count, 1, "every heap released its references");
        }
    }
}

#[test]
fn deep_lists_survive_many_collections() {
    // Under Miri (`cargo xtask miri`) fewer: still several collections.
    let length = if cfg!(miri) { 5_000 } else { 100_000 };
    let mut heap = Heap::new();
    let mut roots = [Term::NIL];
    for i in 0..length {
        let n = heap.int(i);
        roots[0] = heap.cons(n, roots[0]);
        if heap.needs_gc() {
            heap.collect(0, &mut [&mut roots]);
        }
    }
    heap.collect_major(0, &mut [&mut roots]);
    let items = roots[0].list_to_vec().unwrap();
    assert_eq!(items.len(), length as usize);
    assert!(items
        .iter()
        .rev()
        .enumerate()
        .all(|(i, t)| t.as_small() == Some(i as i64)));
    assert!(heap.stats().minor_collections > 0);
}

#[test]
fn unreachable_binaries_are_released_by_a_major_collection() {
    let bin = OffHeapBinary::new(vec![7u8; 1000].into());
    // SAFETY: `new` returned a live binary holding one reference, ours; this
    // adds the one the heap takes over.
    unsafe { (*bin).retain() };
    let mut heap = Heap::new();
    heap.refc_binary(bin, 1000);
    // SAFETY: our reference keeps the binary alive until the release below.
    let count = unsafe { (*bin).ref_count() };
    assert_eq!(count, 2);
    heap.collect_major(0, &mut []);
    // SAFETY: as above.
    let count = unsafe { (*bin).ref_count() };
    assert_eq!(count, 1);
    assert_eq!(heap.off_heap_binary_count(), 0);
    // SAFETY: drops our reference, the last; `bin` is not used again.
    unsafe { OffHeapBinary::release(bin) };
}

#[test]
fn absorbed_heaps_become_part_of_the_receiver() {
    let mut sender = Heap::new();
    let payload = sender.string("hello");
    let message = sender.tuple(&[Term::OK, payload]);
    let mut receiver = Heap::new();
    receiver.absorb(sender);
    let mut roots = [message];
    receiver.collect(0, &mut [&mut roots]);
    let elems = roots[0].as_tuple().unwrap();
    assert_eq!(elems[0], Term::OK);
    let chars: String = elems[1]
        .iter_list()
        .map(|c| char::from_u32(c.as_small().unwrap() as u32).unwrap())
        .collect();
    assert_eq!(chars, "hello");
}
