//! Tuples.

use super::header::Subtag;
use super::word::Term;

impl Term {
    /// The elements of a tuple, borrowed from this term: the view lives no
    /// longer than the word it was read from (see [`Term`]'s validity rule).
    #[inline]
    pub fn as_tuple(&self) -> Option<&[Term]> {
        self.tuple_elements()
    }

    /// [`Term::as_tuple`] for this crate's own traversals, which hold the
    /// slice only within one call that never collects garbage.
    #[inline]
    pub(crate) fn tuple_elements(self) -> Option<&'static [Term]> {
        if self.is_boxed_with(Subtag::Tuple) {
            Some(self.boxed_terms(0))
        } else {
            None
        }
    }

    /// True for a tuple.
    #[inline]
    pub fn is_tuple(self) -> bool {
        self.is_boxed_with(Subtag::Tuple)
    }
}

impl Term {
    /// Overwrites element `index` of a tuple in place (the BEAM's
    /// `set_tuple_element`, used only on a tuple built moments before).
    ///
    /// # Safety
    ///
    /// `self` must be a tuple with more than `index` elements that no other
    /// term can observe yet (freshly built, not a literal), and `value` must
    /// be no younger than the tuple's heap allows (on the same heap or a literal).
    pub unsafe fn set_tuple_element(self, index: usize, value: Term) {
        debug_assert!(self.tuple_elements().is_some_and(|t| index < t.len()));
        // SAFETY: per the contract, element `index` is a live word after the header.
        unsafe { self.ptr().add(1 + index).write(value.raw()) };
    }
}
