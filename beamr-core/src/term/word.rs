//! [`Term`]: the 64-bit tagged word, its immediates and its classification.

use std::fmt;

use super::header::{Header, Subtag};
use super::tag::*;
use crate::atom::Atom;

/// An Erlang term: one 64-bit tagged word (layout in [`tag`](super::tag)).
///
/// Immediates (small integers, atoms, local pids and ports, `[]`) live in the
/// word itself. Lists and boxed objects are pointers into a process heap, a
/// heap fragment or a module's literal area.
///
/// # Validity
///
/// A pointer term is valid while the memory it points to is alive: until its
/// heap is dropped or garbage-collected without the term among the roots, as
/// in the BEAM. The accessors in this module read through the pointer and rely
/// on that; every pointer term is built by the allocation functions of
/// [`heap`](crate::heap) from memory they own, never from an integer.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Term(u64);

impl Term {
    /// The empty list `[]`.
    pub const NIL: Term = Term(IMMED2_NIL);
    /// No term: an unbound register, a moved cons cell's head.
    pub const NON_VALUE: Term = Term(IMMED2_NON_VALUE);
    /// The atom `true`.
    pub const TRUE: Term = Term::atom(Atom::TRUE);
    /// The atom `false`.
    pub const FALSE: Term = Term::atom(Atom::FALSE);
    /// The atom `ok`.
    pub const OK: Term = Term::atom(Atom::OK);

    /// The raw 64-bit word.
    #[inline]
    pub const fn raw(self) -> u64 {
        self.0
    }

    /// Reinterprets a raw word as a term.
    ///
    /// # Safety
    ///
    /// `word` must have come from [`Term::raw`] of a term that is still valid
    /// (see the type's documentation). Any other word may be a LIST or BOXED
    /// pointer to memory that is not a term, which every accessor would read.
    #[inline]
    pub const unsafe fn from_raw(word: u64) -> Term {
        Term(word)
    }

    /// Reinterprets a word read from a heap object, a heap block or a stack
    /// slot that this crate wrote as a term: the crate-private counterpart of
    /// [`Term::from_raw`], for the heap, garbage collector and object
    /// accessors, whose layouts say which words are terms.
    #[inline]
    pub(crate) const fn from_word(word: u64) -> Term {
        Term(word)
    }

    // ----- immediates -------------------------------------------------

    /// A small integer, if `value` fits in 60 bits.
    #[inline]
    pub const fn small(value: i64) -> Option<Term> {
        if value >= MIN_SMALL && value <= MAX_SMALL {
            Some(Term(((value as u64) << IMMED1_BITS) | IMMED1_SMALL))
        } else {
            None
        }
    }

    /// A small integer from a value the caller knows fits in 60 bits.
    #[inline]
    pub const fn small_unchecked(value: i64) -> Term {
        debug_assert!(value >= MIN_SMALL && value <= MAX_SMALL);
        Term(((value as u64) << IMMED1_BITS) | IMMED1_SMALL)
    }

    /// An atom.
    #[inline]
    pub const fn atom(atom: Atom) -> Term {
        Term(((atom.index() as u64) << IMMED2_BITS) | IMMED2_ATOM)
    }

    /// `true` or `false`.
    #[inline]
    pub const fn bool(b: bool) -> Term {
        Term::atom(Atom::from_bool(b))
    }

    /// A local pid with number `id` (at most [`MAX_LOCAL_ID`]).
    #[inline]
    pub const fn pid(id: u64) -> Term {
        debug_assert!(id <= MAX_LOCAL_ID);
        Term((id << IMMED1_BITS) | IMMED1_PID)
    }

    /// A local port with number `id` (at most [`MAX_LOCAL_ID`]).
    #[inline]
    pub const fn port(id: u64) -> Term {
        debug_assert!(id <= MAX_LOCAL_ID);
        Term((id << IMMED1_BITS) | IMMED1_PORT)
    }

    /// A catch label (only meaningful on a process stack).
    #[inline]
    pub const fn catch(index: u64) -> Term {
        Term((index << IMMED2_BITS) | IMMED2_CATCH)
    }

