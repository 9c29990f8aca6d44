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
