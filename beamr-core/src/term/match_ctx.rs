//! Binary match contexts: the state of one bit-syntax match in progress.
//!
//! ```text
//! [hdr, position, end, start, orig]      (one word each)
//!   position  bits: where the next segment is read, start <= position <= end
//!   end       bits: one past the last bit that may be matched
//!   start     bits: where the match began (the offset of the matched binary)
//!   orig      term: the heap or refc binary holding the bytes
//! ```
//!
//! Positions count bits from the first bit of `orig`'s bytes. The three
//! position words are raw (the collector skips them); `orig` is a term.

use super::header::Subtag;
use super::word::Term;

/// A read-only snapshot of a match context's fields.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MatchCtxView {
    /// The heap or refc binary whose bytes are matched.
    pub orig: Term,
    /// Bit offset where the match began.
    pub start: usize,
    /// Bit offset of the next segment.
    pub position: usize,
    /// Bit offset one past the last matchable bit.
    pub end: usize,
}

impl Term {
    /// The fields of a match context.
    #[inline(always)]
    pub fn as_match_context(self) -> Option<MatchCtxView> {
        if self.is_boxed_with(Subtag::MatchCtx) {
            // SAFETY: a match context is `[hdr, position, end, start, orig]`
            // (this module's layout), alive as long as the term; read
            // without the header's arity, which is always 4.
            let w = |i: usize| unsafe { self.ptr().add(1 + i).read() };
            Some(MatchCtxView {
                position: w(0) as usize,
                end: w(1) as usize,
                start: w(2) as usize,
                orig: Term::from_word(w(3)),
            })
        } else {
            None
        }
    }

    /// True for a match context.
    #[inline]
    pub fn is_match_context(self) -> bool {
        self.is_boxed_with(Subtag::MatchCtx)
    }

    /// Moves a match context's position (the BEAM updates match contexts in
    /// place as segments are read).
    ///
    /// # Safety
    ///
    /// `self` must be a match context on the calling process's own heap (not
    /// a literal, not shared), and `position` must lie within its `start..=end`.
    #[inline]
    pub unsafe fn set_match_position(self, position: usize) {
        debug_assert!(self
            .as_match_context()
            .is_some_and(|c| c.start <= position && position <= c.end));
        // SAFETY: per the contract, the object is a live match context whose
        // first word after the header is its raw position word.
        unsafe { self.ptr().add(1).write(position as u64) };
    }
}

#[cfg(test)]
mod tests {
    use crate::heap::Heap;

    #[test]
    fn fields_round_trip_and_position_moves() {
        let mut heap = Heap::new();
        let bin = heap.binary(b"hello");
        let ctx = heap.match_context(bin, 8, 16, 40);
        let view = ctx.as_match_context().unwrap();
        assert_eq!((view.start, view.position, view.end), (8, 16, 40));
        assert_eq!(view.orig, bin);
        // SAFETY: ctx was just built on this heap; 24 is within 8..=40.
        unsafe { ctx.set_match_position(24) };
        assert_eq!(ctx.as_match_context().unwrap().position, 24);
        assert!(ctx.is_match_context() && !bin.is_match_context());
    }
}
