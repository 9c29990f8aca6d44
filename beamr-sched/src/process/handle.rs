//! [`ProcessHandle`]: the part of a process other threads may touch: its
//! pid, scheduling state and inbox. The process body itself is only touched
//! by the scheduler that set it `RUNNING`.

use std::sync::Mutex;

use beamr_core::term::Term;

use super::body::Process;
use super::run_state::StateWord;
use super::signal::Signal;

/// A process as the rest of the runtime sees it.
pub struct ProcessHandle {
    /// The process's pid.
    pub pid: Term,
    /// Scheduling state (see [`super::run_state`]).
    pub state: StateWord,
    /// Signals not yet seen by the process, in arrival order.
    inbox: Mutex<Vec<Signal>>,
    /// The process; `None` once it has exited. Locked only by the scheduler
    /// running it (uncontended) and by inspection BIFs.
    pub body: Mutex<Option<Box<Process>>>,
}

impl ProcessHandle {
    /// A handle for a new process, queued to run.
    pub fn new(process: Box<Process>) -> ProcessHandle {
        ProcessHandle {
            pid: process.pid,
            state: StateWord::new_queued(),
            inbox: Mutex::new(Vec::new()),
            body: Mutex::new(Some(process)),
        }
    }

    /// Appends a signal to the inbox. Returns true if the caller must enqueue
    /// the process (it was waiting).
    #[must_use]
    pub fn push_signal(&self, signal: Signal) -> bool {
        if self.state.is_exited() {
            return false;
        }
        self.inbox
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(signal);
        self.state.notify()
    }

    /// True if no signal waits in the inbox.
    #[inline]
    pub fn inbox_is_empty(&self) -> bool {
        self.inbox
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_empty()
    }

    /// Takes every signal that has arrived, in order.
    pub fn take_signals(&self) -> Vec<Signal> {
        std::mem::take(&mut *self.inbox.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// True if signals are waiting in the inbox.
    pub fn has_signals(&self) -> bool {
        !self
            .inbox
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_empty()
    }
}
