//! [`ProcessHandle`]: the part of a process other threads may touch: its
//! pid, scheduling state and inbox. The process body itself is only touched
//! by the scheduler that set it `RUNNING`.

use std::sync::Mutex;

use beamr_core::term::Term;

use super::body::Process;
use super::exiting::ExitWork;
use super::inbox::Inbox;
use super::run_state::StateWord;
use super::signal::Signal;

/// A process as the rest of the runtime sees it.
pub struct ProcessHandle {
    /// The process's pid.
    pub pid: Term,
    /// Scheduling state (see [`super::run_state`]).
    pub state: StateWord,
    /// Signals not yet seen by the process, in arrival order.
    inbox: Inbox<Signal>,
    /// The process; `None` once it has exited. Locked only by the scheduler
    /// running it (uncontended) and by inspection BIFs.
    pub body: Mutex<Option<Box<Process>>>,
    /// The exit work left when the process's end did not fit in one slice
    /// (see [`super::exiting`]); `None` otherwise. Taken by the scheduler
    /// that runs the next slice of it.
    pub exit_work: Mutex<Option<Box<ExitWork>>>,
}

impl ProcessHandle {
    /// A handle for a new process, queued to run.
    pub fn new(process: Box<Process>) -> ProcessHandle {
        ProcessHandle {
            pid: process.pid,
            state: StateWord::new_queued(),
            inbox: Inbox::default(),
            body: Mutex::new(Some(process)),
            exit_work: Mutex::new(None),
        }
    }

    /// Appends a signal to the inbox: `Some(true)` if the caller must
    /// enqueue the process (it was waiting), `None` if it has exited (the
    /// signal is dropped; see [`Inbox::push`]).
    #[must_use]
    pub fn push_signal(&self, signal: Signal) -> Option<bool> {
        self.inbox.push(&self.state, signal)
    }

    /// Marks the process exited and takes the signals it has not seen:
    /// from now on every push is refused.
    pub fn close_inbox(&self) -> Vec<Signal> {
        self.inbox.close(&self.state)
    }

    /// True if no signal waits in the inbox.
    #[inline]
    pub fn inbox_is_empty(&self) -> bool {
        self.inbox.is_empty()
    }

    /// Takes every signal that has arrived, in order.
    pub fn take_signals(&self) -> Vec<Signal> {
        self.inbox.take()
    }

    /// True if signals are waiting in the inbox.
    pub fn has_signals(&self) -> bool {
        !self.inbox.is_empty()
    }
}
