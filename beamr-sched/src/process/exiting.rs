//! [`ExitWork`]: the exit work of a process that did not fit in one time
//! slice, kept between the slices that finish it.
//!
//! A process's end sends a signal per link and per monitor. As on the BEAM,
//! that work is cut into slices of a bounded number of reductions (one per
//! link or monitor): a process with many links is scheduled out and in
//! again while it exits (`out_exiting`, `in_exiting`), so that other
//! processes run meanwhile. `signals::exit` does the work and moves the
//! cursors; `sched` keeps an unfinished one in the handle's
//! [`exit_work`](super::ProcessHandle::exit_work) and queues the handle.
//!
//! The process is already out of the process table and its inbox is closed
//! (its handle is `EXITED`): to the rest of the runtime it is dead. Only the
//! scheduler that took the work out of the handle touches it.

use beamr_core::term::Term;

use super::body::Process;

/// What is left of one process's exit: the process (whose heap holds the
/// reason) and how far each list of links and monitors has been walked.
pub struct ExitWork {
    /// The exiting process, out of its handle's body.
    pub process: Box<Process>,
    /// Its exit reason, on its heap.
    pub reason: Term,
    /// Links already sent their exit signal (`process.links[..links]`).
    pub links: usize,
    /// Watchers already sent their `'DOWN'` (`process.monitored_by[..]`).
    pub monitored_by: usize,
    /// Monitors already taken down (`process.monitors[..monitors]`).
    pub monitors: usize,
}

impl ExitWork {
    /// The work of ending `process` with `reason`, nothing walked yet.
    pub fn new(process: Box<Process>, reason: Term) -> ExitWork {
        ExitWork {
            process,
            reason,
            links: 0,
            monitored_by: 0,
            monitors: 0,
        }
    }
}
