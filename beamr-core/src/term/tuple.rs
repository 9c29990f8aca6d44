//! Tuples.

use super::header::Subtag;
use super::word::Term;

impl Term {
    /// The elements of a tuple.
    #[inline]
    pub fn as_tuple(self) -> Option<&'static [Term]> {
        if self.is_boxed_with(Subtag::Tuple) {
            let words = self.boxed_words();
            // SAFETY: a tuple's words after the header are all terms, and
            // `Term` is `repr(transparent)` over `u64`.
            Some(unsafe { std::slice::from_raw_parts(words.as_ptr() as *const Term, words.len()) })
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
        debug_assert!(self.as_tuple().is_some_and(|t| index < t.len()));
        // SAFETY: per the contract, element `index` is a live word after the header.
        unsafe { self.ptr().add(1 + index).write(value.raw()) };
    }
}
