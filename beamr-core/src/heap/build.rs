//! Constructors: every kind of object, allocated on a [`Heap`].

use num_bigint::{BigInt, Sign};

use super::process_heap::{boxed, Heap};
use crate::atom::Atom;
use crate::term::{
    pack_u32s, Export, FunEntry, Header, Integer, OffHeapBinary, RecordDef, Subtag, Term,
    HEAP_BIN_LIMIT,
};

impl Heap {
    /// Allocates a boxed object: writes its header and returns the term and a
    /// pointer to its first word after the header.
    #[inline(always)]
    fn object(&mut self, subtag: Subtag, arity: usize) -> (Term, *mut u64) {
        let p = self.alloc(1 + arity);
        // SAFETY: `alloc` returned 1 + arity writable words.
        unsafe { p.write(Header::new(subtag, arity).0) };
        // SAFETY: as above; the body starts one word in.
        (boxed(p), unsafe { p.add(1) })
    }

    /// A cons cell `[head | tail]`.
    #[inline]
    pub fn cons(&mut self, head: Term, tail: Term) -> Term {
        let p = self.alloc(2);
        // SAFETY: `alloc` returned two writable words.
        unsafe {
            p.write(head.raw());
            p.add(1).write(tail.raw());
        }
        Term::list_ptr(p as *const Term)
    }

    /// A proper list of `items`.
    pub fn list(&mut self, items: &[Term]) -> Term {
        self.list_with_tail(items, Term::NIL)
    }

    /// A list of `items` ending in `tail`.
    pub fn list_with_tail(&mut self, items: &[Term], tail: Term) -> Term {
        items
            .iter()
            .rev()
            .fold(tail, |acc, &item| self.cons(item, acc))
    }

    /// A list of the first `n` terms of `items` ending in `tail`, built in
    /// one block of `n` cells with no buffer; with `reversed`, the first term
    /// taken is the last element (`lists:reverse/2`). Should `items` run
    /// out early, the remaining elements are `[]`.
    pub fn list_of_n(
        &mut self,
        n: usize,
        items: impl IntoIterator<Item = Term>,
        tail: Term,
        reversed: bool,
    ) -> Term {
        if n == 0 {
            return tail;
        }
        let cells = self.alloc(2 * n);
        let mut items = items.into_iter();
        for i in 0..n {
            let at = if reversed { n - 1 - i } else { i };
            let next = if at + 1 < n {
                // SAFETY: cell at + 1 < n is within the 2n words allocated.
                Term::list_ptr(unsafe { cells.add(2 * at + 2) } as *const Term)
            } else {
                tail
            };
            let head = items.next().unwrap_or(Term::NIL);
            // SAFETY: cell `at` is words 2at and 2at + 1 of the 2n allocated;
            // every cell is written exactly once by this loop.
            unsafe {
                cells.add(2 * at).write(head.raw());
                cells.add(2 * at + 1).write(next.raw());
            }
        }
        Term::list_ptr(cells as *const Term)
    }

    /// A list of `bytes` ending in `tail`, in one block of cells.
    pub fn byte_list(&mut self, bytes: &[u8], tail: Term) -> Term {
        let items = bytes.iter().map(|&b| Term::small_unchecked(i64::from(b)));
        self.list_of_n(bytes.len(), items, tail, false)
    }

    /// A list of the characters of `s` (an Erlang string).
    pub fn string(&mut self, s: &str) -> Term {
        let chars: Vec<Term> = s.chars().map(|c| Term::small_unchecked(c as i64)).collect();
        self.list(&chars)
    }

    /// A tuple of `elements`.
    pub fn tuple(&mut self, elements: &[Term]) -> Term {
        let (t, body) = self.object(Subtag::Tuple, elements.len());
        // SAFETY: the body has room for `elements.len()` words.
        unsafe {
            std::ptr::copy_nonoverlapping(elements.as_ptr() as *const u64, body, elements.len())
        };
        t
    }

    /// A tuple of `n` elements, each `[]`, and a pointer to its elements for
    /// the caller to fill before the tuple is used.
    pub fn tuple_uninit(&mut self, n: usize) -> (Term, *mut Term) {
        let (t, body) = self.object(Subtag::Tuple, n);
        for i in 0..n {
            // SAFETY: the body has room for n words.
            unsafe { body.add(i).write(Term::NIL.raw()) };
        }
        (t, body as *mut Term)
    }

    /// A float.
    pub fn float(&mut self, value: f64) -> Term {
        let (t, body) = self.object(Subtag::Float, 1);
        // SAFETY: the body has one word.
        unsafe { body.write(value.to_bits()) };
        t
    }

