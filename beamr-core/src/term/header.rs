//! Header words and the subtags of boxed objects.
//!
//! Every boxed object starts with a header word (see [`tag`](super::tag)):
//! its subtag says what the object is, its arity how many words follow. The
//! words after the header are either raw data or terms; for every subtag the
//! raw words come first and the term words last, so a collector can scan any
//! object knowing only [`Subtag::raw_prefix`].

use super::tag::{ARITY_SHIFT, PRIMARY_HEADER, PRIMARY_MASK, SUBTAG_BITS, SUBTAG_SHIFT};

/// What a boxed object is. The numeric values are the header's subtag bits.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Subtag {
    /// `[hdr, e1 .. en]`: a tuple of `arity` elements.
    Tuple = 0,
    /// `[hdr, d0 .. dn-1]`: a positive integer too large for a small; 64-bit
    /// digits, least significant first.
    PosBig = 1,
    /// `[hdr, d0 .. dn-1]`: a negative bignum's magnitude.
    NegBig = 2,
    /// `[hdr, bits]`: an IEEE 754 double.
    Float = 3,
    /// `[hdr, w0, w1]`: a local reference, three 32-bit words packed in two.
    Ref = 4,
    /// `[hdr, entry, free1 .. freen]`: a closure; `entry` is a `&'static FunEntry`.
    Fun = 5,
    /// `[hdr, entry]`: an export fun `fun M:F/A`; `entry` is a `&'static Export`.
    Export = 6,
    /// `[hdr, size, keys, v1 .. vn]`: a flat map of `size` keys; `keys` is a
    /// tuple of the keys in map-key order.
    FlatMap = 7,
    /// `[hdr, bitmap, size, child1 .. childn]`: a node of a hash array mapped
    /// trie; `size` counts the whole map's keys in a root node (0 in inner
    /// nodes); leaves are cons cells `[Key | Value]`.
    HashMap = 8,
    /// `[hdr, byte_size, data ..]`: a small binary stored on the heap.
    HeapBin = 9,
    /// `[hdr, byte_size, ptr]`: a reference to a reference-counted binary
    /// stored off the heap.
    RefcBin = 10,
    /// `[hdr, bit_size, bit_offset, orig]`: a slice of a heap or refc binary;
    /// also every bitstring whose size is not a whole number of bytes.
    SubBin = 11,
    /// `[hdr, position, end, start, orig]`: a binary match context; positions
    /// in bits into `orig`.
    MatchCtx = 12,
    /// `[hdr, node, id, serial, creation]`: a pid of another node.
    ExternalPid = 13,
    /// `[hdr, node, id, creation]`: a port of another node.
    ExternalPort = 14,
    /// `[hdr, node, creation, len, words ..]`: a reference from another node;
    /// `len` 32-bit words packed two per word.
    ExternalRef = 15,
    /// `[hdr, def, v1 .. vn]`: an OTP 29 native record; `def` is a
    /// `&'static RecordDef` (see [`crate::term::RecordDef`]), the values
    /// follow in the definition's field order.
    Record = 16,
}

impl Subtag {
    /// Every subtag, in numeric order.
    pub const ALL: [Subtag; 17] = [
        Subtag::Tuple,
        Subtag::PosBig,
        Subtag::NegBig,
        Subtag::Float,
        Subtag::Ref,
        Subtag::Fun,
        Subtag::Export,
        Subtag::FlatMap,
        Subtag::HashMap,
        Subtag::HeapBin,
        Subtag::RefcBin,
        Subtag::SubBin,
        Subtag::MatchCtx,
        Subtag::ExternalPid,
        Subtag::ExternalPort,
        Subtag::ExternalRef,
        Subtag::Record,
    ];

    /// The subtag with this numeric value, if any.
    #[inline]
    pub fn from_bits(bits: u64) -> Option<Subtag> {
        Subtag::ALL.get(bits as usize).copied()
    }

    /// How many of the `arity` words after the header are raw data (never
    /// scanned by the collector); the rest are terms.
    #[inline]
    pub fn raw_prefix(self, arity: usize) -> usize {
        match self {
            Subtag::Tuple => 0,
            Subtag::Fun | Subtag::FlatMap | Subtag::Record => 1,
            Subtag::SubBin | Subtag::HashMap => 2,
            Subtag::MatchCtx => 3,
            Subtag::PosBig
            | Subtag::NegBig
            | Subtag::Float
            | Subtag::Ref
            | Subtag::Export
            | Subtag::HeapBin
            | Subtag::RefcBin
            | Subtag::ExternalPid
            | Subtag::ExternalPort
            | Subtag::ExternalRef => arity,
        }
    }
}

/// A header word: subtag and arity.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Header(pub u64);

impl Header {
    /// The header of an object of `arity` words after the header.
    #[inline]
    pub const fn new(subtag: Subtag, arity: usize) -> Header {
        Header(((arity as u64) << ARITY_SHIFT) | ((subtag as u64) << SUBTAG_SHIFT) | PRIMARY_HEADER)
    }

    /// True if this word is a header (rather than a forwarding pointer).
    #[inline]
    pub const fn is_header(word: u64) -> bool {
        word & PRIMARY_MASK == PRIMARY_HEADER
    }

    /// The object's subtag.
    #[inline]
    pub fn subtag(self) -> Subtag {
        // Headers are only ever written by `Header::new`, so the bits are valid.
        Subtag::from_bits(self.subtag_bits()).expect("corrupt header word")
    }

    /// The subtag bits, undecoded: compared with `Subtag as u64` where a
    /// hot path tests for one subtag.
    #[inline(always)]
    pub(crate) const fn subtag_bits(self) -> u64 {
        (self.0 >> SUBTAG_SHIFT) & ((1 << SUBTAG_BITS) - 1)
    }

    /// Number of words after the header.
    #[inline]
    pub const fn arity(self) -> usize {
        (self.0 >> ARITY_SHIFT) as usize
    }
}
