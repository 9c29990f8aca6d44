//! Allocation and collection of list-heavy data: the cost every interpreted
//! cons and every minor collection will pay.

use beamr_core::heap::Heap;
use beamr_core::term::Term;
use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};

/// Naive reverse of a 300-element list, as `../shared/bench/nrev.erl` does,
/// collecting whenever the young generation overflows.
fn nrev_round(heap: &mut Heap, roots: &mut [Term; 2]) {
    fn append(heap: &mut Heap, a: Term, b: Term) -> Term {
        let items: Vec<Term> = a.iter_list().collect();
        heap.list_with_tail(&items, b)
    }
    let mut acc = Term::NIL;
    for x in roots[0].iter_list() {
        let single = heap.cons(x, Term::NIL);
        acc = append(heap, acc, single);
        if heap.needs_gc() {
            roots[1] = acc;
            heap.collect(0, &mut [&mut roots[..]]);
            acc = roots[1];
        }
    }
    roots[1] = acc;
}

fn alloc_and_collect(c: &mut Criterion) {
    let mut group = c.benchmark_group("heap");

    group.throughput(Throughput::Elements(1_000_000));
    group.bench_function("cons_1M_with_collections", |b| {
        b.iter_batched(
            Heap::new,
            |mut heap| {
                let mut roots = [Term::NIL];
                for i in 0..1_000_000 {
                    let keep = i % 16 == 0;
                    let cell = heap.cons(
                        Term::small_unchecked(i),
                        if keep { roots[0] } else { Term::NIL },
                    );
                    if keep {
                        roots[0] = cell;
                    }
                    if heap.needs_gc() {
                        heap.collect(0, &mut [&mut roots]);
                    }
                }
                heap
            },
            BatchSize::SmallInput,
        )
    });

    group.throughput(Throughput::Elements(300 * 301 / 2));
    group.bench_function("nrev_300", |b| {
        let mut heap = Heap::new();
        let items: Vec<Term> = (0..300).map(Term::small_unchecked).collect();
        let list = heap.list(&items);
        let mut roots = [list, Term::NIL];
        b.iter(|| nrev_round(&mut heap, &mut roots));
    });

    group.throughput(Throughput::Elements(100_000));
    group.bench_function("major_collect_100k_live_cells", |b| {
        let mut heap = Heap::new();
        let items: Vec<Term> = (0..100_000).map(Term::small_unchecked).collect();
        let list = heap.list(&items);
        let mut roots = [list];
        b.iter(|| heap.collect_major(0, &mut [&mut roots]));
    });
    group.finish();
}

criterion_group!(benches, alloc_and_collect);
criterion_main!(benches);
