//! The runtime-wide totals of garbage collection that
//! `erlang:statistics(garbage_collection)` reports: collections done and
//! words reclaimed, over every heap since the OS process started.

use std::sync::atomic::{AtomicU64, Ordering};

static COLLECTIONS: AtomicU64 = AtomicU64::new(0);
static WORDS_RECLAIMED: AtomicU64 = AtomicU64::new(0);

/// Counts one collection that reclaimed `words`.
pub(super) fn record(words: u64) {
    COLLECTIONS.fetch_add(1, Ordering::Relaxed);
    WORDS_RECLAIMED.fetch_add(words, Ordering::Relaxed);
}

/// Collections done and words reclaimed so far, over every heap.
pub fn totals() -> (u64, u64) {
    (
        COLLECTIONS.load(Ordering::Relaxed),
        WORDS_RECLAIMED.load(Ordering::Relaxed),
    )
}
