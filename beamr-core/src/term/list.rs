//! Cons cells and list traversal.

use super::word::Term;

impl Term {
    /// The head and tail of a cons cell.
    #[inline]
    pub fn as_cons(self) -> Option<(Term, Term)> {
        if self.is_cons() {
            let cell = self.ptr() as *const Term;
            // SAFETY: a list term points to a live two-word cons cell (type invariant).
            Some(unsafe { (*cell, *cell.add(1)) })
        } else {
            None
        }
    }

    /// [`Term::prefetch_boxed`] of the element `AHEAD` cells down this
    /// list (0: this cell's head), if the list is that long: the cells on
    /// the way are read, the element's boxed object only prefetched.
    #[inline(always)]
    pub fn prefetch_element<const AHEAD: usize>(self) {
        let mut list = self;
        for _ in 0..AHEAD {
            match list.as_cons() {
                Some((_, tail)) => list = tail,
                None => return,
            }
        }
        if let Some((head, _)) = list.as_cons() {
            head.prefetch_boxed();
        }
    }

    /// Iterates the elements of a list, stopping at its end; see
    /// [`ListIter::tail`] for what ended it.
    #[inline]
    pub fn iter_list(self) -> ListIter {
        ListIter { rest: self }
    }

    /// The elements of a proper list, or `None` for an improper list or a
    /// non-list.
    pub fn list_to_vec(self) -> Option<Vec<Term>> {
        let mut iter = self.iter_list();
        let items: Vec<Term> = iter.by_ref().collect();
        iter.tail().is_nil().then_some(items)
    }

    /// The length of a proper list, or `None` for an improper list or a non-list.
    pub fn list_len(self) -> Option<usize> {
        let mut iter = self.iter_list();
        let n = iter.by_ref().count();
        iter.tail().is_nil().then_some(n)
    }
}

/// An iterator over a list's elements.
#[derive(Clone)]
pub struct ListIter {
    rest: Term,
}

impl ListIter {
    /// What is left: `[]` after a proper list, the improper tail otherwise.
    pub fn tail(&self) -> Term {
        self.rest
    }
}

impl Iterator for ListIter {
    type Item = Term;

    #[inline]
    fn next(&mut self) -> Option<Term> {
        let (head, tail) = self.rest.as_cons()?;
        self.rest = tail;
        Some(head)
    }
}

#[cfg(test)]
mod tests {
    use crate::heap::Heap;
    use crate::term::Term;

    #[test]
    fn prefetching_down_a_list_stops_where_the_cells_end() {
        let mut heap = Heap::new();
        let float = heap.float(1.5);
        let proper = heap.list(&[float, Term::small_unchecked(1), float]);
        let improper = heap.cons(float, Term::small_unchecked(7));
        // Walking past the last cell would read through `[]` or 7 as if
        // they were cells.
        for list in [Term::NIL, Term::small_unchecked(3), float, proper, improper] {
            list.prefetch_element::<0>();
            list.prefetch_element::<1>();
            list.prefetch_element::<2>();
            list.prefetch_element::<5>();
        }
        assert_eq!(proper.list_len(), Some(3));
        assert_eq!(improper.as_cons(), Some((float, Term::small_unchecked(7))));
    }
}
