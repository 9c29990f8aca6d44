//! The file layout: every offset, size and bit position of the format, and
//! the only code that encodes or decodes an event header word.
//!
//! The drawing and the prose specification are in `docs/format.md`; this
//! module is that document in code. All multi-byte values are little-endian
//! 64-bit words; all offsets are in bytes from the start of the file unless a
//! name says `words`.
//!
//! ```text
//! 0      file header            FILE_HEADER_BYTES (128)
//! 128    ring header 0          RING_HEADER_BYTES (128): head on one cache line,
//!        ring header 1 ...                           tail and tail_seq on the next
//! R      ring 0 data            ring_words * 8
//!        ring 1 data ...
//! S      string table           strings_capacity bytes
//! ```

/// `b"BEAMRTRC"` read as a little-endian word.
pub const MAGIC: u64 = u64::from_le_bytes(*b"BEAMRTRC");
/// The format version this crate writes and reads. Version 2 added the
/// checksum word at the end of every event (see [`checksum`]).
pub const VERSION: u64 = 2;

/// Bytes of a cache line, the unit of separation between written fields.
pub const CACHE_LINE: usize = 64;

/// Size of the file header.
pub const FILE_HEADER_BYTES: usize = 128;
/// Word indices of the file header's fields.
pub mod file_header {
    /// [`MAGIC`](super::MAGIC); written last when the file is created.
    pub const MAGIC: usize = 0;
    /// [`VERSION`](super::VERSION).
    pub const VERSION: usize = 1;
    /// Number of rings.
    pub const RING_COUNT: usize = 2;
    /// Words per ring (a power of two).
    pub const RING_WORDS: usize = 3;
    /// Byte offset of the first ring header.
    pub const RING_HEADERS_OFFSET: usize = 4;
    /// Byte offset of the first ring's data.
    pub const RINGS_OFFSET: usize = 5;
    /// Byte offset of the string table.
    pub const STRINGS_OFFSET: usize = 6;
    /// Bytes reserved for the string table.
    pub const STRINGS_CAPACITY: usize = 7;
    /// Bytes of the string table in use (published with release ordering).
    pub const STRINGS_USED: usize = 8;
    /// Bit 0: paused. Other bits reserved (0).
    pub const FLAGS: usize = 9;
    /// OS process id of the writer.
    pub const WRITER_PID: usize = 10;
    /// Wall-clock time at creation, nanoseconds since the Unix epoch.
    pub const CREATED_UNIX_NS: usize = 11;
    /// The writer's monotonic clock at creation, in nanoseconds.
    pub const CREATED_MONOTONIC_NS: usize = 12;
    /// Total file size in bytes.
    pub const FILE_SIZE: usize = 13;
    /// Names that did not fit in the string table.
    pub const STRINGS_DROPPED: usize = 14;
    /// Events the writer's tracer dropped before writing them (its limits
    /// on events per second or in all); 0 in files of writers without
    /// limits.
    pub const EVENTS_DROPPED: usize = 15;
}

/// The `paused` bit of [`file_header::FLAGS`].
pub const FLAG_PAUSED: u64 = 1;

/// Size of one ring header: two cache lines.
pub const RING_HEADER_BYTES: usize = 2 * CACHE_LINE;
/// Word indices inside a ring header.
pub mod ring_header {
    /// Monotonic word index of the oldest event still in the ring (first
    /// cache line, alone).
    pub const HEAD: usize = 0;
    /// Monotonic word index one past the newest complete event (second
    /// cache line).
    pub const TAIL: usize = 8;
    /// Number of events ever written to the ring (sequence number of the
    /// next one).
    pub const TAIL_SEQ: usize = 9;
    /// 1 while a writer handle owns the ring (in-process bookkeeping).
    pub const CLAIMED: usize = 10;
}

/// Smallest ring, in words: two of the largest events.
pub const MIN_RING_WORDS: usize = 512;
/// Largest ring, in words (8 GiB); keeps sequence numbers unambiguous.
pub const MAX_RING_WORDS: usize = 1 << 30;
/// Largest event, in words, header and checksum included.
pub const MAX_EVENT_WORDS: usize = 255;
/// Words before an event's payload: the header word and the timestamp.
pub const EVENT_PREFIX_WORDS: usize = 2;
/// Words after an event's payload: the checksum word.
pub const EVENT_SUFFIX_WORDS: usize = 1;
/// Words of an event that are not payload.
pub const EVENT_OVERHEAD_WORDS: usize = EVENT_PREFIX_WORDS + EVENT_SUFFIX_WORDS;
/// Smallest event (not padding), in words: one with no payload.
pub const MIN_EVENT_WORDS: usize = EVENT_OVERHEAD_WORDS;
/// Largest payload, in words.
pub const MAX_PAYLOAD_WORDS: usize = MAX_EVENT_WORDS - EVENT_OVERHEAD_WORDS;

