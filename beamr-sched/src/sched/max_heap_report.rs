//! The report of a process a collection found past its `max_heap_size`
//! (`process::max_heap`), logged by the scheduler when the slice ends, in
//! erts's words for the release that runs.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::process::Process;
use crate::runtime::Runtime;

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
