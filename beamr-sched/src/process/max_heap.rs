//! `max_heap_size` enforced, as the BEAM enforces it: after a garbage
//! collection, a process whose heap (both generations, heap fragments and
//! stack, and with `include_shared_binaries` the off-heap binaries it
//! references, which the report's total leaves out) is larger than its
//! limit is reported to the system logger
//! (with `error_logger`) and killed (with `kill`: exit reason `killed`,
//! which no `catch` stops). The collection only marks the process
//! ([`Process::max_heap_reached`], [`Process::pending_exit`]); the
//! scheduler logs the report and ends the process when the slice ends
//! (`sched::max_heap_report`), so a killed process runs at most the rest
//! of its slice.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use super::Process;

/// What a collection found when it passed the limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MaxHeapReached {
    /// The total the limit was checked against, in words.
    pub total: u64,
}

impl Process {
    /// The words of the heap `max_heap_size` limits (both generations,
    /// fragments, stack): the report's `Total Heap Size`.
    pub fn max_heap_total(&self) -> u64 {
        let heap = &self.heap;
        let words = heap.young_capacity() + heap.old_capacity() + heap.fragment_words();
        (words + self.stack.len()) as u64
    }

    /// The words of the off-heap binaries the process references, which
    /// `include_shared_binaries` adds to [`Process::max_heap_total`] for
    /// the check (not for the report, as on erts).
    pub(crate) fn shared_binary_words(&self) -> u64 {
        let bytes: usize = self
            .heap
            .off_heap_binary_terms()
            .into_iter()
            .filter_map(|t| Some(t.as_binary()?.byte_size()))
            .sum();
        bytes.div_ceil(8) as u64
    }

    /// Checks the limit after a collection: marks the process when it is
    /// passed (see the module doc).
    pub(crate) fn check_max_heap(&mut self) {
        let limit = self.gc.max_heap;
        if limit.size == 0 || self.pending_exit.is_some() {
            return;
        }
        let total = self.max_heap_total();
        let shared = if limit.include_shared_binaries {
            self.shared_binary_words()
        } else {
            0
        };
        if total + shared <= limit.size {
            return;
        }
        if limit.error_logger {
            self.max_heap_reached = Some(MaxHeapReached { total });
        }
        if limit.kill {
            self.pending_exit = Some(Term::atom(Atom::KILLED));
        }
    }
}