    /// An integer: a small when it fits, a bignum otherwise.
    #[inline]
    pub fn int(&mut self, value: i64) -> Term {
        match Term::small(value) {
            Some(t) => t,
            None => self.bigint(&BigInt::from(value)),
        }
    }

    /// An integer of either representation.
    pub fn integer(&mut self, value: &Integer) -> Term {
        match value {
            Integer::Small(v) => self.int(*v),
            Integer::Big(b) => self.bigint(b),
        }
    }

    /// An integer from a `BigInt`: a small when it fits, a bignum otherwise.
    pub fn bigint(&mut self, value: &BigInt) -> Term {
        if let Ok(v) = i64::try_from(value) {
            if let Some(t) = Term::small(v) {
                return t;
            }
        }
        let digits = value.magnitude().iter_u64_digits();
        let subtag = if value.sign() == Sign::Minus {
            Subtag::NegBig
        } else {
            Subtag::PosBig
        };
        let n = digits.len();
        let (t, body) = self.object(subtag, n);
        for (i, d) in digits.take(n).enumerate() {
            // SAFETY: the body has room for n digits; `take` stops at n.
            // (The iterator is exact-sized: it yields all n.)
            unsafe { body.add(i).write(d) };
        }
        t
    }

    /// A binary holding `bytes`: on the heap up to [`HEAP_BIN_LIMIT`] bytes,
    /// off the heap above.
    pub fn binary(&mut self, bytes: &[u8]) -> Term {
        if bytes.len() <= HEAP_BIN_LIMIT {
            self.heap_binary(bytes)
        } else {
            self.refc_binary(OffHeapBinary::new(bytes.into()), bytes.len())
        }
    }

    /// A binary holding `bytes`, taking the vector over rather than copying
    /// it when it goes off the heap.
    pub fn binary_from_vec(&mut self, bytes: Vec<u8>) -> Term {
        if bytes.len() <= HEAP_BIN_LIMIT {
            self.heap_binary(&bytes)
        } else {
            let size = bytes.len();
            self.refc_binary(OffHeapBinary::new(bytes.into_boxed_slice()), size)
        }
    }

