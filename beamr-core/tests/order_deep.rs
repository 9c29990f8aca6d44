//! The order, equality and hash walk long and deep terms iteratively: a
//! million-element list and a hundred-thousand-deep nesting of tuples and
//! lists compare, test equal and hash without exhausting the native stack
//! (the test thread keeps the default 2 MiB stack).

use std::cmp::Ordering;

use beamr_core::heap::Heap;
use beamr_core::map::hash::internal_hash;
use beamr_core::order::{compare, compare_exact, eq, exact_eq};
use beamr_core::term::Term;

fn long_list(heap: &mut Heap, n: usize, last: Term) -> Term {
    let mut list = heap.cons(last, Term::NIL);
    for i in (0..n - 1).rev() {
        // Not byte-sized, so the hash takes its per-element path.
        list = heap.cons(Term::small_unchecked(1000 + i as i64), list);
    }
    list
}

#[test]
fn million_element_lists() {
    let mut heap = Heap::new();
    let n = 1_000_000;
    let a = long_list(&mut heap, n, Term::small_unchecked(1));
    let b = long_list(&mut heap, n, Term::small_unchecked(1));
    let c = long_list(&mut heap, n, Term::small_unchecked(2));
    let one = heap.float(1.0);
    let d = long_list(&mut heap, n, one);
    assert_eq!(compare(a, b), Ordering::Equal);
    assert!(exact_eq(a, b));
    assert_eq!(compare(a, c), Ordering::Less);
    assert_eq!(compare(c, a), Ordering::Greater);
    assert!(!exact_eq(a, c));
    // 1 == 1.0 but not =:=, and integers come first in map-key order.
    assert!(eq(a, d));
    assert!(!exact_eq(a, d));
    assert_eq!(compare_exact(a, d), Ordering::Less);
    assert_eq!(internal_hash(a, 0), internal_hash(b, 0));
    assert_ne!(internal_hash(a, 0), internal_hash(c, 0));
}

#[test]
fn deeply_nested_tuples_and_lists() {
    let mut heap = Heap::new();
    let depth = 100_000;
    let nest = |heap: &mut Heap, leaf: i64| {
        let mut t = Term::small_unchecked(leaf);
        for i in 0..depth {
            t = if i % 2 == 0 {
                heap.tuple(&[t, Term::NIL])
            } else {
                heap.cons(t, Term::NIL)
            };
        }
        t
    };
    let a = nest(&mut heap, 7);
    let b = nest(&mut heap, 7);
    let c = nest(&mut heap, 8);
    assert_eq!(compare(a, b), Ordering::Equal);
    assert!(exact_eq(a, b));
    assert_eq!(compare(a, c), Ordering::Less);
    assert!(!exact_eq(a, c));
    assert_eq!(internal_hash(a, 0), internal_hash(b, 0));
    assert_ne!(internal_hash(a, 0), internal_hash(c, 0));
}