    /// A code pointer word: the return address `addr` as a call frame saves
    /// it on a process stack (layout in [`tag`](super::tag)).
    ///
    /// `addr` must be 8-byte aligned (instructions are); its low bits are
    /// cleared whatever it is, so the word can never read as a LIST or BOXED
    /// pointer, only as a header-tagged word that no accessor dereferences.
    #[inline]
    pub fn code_pointer(addr: *const ()) -> Term {
        debug_assert!(
            addr as u64 & CODE_POINTER_MASK == 0,
            "unaligned code address"
        );
        Term(addr as u64 & !CODE_POINTER_MASK)
    }

    /// The return address of a code pointer word, if this stack word is one
    /// (null, the empty slot, is not).
    #[inline]
    pub fn as_code_pointer(self) -> Option<*const ()> {
        (self.0 != 0 && self.0 & CODE_POINTER_MASK == 0).then_some(self.0 as *const ())
    }

    /// Builds a list pointer to the cons cell at `cell`.
    #[inline]
    pub(crate) fn list_ptr(cell: *const Term) -> Term {
        debug_assert!(cell as u64 & 0b111 == 0);
        Term(cell as u64 | PRIMARY_LIST)
    }

    /// Builds a boxed pointer to the header word at `header`.
    #[inline]
    pub(crate) fn boxed_ptr(header: *const u64) -> Term {
        debug_assert!(header as u64 & 0b111 == 0);
        Term(header as u64 | PRIMARY_BOXED)
    }

    // ----- small-integer arithmetic on tagged words -------------------

    /// True when `self` and `other` are both small integers (one test: the
    /// small tag is all ones in the low bits).
    #[inline(always)]
    pub const fn both_small(self, other: Term) -> bool {
        self.0 & other.0 & IMMED1_MASK == IMMED1_SMALL
    }

    /// `self + other` when both are small integers and so is the sum; `None`
    /// otherwise. The words are added as they are, with `other`'s tag bits
    /// cleared: `(a << 4 | tag) + (b << 4) = (a + b) << 4 | tag`, and the sum
    /// leaves the small range exactly when the 64-bit addition overflows.
    #[inline(always)]
    pub const fn small_add(self, other: Term) -> Option<Term> {
        if !self.both_small(other) {
            return None;
        }
        match (self.0 as i64).checked_add((other.0 & !IMMED1_MASK) as i64) {
            Some(sum) => Some(Term(sum as u64)),
            None => None,
        }
    }

    /// `self - other` when both are small integers and so is the
    /// difference; `None` otherwise (as [`small_add`](Self::small_add)).
    #[inline(always)]
    pub const fn small_sub(self, other: Term) -> Option<Term> {
        if !self.both_small(other) {
            return None;
        }
        match (self.0 as i64).checked_sub((other.0 & !IMMED1_MASK) as i64) {
            Some(diff) => Some(Term(diff as u64)),
            None => None,
        }
    }

    /// `self < other` when both are small integers (tagged words order as
    /// their values do); `None` otherwise.
    #[inline(always)]
    pub const fn small_lt(self, other: Term) -> Option<bool> {
        if self.both_small(other) {
            Some((self.0 as i64) < (other.0 as i64))
        } else {
            None
        }
    }

    // ----- classification ---------------------------------------------

    /// True for a small integer.
    #[inline]
    pub const fn is_small(self) -> bool {
        self.0 & IMMED1_MASK == IMMED1_SMALL
    }

    /// True for an atom.
    #[inline]
    pub const fn is_atom(self) -> bool {
        self.0 & IMMED2_MASK == IMMED2_ATOM
    }

    /// True for `[]`.
    #[inline]
    pub const fn is_nil(self) -> bool {
        self.0 == IMMED2_NIL
    }

    /// True for [`Term::NON_VALUE`].
    #[inline]
    pub const fn is_non_value(self) -> bool {
        self.0 == IMMED2_NON_VALUE
    }

