//! Timers as signals: the `receive ... after` timeout and the messages of
//! `erlang:send_after`/`start_timer` reach a process through its inbox.

use std::time::Duration;

use crate::process::{Process, Signal};
use crate::runtime::{Runtime, TimerAction};

impl Runtime {
    /// Starts a `receive ... after` timer for `p`.
    pub fn start_receive_timer(&self, p: &mut Process, after: Duration) {
        p.timer.generation += 1;
        p.timer.active = true;
        p.timer.fired = false;
        let (pid, generation) = (p.pid, p.timer.generation);
        self.timers
            .start(after, |_| TimerAction::ReceiveTimeout { pid, generation });
    }

    /// Carries out a fired timer.
    pub fn fire_timer(&self, action: TimerAction) {
        match action {
            TimerAction::ReceiveTimeout { pid, generation } => {
                self.send_signal(pid, Signal::Timeout { generation });
            }
            TimerAction::Send { to, message } => {
                let pid = match to.as_atom() {
                    Some(name) => self.names.whereis(name),
                    None => Some(to),
                };
                if let Some(pid) = pid {
                    self.send_signal(pid, Signal::Message(message, None));
                }
            }
        }
    }
}
