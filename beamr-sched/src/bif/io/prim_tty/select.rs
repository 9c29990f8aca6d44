//! What stands in for `enif_select` on standard input for the prim_tty
//! NIF: once armed, a thread of its own polls descriptor 0 and, when it
//! can be read (or is at its end), sends the armed message, `{select,
//! TTY, Ref, ready_input}`, to the reader process, once. The reader's
//! `read_nif` arms it again, as erts's re-selects after each read.

use std::sync::{Condvar, LazyLock, Mutex, Weak};
use std::time::Duration;

use beamr_core::term::Term;
use rustix::event::{poll, PollFd, PollFlags, Timespec};

use crate::process::Payload;
use crate::runtime::Runtime;

/// How long one poll waits before it looks whether it is still armed.
const POLL_WAIT: Duration = Duration::from_millis(200);

/// The message to send and its receiver, and whether it is armed.
struct Armed {
    target: Option<(Term, Payload)>,
    armed: bool,
    started: bool,
}

struct Watch {
    state: Mutex<Armed>,
    wake: Condvar,
}

static WATCH: LazyLock<Watch> = LazyLock::new(|| Watch {
    state: Mutex::new(Armed {
        target: None,
        armed: false,
        started: false,
    }),
    wake: Condvar::new(),
});

fn state() -> std::sync::MutexGuard<'static, Armed> {
    WATCH
        .state
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Arms the watch to send `message` to `pid` when standard input can be
/// read (`tty_select`), starting its thread the first time.
pub fn select(rt: &Runtime, pid: Term, message: Payload) {
    let mut st = state();
    st.target = Some((pid, message));
    st.armed = true;
    if !st.started {
        if let Some(rt) = rt.weak_self.get().cloned() {
            st.started = true;
            std::thread::spawn(move || watch(&rt));
        }
    }
    WATCH.wake.notify_all();
}

/// Arms the watch again with the message it had (after a read).
pub fn rearm() {
    let mut st = state();
    if st.target.is_some() {
        st.armed = true;
        WATCH.wake.notify_all();
    }
}

/// Whether standard input can be read without waiting, now.
pub fn readable_now() -> bool {
    ready(Duration::ZERO)
}

fn ready(wait: Duration) -> bool {
    let stdin = std::io::stdin();
    let mut fds = [PollFd::new(&stdin, PollFlags::IN)];
    let timeout = Timespec::try_from(wait).ok();
    matches!(poll(&mut fds, timeout.as_ref()), Ok(n) if n > 0)
}

fn watch(rt: &Weak<Runtime>) {
    loop {
        {
            let mut st = state();
            while !st.armed {
                st = WATCH
                    .wake
                    .wait(st)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
            }
        }
        if !ready(POLL_WAIT) {
            continue;
        }
        let mut st = state();
        if !st.armed {
            continue;
        }
        st.armed = false;
        let Some(rt) = rt.upgrade() else { return };
        if let Some((pid, message)) = &st.target {
            rt.send(*pid, message.term);
        }
    }
}
