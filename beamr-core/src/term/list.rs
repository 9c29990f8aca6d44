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
