//! `max_heap_size` enforced, as the BEAM enforces it: after a garbage
//! collection, a process whose heap (both generations, heap fragments and
//! stack, and with `include_shared_binaries` the off-heap binaries it
//! references, which the report's total leaves out) is larger than its
//! limit is reported to the system logger
//! (with `error_logger`) and killed (with `kill`: exit reason `killed`,
//! which no `catch` stops). The collection only marks the process
//! ([`Process::max_heap_reached`], [`Process::pending_exit`]); the
//! scheduler logs the report and ends the process when the slice ends
//! ([`report_max_heap`]), so a killed process runs at most the rest of
//! its slice.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use super::Process;
use crate::runtime::Runtime;

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
    fn shared_binary_words(&self) -> u64 {
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

/// The report erts logs (OTP 27 added the stack trace).
const FORMAT_25: &str = "     Process:            ~p ~n     Context:            maximum heap size reached~n     Max Heap Size:      ~p~n     Total Heap Size:    ~p~n     Kill:               ~p~n     Error Logger:       ~p~n     Message Queue Len:  ~p~n     GC Info:            ~p~n";
const FORMAT_27: &str = "     Process:            ~p ~n     Context:            maximum heap size reached~n     Max Heap Size:      ~p~n     Total Heap Size:    ~p~n     Kill:               ~p~n     Error Logger:       ~p~n     Message Queue Len:  ~p~n     GC Info:            ~p~n     Stacktrace:         ~p~n";
const FORMAT_REGISTERED_25: &str = "     Process:            ~p registered as ~p ~n     Context:            maximum heap size reached~n     Max Heap Size:      ~p~n     Total Heap Size:    ~p~n     Kill:               ~p~n     Error Logger:       ~p~n     Message Queue Len:  ~p~n     GC Info:            ~p~n";
const FORMAT_REGISTERED_27: &str = "     Process:            ~p registered as ~p ~n     Context:            maximum heap size reached~n     Max Heap Size:      ~p~n     Total Heap Size:    ~p~n     Kill:               ~p~n     Error Logger:       ~p~n     Message Queue Len:  ~p~n     GC Info:            ~p~n     Stacktrace:         ~p~n";

/// Logs the report of a process a collection found past its
/// `max_heap_size`, if one did (see the module doc).
pub(crate) fn report_max_heap(rt: &Runtime, p: &mut Process) {
    let Some(reached) = p.max_heap_reached.take() else {
        return;
    };
    let newer = crate::code::otp_release() >= 27;
    let format = match (p.registered_name.is_some(), newer) {
        (false, false) => FORMAT_25,
        (false, true) => FORMAT_27,
        (true, false) => FORMAT_REGISTERED_25,
        (true, true) => FORMAT_REGISTERED_27,
    };
    let limit = p.gc.max_heap;
    let info = gc_info(p);
    let queue = p.mailbox.len() as i64;
    let name = p.registered_name;
    let pid = p.pid;
    rt.log_emulator_format(pid, Some(p.group_leader), format, |heap| {
        let mut args = vec![pid];
        if let Some(name) = name {
            args.push(Term::atom(name));
        }
        args.push(heap.int(limit.size as i64));
        args.push(heap.int(reached.total as i64));
        args.push(Term::bool(limit.kill));
        args.push(Term::bool(limit.error_logger));
        args.push(heap.int(queue));
        let pairs: Vec<Term> = info
            .iter()
            .map(|&(key, value)| {
                let key = Term::atom(Atom::new(key).expect("atom"));
                let value = heap.int(value as i64);
                heap.tuple(&[key, value])
            })
            .collect();
        args.push(heap.list(&pairs));
        if newer {
            // The stack trace erts takes at the collection; beamr's
            // collection does not keep one, so the list is empty.
            args.push(Term::NIL);
        }
        heap.list(&args)
    });
}

/// The figures of erts's `GC Info`, in its order, from beamr's heap.
fn gc_info(p: &Process) -> [(&'static str, u64); 11] {
    let heap = &p.heap;
    let w = |n: usize| n as u64;
    let binaries = p.shared_binary_words();
    let vheap_block = p.gc.min_bin_vheap_size;
    [
        ("old_heap_block_size", w(heap.old_capacity())),
        ("heap_block_size", w(heap.young_capacity())),
        ("mbuf_size", w(heap.fragment_words())),
        ("recent_size", w(heap.old_used())),
        ("stack_size", w(p.stack.len())),
        ("old_heap_size", w(heap.old_used())),
        ("heap_size", w(heap.young_used())),
        ("bin_vheap_size", binaries),
        ("bin_vheap_block_size", vheap_block),
        ("bin_old_vheap_size", 0),
        ("bin_old_vheap_block_size", vheap_block),
    ]
}
