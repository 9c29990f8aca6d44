//! [`Inbox`]: the signals other threads have sent a process and it has not
//! yet taken in, and the rule that makes a signal either seen or refused,
//! never lost, when the process exits meanwhile.

use super::run_state::StateWord;
use crate::sync::Mutex;

/// Signals sent to one process, in arrival order.
pub struct Inbox<T> {
    signals: Mutex<Vec<T>>,
}

impl<T> Default for Inbox<T> {
    fn default() -> Inbox<T> {
        Inbox {
            signals: Mutex::new(Vec::new()),
        }
    }
}

impl<T> Inbox<T> {
    fn lock(&self) -> crate::sync::MutexGuard<'_, Vec<T>> {
        self.signals.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Appends a signal for the process whose state is `state`:
    /// `Some(true)` if the caller must enqueue the process (it was
    /// waiting), `None` if it has exited (the signal is dropped). The
    /// exited state is read under the lock, which [`close`](Self::close)
    /// holds to set it: a signal is either in what `close` returns, or
    /// refused here.
    #[must_use]
    pub fn push(&self, state: &StateWord, signal: T) -> Option<bool> {
        let mut signals = self.lock();
        if state.is_exited() {
            return None;
        }
        signals.push(signal);
        drop(signals);
        Some(state.notify())
    }

    /// Marks the process exited and takes the signals it has not seen:
    /// from then on every push is refused.
    pub fn close(&self, state: &StateWord) -> Vec<T> {
        let mut signals = self.lock();
        state.exit();
        std::mem::take(&mut *signals)
    }

    /// Takes every signal that has arrived, in order.
    pub fn take(&self) -> Vec<T> {
        std::mem::take(&mut *self.lock())
    }

    /// True if no signal waits.
    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }
}