    /// True for a pointer to a cons cell (a non-empty list).
    #[inline]
    pub const fn is_cons(self) -> bool {
        self.0 & PRIMARY_MASK == PRIMARY_LIST
    }

    /// True for `[]` or a cons cell.
    #[inline]
    pub const fn is_list(self) -> bool {
        self.is_cons() || self.is_nil()
    }

    /// True for a pointer to a boxed object.
    #[inline]
    pub const fn is_boxed(self) -> bool {
        self.0 & PRIMARY_MASK == PRIMARY_BOXED
    }

    /// Asks the processor to start loading the boxed object this term
    /// points to into its cache, for code that will read the object a
    /// little later: a hint, with no effect on what anything computes.
    /// Nothing for other terms.
    #[inline(always)]
    pub fn prefetch_boxed(self) {
        #[cfg(target_arch = "x86_64")]
        if self.is_boxed() {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            // SAFETY: `_mm_prefetch` needs SSE, which is in the x86_64
            // target's baseline features; PREFETCHT0 loads nothing into a
            // register and never faults, whatever the address (Intel SDM,
            // PREFETCHh).
            unsafe { _mm_prefetch::<_MM_HINT_T0>(self.ptr() as *const i8) };
        }
    }

    /// True for an immediate (no pointer).
    #[inline]
    pub const fn is_immediate(self) -> bool {
        self.0 & PRIMARY_MASK == PRIMARY_IMMED
    }

    /// True for a local pid.
    #[inline]
    pub const fn is_local_pid(self) -> bool {
        self.0 & IMMED1_MASK == IMMED1_PID
    }

    /// True for a local port.
    #[inline]
    pub const fn is_local_port(self) -> bool {
        self.0 & IMMED1_MASK == IMMED1_PORT
    }

    /// True for a catch label.
    #[inline]
    pub const fn is_catch(self) -> bool {
        self.0 & IMMED2_MASK == IMMED2_CATCH
    }

    /// The value of a small integer.
    #[inline]
    pub const fn as_small(self) -> Option<i64> {
        if self.is_small() {
            Some((self.0 as i64) >> IMMED1_BITS)
        } else {
            None
        }
    }

    /// The value of a term known to be a small integer.
    #[inline]
    pub const fn small_value(self) -> i64 {
        debug_assert!(self.is_small());
        (self.0 as i64) >> IMMED1_BITS
    }

    /// The atom, if this is one.
    #[inline]
    pub const fn as_atom(self) -> Option<Atom> {
        if self.is_atom() {
            Some(Atom::from_index_unchecked((self.0 >> IMMED2_BITS) as u32))
        } else {
            None
        }
    }

    /// The number of a local pid.
    #[inline]
    pub const fn as_local_pid(self) -> Option<u64> {
        if self.is_local_pid() {
            Some(self.0 >> IMMED1_BITS)
        } else {
            None
        }
    }

    /// The number of a local port.
    #[inline]
    pub const fn as_local_port(self) -> Option<u64> {
        if self.is_local_port() {
            Some(self.0 >> IMMED1_BITS)
        } else {
            None
        }
    }

    /// The index of a catch label.
    #[inline]
    pub const fn as_catch(self) -> Option<u64> {
        if self.is_catch() {
            Some(self.0 >> IMMED2_BITS)
        } else {
            None
        }
    }

    /// The address of the cons cell or boxed header this term points to.
    #[inline]
    pub(crate) const fn ptr(self) -> *mut u64 {
        (self.0 & !PRIMARY_MASK) as *mut u64
    }

    /// The header of a boxed term.
    #[inline]
    pub fn header(self) -> Option<Header> {
        if self.is_boxed() {
            // SAFETY: a boxed term points to a live header word (type invariant).
            Some(Header(unsafe { *self.ptr() }))
        } else {
            None
        }
    }

    /// The subtag of a boxed term.
    #[inline]
    pub fn subtag(self) -> Option<Subtag> {
        self.header().map(Header::subtag)
    }

    /// True if this is a boxed object with the given subtag.
    #[inline]
    pub fn is_boxed_with(self, subtag: Subtag) -> bool {
        self.boxed_subtag_bits() == Some(subtag as u64)
    }