    /// A binary stored on the heap, whatever its size.
    pub fn heap_binary(&mut self, bytes: &[u8]) -> Term {
        let data_words = bytes.len().div_ceil(8);
        let (t, body) = self.object(Subtag::HeapBin, 1 + data_words);
        // SAFETY: the body has 1 + data_words words: the size, then the bytes
        // (the last word zero-padded).
        unsafe {
            body.write(bytes.len() as u64);
            body.add(data_words).write(0);
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), body.add(1) as *mut u8, bytes.len());
        }
        t
    }

    /// A refc-binary object for `bin`, taking over one reference to it that
    /// the caller owns. `size` is the binary's size in bytes.
    pub fn refc_binary(&mut self, bin: *const OffHeapBinary, size: usize) -> Term {
        let (t, body) = self.object(Subtag::RefcBin, 2);
        // SAFETY: the body has two words.
        unsafe {
            body.write(size as u64);
            body.add(1).write(bin as u64);
        }
        self.register_bin(t.ptr());
        t
    }

    /// A sub-binary: `bit_size` bits of the binary `orig` from `bit_offset`.
    /// `orig` may itself be a sub-binary; the result refers to its storage.
    #[inline]
    pub fn sub_binary(&mut self, orig: Term, bit_offset: usize, bit_size: usize) -> Term {
        match orig.as_sub_binary() {
            Some((whole, offset, _)) => {
                self.sub_binary_of_whole(whole, offset + bit_offset, bit_size)
            }
            None => self.sub_binary_of_whole(orig, bit_offset, bit_size),
        }
    }

    /// [`Heap::sub_binary`] of `whole`, a heap or refc binary (never a
    /// sub-binary, which `sub_binary` flattens first): without that test,
    /// and inlined, for the interpreter's hot paths (a binary appended to
    /// in a loop gets a new sub-binary each time).
    #[inline(always)]
    pub fn sub_binary_of_whole(&mut self, whole: Term, bit_offset: usize, bit_size: usize) -> Term {
        debug_assert!(whole.as_sub_binary().is_none());
        let (t, body) = self.object(Subtag::SubBin, 3);
        // SAFETY: the body has three words.
        unsafe {
            body.write(bit_size as u64);
            body.add(1).write(bit_offset as u64);
            body.add(2).write(whole.raw());
        }
        t
    }

    /// A bitstring of `bit_size` bits taken from the start of `bytes` (the
    /// last partial byte's bits in its high end).
    pub fn bitstring(&mut self, bytes: &[u8], bit_size: usize) -> Term {
        let whole = self.binary(&bytes[..bit_size.div_ceil(8)]);
        if bit_size % 8 == 0 {
            whole
        } else {
            self.sub_binary(whole, 0, bit_size)
        }
    }

    /// A closure of `entry` created by `creator`, capturing `free`.
    pub fn closure(&mut self, entry: &'static FunEntry, creator: Term, free: &[Term]) -> Term {
        let (t, body) = self.object(Subtag::Fun, 2 + free.len());
        // SAFETY: the body has 2 + free.len() words.
        unsafe {
            body.write(entry as *const FunEntry as u64);
            body.add(1).write(creator.raw());
            std::ptr::copy_nonoverlapping(free.as_ptr() as *const u64, body.add(2), free.len());
        }
        t
    }

    /// A native record of `def` with `values` in the definition's field
    /// order (`values.len()` must be `def.fields.len()`).
    pub fn record(&mut self, def: &'static RecordDef, values: &[Term]) -> Term {
        debug_assert_eq!(values.len(), def.fields.len());
        let (t, body) = self.object(Subtag::Record, 1 + values.len());
        // SAFETY: the body has 1 + values.len() words.
        unsafe {
            body.write(def as *const RecordDef as u64);
            std::ptr::copy_nonoverlapping(values.as_ptr() as *const u64, body.add(1), values.len());
        }
        t
    }

    /// An export fun `fun M:F/A`.
    pub fn export(&mut self, export: &'static Export) -> Term {
        let (t, body) = self.object(Subtag::Export, 1);
        // SAFETY: the body has one word.
        unsafe { body.write(export as *const Export as u64) };
        t
    }

    /// A local reference with three id words.
    pub fn local_ref(&mut self, ids: [u32; 3]) -> Term {
        self.words_object(Subtag::Ref, &pack_u32s(&ids))
    }

    /// A reference of another node, with up to five id words.
    pub fn external_ref(&mut self, node: Atom, creation: u32, ids: &[u32]) -> Term {
        let ids = &ids[..ids.len().min(5)];
        let mut words = vec![Term::atom(node).raw(), creation as u64, ids.len() as u64];
        words.extend(pack_u32s(ids));
        self.words_object(Subtag::ExternalRef, &words)
    }

    /// A pid of another node.
    pub fn external_pid(&mut self, node: Atom, id: u32, serial: u32, creation: u32) -> Term {
        self.words_object(
            Subtag::ExternalPid,
            &[
                Term::atom(node).raw(),
                id as u64,
                serial as u64,
                creation as u64,
            ],
        )
    }

    /// A port of another node.
    pub fn external_port(&mut self, node: Atom, id: u64, creation: u32) -> Term {
        self.words_object(
            Subtag::ExternalPort,
            &[Term::atom(node).raw(), id, creation as u64],
        )
    }

    /// A flat map. `keys` must be sorted in a flat map's key order
    /// ([`compare_map_keys`](crate::order::compare_map_keys), which on OTP
    /// 26+ depends on the atoms' ranks: build maps with atom keys through
    /// [`crate::map::from_pairs`] rather than listing keys here) without
    /// duplicates and hold at most [`FLAT_MAP_LIMIT`](crate::term::FLAT_MAP_LIMIT)
    /// keys; `values[i]` belongs to `keys[i]`.
    pub fn flat_map(&mut self, keys: &[Term], values: &[Term]) -> Term {
        debug_assert_eq!(keys.len(), values.len());
        let keys_tuple = self.tuple(keys);
        self.flat_map_with_keys(keys_tuple, values)
    }

    /// A flat map sharing an existing keys tuple (a literal's, say).
    pub fn flat_map_with_keys(&mut self, keys_tuple: Term, values: &[Term]) -> Term {
        let (t, body) = self.object(Subtag::FlatMap, 2 + values.len());
        // SAFETY: the body has 2 + values.len() words.
        unsafe {
            body.write(values.len() as u64);
            body.add(1).write(keys_tuple.raw());
            std::ptr::copy_nonoverlapping(values.as_ptr() as *const u64, body.add(2), values.len());
        }
        t
    }

    /// A node of a hash-trie map: occupied-slot `bitmap`, the whole map's
    /// `size` (0 for an inner node) and the `children` in bitmap order.
    pub fn hash_node(&mut self, bitmap: u64, size: u64, children: &[Term]) -> Term {
        let (t, body) = self.object(Subtag::HashMap, 2 + children.len());
        // SAFETY: the body has 2 + children.len() words.
        unsafe {
            body.write(bitmap);
            body.add(1).write(size);
            std::ptr::copy_nonoverlapping(
                children.as_ptr() as *const u64,
                body.add(2),
                children.len(),
            );
        }
        t
    }

    /// A hash-trie node like `hash_node`, whose children are `old`'s with
    /// `child` at index `i`: over `old[i]`, or before it when `insert`.
    /// Written straight into the new node, in one pass over `old`.
    ///
    /// # Panics
    /// If `i` is past `old`'s end (or at it, when replacing).
    pub fn hash_node_with(
        &mut self,
        bitmap: u64,
        size: u64,
        old: &[Term],
        i: usize,
        child: Term,
        insert: bool,
    ) -> Term {
        let rest = if insert { i } else { i + 1 };
        let (before, after) = (&old[..i], &old[rest..]);
        let n = before.len() + 1 + after.len();
        let (t, body) = self.object(Subtag::HashMap, 2 + n);
        // SAFETY: the body has 2 + n words, and the writes below are to
        // its words 0 and 1, then 2 .. 2 + i, 2 + i, and 3 + i .. 2 + n
        // (n = i + 1 + after.len()). `old` lies in the heap's existing
        // words, which an allocation never moves or overwrites.
        unsafe {
            body.write(bitmap);
            body.add(1).write(size);
            let out = body.add(2);
            for (k, c) in before.iter().enumerate() {
                out.add(k).write(c.raw());
            }
            out.add(i).write(child.raw());
            for (k, c) in after.iter().enumerate() {
                out.add(i + 1 + k).write(c.raw());
            }
        }
        t
    }

    /// A binary match context over `orig` (a heap or refc binary) with
    /// bit positions `start`, `position` and `end`.
    pub fn match_context(&mut self, orig: Term, start: usize, position: usize, end: usize) -> Term {
        self.words_object(
            Subtag::MatchCtx,
            &[position as u64, end as u64, start as u64, orig.raw()],
        )
    }

    /// An object whose body is exactly `words`.
    fn words_object(&mut self, subtag: Subtag, words: &[u64]) -> Term {
        let (t, body) = self.object(subtag, words.len());
        // SAFETY: the body has words.len() words.
        unsafe { std::ptr::copy_nonoverlapping(words.as_ptr(), body, words.len()) };
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn smalls(list: Term) -> Vec<i64> {
        list.list_to_vec()
            .expect("proper list")
            .iter()
            .map(|t| t.as_small().expect("small"))
            .collect()
    }

    #[test]
    fn list_of_n_in_order_reversed_and_short() {
        let mut heap = Heap::new();
        let items = (1..=4).map(Term::small_unchecked);
        let tail = heap.list(&[Term::small_unchecked(9)]);
        let forward = heap.list_of_n(4, items.clone(), tail, false);
        assert_eq!(smalls(forward), [1, 2, 3, 4, 9]);
        let backward = heap.list_of_n(4, items.clone(), Term::NIL, true);
        assert_eq!(smalls(backward), [4, 3, 2, 1]);
        assert_eq!(heap.list_of_n(0, items.clone(), tail, false), tail);
        let short = heap.list_of_n(3, items.take(1), Term::NIL, false);
        assert_eq!(short.list_len(), Some(3));
        // Longer than the young generation: one fragment holds every cell.
        let long = heap.list_of_n(1000, (0..1000).map(Term::small_unchecked), Term::NIL, true);
        assert_eq!(smalls(long), (0..1000).rev().collect::<Vec<_>>());
    }

    #[test]
    fn a_node_with_a_child_inserted_or_replaced_keeps_the_others_in_order() {
        let mut heap = Heap::new();
        let kids: Vec<Term> = (1..=4).map(Term::small_unchecked).collect();
        let new = Term::small_unchecked(9);
        let children = |t: Term| t.as_hash_node().map(|n| n.children.to_vec());
        for i in 0..=4 {
            let node = heap.hash_node_with(0b1111, 7, &kids, i, new, true);
            let mut want = kids.clone();
            want.insert(i, new);
            assert_eq!(children(node), Some(want), "insert at {i}");
            let view = node.as_hash_node().unwrap();
            assert_eq!((view.bitmap, view.size), (0b1111, 7));
        }
        for i in 0..4 {
            let node = heap.hash_node_with(0b1111, 0, &kids, i, new, false);
            let mut want = kids.clone();
            want[i] = new;
            assert_eq!(children(node), Some(want), "replace at {i}");
        }
    }
}
