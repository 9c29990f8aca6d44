//! What a scheduler does when running a slice panicked: a bug in beamr,
//! or code that breaks what the loader takes for granted (a `.beam` whose
//! code the compiler's validator would reject). The process's state is
//! unknown and the scheduler's thread is unwinding, so it ends the OS
//! process as erts does on an internal error: a slogan on standard error,
//! exit status 1. (erts also writes a crash dump; `halt(Slogan)`'s writer
//! is in the `bif` layer, above this one.) Without this, the other
//! threads waited forever for a process that would never run again.

use std::any::Any;
use std::io::Write;

use beamr_core::term::Term;

/// Ends the OS process after scheduler `id` panicked running `pid`; the
/// panic's own message is on standard error already (the panic hook's).
pub(super) fn end(id: usize, pid: Term, panic: &(dyn Any + Send)) -> ! {
    let what = panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic");
    let pid = pid.as_local_pid().unwrap_or_default();
    let slogan = format!("beamr internal error: scheduler {id} failed running <0.{pid}.0>: {what}");
    let _ = std::io::stdout().flush();
    crate::runtime::pending_output::flush(crate::runtime::pending_output::EXIT_WAIT);
    let mut err = std::io::stderr().lock();
    let _ = write!(err, "{slogan}\r\n");
    let _ = err.flush();
    std::process::exit(1)
}
