//! `process_info`'s garbage-collection items: `garbage_collection`,
//! `garbage_collection_info`, `min_heap_size`, `min_bin_vheap_size`,
//! `max_heap_size`, `fullsweep_after`.

use super::gc_flags::max_heap_size_term;
use crate::bif::common::atoms::atom;
use beamr_core::term::Term;

use crate::process::{GcSettings, Process};

/// What the garbage-collection items report about one process.
#[derive(Clone, Copy)]
pub(super) struct GcSnapshot {
    settings: GcSettings,
    min_heap_size: u64,
    fullsweep_after: u32,
    /// Minor collections since the last major one.
    minor_gcs: u32,
    heap_block_size: usize,
    heap_size: usize,
    old_heap_block_size: usize,
    old_heap_size: usize,
    mbuf_size: usize,
    stack_size: usize,
}

impl GcSnapshot {
    /// Reads `p`'s settings and heap.
    pub(super) fn of(p: &Process) -> GcSnapshot {
        let heap = &p.heap;
        GcSnapshot {
            settings: p.gc,
            min_heap_size: heap.min_heap_size() as u64,
            fullsweep_after: heap.fullsweep_after(),
            minor_gcs: heap.minors_since_major(),
            heap_block_size: heap.young_capacity(),
            heap_size: heap.young_used(),
            old_heap_block_size: heap.old_capacity(),
            old_heap_size: heap.old_used(),
            mbuf_size: heap.fragment_words(),
            stack_size: p.stack.len(),
        }
    }

    /// `message_queue_data`: `off_heap`.
    pub(super) fn off_heap(&self) -> bool {
        self.settings.off_heap_messages
    }

    /// The value of the garbage-collection item `key`, built on `p`'s
    /// heap, or `None` when `key` is not one.
    pub(super) fn value(&self, p: &mut Process, key: &str) -> Option<Term> {
        let int = |n: u64| Term::small_unchecked(n as i64);
        let gc = &self.settings;
        Some(match key {
            "min_heap_size" => int(self.min_heap_size),
            "min_bin_vheap_size" => int(gc.min_bin_vheap_size),
            "fullsweep_after" => int(self.fullsweep_after.into()),
            "max_heap_size" => max_heap_size_term(&mut p.heap, gc.max_heap),
            "garbage_collection" => {
                let max = max_heap_size_term(&mut p.heap, gc.max_heap);
                let pairs = [
                    ("max_heap_size", max),
                    ("min_bin_vheap_size", int(gc.min_bin_vheap_size)),
                    ("min_heap_size", int(self.min_heap_size)),
                    ("fullsweep_after", int(self.fullsweep_after.into())),
                    ("minor_gcs", int(self.minor_gcs.into())),
                ];
                tagged_list(p, &pairs)
            }
            "garbage_collection_info" => {
                let words = |n: usize| int(n as u64);
                // beamr keeps no binary virtual heaps: their sizes are 0 and
                // their blocks the minimum. `recent_size` (what survived the
                // last collection) is taken as the old generation's use.
                let pairs = [
                    ("old_heap_block_size", words(self.old_heap_block_size)),
                    ("heap_block_size", words(self.heap_block_size)),
                    ("mbuf_size", words(self.mbuf_size)),
                    ("recent_size", words(self.old_heap_size)),
                    ("stack_size", words(self.stack_size)),
                    ("old_heap_size", words(self.old_heap_size)),
                    ("heap_size", words(self.heap_size)),
                    ("bin_vheap_size", int(0)),
                    ("bin_vheap_block_size", int(gc.min_bin_vheap_size)),
                    ("bin_old_vheap_size", int(0)),
                    ("bin_old_vheap_block_size", int(gc.min_bin_vheap_size)),
                ];
                tagged_list(p, &pairs)
            }
            _ => return None,
        })
    }
}

/// `[{Key, Value}]` on `p`'s heap.
fn tagged_list(p: &mut Process, pairs: &[(&str, Term)]) -> Term {
    let items: Vec<Term> = pairs
        .iter()
        .map(|&(k, v)| p.heap.tuple(&[atom(k), v]))
        .collect();
    p.heap.list(&items)
}