    /// A boxed term's subtag bits as they are ([`Header::subtag_bits`]):
    /// no decoding into a [`Subtag`] (and no corrupt-header check), for
    /// hot paths that compare them.
    #[inline(always)]
    pub(crate) fn boxed_subtag_bits(self) -> Option<u64> {
        // SAFETY: a boxed term points to a live header word (type invariant).
        self.is_boxed()
            .then(|| Header(unsafe { *self.ptr() }).subtag_bits())
    }

    /// The words after a boxed term's header from `skip` on, as terms.
    #[inline]
    pub(crate) fn boxed_terms(self, skip: usize) -> &'static [Term] {
        let words = &self.boxed_words()[skip..];
        // SAFETY: callers name objects whose words after the header, past
        // `skip`, are all terms (tuples, map values, closure environments);
        // `Term` is `repr(transparent)` over `u64`.
        unsafe { std::slice::from_raw_parts(words.as_ptr() as *const Term, words.len()) }
    }

    /// The words of a boxed object after its header, alive as long as the
    /// term (see the type's validity rule).
    #[inline]
    pub(crate) fn boxed_words(self) -> &'static [u64] {
        debug_assert!(self.is_boxed());
        let header = Header(
            // SAFETY: a boxed term points to a live header word (type invariant).
            unsafe { *self.ptr() },
        );
        // SAFETY: the header's arity counts the live words that follow it;
        // they stay alive as long as the term (type invariant).
        unsafe { std::slice::from_raw_parts(self.ptr().add(1), header.arity()) }
    }

    /// The kind of term, for matching.
    #[inline]
    pub fn kind(self) -> Kind {
        match self.0 & PRIMARY_MASK {
            PRIMARY_LIST => Kind::Cons,
            PRIMARY_BOXED => match self.subtag() {
                Some(Subtag::Tuple) => Kind::Tuple,
                Some(Subtag::PosBig | Subtag::NegBig) => Kind::BigInt,
                Some(Subtag::Float) => Kind::Float,
                Some(Subtag::Ref | Subtag::ExternalRef) => Kind::Ref,
                Some(Subtag::Fun | Subtag::Export) => Kind::Fun,
                Some(Subtag::FlatMap | Subtag::HashMap) => Kind::Map,
                Some(Subtag::HeapBin | Subtag::RefcBin | Subtag::SubBin) => Kind::Binary,
                Some(Subtag::MatchCtx) => Kind::MatchContext,
                Some(Subtag::ExternalPid) => Kind::Pid,
                Some(Subtag::ExternalPort) => Kind::Port,
                Some(Subtag::Record) => Kind::Record,
                None => Kind::Invalid,
            },
            PRIMARY_IMMED => match self.0 & IMMED1_MASK {
                IMMED1_SMALL => Kind::SmallInt,
                IMMED1_PID => Kind::Pid,
                IMMED1_PORT => Kind::Port,
                _ => match self.0 & IMMED2_MASK {
                    IMMED2_ATOM => Kind::Atom,
                    IMMED2_NIL => Kind::Nil,
                    IMMED2_CATCH => Kind::Catch,
                    _ => Kind::NonValue,
                },
            },
            _ => Kind::Invalid,
        }
    }
}

/// What kind of term a [`Term`] is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An integer in the word.
    SmallInt,
    /// An integer on the heap.
    BigInt,
    /// A float.
    Float,
    /// An atom.
    Atom,
    /// A reference, local or external.
    Ref,
    /// A closure or export fun.
    Fun,
    /// A port, local or external.
    Port,
    /// A pid, local or external.
    Pid,
    /// A tuple.
    Tuple,
    /// A map, flat or hashed.
    Map,
    /// An OTP 29 native record.
    Record,
    /// `[]`.
    Nil,
    /// A non-empty list.
    Cons,
    /// A binary or bitstring.
    Binary,
    /// A binary match context (internal to the interpreter).
    MatchContext,
    /// A catch label (internal to the interpreter).
    Catch,
    /// No term.
    NonValue,
    /// A header word where a term was expected (a bug), or a code pointer
    /// read off a stack.
    Invalid,
}

