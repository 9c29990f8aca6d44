//! [`Region`]: a memory-mapped file seen as a slice of `AtomicU64` words.
//!
//! This is the only place the crate turns a raw mapping into Rust
//! references. Everything else reads and writes the file through the atomic
//! words this module hands out, so concurrent access by writer threads,
//! reader threads and other processes is never a data race in the Rust
//! sense (a torn *event* is detected by the ring protocol, see
//! [`crate::ring`]).
//!
//! A reader maps the file read-only and only ever loads from the words
//! (relaxed or acquire), which the standard library allows on read-only
//! memory for lock-free atomics no wider than a pointer (`std::sync::atomic`,
//! "Atomic accesses to read-only memory").

use std::ptr::NonNull;
use std::sync::atomic::AtomicU64;

use memmap2::{Mmap, MmapMut};

enum Map {
    /// A writer's mapping.
    ReadWrite(#[allow(dead_code)] MmapMut),
    /// A reader's mapping: loads only.
    ReadOnly(#[allow(dead_code)] Mmap),
}

/// A mapped file as words.
pub(crate) struct Region {
    /// Keeps the mapping alive (and unmaps it on drop).
    _map: Map,
    /// Non-null, so that the compiler knows every word's address is.
    ptr: NonNull<AtomicU64>,
    len: usize,
}

// SAFETY: the region is only accessed through `&AtomicU64`, which is Sync;
// the mapping itself is owned and unmapped once, on drop.
unsafe impl Send for Region {}
// SAFETY: as above: shared access is atomic access.
unsafe impl Sync for Region {}

impl Region {
    /// A writable region over `map`. Its length is rounded down to whole words.
    pub(crate) fn read_write(mut map: MmapMut) -> Region {
        let len = map.len() / 8;
        let ptr = Region::start(map.as_mut_ptr(), len);
        Region {
            _map: Map::ReadWrite(map),
            ptr,
            len,
        }
    }

    /// A read-only region over `map`: callers only load from its words.
    pub(crate) fn read_only(map: Mmap) -> Region {
        let len = map.len() / 8;
        let ptr = Region::start(map.as_ptr(), len);
        Region {
            _map: Map::ReadOnly(map),
            ptr,
            len,
        }
    }

    /// The first word of a mapping at `bytes` of `len` words: `bytes`
    /// itself, or a dangling, aligned pointer when there are no words (an
    /// empty mapping's address may be anything, null included), so that
    /// [`Region::words`] needs no test.
    fn start(bytes: *const u8, len: usize) -> NonNull<AtomicU64> {
        match NonNull::new(bytes.cast_mut().cast()) {
            Some(ptr) if len > 0 => ptr,
            _ => NonNull::dangling(),
        }
    }

    /// The words of the file.
    #[inline]
    pub(crate) fn words(&self) -> &[AtomicU64] {
        // SAFETY:
        // 1. `ptr` is the start of a live mapping of at least `len * 8` bytes,
        //    kept alive by `_map` for as long as `self` (the slice borrows
        //    `self`), and a mapping is page-aligned, so 8-aligned; with no
        //    words it is a dangling, aligned, non-null pointer
        //    (`Region::start`), as an empty slice needs.
        // 2. `AtomicU64` has the size and alignment of `u64` and every bit
        //    pattern is valid.
        // 3. All access to the memory goes through these atomics (no `&mut`
        //    or plain reference to the bytes exists); other processes may
        //    change the file concurrently, which atomics tolerate.
        // 4. For a read-only mapping, callers only perform atomic loads.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}
