//! Copying terms from anywhere (another heap, a literal area) onto a heap.

use std::mem::MaybeUninit;

use super::process_heap::Heap;
use crate::term::tag::{PRIMARY_BOXED, PRIMARY_LIST, PRIMARY_MASK};
use crate::term::{OffHeapBinary, Subtag, Term};

/// A work stack that lives in a small array until it outgrows it: most
/// messages are small, and copying one must not cost a `malloc`. The array
/// starts uninitialised: filling it would cost more than copying a small
/// tuple (a trace message's payload, a `{token, N}` message).
struct WorkStack<T: Copy, const N: usize> {
    /// Items `0..len` are initialised.
    inline: [MaybeUninit<T>; N],
    len: usize,
    spilled: Vec<T>,
}

impl<T: Copy, const N: usize> WorkStack<T, N> {
    #[inline]
    fn new(first: T) -> Self {
        let mut inline = [const { MaybeUninit::uninit() }; N];
        inline[0] = MaybeUninit::new(first);
        WorkStack {
            inline,
            len: 1,
            spilled: Vec::new(),
        }
    }

    #[inline]
    fn push(&mut self, item: T) {
        if self.len < N {
            self.inline[self.len] = MaybeUninit::new(item);
            self.len += 1;
        } else {
            self.spilled.push(item);
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<T> {
        if let Some(item) = self.spilled.pop() {
            return Some(item);
        }
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        // SAFETY: every item below the old `len` was written by `new` or
        // `push`.
        Some(unsafe { self.inline[self.len].assume_init() })
    }
}

/// Words a deep copy of `term` takes (no sharing is preserved, as the BEAM's
/// `size_object`).
pub fn size_of_term(term: Term) -> usize {
    let mut total = 0;
    let mut stack = WorkStack::<Term, 32>::new(term);
    while let Some(t) = stack.pop() {
        if let Some((head, tail)) = t.as_cons() {
            total += 2;
            stack.push(tail);
            stack.push(head);
        } else if let Some(header) = t.header() {
            let arity = header.arity();
            total += 1 + arity;
            let words = t.boxed_words();
            for &w in &words[header.subtag().raw_prefix(arity)..] {
                stack.push(Term::from_word(w));
            }
        }
    }
    total
}

impl Heap {
    /// A deep copy of `term` on this heap. Off-heap binaries are shared (their
    /// reference counts go up), not copied.
    pub fn copy_term(&mut self, term: Term) -> Term {
        if term.is_immediate() {
            return term;
        }
        // Copy the root, then fix up the copy's pointer words breadth-first
        // through an explicit work list, so deep lists do not recurse.
        let mut root = term;
        let mut work = WorkStack::<*mut u64, 32>::new(&mut root as *mut Term as *mut u64);
        while let Some(slot) = work.pop() {
            // SAFETY: every slot on the work list is a term word of the root
            // variable or of an object this function allocated on this heap.
            let t = Term::from_word(unsafe { *slot });
            let new = match t.raw() & PRIMARY_MASK {
                PRIMARY_LIST => {
                    let (head, tail) = t.as_cons().expect("list term");
                    let cell = self.alloc(2);
                    // SAFETY: two fresh words.
                    unsafe {
                        cell.write(head.raw());
                        cell.add(1).write(tail.raw());
                    }
                    // The tail below the head: a flat list's heads are
                    // done at once, so the work list stays short however
                    // long the list.
                    // SAFETY: cell has two words.
                    work.push(unsafe { cell.add(1) });
                    work.push(cell);
                    Term::from_word(cell as u64 | PRIMARY_LIST)
                }
                PRIMARY_BOXED => {
                    let header = t.header().expect("boxed term");
                    let arity = header.arity();
                    let p = self.alloc(1 + arity);
                    // SAFETY: p has 1 + arity fresh words; the source object
                    // has as many live words.
                    unsafe { std::ptr::copy_nonoverlapping(t.ptr() as *const u64, p, 1 + arity) };
                    let subtag = header.subtag();
                    if subtag == Subtag::RefcBin {
                        // SAFETY: a refc-binary object's third word is a live binary.
                        let bin = unsafe { *p.add(2) } as *const OffHeapBinary;
                        // SAFETY: the source object holds a reference, so it is alive.
                        unsafe { (*bin).retain() };
                        self.register_bin(p);
                    }
                    for i in 1 + subtag.raw_prefix(arity)..1 + arity {
                        // SAFETY: i <= arity.
                        work.push(unsafe { p.add(i) });
                    }
                    Term::from_word(p as u64 | PRIMARY_BOXED)
                }
                _ => t,
            };
            // SAFETY: as above.
            unsafe { *slot = new.raw() };
        }
        root
    }
}
