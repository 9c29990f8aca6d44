//! The bit layout of a [`Term`](super::Term) word: primary, immediate and
//! header tags. Every tag constant is defined here and nowhere else.
//!
//! ```text
//! bit  63                                                  6 5 4 3 2 1 0
//!      +----------------------------------------------------+-+-+-+-+-+-+
//!      | pointer to a cons cell (8-byte aligned)              ...   |0 1|  LIST
//!      | pointer to a boxed object's header word              ...   |1 0|  BOXED
//!      | value (60 bits, signed)                          |1 1 1 1|      SMALL integer
//!      | local pid number (60 bits)                       |0 0 1 1|      PID
//!      | local port number (60 bits)                      |0 1 1 1|      PORT
//!      | atom index (58 bits)                         |0 0|1 0 1 1|      ATOM
//!      | catch index (58 bits)                        |0 1|1 0 1 1|      CATCH (stack only)
//!      | 0                                            |1 0|1 0 1 1|      NIL `[]`
//!      | 0                                            |1 1|1 0 1 1|      NON_VALUE (no term)
//!      | arity: words after the header (56 bits) | subtag (6) |0 0|      HEADER (heap only)
//!      | code address (8-byte aligned)                      ...|0 0 0|    CODE POINTER (stack only)
//!      +----------------------------------------------------+-+-+-+-+-+-+
//! ```
//!
//! Two kinds of word exist only on a process stack, never in a register, a
//! heap object or a message: a CATCH word marks an active `catch`/`try`, and
//! a CODE POINTER word is the return address a call frame saves. A code
//! pointer shares the HEADER primary tag (`00`), which is unambiguous because
//! headers live only on heaps; its address is 8-byte aligned, so its low
//! three bits are zero. Null is not a code pointer: it is the empty stack
//! slot that `allocate_zero` writes. Neither kind is ever dereferenced as a
//! term: every pointer accessor checks for a LIST or BOXED primary tag first.
//!
//! A header word starts every boxed object; its arity counts the words that
//! follow it. During garbage collection a moved object's header is overwritten
//! with a BOXED pointer to its new copy (a forwarding pointer); a moved cons
//! cell gets NON_VALUE in its head and a LIST pointer in its tail.

/// Mask of the primary tag (bits 0..2).
pub const PRIMARY_MASK: u64 = 0b11;
/// Primary tag of a header word.
pub const PRIMARY_HEADER: u64 = 0b00;
/// Primary tag of a pointer to a cons cell.
pub const PRIMARY_LIST: u64 = 0b01;
/// Primary tag of a pointer to a boxed object.
pub const PRIMARY_BOXED: u64 = 0b10;
/// Primary tag of an immediate.
pub const PRIMARY_IMMED: u64 = 0b11;
/// Low bits of a code pointer word on a stack: an 8-byte aligned address
/// with the [`PRIMARY_HEADER`] tag.
pub const CODE_POINTER_MASK: u64 = 0b111;

/// Mask of the first immediate tag (bits 0..4).
pub const IMMED1_MASK: u64 = 0b1111;
/// Number of bits of the first immediate tag.
pub const IMMED1_BITS: u32 = 4;
/// Local process identifier.
pub const IMMED1_PID: u64 = 0b0011;
/// Local port identifier.
pub const IMMED1_PORT: u64 = 0b0111;
/// Second-level immediate (atom, catch, nil, non-value).
pub const IMMED1_IMMED2: u64 = 0b1011;
/// Small integer.
pub const IMMED1_SMALL: u64 = 0b1111;

/// Mask of the second immediate tag (bits 0..6).
pub const IMMED2_MASK: u64 = 0b11_1111;
/// Number of bits of the second immediate tag.
pub const IMMED2_BITS: u32 = 6;
/// Atom.
pub const IMMED2_ATOM: u64 = 0b00_1011;
/// Catch label (only on a process stack).
pub const IMMED2_CATCH: u64 = 0b01_1011;
/// The empty list.
pub const IMMED2_NIL: u64 = 0b10_1011;
/// The absence of a term (unbound, moved cons head).
pub const IMMED2_NON_VALUE: u64 = 0b11_1011;

/// Number of bits of a header's subtag, above the primary tag.
pub const SUBTAG_BITS: u32 = 6;
/// Shift of the subtag inside a header word.
pub const SUBTAG_SHIFT: u32 = 2;
/// Shift of the arity inside a header word.
pub const ARITY_SHIFT: u32 = SUBTAG_SHIFT + SUBTAG_BITS;

/// Bits of a small integer's value.
pub const SMALL_BITS: u32 = 64 - IMMED1_BITS;
/// Largest small integer: 2^59 - 1.
pub const MAX_SMALL: i64 = (1 << (SMALL_BITS - 1)) - 1;
/// Smallest small integer: -2^59.
pub const MIN_SMALL: i64 = -(1 << (SMALL_BITS - 1));
/// Largest local pid or port number: 2^60 - 1.
pub const MAX_LOCAL_ID: u64 = (1 << SMALL_BITS) - 1;