impl fmt::Debug for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            Kind::SmallInt => write!(f, "{}", self.small_value()),
            Kind::Atom => write!(f, "{:?}", self.as_atom().map(Atom::name).unwrap_or("?")),
            Kind::Nil => f.write_str("[]"),
            Kind::NonValue => f.write_str("NON_VALUE"),
            kind => write!(f, "Term({kind:?} {:#x})", self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn tagged_small_arithmetic_agrees_with_the_values() {
        let values = [
            0,
            1,
            -1,
            2,
            -7,
            1 << 40,
            -(1 << 40),
            MAX_SMALL,
            MAX_SMALL - 1,
            MIN_SMALL,
            MIN_SMALL + 1,
        ];
        for &a in &values {
            for &b in &values {
                let (ta, tb) = (Term::small_unchecked(a), Term::small_unchecked(b));
                assert_eq!(ta.small_add(tb), Term::small(a + b), "{a} + {b}");
                assert_eq!(ta.small_sub(tb), Term::small(a - b), "{a} - {b}");
                assert_eq!(ta.small_lt(tb), Some(a < b), "{a} < {b}");
            }
        }
        let atom = Term::atom(crate::atom::Atom::OK);
        let one = Term::small_unchecked(1);
        assert_eq!(one.small_add(atom), None);
        assert_eq!(atom.small_sub(one), None);
        assert_eq!(Term::NIL.small_lt(one), None);
    }

    use super::*;

    #[test]
    fn code_pointers_round_trip_and_never_read_as_pointer_terms() {
        let code = [0u64; 4];
        for slot in &code {
            let addr = slot as *const u64 as *const ();
            let w = Term::code_pointer(addr);
            assert_eq!(w.as_code_pointer(), Some(addr));
            assert_eq!(w.kind(), Kind::Invalid);
            assert!(!w.is_list() && !w.is_boxed() && w.as_tuple().is_none());
            assert_eq!(w.as_catch(), None);
        }
        assert_eq!(Term::from_word(0).as_code_pointer(), None);
        assert_eq!(Term::catch(3).as_code_pointer(), None);
        assert_eq!(Term::NIL.as_code_pointer(), None);
        assert_eq!(Term::small_unchecked(8).as_code_pointer(), None);
    }

    #[test]
    fn term_is_one_word() {
        assert_eq!(std::mem::size_of::<Term>(), 8);
        assert_eq!(std::mem::align_of::<Term>(), 8);
    }

    #[test]
    fn small_integers_round_trip_at_the_limits() {
        for v in [0, 1, -1, 42, MAX_SMALL, MIN_SMALL, 1 << 40, -(1 << 40)] {
            let t = Term::small(v).unwrap();
            assert!(t.is_small());
            assert_eq!(t.as_small(), Some(v));
            assert_eq!(t.kind(), Kind::SmallInt);
        }
        assert_eq!(Term::small(MAX_SMALL + 1), None);
        assert_eq!(Term::small(MIN_SMALL - 1), None);
    }

    #[test]
    fn immediates_classify_distinctly() {
        assert_eq!(Term::NIL.kind(), Kind::Nil);
        assert_eq!(Term::atom(Atom::OK).kind(), Kind::Atom);
        assert_eq!(Term::atom(Atom::OK).as_atom(), Some(Atom::OK));
        assert_eq!(Term::pid(7).kind(), Kind::Pid);
        assert_eq!(Term::pid(7).as_local_pid(), Some(7));
        assert_eq!(Term::port(9).as_local_port(), Some(9));
        assert_eq!(Term::catch(3).as_catch(), Some(3));
        assert_eq!(Term::NON_VALUE.kind(), Kind::NonValue);
        assert!(Term::NIL.is_list() && !Term::NIL.is_cons());
        assert!(Term::pid(MAX_LOCAL_ID).as_local_pid() == Some(MAX_LOCAL_ID));
    }
}