/// Largest plausible ring position (`head`, `tail`): 2^60 words, decades
/// of writing at a billion words a second. A larger one is corruption.
pub const MAX_POSITION: u64 = 1 << 60;
/// Largest plausible count in the file header (`strings_dropped`,
/// `events_dropped`): 2^56, decades of dropping at a hundred million
/// events a second. A larger one is corruption.
pub const MAX_HEADER_COUNT: u64 = 1 << 56;

/// The checksum's starting value.
pub const CHECKSUM_SEED: u64 = 0x9e37_79b9_7f4a_7c15;
/// The checksum's multiplier (odd, so that multiplying by it is a
/// bijection of 64-bit words).
const CHECKSUM_MULTIPLIER: u64 = 0xff51_afd7_ed55_8ccd;

/// One step of the event checksum: folds `word` into `h`.
///
/// `(h ^ word) * M` with `M` odd is a bijection of `h` for a fixed `word`
/// and of `word` for a fixed `h`, so two sequences of words that differ in
/// exactly one word (in any number of its bits) always have different
/// checksums: every single-bit flip, and every damage confined to one word,
/// is detected. Two instructions a word.
#[inline(always)]
pub const fn checksum_step(h: u64, word: u64) -> u64 {
    (h ^ word).wrapping_mul(CHECKSUM_MULTIPLIER)
}

/// The checksum of an event's words before its checksum word (header,
/// timestamp, payload), as stored in its last word.
pub fn checksum(words: &[u64]) -> u64 {
    words
        .iter()
        .fold(CHECKSUM_SEED, |h, &w| checksum_step(h, w))
}
/// Most rings in one file.
pub const MAX_RINGS: usize = 4096;

/// What an event is, by family (bits 8..16 of the header word).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Category {
    /// Filler up to the end of the ring; no timestamp, no sequence number.
    Padding,
    /// A beamr trace event: the kind is a `beamr_trace::TraceTag` number.
    Trace,
    /// An event of a program using the recorder directly: kinds are its own.
    User,
    /// Counts over an interval (the flight recorder's messages and time
    /// slices): kinds and layouts in `crate::counters`.
    Counters,
}

impl Category {
    /// The number stored in the header word.
    pub const fn to_u8(self) -> u8 {
        match self {
            Category::Padding => 0,
            Category::Trace => 1,
            Category::User => 2,
            Category::Counters => 3,
        }
    }

    /// The category with number `n`, if it is one.
    pub const fn from_u8(n: u8) -> Option<Category> {
        match n {
            0 => Some(Category::Padding),
            1 => Some(Category::Trace),
            2 => Some(Category::User),
            3 => Some(Category::Counters),
            _ => None,
        }
    }
}

/// An event header word, decoded.
///
/// ```text
/// bit 63            32 31            16 15       8 7        0
///     | seq (low 32)   | kind (16)      | category | length   |
/// ```
/// `length` counts every word of the event, the header and the checksum
/// included (3..=255; padding 1..=255); `seq` is the low 32 bits of the
/// event's sequence number in its ring (0 for padding).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EventHeader {
    /// Words in the event, header included.
    pub len: usize,
    /// The raw category number (see [`Category::from_u8`]).
    pub category: u8,
    /// The kind within the category.
    pub kind: u16,
    /// Low 32 bits of the sequence number.
    pub seq_low: u32,
}

impl EventHeader {
    /// Encodes the header word. `len` must be at most [`MAX_EVENT_WORDS`].
    #[inline]
    pub const fn encode(self) -> u64 {
        (self.len as u64 & 0xff)
            | (self.category as u64) << 8
            | (self.kind as u64) << 16
            | (self.seq_low as u64) << 32
    }

    /// Decodes a header word.
    #[inline]
    pub const fn decode(word: u64) -> EventHeader {
        EventHeader {
            len: (word & 0xff) as usize,
            category: (word >> 8) as u8,
            kind: (word >> 16) as u16,
            seq_low: (word >> 32) as u32,
        }
    }

    /// The header of `len` words of padding.
    #[inline]
    pub const fn padding(len: usize) -> EventHeader {
        EventHeader {
            len,
            category: 0,
            kind: 0,
            seq_low: 0,
        }
    }
}

