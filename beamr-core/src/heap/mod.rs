//! Process heaps: bump allocation, the objects built on them, copying terms
//! between heaps, and the generational copying garbage collector.
//!
//! A [`Heap`] is owned by one process and touched by one thread at a time.
//! Objects are bump-allocated in the young generation; when it is full,
//! allocation goes on in heap fragments, and the owner collects at its next
//! safe point ([`Heap::needs_gc`], [`Heap::collect`]). A message is built by
//! its sender in a heap of its own and handed over whole
//! ([`Heap::absorb`]).

mod bignum;
mod block;
mod build;
mod copy;
mod gc;
pub mod gc_totals;
mod process_heap;

pub use copy::size_of_term;
pub use gc::GcStats;
pub use process_heap::{Heap, DEFAULT_FULLSWEEP_AFTER, MIN_HEAP_WORDS};
