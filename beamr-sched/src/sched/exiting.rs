//! A process's end across time slices: the scheduler's side of
//! [`ExitWork`](crate::process::ExitWork).
//!
//! `Runtime::terminate` does the exit work that fits in the slice in which
//! the process ends; a process with many links and monitors has work left.
//! Then, as on the BEAM, it is scheduled out (`out_exiting`), its handle
//! queued with the work in [`ProcessHandle::exit_work`], and scheduled in
//! again (`in_exiting`) by whichever scheduler takes the handle next, until
//! the last slice (`out_exited`, fired where the work ends). Its handle is
//! `EXITED` throughout, so [`StateWord::start`](crate::process::run_state::StateWord::start)
//! refuses it and the scheduler comes here instead; no `in` or `out` fires
//! for an exiting process.
//!
//! Only one scheduler holds the work at a time: it is taken out of the
//! handle under its lock, so a second queue entry for the handle (one made
//! before the process ended) finds nothing and is skipped.

use std::sync::Arc;

use beamr_core::term::Term;
use beamr_trace::TraceTag;

use super::worker::SliceEnd;
use crate::process::{ExitWork, Process, ProcessHandle};
use crate::runtime::Runtime;
use crate::trace::probes;

/// Ends `process`, just taken out of `handle`'s body, with `reason`: the
/// exit work that fits in this slice, the rest queued.
pub(super) fn end(
    rt: &Arc<Runtime>,
    handle: &Arc<ProcessHandle>,
    process: Box<Process>,
    reason: Term,
) -> SliceEnd {
    match rt.terminate(handle, process, reason) {
        None => SliceEnd::Exited,
        Some(work) => schedule_out(rt, handle, work),
    }
}

/// Runs the next slice of the exit `handle` left unfinished; skips a handle
/// with none (a dead process, or one whose work another scheduler holds).
///
/// Probe: `in_exiting` as the slice starts.
pub(super) fn continue_slice(rt: &Arc<Runtime>, handle: &Arc<ProcessHandle>) -> SliceEnd {
    let work = handle
        .exit_work
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    let Some(mut work) = work else {
        return SliceEnd::Skipped;
    };
    let pid = work.process.pid;
    probes::exiting(&mut work.process.trace, TraceTag::InExiting, pid);
    match rt.continue_exit(work) {
        None => SliceEnd::Exited,
        Some(work) => schedule_out(rt, handle, work),
    }
}

/// Keeps `work` in `handle` and queues the handle for its next slice.
///
/// Probe: `out_exiting`.
fn schedule_out(
    rt: &Arc<Runtime>,
    handle: &Arc<ProcessHandle>,
    mut work: Box<ExitWork>,
) -> SliceEnd {
    let pid = work.process.pid;
    probes::exiting(&mut work.process.trace, TraceTag::OutExiting, pid);
    *handle.exit_work.lock().unwrap_or_else(|e| e.into_inner()) = Some(work);
    rt.run_queues.push(handle.clone());
    SliceEnd::Requeued
}