/// Reconstructs a full sequence number from its low 32 bits, given the
/// ring's `tail_seq` (read after the event was seen complete): the largest
/// number below `tail_seq` whose low bits are `low`. `None` if there is none.
#[inline]
pub const fn full_seq(low: u32, tail_seq: u64) -> Option<u64> {
    let mut d = (tail_seq as u32).wrapping_sub(low) as u64;
    if d == 0 {
        d = 1 << 32;
    }
    tail_seq.checked_sub(d)
}

/// Where everything lies in a file with these parameters.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Number of rings.
    pub ring_count: usize,
    /// Words per ring.
    pub ring_words: usize,
    /// Byte offset of ring header 0.
    pub ring_headers_offset: usize,
    /// Byte offset of ring 0's data.
    pub rings_offset: usize,
    /// Byte offset of the string table.
    pub strings_offset: usize,
    /// Bytes of the string table.
    pub strings_capacity: usize,
    /// Bytes in the file.
    pub file_size: usize,
}

impl Geometry {
    /// The layout of a new file. The caller has checked the parameters.
    pub const fn new(ring_count: usize, ring_words: usize, strings_capacity: usize) -> Geometry {
        let ring_headers_offset = FILE_HEADER_BYTES;
        let rings_offset = ring_headers_offset + ring_count * RING_HEADER_BYTES;
        let strings_offset = rings_offset + ring_count * ring_words * 8;
        let strings_capacity = strings_capacity.div_ceil(8) * 8;
        Geometry {
            ring_count,
            ring_words,
            ring_headers_offset,
            rings_offset,
            strings_offset,
            strings_capacity,
            file_size: strings_offset + strings_capacity,
        }
    }

    /// Word index of ring `i`'s header field `field`.
    #[inline]
    pub const fn ring_header_word(&self, i: usize, field: usize) -> usize {
        (self.ring_headers_offset + i * RING_HEADER_BYTES) / 8 + field
    }

    /// Word index of the first data word of ring `i`.
    #[inline]
    pub const fn ring_data_word(&self, i: usize) -> usize {
        self.rings_offset / 8 + i * self.ring_words
    }

    /// Word index of the string table's first word.
    #[inline]
    pub const fn strings_word(&self) -> usize {
        self.strings_offset / 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_word_round_trips() {
        let h = EventHeader {
            len: 255,
            category: 2,
            kind: 0xbeef,
            seq_low: 0xdead_cafe,
        };
        assert_eq!(EventHeader::decode(h.encode()), h);
        assert_eq!(h.encode() & 0xff, 255);
        assert_eq!(EventHeader::decode(EventHeader::padding(7).encode()).len, 7);
    }

    #[test]
    fn ring_headers_put_head_and_tail_on_their_own_cache_lines() {
        let g = Geometry::new(3, MIN_RING_WORDS, 100);
        let head = g.ring_header_word(1, ring_header::HEAD) * 8;
        let tail = g.ring_header_word(1, ring_header::TAIL) * 8;
        assert_eq!(head % CACHE_LINE, 0);
        assert_eq!(tail % CACHE_LINE, 0);
        assert_eq!(tail - head, CACHE_LINE);
        assert_eq!(g.rings_offset % CACHE_LINE, 0);
        assert_eq!(g.strings_offset % 8, 0);
        assert_eq!(g.strings_capacity, 104);
        assert_eq!(g.file_size, 128 + 3 * 128 + 3 * 512 * 8 + 104);
    }

    #[test]
    fn the_checksum_changes_with_any_one_word() {
        let words = [0x0001_0203_0405_0607u64, 7, 0, u64::MAX, 1 << 40];
        let sum = checksum(&words);
        for i in 0..words.len() {
            for bit in 0..64 {
                let mut w = words;
                w[i] ^= 1 << bit;
                assert_ne!(checksum(&w), sum, "word {i} bit {bit}");
            }
            let mut w = words;
            w[i] = w[i].wrapping_mul(0x1234_5677) ^ 0xffff;
            assert_ne!(checksum(&w), sum, "word {i} replaced");
        }
        // Order matters, and dropping a word changes it.
        assert_ne!(checksum(&[1, 2]), checksum(&[2, 1]));
        assert_ne!(checksum(&words[..4]), sum);
    }

    #[test]
    fn sequence_numbers_are_rebuilt_from_their_low_bits() {
        assert_eq!(full_seq(5, 6), Some(5));
        assert_eq!(full_seq(0, 1), Some(0));
        assert_eq!(full_seq(0xffff_ffff, (1 << 32) + 3), Some(0xffff_ffff));
        assert_eq!(full_seq(7, (5 << 32) + 9), Some((5 << 32) + 7));
        assert_eq!(full_seq(9, 9), None);
        assert_eq!(full_seq(3, 2), None);
    }
}
