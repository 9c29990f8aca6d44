//! The OS signals erts handles itself, told to kernel's `erl_signal_server`
//! as erts tells it (`SIGWINCH` and `SIGCONT` only once `os:set_signal/2`
//! asked for them, see `bif::os_signal_handled`): a `SIGTERM` becomes the
//! event `sigterm`
//! (`{notify, sigterm}`, a `gen_event:notify/2`), which kernel's
//! `erl_signal_handler` answers with a logged "SIGTERM received - shutting
//! down" and `init:stop()`, so a service stopped by its supervisor (systemd,
//! a container runtime, `kill`) stops cleanly and exits 0, as on erl.
//!
//! The signals are read on a thread of their own (signal-hook's iterator,
//! whose handler only writes to a pipe). While no `erl_signal_server` runs
//! (it died, or OTP's kernel is not there), a signal does what the OS does
//! by default: it ends the runtime.

use std::sync::Arc;
use std::thread::JoinHandle;

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;
use signal_hook::consts::{SIGCONT, SIGTERM, SIGWINCH};
use signal_hook::iterator::{Handle, Signals};

use crate::runtime::Runtime;

/// The forwarding of OS signals to `erl_signal_server`, while it lasts.
pub(super) struct OsSignals {
    handle: Handle,
    thread: JoinHandle<()>,
}

impl OsSignals {
    /// Starts forwarding: from now on a `SIGTERM` is an event of
    /// `erl_signal_server`'s. None if the handler cannot be installed (the
    /// signal then keeps its default action).
    pub(super) fn start(rt: &Arc<Runtime>) -> Option<OsSignals> {
        let mut signals = Signals::new([SIGTERM, SIGWINCH, SIGCONT]).ok()?;
        let handle = signals.handle();
        let rt = rt.clone();
        let thread = std::thread::Builder::new()
            .name("beamr-os-signals".into())
            .spawn(move || {
                for signal in signals.forever() {
                    // SIGWINCH's and SIGCONT's default actions are nothing
                    // the handler could take away (SIGCONT resumes anyway).
                    if !notify(&rt, signal) && signal == SIGTERM {
                        // No one to tell: the OS's default action.
                        let _ = signal_hook::low_level::emulate_default_handler(signal);
                    }
                }
            })
            .ok()?;
        Some(OsSignals { handle, thread })
    }

    /// Stops forwarding (the runtime is halting); the signals get their
    /// default actions back.
    pub(super) fn stop(self) {
        self.handle.close();
        let _ = self.thread.join();
    }
}

/// Tells `erl_signal_server` of `signal`; false when it does not run.
fn notify(rt: &Runtime, signal: i32) -> bool {
    let name = match signal {
        SIGTERM => "sigterm",
        SIGWINCH => "sigwinch",
        SIGCONT => "sigcont",
        _ => return false,
    };
    if !crate::bif::os_signal_handled(name) {
        return false;
    }
    let (Ok(server), Ok(event), Ok(notify)) = (
        Atom::new("erl_signal_server"),
        Atom::new(name),
        Atom::new("notify"),
    ) else {
        return false;
    };
    let Some(pid) = rt.names.whereis(server) else {
        return false;
    };
    let mut heap = Heap::new();
    let message = heap.tuple(&[Term::atom(notify), Term::atom(event)]);
    rt.send(pid, message)
}
