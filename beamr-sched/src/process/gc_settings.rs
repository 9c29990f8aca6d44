//! [`GcSettings`]: a process's garbage-collection settings as
//! `spawn_opt` and `process_flag` set them and `process_info` reports them
//! (`min_heap_size`, `min_bin_vheap_size`, `max_heap_size`,
//! `message_queue_data`). `fullsweep_after` lives in the heap, which acts
//! on it ([`Heap::set_fullsweep_after`](beamr_core::heap::Heap)).

/// The smallest heap the BEAM gives a process, in words (`H_MIN_SIZE`).
pub const MIN_HEAP_SIZE: u64 = beamr_core::heap::MIN_HEAP_WORDS as u64;

/// The smallest binary virtual heap, in words (`BIN_VH_MIN_SIZE`).
pub const MIN_BIN_VHEAP_SIZE: u64 = 46422;

/// A process's garbage-collection settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GcSettings {
    /// `min_bin_vheap_size`, in words.
    pub min_bin_vheap_size: u64,
    /// `max_heap_size` and what happens when it is passed.
    pub max_heap: MaxHeapSize,
    /// `message_queue_data`: `off_heap` (true) or `on_heap` (false).
    pub off_heap_messages: bool,
}

impl Default for GcSettings {
    fn default() -> GcSettings {
        GcSettings {
            min_bin_vheap_size: MIN_BIN_VHEAP_SIZE,
            max_heap: MaxHeapSize::default(),
            off_heap_messages: false,
        }
    }
}

/// `max_heap_size`: a limit in words (0: none) and its flags, checked
/// after every collection (see `process::max_heap`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaxHeapSize {
    /// The limit in words; 0 means no limit.
    pub size: u64,
    /// Kill the process when the limit is passed.
    pub kill: bool,
    /// Log an error report when the limit is passed.
    pub error_logger: bool,
    /// Count off-heap binaries towards the limit (OTP 27+).
    pub include_shared_binaries: bool,
}

impl Default for MaxHeapSize {
    fn default() -> MaxHeapSize {
        MaxHeapSize {
            size: 0,
            kill: true,
            error_logger: true,
            include_shared_binaries: false,
        }
    }
}

/// The smallest size of the BEAM's heap-size table (12, 38, then each the
/// sum of the two before plus one, and past about a million words 20%
/// growth) that is at least `words`; `words` itself past the table's end.
pub fn next_heap_size(words: u64) -> u64 {
    // `sizes[i - 1]` and `sizes[i]` of the table.
    let (mut before, mut size) = (0u64, 12u64);
    let mut i = 0;
    while size < words {
        let next = if i < 22 {
            size.checked_add(before + 1)
        } else {
            size.checked_add(size / 5)
        };
        match next {
            Some(next) => (before, size) = (size, if i == 0 { 38 } else { next }),
            None => return words,
        }
        i += 1;
    }
    size
}

/// `min_heap_size` as the BEAM stores an asked size: at least
/// [`MIN_HEAP_SIZE`], rounded up to the heap-size table.
pub fn min_heap_size(words: u64) -> u64 {
    next_heap_size(words.max(MIN_HEAP_SIZE))
}

/// `min_bin_vheap_size` as the BEAM stores an asked size: at least
/// [`MIN_BIN_VHEAP_SIZE`], rounded up to the heap-size table.
pub fn min_bin_vheap_size(words: u64) -> u64 {
    next_heap_size(words.max(MIN_BIN_VHEAP_SIZE))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heap_sizes_round_up_to_the_beams_table() {
        assert_eq!(min_heap_size(0), 233);
        assert_eq!(min_heap_size(233), 233);
        assert_eq!(min_heap_size(234), 376);
        assert_eq!(min_heap_size(1000), 1598);
        assert_eq!(min_heap_size(100_000), 121_536);
        assert_eq!(min_heap_size(1 << 40), 1_249_668_211_299);
        assert_eq!(min_bin_vheap_size(1), 46422);
        assert_eq!(min_bin_vheap_size(46423), 75113);
        assert_eq!(min_bin_vheap_size(100_000), 121_536);
    }
}
