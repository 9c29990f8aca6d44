//! Opening an existing trace file for reading: mapping it read-only and
//! checking its header against itself and its size: the layout's fields
//! against the formulas, the counters against what is possible, and every
//! ring header's positions and count against each other. A value that
//! cannot be is reported as corruption naming the field, never believed.

use std::path::Path;
use std::sync::atomic::Ordering;

use memmap2::Mmap;

use crate::error::Error;
use crate::layout::{
    file_header, ring_header, Geometry, FILE_HEADER_BYTES, FLAG_PAUSED, MAGIC, MAX_EVENT_WORDS,
    MAX_HEADER_COUNT, MAX_POSITION, MAX_RINGS, MAX_RING_WORDS, MIN_EVENT_WORDS, MIN_RING_WORDS,
    RING_HEADER_BYTES, VERSION,
};
use crate::region::Region;

/// Maps `path` read-only and validates its header.
pub(crate) fn open(path: &Path) -> Result<(Region, Geometry), Error> {
    let p = || path.to_path_buf();
    let file = std::fs::File::open(path).map_err(|source| Error::Io { path: p(), source })?;
    let meta = file
        .metadata()
        .map_err(|source| Error::Io { path: p(), source })?;
    if !meta.is_file() {
        // Mapping a directory or a device fails with an obscure errno.
        return Err(Error::Io {
            path: p(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file"),
        });
    }
    let actual = meta.len();
    if actual < FILE_HEADER_BYTES as u64 {
        // Too short even for a header: say which of the two it is.
        let mut magic = [0u8; 8];
        use std::io::Read;
        let n = (&file).read(&mut magic).unwrap_or(0);
        if n == 8 && u64::from_le_bytes(magic) == MAGIC {
            return Err(Error::Truncated {
                path: p(),
                actual,
                expected: FILE_HEADER_BYTES as u64,
            });
        }
        return Err(Error::NotATrace(p()));
    }
    // SAFETY: memmap2's contract. The file may be changed by a live writer
    // in another process while mapped; every access to the mapping is an
    // atomic load (see `region`), and the size was fixed at creation. A file
    // truncated while mapped would fault: trace files are never truncated
    // by beamr.
    let map = unsafe { Mmap::map(&file) }.map_err(|source| Error::Io { path: p(), source })?;
    let region = Region::read_only(map);
    let w = region.words();
    let get = |i: usize| w[i].load(Ordering::Relaxed);
    if w[file_header::MAGIC].load(Ordering::Acquire) != MAGIC {
        return Err(Error::NotATrace(p()));
    }
    let version = get(file_header::VERSION);
    if version != VERSION {
        return Err(Error::WrongVersion {
            path: p(),
            found: version,
            expected: VERSION,
        });
    }
    let corrupt = |what: String| Error::CorruptHeader { path: p(), what };
    let ring_count = get(file_header::RING_COUNT);
    let ring_words = get(file_header::RING_WORDS);
    if ring_count == 0 || ring_count > MAX_RINGS as u64 {
        return Err(corrupt(format!("ring count {ring_count}")));
    }
    if !ring_words.is_power_of_two()
        || ring_words < MIN_RING_WORDS as u64
        || ring_words > MAX_RING_WORDS as u64
    {
        return Err(corrupt(format!("ring size {ring_words} words")));
    }
    let strings_capacity = get(file_header::STRINGS_CAPACITY);
    if strings_capacity % 8 != 0 || strings_capacity > 1 << 40 {
        return Err(corrupt(format!("string table of {strings_capacity} bytes")));
    }
    let g = Geometry::new(
        ring_count as usize,
        ring_words as usize,
        strings_capacity as usize,
    );
    let offsets = [
        (
            "ring headers offset",
            file_header::RING_HEADERS_OFFSET,
            g.ring_headers_offset,
        ),
        ("rings offset", file_header::RINGS_OFFSET, g.rings_offset),
        (
            "strings offset",
            file_header::STRINGS_OFFSET,
            g.strings_offset,
        ),
        ("file size", file_header::FILE_SIZE, g.file_size),
    ];
    for (name, field, expected) in offsets {
        let found = get(field);
        if found != expected as u64 {
            return Err(corrupt(format!(
                "{name} is {found}, the layout needs {expected}"
            )));
        }
    }
    debug_assert_eq!(
        g.rings_offset,
        FILE_HEADER_BYTES + g.ring_count * RING_HEADER_BYTES
    );
    if actual < g.file_size as u64 {
        return Err(Error::Truncated {
            path: p(),
            actual,
            expected: g.file_size as u64,
        });
    }
    check_counters(&region, &g).map_err(corrupt)?;
    for i in 0..g.ring_count {
        check_ring_header(&region, &g, i).map_err(corrupt)?;
    }
    Ok((region, g))
}

/// The file header's fields that change while the file is written: each
/// within what a writer can have stored.
fn check_counters(region: &Region, g: &Geometry) -> Result<(), String> {
    let w = region.words();
    let get = |i: usize| w[i].load(Ordering::Relaxed);
    let flags = get(file_header::FLAGS);
    if flags & !FLAG_PAUSED != 0 {
        return Err(format!("flags {flags:#x} (only bit 0 is defined)"));
    }
    let used = get(file_header::STRINGS_USED);
    if used > g.strings_capacity as u64 || used % 8 != 0 {
        return Err(format!(
            "strings_used is {used}, the string table holds {} bytes",
            g.strings_capacity
        ));
    }
    for (name, field) in [
        ("strings_dropped", file_header::STRINGS_DROPPED),
        ("events_dropped", file_header::EVENTS_DROPPED),
    ] {
        let n = get(field);
        if n > MAX_HEADER_COUNT {
            return Err(format!("{name} is {n}, more than any writer can count"));
        }
    }
    Ok(())
}

/// Ring `i`'s header: `head <= tail`, at most a ring's worth of words
/// between them, and an event count (`tail_seq`) that the words up to
/// `tail` can hold. Read head, tail, count, then tail and head again, so
/// that a live writer's progress between the loads cannot fail a check.
fn check_ring_header(region: &Region, g: &Geometry, i: usize) -> Result<(), String> {
    let w = region.words();
    let field = |f: usize| &w[g.ring_header_word(i, f)];
    let head0 = field(ring_header::HEAD).load(Ordering::Acquire);
    let tail0 = field(ring_header::TAIL).load(Ordering::Acquire);
    let seq = field(ring_header::TAIL_SEQ).load(Ordering::Acquire);
    let tail1 = field(ring_header::TAIL).load(Ordering::Acquire);
    let head1 = field(ring_header::HEAD).load(Ordering::Acquire);
    let ring = format!("ring {i} header");
    if tail1 > MAX_POSITION {
        return Err(format!(
            "{ring}: tail {tail1} is past any position a writer reaches"
        ));
    }
    if head0 > tail0 {
        return Err(format!("{ring}: head {head0} is past tail {tail0}"));
    }
    if tail0 - head1.min(tail0) > g.ring_words as u64 {
        return Err(format!(
            "{ring}: head {head1} is more than the ring's {} words behind tail {tail0}",
            g.ring_words
        ));
    }
    // Each event takes at least MIN_EVENT_WORDS (the count may run one
    // ahead of the tail: it is stored first) ...
    let min = MIN_EVENT_WORDS as u128;
    if seq as u128 * min > tail1 as u128 + min {
        return Err(format!(
            "{ring}: tail_seq {seq} counts more events than {tail1} words can hold"
        ));
    }
    // ... and at most MAX_EVENT_WORDS, with less than one event of
    // padding per lap of the ring.
    let max = MAX_EVENT_WORDS as u128;
    let laps = tail0 as u128 / g.ring_words as u128 + 1;
    if (seq as u128 + laps) * max < tail0 as u128 {
        return Err(format!(
            "{ring}: tail_seq {seq} counts fewer events than {tail0} words hold"
        ));
    }
    let claimed = field(ring_header::CLAIMED).load(Ordering::Relaxed);
    if claimed > 1 {
        return Err(format!("{ring}: claimed is {claimed} (0 or 1)"));
    }
    Ok(())
}
