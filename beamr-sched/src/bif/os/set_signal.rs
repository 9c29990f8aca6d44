//! `os:set_signal/2`: which OS signals erts tells kernel's
//! `erl_signal_server` of. beamr forwards `sigterm` (always, erts's
//! default `handle`), and `sigwinch` and `sigcont` once set to `handle`
//! (signals erts takes from OTP 28 on; OTP 28's prim_tty asks for both,
//! for the shell's window size and terminal modes); `boot::os_signals`
//! reads the choice with [`handled`]. Another signal erts takes raises
//! `error:{beamr_unsupported, {os, set_signal, Signal}}`; anything else is
//! `badarg`, as on erts.

use std::sync::atomic::{AtomicBool, Ordering};

use beamr_core::term::Term;

use crate::bif::common::atoms::atom;
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[("os", "set_signal", 2, set_signal)];

/// The signals erts's `os:set_signal/2` takes before OTP 28.
const ERTS_SIGNALS: &[&str] = &[
    "sighup", "sigquit", "sigabrt", "sigalrm", "sigterm", "sigusr1", "sigusr2", "sigchld",
    "sigstop", "sigtstp",
];

static SIGWINCH: AtomicBool = AtomicBool::new(false);
static SIGCONT: AtomicBool = AtomicBool::new(false);

/// Whether the signal erts names `name` is to be told to
/// `erl_signal_server`.
pub fn handled(name: &str) -> bool {
    match name {
        "sigterm" => true,
        "sigwinch" => SIGWINCH.load(Ordering::Acquire),
        "sigcont" => SIGCONT.load(Ordering::Acquire),
        _ => false,
    }
}

fn set_signal(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (Some(signal), Some(option)) = (a[0].as_atom(), a[1].as_atom()) else {
        return Err(Exception::badarg());
    };
    let handle = match option.name() {
        "handle" => true,
        "default" | "ignore" => false,
        _ => return Err(Exception::badarg()),
    };
    let since_28 = crate::code::otp_release() >= 28;
    match signal.name() {
        "sigwinch" if since_28 => SIGWINCH.store(handle, Ordering::Release),
        "sigcont" if since_28 => SIGCONT.store(handle, Ordering::Release),
        "sigterm" if handle => {}
        name if !ERTS_SIGNALS.contains(&name) => return Err(Exception::badarg()),
        _ => {
            let what = p.heap.tuple(&[atom("os"), atom("set_signal"), a[0]]);
            let reason = p.heap.tuple(&[atom("beamr_unsupported"), what]);
            return Err(Exception::error(reason));
        }
    }
    Ok(Term::atom(beamr_core::atom::Atom::OK))
}
