//! The scheduler loop: take a runnable process, deliver its signals, run it
//! for one slice, and decide what becomes of it.

use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use beamr_trace::{Mfa, TraceFlags, TraceTag};

use crate::code::CodeServer;
use crate::interp::{self, Outcome};
use crate::process::{Process, ProcessHandle, RegisterFile};
use crate::runtime::Runtime;
use crate::signals;
use crate::trace::probes;

pub use crate::runtime::SLICE_REDUCTIONS;

/// How one slice ended.
#[derive(Debug, PartialEq, Eq)]
pub enum SliceEnd {
    /// Back in the run queue.
    Requeued,
    /// Waiting for a signal.
    Waiting,
    /// The process exited.
    Exited,
    /// The process was not runnable (already running elsewhere or dead).
    Skipped,
}

/// Starts `n` scheduler threads for `rt`.
pub fn spawn_schedulers(rt: &Arc<Runtime>, n: usize) -> Vec<std::thread::JoinHandle<()>> {
    (1..=n)
        .map(|id| {
            let rt = rt.clone();
            std::thread::Builder::new()
                .name(format!("beamr-sched-{id}"))
                .spawn(move || {
                    rt.run_queues.register_worker(id);
                    let mut registers = RegisterFile::new();
                    while let Some(task) = rt.run_queues.next() {
                        let slice = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            run_slice(&rt, &task, &mut registers)
                        }));
                        if let Err(panic) = slice {
                            super::internal_error::end(id, task.pid, panic.as_ref());
                        }
                    }
                })
                .expect("spawn scheduler thread")
        })
        .collect()
}

/// Fires `in` or `out` for `p`, in the function it is at: the flag test
/// here, the rest out of line.
#[inline(always)]
fn running_probe(p: &mut Process, tag: TraceTag) {
    if p.trace.wants(TraceFlags::RUNNING) {
        running_traced(p, tag);
    }
}

/// [`running_probe`] past its flag test: cold, so that the scheduler
/// loop keeps its registers and layout for the untraced case.
#[cold]
#[inline(never)]
fn running_traced(p: &mut Process, tag: TraceTag) {
    let mfa = CodeServer::global()
        .function_at(p.ip.cast())
        .map(|(module, function, arity)| Mfa {
            module,
            function,
            arity,
        });
    probes::running(&mut p.trace, tag, p.pid, mfa);
}

/// Collects a process about to wait whose heap fragments (messages put in
/// its mailbox once its young generation was full) outgrew
/// [`FRAGMENTS_BEFORE_WAITING`] and four times its young generation, when
/// no X register is live.
///
/// A process collects when an allocation finds no room, so one that
/// receives without allocating (a tracer counting a flood of trace
/// messages) never collected: it kept every message it had ever been
/// sent, received or not. A process that allocates collects at its next
/// allocation long before its fragments grow this large, so the waits of
/// most processes cost one test.
fn collect_before_waiting(p: &mut Process) {
    let fragments = p.heap.fragment_words();
    if fragments > FRAGMENTS_BEFORE_WAITING
        && fragments > 4 * p.heap.young_capacity()
        && p.saved_x.is_empty()
    {
        p.collect(0, 0);
    }
}

/// Words of heap fragments a waiting process keeps without collecting.
const FRAGMENTS_BEFORE_WAITING: usize = 4096;

/// True if a process that waits in a `receive` has something to run for
/// once its signals are in: a message it has not looked at, its timer's
/// expiry, or an exit.
fn woken_to_run(p: &Process) -> bool {
    p.mailbox.has_unseen() || p.timer.fired || p.pending_exit.is_some()
}

/// Runs one slice of `handle`'s process on the register file `registers`
/// (the calling scheduler thread's).
///
/// Probes: `in` when the slice starts (after the signals waiting are
/// taken in), `out` when the process yields or waits (a process that exits
/// fires `exit` and `out_exited` instead, or `out_exiting` when its exit
/// work goes on in later slices: see [`super::exiting`]).
pub fn run_slice(
    rt: &Arc<Runtime>,
    handle: &Arc<ProcessHandle>,
    registers: &mut RegisterFile,
) -> SliceEnd {
    if !handle.state.start() {
        // Dead, or exiting with work left (see `super::exiting`).
        return super::exiting::continue_slice(rt, handle);
    }
    let mut body = handle.body.lock().unwrap_or_else(|e| e.into_inner());
    let Some(p) = body.as_mut() else {
        return SliceEnd::Skipped;
    };
    // `in` after the signals waiting are in: a trace flag set while the
    // process waited (a signal here, at once on the BEAM) covers this slice.
    loop {
        signals::deliver_signals(rt, handle, p);
        if p.waiting && !woken_to_run(p) {
            // Woken by signals that brought nothing to receive: as on the
            // BEAM, they are handled without scheduling the process in.
            if handle.state.try_wait() {
                return SliceEnd::Waiting;
            }
            continue;
        }
        p.waiting = false;
        running_probe(p, TraceTag::In);
        if let Some(reason) = p.pending_exit.take() {
            let process = body.take().expect("present");
            drop(body);
            return super::exiting::end(rt, handle, process, reason);
        }
        if let Some(e) = p.startup_error.take() {
            let trace = crate::interp::build_stacktrace(p, std::ptr::null(), &e);
            let class = e.class;
            let reason = rt.exit_reason(p, *e, trace);
            rt.log_uncaught(p, class, reason);
            let process = body.take().expect("present");
            drop(body);
            return super::exiting::end(rt, handle, process, reason);
        }
        let before = p.reductions;
        let outcome = interp::run(rt, p, registers, SLICE_REDUCTIONS);
        super::max_heap_report::report_max_heap(rt, p);
        let reductions = p.reductions.saturating_sub(before);
        rt.count_reductions(reductions);
        crate::trace::flight_hook::count_slice(&mut p.messages_in);
        match outcome {
            Outcome::Yielded => {
                running_probe(p, TraceTag::Out);
                drop(body);
                handle.state.requeue();
                rt.run_queues.push(handle.clone());
                rt.run_queues.after_slice(reductions);
                return SliceEnd::Requeued;
            }
            Outcome::Waiting => {
                running_probe(p, TraceTag::Out);
                collect_before_waiting(p);
                super::max_heap_report::report_max_heap(rt, p);
                rt.run_queues.after_slice(reductions);
                if p.pending_exit.is_some() {
                    // Killed by its max_heap_size: ended at the loop's top.
                    continue;
                }
                if handle.state.try_wait() {
                    p.waiting = true;
                    return SliceEnd::Waiting;
                }
                // A signal arrived meanwhile: take it in, as a wake-up (the
                // process is scheduled in again only if it brought
                // something to run for).
                p.waiting = true;
            }
            Outcome::Returned => {
                // Killed by its max_heap_size in its last slice: killed.
                let reason = p.pending_exit.take().unwrap_or(Term::atom(Atom::NORMAL));
                let process = body.take().expect("present");
                drop(body);
                return super::exiting::end(rt, handle, process, reason);
            }
            Outcome::Crashed { exception, trace } => {
                // A pending exit (an exit signal, `exit(self(), R)`) ended
                // the process before the exception: its reason, no report.
                let reason = match p.pending_exit.take() {
                    Some(reason) => reason,
                    None => {
                        let class = exception.class;
                        let reason = rt.exit_reason(p, exception, trace);
                        rt.log_uncaught(p, class, reason);
                        reason
                    }
                };
                let process = body.take().expect("present");
                drop(body);
                return super::exiting::end(rt, handle, process, reason);
            }
        }
    }
}
