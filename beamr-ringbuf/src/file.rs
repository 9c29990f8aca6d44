//! Opening an existing trace file for reading: mapping it read-only and
//! checking its header against its size.

use std::path::Path;
use std::sync::atomic::Ordering;

use memmap2::Mmap;

use crate::error::Error;
use crate::layout::{
    file_header, Geometry, FILE_HEADER_BYTES, MAGIC, MAX_RINGS, MAX_RING_WORDS, MIN_RING_WORDS,
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
    Ok((region, g))
}
