//! [`ProcessHandle`]: the part of a process other threads may touch: its
//! pid, scheduling state and inbox. The process body itself is only touched
//! by the scheduler that set it `RUNNING`.

use std::sync::Mutex;

use beamr_core::term::Term;

use super::signal::{Payload, Signal};
use super::state::Process;
use super::state_bits::StateWord;

/// A process as the rest of the runtime sees it.
pub struct ProcessHandle {
    /// The process's pid.
    pub pid: Term,
    /// Scheduling state (see [`super::state_bits`]).
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

    /// Sends a message: copies `message` straight onto the receiver's heap
    /// and into its mailbox when nobody holds the process (it is waiting or
    /// queued) and no earlier signal waits in its inbox, as the BEAM does when
    /// it can take the receiver's main lock; otherwise queues it as a
    /// [`Signal::Message`] on a heap of its own. Returns true if the caller
    /// must enqueue the process (it was waiting).
    ///
    /// The direct path saves the message heap's allocation, its absorption
    /// into the receiver and the collection of the fragment. It keeps the
    /// order of signals between two processes: a message goes past the inbox
    /// only when the inbox is empty, and the sender's earlier signals are
    /// either delivered already or in the inbox.
    #[must_use]
    pub fn send_message(&self, message: Term) -> bool {
        if self.state.is_exited() {
            return false;
        }
        if let Ok(mut body) = self.body.try_lock() {
            if let Some(p) = body.as_mut() {
                if self.inbox_is_empty() {
                    let term = p.heap.copy_term(message);
                    p.mailbox.push(term);
                    drop(body);
                    return self.state.notify();
                }
            }
        }
        self.push_signal(Signal::Message(Payload::copy(message)))
    }

    #[inline]
    fn inbox_is_empty(&self) -> bool {
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
